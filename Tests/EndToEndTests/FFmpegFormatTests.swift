import Foundation
import Testing

/// The formats FFmpeg plays, through the built binary, judged by the ffmpeg command: `-w` writes
/// what ffmpeg decodes (up to an MP4's declared end), three AAC tracks cut from one sweep join
/// without priming or padding at the joins, a file nothing else knows plays when FFmpeg is sure
/// of it, and `--check` says where an AAC file is damaged.
@Suite(.timeLimit(.minutes(10)))
struct FFmpegFormatTests {
    /// The 16-bit samples of `data` (little-endian).
    static func samples(_ data: Data) -> [Int16] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// What `ffmpeg -i song -f s16le -acodec pcm_s16le` writes.
    static func ffmpeg(_ song: String) throws -> Data {
        let raw = song + ".ffmpeg.raw"
        let result = try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-i", song, "-f", "s16le", "-acodec", "pcm_s16le", raw])
        #expect(result.status == 0)
        return try Data(contentsOf: URL(fileURLWithPath: raw))
    }

    @Test func anAACIsWrittenAsTheFFmpegCommandDecodesItToItsDeclaredEnd() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("noise.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "3.01", "pinknoise", "gain", "-6"])
        let song = folder.appendingPathComponent("song.m4a").path
        try FormatTests.encode(wav, to: song, format: "m4a")
        let ours = folder.appendingPathComponent("ours.wav").path
        let result = try Harness.tplayer("-q", "-w", ours, song)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try Harness.pcm(ofWAV: ours)
        let reference = try Self.ffmpeg(song)
        // The source's length to the frame; ffmpeg 5.1 goes on into the encoder's padding.
        #expect(written.count == 144_480 * 4)
        #expect(Harness.samePCM(written, reference.prefix(written.count)))
    }

    /// Each track ends where its source did and starts with its first sample: back to back they
    /// are as long as the uncut sweep, the same as each decoded alone, and each lies on the sweep
    /// to the very frame (one frame off errs four times as much inside a track, 1.5 times at a join,
    /// where the codec errs most).
    @Test func threeAACTracksJoinWithoutAGap() throws {
        let folder = try Harness.temporaryFolder()
        let (whole, tracks) = try FormatTests.sweep("m4a", in: folder)
        let out = folder.appendingPathComponent("joined.wav").path
        let result = try Harness.tplayer(["-q", "-w", out] + tracks)
        #expect(result.status == 0, "\(result.stderr)")
        let joined = Self.samples(try Harness.pcm(ofWAV: out))
        let source = Self.samples(try Harness.pcm(ofWAV: whole))
        #expect(joined.count == source.count, "\(joined.count / 2) frames written for \(source.count / 2)")
        var alone: [Int16] = []
        for track in tracks { alone += Self.samples(try Harness.pcm(ofWAV: try FormatTests.written([track], in: folder))) }
        #expect(joined == alone)
        // Within each track, and across each join, the sweep itself is the closest match.
        func error(at frame: Int, shift: Int) -> Double {
            let range = (frame - 1000)..<(frame + 1000)
            let sum = range.reduce(0.0) { total, index in
                let difference = Double(joined[(index + shift) * 2]) - Double(source[index * 2])
                return total + difference * difference
            }
            return (sum / Double(range.count)).squareRoot()
        }
        // At the joins themselves the codec errs most (each track's edge is a cut), but less
        // than a frame's shift would.
        for (frame, margin) in [(0.8, 4.0), (1.7, 1.5), (2.9, 4.0), (4.0, 1.5), (5.0, 4.0)].map({ (Int($0.0 * 44100), $0.1) }) {
            let on = error(at: frame, shift: 0)
            let off = min(error(at: frame, shift: -1), error(at: frame, shift: 1))
            #expect(on * margin < off, "at frame \(frame): \(on) on the sweep, \(off) one frame off")
        }
    }

    @Test func aFileOnlyFFmpegKnowsPlaysAndTextIsStillRefused() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440", "gain", "-6"])
        let ac3 = folder.appendingPathComponent("song.ac3").path
        try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-i", wav, "-c:a", "ac3", ac3])
        let text = folder.appendingPathComponent("notes.mp3").path
        try Data((1...5000).map { "line \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: text))
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer("-q", "-w", out, ac3)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: out), try Self.ffmpeg(ac3)))
        let refused = try Harness.tplayer("-q", "-w", folder.appendingPathComponent("none.wav").path, text)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("notes.mp3: not an audio format tplayer plays ("), "\(refused.stderr)")
    }

    @Test func checkSaysWhereAnAACIsDamaged() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("noise.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "4", "pinknoise", "gain", "-6"])
        let good = folder.appendingPathComponent("good.m4a").path
        try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-i", wav, "-c:a", "aac", "-movflags", "+faststart", good])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        try Data(bytes.prefix(bytes.count * 3 / 4)).write(to: folder.appendingPathComponent("cut.m4a"))
        for index in (bytes.count / 2)..<(bytes.count / 2 + 2000) { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919) }
        try Data(bytes).write(to: folder.appendingPathComponent("damaged.m4a"))
        let result = try Harness.tplayer("--check", good, folder.appendingPathComponent("cut.m4a").path,
                                         folder.appendingPathComponent("damaged.m4a").path)
        #expect(result.status == 65)
        let cut = result.stderrLines.first { $0.contains("cut.m4a") } ?? ""
        #expect(cut.contains("damaged at 0:0") && cut.hasSuffix("the file ends there, but its header says 0:04.00; was it cut short?"), "\(cut)")
        let damaged = result.stderrLines.first { $0.contains("damaged.m4a") } ?? ""
        #expect(damaged.contains("0:01") || damaged.contains("0:02"), "\(damaged)")
        #expect(!result.stderr.contains("good.m4a"))
    }
}
