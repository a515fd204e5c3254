import Foundation
import Glibc
import Testing

/// Streams that are not what they should be: damaged, changing format partway, an output that
/// cannot be finished. Compared with `mpg123 -w` where mpg123 is the reference.
@Suite(.timeLimit(.minutes(10))) struct StreamTests {
    /// An MP3 with its ID3 and LAME/Xing tags stripped (lame -t), so two can be joined into one
    /// stream that changes format partway.
    static func bareSong(seconds: Double, rate: Int, channels: Int, bitrate: Int, in folder: URL, name: String) throws -> String {
        let wav = folder.appendingPathComponent("\(name).wav").path
        let mp3 = folder.appendingPathComponent("\(name).mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav,
                                         "synth", "\(seconds)", "sine", "\(200 + rate / 100)", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-t", "-b", "\(bitrate)", wav, mp3])
        return mp3
    }

    static func join(_ parts: [String], as name: String, in folder: URL) throws -> String {
        let joined = folder.appendingPathComponent(name)
        try Data(parts.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }.joined()).write(to: joined)
        return joined.path
    }

    /// Rate and channels from a WAV header.
    static func format(ofWAV path: String) throws -> (rate: Int, channels: Int) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let channels = Int(bytes[22]) | Int(bytes[23]) << 8
        return (Int(Harness.littleEndian32(bytes, 24)), channels)
    }

    static func samples(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test(arguments: [(22050, 1, 64), (44100, 1, 96), (32000, 2, 128)])
    func aStreamThatChangesFormatPartwayKeepsTheFilesFirstFormat(rate: Int, channels: Int, bitrate: Int) throws {
        let folder = try Harness.temporaryFolder()
        let first = try Self.bareSong(seconds: 2, rate: 44100, channels: 2, bitrate: 128, in: folder, name: "first")
        let second = try Self.bareSong(seconds: 2, rate: rate, channels: channels, bitrate: bitrate, in: folder, name: "second")
        let frank = try Self.join([first, second], as: "frank.mp3", in: folder)
        let out = folder.appendingPathComponent("frank.wav").path
        let result = try Harness.tplayer("-q", "-w", out, frank)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.format(ofWAV: out) == (44100, 2), "the file keeps the first format")
        // The same as the two halves played as two songs (the second converted to the first's
        // format), to within the resampler's rounding, and exactly the first half.
        let apart = folder.appendingPathComponent("apart.wav").path
        try Harness.tplayer("-q", "-w", apart, first, second)
        let joined = Self.samples(try Harness.pcm(ofWAV: out))
        let separate = Self.samples(try Harness.pcm(ofWAV: apart))
        #expect(joined.count == separate.count, "no sample lost or added: \(joined.count) vs \(separate.count)")
        let reference = Self.samples(try Harness.referenceDecode([first], in: folder))
        #expect(Array(joined.prefix(reference.count)) == reference)
        // A resampler that starts mid-stream may be a fraction of a sample out of phase with
        // one that starts fresh: the same audio, within a few percent.
        let error = zip(joined, separate).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        let power = separate.reduce(0.0) { $0 + pow(Double($1), 2) }
        #expect(error / power < 0.01, "the converted part is not the same audio: \(error / power)")
    }

    /// However short the first part, it is kept, in its format, and the rest converted to it:
    /// libmpg123 hands the last bytes before a change together with the change, and a first
    /// part under a second can be all of them.
    @Test(arguments: [(0.26, 1, 44100, 2), (0.5, 1, 44100, 2), (0.3, 2, 11025, 1)])
    func aShortFirstPartIsKeptInItsFormat(seconds: Double, channels: Int, laterRate: Int, laterChannels: Int) throws {
        let folder = try Harness.temporaryFolder()
        let first = try Self.bareSong(seconds: seconds, rate: 44100, channels: channels, bitrate: 64 * channels, in: folder, name: "first")
        let later = try Self.bareSong(seconds: 3, rate: laterRate, channels: laterChannels, bitrate: laterRate < 16000 ? 8 : 128,
                                      in: folder, name: "later")
        let frank = try Self.join([first, later], as: "frank.mp3", in: folder)
        let out = folder.appendingPathComponent("frank.wav").path
        let result = try Harness.tplayer("-q", "-w", out, frank)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.format(ofWAV: out) == (44100, channels), "the file keeps the first part's format")
        let apart = folder.appendingPathComponent("apart.wav").path
        try Harness.tplayer("-q", "-w", apart, first, later)
        let joined = Self.samples(try Harness.pcm(ofWAV: out))
        let separate = Self.samples(try Harness.pcm(ofWAV: apart))
        // Within one frame: a resampler started mid-stream may round the length the other way.
        let slack = laterRate == 44100 ? 0 : channels
        #expect(abs(joined.count - separate.count) <= slack, "no sample lost or added: \(joined.count) vs \(separate.count)")
        let reference = Self.samples(try Harness.referenceDecode([first], in: folder))
        #expect(reference.count > 0 && Array(joined.prefix(reference.count)) == reference, "the first part, exactly")
    }

    /// A 10 s song with a run of bytes (zeros, or junk right after a frame header) written over
    /// it at `offset`.
    static func damaged(_ kind: String, at offset: Int, length: Int, in folder: URL) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Harness.songs[2]))
        var start = offset
        if kind == "junk" {
            // Right after the next frame header (a sync word), so the frame itself is garbage.
            while start + 1 < bytes.count, !(bytes[start] == 0xFF && bytes[start + 1] & 0xE0 == 0xE0) { start += 1 }
            start += 4
        }
        let run = (0..<length).map { kind == "zeros" ? 0 : UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        bytes.replaceSubrange(start..<min(start + length, bytes.count), with: run)
        let path = folder.appendingPathComponent("\(kind)-\(offset)-\(length).mp3").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Damage of any length is skipped and the song plays on to its end, as `mpg123
    /// --resync-limit -1` (and cmus and mpv) do; the span is said once. None of these makes
    /// mpg123 see a false frame, so the output is exactly mpg123's.
    @Test(arguments: [("zeros", 15_000, 1500), ("zeros", 92_777, 1500), ("zeros", 59_444, 3000),
                      ("junk", 37_222, 1100), ("junk", 103_888, 1500), ("junk", 170_554, 3000), ("zeros", 60_000, 40_000)])
    func aDamagedSongPlaysOnPastTheDamageWithOneLineSayingWhatWasSkipped(kind: String, offset: Int, length: Int) throws {
        let folder = try Harness.temporaryFolder()
        let song = try Self.damaged(kind, at: offset, length: length, in: folder)
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, song, Harness.songs[0])
        #expect(result.status == 1, "a damaged song makes the exit status 1")
        #expect(result.stderrLines.count == 1)
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: \(song): damaged from 0:"), "\(line)")
        #expect(line.hasSuffix(", skipped"), "\(line)")
        // Nothing lost but the span: the song as a clean decode gives it up to the damage, and
        // from the damage on the same as the clean decode's end (then the next song whole).
        let ours = try Harness.pcm(ofWAV: out)
        let clean = try Harness.referenceDecode([Harness.songs[2], Harness.songs[0]], in: folder)
        let at = Int(Double(offset) / Double(Harness.fileSize(Harness.songs[2])) * 10.8 * 44100) * 4 - 8 * 1152 * 4  // frames before it that the damage reaches back to
        let tail = 5 * 44100 * 4
        #expect(ours.prefix(at) == clean.prefix(at), "the song before the damage")
        #expect(ours.suffix(tail) == clean.suffix(tail), "the song after the damage, and the next")
        // Where mpg123 --resync-limit -1 keeps the start (damage past its first seconds, which it
        // loses), exactly what it writes.
        if offset > 90_000 {
            _ = Harness.samePCM(ours, try Harness.referenceDecode([song, Harness.songs[0]], in: folder))
        }
    }

    /// Four megabytes of zeros, as a failing disk leaves, put in mid-frame: skipped in one
    /// scan and the song plays on. libmpg123 looks for the next frame a byte at a time; through
    /// tplayer's reader that is a copy from a 64 KiB read-ahead, not a system call per byte
    /// (four million of them before: seconds of CPU).
    @Test func aLongRunOfZerosIsSkippedInAFewReads() throws {
        let folder = try Harness.temporaryFolder()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Harness.songs[2]))
        bytes.insert(contentsOf: Data(count: 4 << 20), at: 92_777)
        let song = folder.appendingPathComponent("zeros.mp3").path
        try bytes.write(to: URL(fileURLWithPath: song))
        let out = folder.appendingPathComponent("out.wav").path
        let calls = folder.appendingPathComponent("calls.txt").path
        // LeakSanitizer cannot work under ptrace: a sanitized build is run without it here.
        let result = try Harness.run("/usr/bin/strace", ["-f", "-c", "-e", "trace=read,pread64", "-o", calls,
                                                         Harness.binary, "-q", "-w", out, song],
                                     environment: ["ASAN_OPTIONS": "detect_leaks=0"])
        #expect(result.status == 1, "a damaged song makes the exit status 1")
        #expect(result.stderrLines.count == 1)
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: \(song): damaged from 0:") && line.hasSuffix(", skipped"), "\(line)")
        let table = try String(contentsOfFile: calls, encoding: .utf8)
        let total = table.split(separator: "\n").first { $0.hasSuffix(" total") }
        let count = total.flatMap { row in row.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } } ?? Int.max
        #expect(count < 2_000, "\(table)")
        let tail = 5 * 44100 * 4
        let clean = try Harness.referenceDecode([Harness.songs[2]], in: folder)
        #expect(try Harness.pcm(ofWAV: out).suffix(tail) == clean.suffix(tail), "the song after the damage")
    }

    /// 100 KB of zeros in the middle of a 40 s song at 320 kbit/s: 2.5 s skipped, said as a
    /// span; the frame the zeros cut in two leaves bytes that look like frames at 24 and 11.025
    /// kHz, which mpg123 plays as a burst of noise (and its -w file stops there): they are
    /// dropped, the song keeps its format and plays to its end.
    @Test func junkThatLooksLikeFramesOfAnotherFormatIsNeverPlayed() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("forty.wav").path
        let mp3 = folder.appendingPathComponent("forty.mp3").path
        // Without dither (-D): the same song, and the same cut, on every run. With sox's random
        // dither, about one fixture in twenty put a 30,000 spike in the frame the zeros cut in two
        // (before the damage, not the junk after it): a defect of its own, still open.
        try Harness.run("/usr/bin/sox", ["-D", "-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "40", "sine", "300", "sine", "500", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "320", wav, mp3])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: mp3))
        bytes.replaceSubrange(534_290..<634_290, with: Data(count: 100_000))
        try bytes.write(to: URL(fileURLWithPath: mp3))
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, mp3)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: \(mp3): damaged from 0:13.3") && line.hasSuffix(", skipped"), "\(line)")
        #expect(try Self.format(ofWAV: out) == (44100, 2))
        let samples = Self.samples(try Harness.pcm(ofWAV: out))
        // 40 s less the 2.51 s skipped (and the frames the zeros cut), to within a few frames.
        let seconds: Double = Double(samples.count / 2) / 44100
        let expected: Double = 40 - 2.51
        #expect(abs(seconds - expected) < 0.1, "\(seconds) s")
        // The junk decoded as audio would be loud noise beside a -6 dB tone pair: no sample
        // after the damage is beyond what the tones reach.
        let loudest: Int = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(loudest < 23_000)
        let check = try Harness.tplayer("--check", mp3)
        #expect(check.stderrLines.first?.hasPrefix("\(mp3): damaged from 0:13.3") == true)
        #expect(check.status == 65)
    }

    @Test func aFileThatCannotBeWrittenSaysWhyAndExitsOne() throws {
        let folder = try Harness.temporaryFolder()
        let tiny = try Harness.makeSong(seconds: 0.01, in: folder)
        // /dev/full refuses the header itself.
        let result = try Harness.tplayer("-q", "--force", "-w", "/dev/full", tiny)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tplayer: /dev/full: cannot write to the file: no space left on device"])
    }

    /// An APE tag at the end whose size runs past the file: libmpg123 seeks beyond the end to
    /// skip it and cannot read there. Every frame has played: that is the song's end, as in
    /// mpg123 (it was "damaged at 0:10.00: cannot read the file", exit 1).
    @Test func anAPETagThatClaimsToRunPastTheEndEndsTheSongCleanly() throws {
        let folder = try Harness.temporaryFolder()
        var song = try Data(contentsOf: URL(fileURLWithPath: Harness.songs[1]))
        func le32(_ value: UInt32) -> Data { Data((0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }) }
        for flags: UInt32 in [0xA000_0000, 0x8000_0000] {  // the header, then the footer
            if flags == 0x8000_0000 { song += le32(5) + le32(0) + Data("Title\0hello".utf8) }
            song += Data("APETAGEX".utf8) + le32(2000) + le32(0x7FFF_FFFF) + le32(1) + le32(flags) + Data(count: 8)
        }
        let path = folder.appendingPathComponent("ape.mp3").path
        try song.write(to: URL(fileURLWithPath: path))
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, path)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let reference = folder.appendingPathComponent("ref.wav").path
        try Harness.run("/usr/bin/mpg123", ["-q", "--resync-limit", "-1", "-w", reference, path])
        _ = Harness.samePCM(try Harness.pcm(ofWAV: out), try Harness.pcm(ofWAV: reference))
        let check = try Harness.tplayer("--check", path)
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }
}
