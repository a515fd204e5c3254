import Foundation
import Testing

/// Every format, through the built binary, judged by its reference tool: `tplayer -w` writes
/// exactly what the reference decoder writes, three tracks cut from one sweep join without a gap,
/// a list of mixed formats goes into one file converted (never written under the wrong header),
/// and `--check` finds what is wrong.
@Suite(.timeLimit(.minutes(10)))
struct FormatTests {
    /// A 6-second sweep (44.1 kHz stereo) and three tracks cut from it, each encoded as `format`.
    static func sweep(_ format: String, in folder: URL) throws -> (whole: String, tracks: [String]) {
        let whole = folder.appendingPathComponent("sweep.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", whole, "synth", "6", "sine", "200:3000", "gain", "-6"])
        var tracks: [String] = []
        for (index, (start, length)) in [(0.0, 1.7), (1.7, 2.3), (4.0, 2.0)].enumerated() {
            let part = folder.appendingPathComponent("part\(index).wav").path
            try Harness.run("/usr/bin/sox", [whole, part, "trim", "\(start)", "\(length)"])
            let out = folder.appendingPathComponent("part\(index).\(format)").path
            try encode(part, to: out, format: format)
            tracks.append(out)
        }
        return (whole, tracks)
    }

    /// `wav` encoded as `format` by the format's reference encoder.
    static func encode(_ wav: String, to out: String, format: String) throws {
        let result: Harness.Result
        switch format {
        case "flac": result = try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", out, wav])
        case "ogg": result = try Harness.run("/usr/bin/oggenc", ["-Q", "-o", out, wav])
        case "opus": result = try Harness.run("/usr/bin/opusenc", ["--quiet", wav, out])
        default: result = try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-i", wav, "-c:a", "aac", "-b:a", "160k", out])
        }
        #expect(result.status == 0, "\(format): \(result.stderr)")
    }

    @Test func aFlacIsWrittenExactlyAsFlacDecodesIt() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", song, "synth", "3", "pinknoise", "gain", "-6"])
        let ours = folder.appendingPathComponent("ours.wav").path
        let theirs = folder.appendingPathComponent("theirs.wav").path
        let result = try Harness.tplayer("-w", ours, song)
        #expect(result.status == 0, "\(result.stderr)")
        try Harness.run("/usr/bin/flac", ["-s", "-d", "-o", theirs, song])
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: ours), try Harness.pcm(ofWAV: theirs)))
    }

    /// FLAC is lossless: the three tracks written back to back are the uncut sweep, sample for
    /// sample: nothing added or lost at the joins.
    @Test func threeFlacTracksJoinIntoTheUncutSweep() throws {
        let folder = try Harness.temporaryFolder()
        let (whole, tracks) = try Self.sweep("flac", in: folder)
        let out = folder.appendingPathComponent("joined.wav").path
        let result = try Harness.tplayer(["-q", "-w", out] + tracks)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: out), try Harness.pcm(ofWAV: whole)))
    }

    /// An MP3 at 44.1 kHz, then a FLAC at 48 kHz mono, into one file: the file keeps the first
    /// song's format and the FLAC is resampled and mixed to it (its length kept, its tone too),
    /// not written verbatim under the wrong header.
    @Test func aMixedListGoesIntoOneFileInTheFirstSongsFormat() throws {
        let folder = try Harness.temporaryFolder()
        let mp3 = try Harness.makeSong(seconds: 1, in: folder, name: "first.mp3")
        let flac = folder.appendingPathComponent("second.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "1", "-b", "16", flac, "synth", "2", "sine", "1000", "gain", "-6"])
        let out = folder.appendingPathComponent("mixed.wav").path
        let result = try Harness.tplayer("-q", "-w", out, mp3, flac)
        #expect(result.status == 0, "\(result.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: out)).prefix(44)
        #expect(Harness.littleEndian32(header, 24) == 44100, "the file's rate is the first song's")
        let first = try Harness.pcm(ofWAV: try Self.written([mp3], in: folder)).count / 4
        let pcm = try Harness.pcm(ofWAV: out)
        let second = pcm.count / 4 - first
        #expect(abs(second - 2 * 44100) <= 2, "the FLAC's 2 s are 2 s at 44.1 kHz: \(second) frames")
        // Its 1 kHz tone: 1,000 rising zero crossings a second in the left channel.
        let left = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let tail = Array(left[(first + 4410)..<(first + 4410 + 44100)])
        let rises = (1..<tail.count).filter { tail[$0 - 1] < 0 && tail[$0] >= 0 }.count
        #expect(abs(rises - 1000) <= 1, "\(rises) rises in a second")
    }

    @Test func checkSaysWhatIsWrongInAFlacAndWhere() throws {
        let folder = try Harness.temporaryFolder()
        let good = folder.appendingPathComponent("good.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", good, "synth", "4", "pinknoise", "gain", "-6"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        try Data(bytes.prefix(bytes.count * 3 / 4)).write(to: folder.appendingPathComponent("cut.flac"))
        // 16 bytes in the middle of the audio: a frame there fails its CRC or cannot be parsed.
        var damaged = bytes
        for index in (bytes.count / 2)..<(bytes.count / 2 + 16) { damaged[index] ^= 0xA5 }
        try Data(damaged).write(to: folder.appendingPathComponent("damaged.flac"))
        // Every frame good, the MD5 signature in the STREAMINFO (after fLaC and the block's
        // header, 18 bytes in) wrong.
        var signed = bytes
        signed[26] ^= 0xFF
        try Data(signed).write(to: folder.appendingPathComponent("signed.flac"))
        let result = try Harness.tplayer(["--check", good] + ["cut", "damaged", "signed"].map { folder.appendingPathComponent("\($0).flac").path })
        #expect(result.status == 65)
        let line = { (name: String) in result.stderrLines.first { $0.contains("/\(name).flac") } ?? "" }
        #expect(line("cut").contains("damaged at 0:0") && line("cut").hasSuffix("the file ends there, but its header says 0:04.00; was it cut short?"), "\(line("cut"))")
        #expect(line("damaged").contains(": damaged from 0:01.") || line("damaged").contains(": damaged from 0:02."), "\(line("damaged"))")
        #expect(line("damaged").hasSuffix(", skipped"), "\(line("damaged"))")
        #expect(line("signed").hasSuffix(": damaged at 0:04.00: the decoded audio does not match the MD5 signature in its STREAMINFO"), "\(line("signed"))")
        #expect(!result.stderr.contains("good.flac"))
    }

    /// `tplayer -w` of `songs` into a new file; its path.
    static func written(_ songs: [String], in folder: URL) throws -> String {
        let out = folder.appendingPathComponent("written-\(UUID().uuidString).wav").path
        try Harness.tplayer(["-q", "-w", out] + songs)
        return out
    }
}
