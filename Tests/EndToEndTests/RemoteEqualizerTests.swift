import Foundation
import Testing

/// `-R`'s equaliser and RVA reach the sound, as mpg123's do: `-R -w` with `EQ`, `SEQ` and
/// `EQFILE` writes what `mpg123 -R -w` writes for the same commands, sample for sample (both
/// through libmpg123's own equaliser); `RVA mix` what `mpg123 --rva-mix` writes.
@Suite(.timeLimit(.minutes(10)))
struct RemoteEqualizerTests {
    /// `commands`, then `LOAD song`, to `program -R -w out`; QUIT once the song has ended (`@P 0`),
    /// however long that takes. The file written.
    static func written(by program: String, _ commands: [String], song: String, in folder: URL, name: String) throws -> Data {
        let out = folder.appendingPathComponent("\(name).wav").path
        let replies = folder.appendingPathComponent("\(name).txt").path
        let lines = (commands + ["LOAD \(song)"]).map { "printf '%s\\n' '\($0)'" }.joined(separator: "; ")
        let script = "(\(lines); for i in $(seq 2400); do grep -q '^@P 0' '\(replies)' 2>/dev/null && break; sleep 0.05; done; "
            + "printf 'QUIT\\n') | \(program) -w '\(out)' > '\(replies)'"
        let result = try Harness.run("/bin/sh", ["-c", script], in: folder)
        #expect(result.status == 0, "\(program): \(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    static func noise(in folder: URL) throws -> String {
        let wav = folder.appendingPathComponent("noise.wav").path
        let mp3 = folder.appendingPathComponent("noise.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "3", "pinknoise", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "192", wav, mp3])
        return mp3
    }

    @Test(arguments: [["EQ 1 2 3.0", "EQ 2 5 0.25", "SEQ 0.5 1.0 1.5"], ["EQ 3 0 0", "EQ 1 31 2"], ["EQFILE eq.txt"]])
    func theEqualizerIsMpg123s(commands: [String]) throws {
        let folder = try Harness.temporaryFolder()
        let song = try Self.noise(in: folder)
        // An mpg123 equaliser file: comments, then 32 lines of left and right factors.
        let bands = (0..<32).map { band in "\(1.0 + Double(band % 5) * 0.3) \(1.0 / (1.0 + Double(band % 3)))" }
        try (["# tplayer's test", "#"] + bands).joined(separator: "\n").write(to: folder.appendingPathComponent("eq.txt"),
                                                                                atomically: true, encoding: .utf8)
        let commands = ["SILENCE"] + commands
        let theirs = try Self.written(by: "/usr/bin/mpg123 -R", commands, song: song, in: folder, name: "mpg123")
        let ours = try Self.written(by: "'\(Harness.binary)' -R", commands, song: song, in: folder, name: "tplayer")
        let flat = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE"], song: song, in: folder, name: "flat")
        #expect(theirs.count > 500_000 && ours.count == theirs.count, "\(commands): \(ours.count) bytes, mpg123 \(theirs.count)")
        #expect(ours == theirs, "\(commands): equalised as mpg123 equalises")
        #expect(ours != flat, "\(commands): the equaliser changed the sound")
    }

    /// For a FLAC (which libmpg123 does not decode) the processing stage equalises as mpg123's
    /// bands would: `SEQ 0.5 0.5 0.5` is the whole 6 dB down; `EQ 1 3 2` lifts the left's band 3.
    @Test func otherFormatsAreEqualisedInTheStage() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        let song = folder.appendingPathComponent("tone.flac").path
        let centre = Int(3.5 * 44100 / 64)  // band 3's centre, 2,411 Hz
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "\(centre)", "gain", "-12"])
        try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", song, wav])
        func level(_ data: Data, right: Bool = false) -> Double {
            let pcm = data.dropFirst(44)
            let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let side = stride(from: right ? 1 : 0, to: samples.count, by: 2).map { Double(samples[$0]) }.dropFirst(44100 / 2)
            return 20 * log10((side.reduce(0) { $0 + $1 * $1 } / Double(side.count)).squareRoot())
        }
        let flat = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE"], song: song, in: folder, name: "flat")
        let half = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE", "SEQ 0.5 0.5 0.5"], song: song, in: folder, name: "half")
        let lifted = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE", "EQ 1 3 2"], song: song, in: folder, name: "lifted")
        #expect(abs(level(half) - level(flat) + 6.02) < 0.5, "SEQ 0.5: \(level(half) - level(flat)) dB")
        #expect(abs(level(lifted) - level(flat) - 6.02) < 0.75, "EQ 1 3 2, left: \(level(lifted) - level(flat)) dB")
        #expect(abs(level(lifted, right: true) - level(flat, right: true)) < 0.1, "the right is as it was")
    }

    @Test func rvaMixIsTheTracksReplayGain() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("loud.wav").path
        let song = folder.appendingPathComponent("loud.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "3", "sine", "440", "gain", "-1"])
        try Harness.run("/usr/bin/lame", ["--quiet", "--replaygain-accurate", "-b", "192", wav, song])
        let reference = folder.appendingPathComponent("rva.wav").path
        try Harness.run("/usr/bin/mpg123", ["-q", "--rva-mix", "-w", reference, song])
        let ours = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE", "RVA mix"], song: song, in: folder, name: "tplayer")
        let plain = try Self.written(by: "'\(Harness.binary)' -R", ["SILENCE", "RVA mix", "RVA off"], song: song, in: folder, name: "off")
        #expect(ours == (try Data(contentsOf: URL(fileURLWithPath: reference))), "mpg123 --rva-mix's samples")
        #expect(ours != plain, "RVA off plays the song as decoded")
    }
}
