import Foundation
import Testing

/// `--replaygain`, judged by the reference: an MP3's gain is what `mpg123 --rva-mix` (track) and
/// `--rva-album` apply, sample for sample, whether it comes from TXXX frames or the LAME tag.
@Suite(.timeLimit(.minutes(10)))
struct ReplayGainTests {
    /// A loud tone, tagged with a track gain of -4.5 dB and an album gain of -2 dB; and the same
    /// with only the gain LAME measured itself, in its tag.
    private static func songs(in folder: URL) throws -> (tagged: String, lame: String) {
        let wav = folder.appendingPathComponent("tone.wav").path
        let tagged = folder.appendingPathComponent("tagged.mp3").path
        let lame = folder.appendingPathComponent("lame.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "gain", "-3"])
        try Harness.run("/usr/bin/lame", ["--quiet", "--tv", "TXXX=replaygain_track_gain=-4.50 dB",
                                          "--tv", "TXXX=replaygain_album_gain=-2.00 dB", wav, tagged])
        try Harness.run("/usr/bin/lame", ["--quiet", wav, lame])
        return (tagged, lame)
    }

    @Test(arguments: [("track", "--rva-mix"), ("album", "--rva-album"), ("off", nil)])
    func anMP3sGainIsWhatMpg123Applies(mode: String, mpg123Option: String?) throws {
        let folder = try Harness.temporaryFolder()
        let (tagged, lame) = try Self.songs(in: folder)
        for song in [tagged, lame] {
            let ours = folder.appendingPathComponent("ours.wav").path
            let theirs = folder.appendingPathComponent("theirs.wav").path
            let result = try Harness.tplayer("--replaygain", mode, "--force", "-w", ours, song)
            #expect(result.status == 0, "\(result.stderr)")
            try Harness.run("/usr/bin/mpg123", ["-q", "-w", theirs] + (mpg123Option.map { [$0] } ?? []) + [song])
            #expect(Harness.samePCM(try Harness.pcm(ofWAV: ours), try Harness.pcm(ofWAV: theirs)), "\(mode) \(song)")
        }
        // The gains are heard: -4.5 dB for the track is not the album's -2 dB.
        let off = try Self.rms(mode: "off", tagged, in: folder)
        let applied = try Self.rms(mode: mode, tagged, in: folder)
        let expected: Double = ["track": -4.5, "album": -2.0, "off": 0.0][mode] ?? 0
        #expect(abs(20 * log10(applied / off) - expected) < 0.05)
    }

    /// A TXXX gain libmpg123 reads as inf, nan or 1e30 (its own `atof`): the song plays as it
    /// is, untouched, and a song after it gets its own gain again (libmpg123 scaled the samples
    /// to full-scale noise, and the details' key trapped making an integer of it).
    @Test(arguments: ["inf", "nan", "1e30"])
    func anImpossibleGainIsNotApplied(gain: String) throws {
        let folder = try Harness.temporaryFolder()
        let (tagged, _) = try Self.songs(in: folder)
        let wav = folder.appendingPathComponent("tone.wav").path
        let broken = folder.appendingPathComponent("broken.mp3").path
        try Harness.run("/usr/bin/lame", ["--quiet", "--tv", "TXXX=replaygain_track_gain=\(gain)", wav, broken])
        let ours = folder.appendingPathComponent("ours.wav").path
        let result = try Harness.tplayer("--replaygain", "track", "-w", ours, broken, tagged)
        #expect(result.status == 0, "\(result.stderr)")
        let plain = folder.appendingPathComponent("plain.wav").path, gained = folder.appendingPathComponent("gained.wav").path
        try Harness.run("/usr/bin/mpg123", ["-q", "-w", plain, broken])
        try Harness.run("/usr/bin/mpg123", ["-q", "--rva-mix", "-w", gained, tagged])
        let written = try Harness.pcm(ofWAV: ours), first = try Harness.pcm(ofWAV: plain)
        #expect(Harness.samePCM(written.prefix(first.count), first), "the broken song as it is")
        #expect(Harness.samePCM(written.dropFirst(first.count), try Harness.pcm(ofWAV: gained)), "the next with its gain")
    }

    @Test func thePreampIsAddedToTheGain() throws {
        let folder = try Harness.temporaryFolder()
        let (tagged, _) = try Self.songs(in: folder)
        let track = try Self.rms(mode: "track", tagged, in: folder)
        let louder = try Self.rms(mode: "track", tagged, in: folder, extra: ["--replaygain-preamp", "2"])
        #expect(abs(20 * log10(louder / track) - 2) < 0.05)
    }

    @Test func aBadModeOrPreampIsAUsageError() throws {
        let mode = try Harness.tplayer("--replaygain", "loud", "-o", "null", Harness.songs[0])
        #expect(mode.status == 64)
        #expect(mode.stderr.contains("loud"))
        let preamp = try Harness.tplayer("--replaygain-preamp", "40", "-o", "null", Harness.songs[0])
        #expect(preamp.status == 64)
        #expect(preamp.stderrLines.first == "tplayer: --replaygain-preamp 40.0: give a number of dB from -15 to 15 (see tplayer --help)")
    }

    /// The RMS of `tplayer --replaygain MODE -w` of `song`.
    private static func rms(mode: String, _ song: String, in folder: URL, extra: [String] = []) throws -> Double {
        let out = folder.appendingPathComponent("rms.wav").path
        let result = try Harness.tplayer(["--replaygain", mode, "--force", "-w", out] + extra + [song])
        #expect(result.status == 0, "\(result.stderr)")
        let pcm = try Harness.pcm(ofWAV: out)
        let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(max(samples.count, 1))).squareRoot()
    }
}
