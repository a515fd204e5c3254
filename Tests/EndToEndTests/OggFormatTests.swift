import Foundation
import Testing

/// Ogg Vorbis and Opus through the built binary: `tplayer -w` writes exactly what `oggdec` and
/// `opusdec --rate 48000 --no-dither` write, three tracks cut from one sweep join as their
/// decodes do, with no gap, and `--check` says where a file is damaged.
@Suite(.timeLimit(.minutes(10)))
struct OggFormatTests {
    /// `song` decoded by its format's reference tool into `folder`; the WAV's PCM.
    static func reference(_ song: String, in folder: URL) throws -> Data {
        let out = folder.appendingPathComponent("reference-\(UUID().uuidString).wav").path
        let result = song.hasSuffix(".opus")
            ? try Harness.run("/usr/bin/opusdec", ["--quiet", "--rate", "48000", "--no-dither", song, out])
            : try Harness.run("/usr/bin/oggdec", ["-Q", "-o", out, song])
        #expect(result.status == 0, "\(result.stderr)")
        return try Harness.pcm(ofWAV: out)
    }

    static func samples(_ pcm: Data) -> [Int16] {
        pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
    }

    @Test(arguments: ["ogg", "opus"])
    func aSongIsWrittenExactlyAsItsReferenceDecodesIt(format: String) throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("noise.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "3", "pinknoise", "gain", "-3"])
        let song = folder.appendingPathComponent("song.\(format)").path
        try FormatTests.encode(wav, to: song, format: format)
        let ours = folder.appendingPathComponent("ours.wav").path
        let result = try Harness.tplayer("-q", "-w", ours, song)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: ours), try Self.reference(song, in: folder)))
    }

    /// A 9-second sweep cut into three tracks (sox `trim`), each encoded: `tplayer -w` of the three
    /// is the three reference decodes back to back, exactly as long as the sweep, and the sweep
    /// itself up to the codec's error, at the joins no more than twice what it is elsewhere.
    @Test(arguments: [("ogg", 44100), ("opus", 48000)])
    func threeTracksOfASweepJoinWithoutAGap(format: String, rate: Int) throws {
        let folder = try Harness.temporaryFolder()
        let whole = folder.appendingPathComponent("sweep.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", whole, "synth", "9", "sine", "100:2000", "gain", "-6"])
        let cuts = [(0.0, 2.5), (2.5, 3.7), (6.2, 2.8)]
        var tracks: [String] = []
        var references = Data()
        for (index, (start, length)) in cuts.enumerated() {
            let part = folder.appendingPathComponent("part\(index).wav").path
            try Harness.run("/usr/bin/sox", [whole, part, "trim", "\(start)", "\(length)"])
            let song = folder.appendingPathComponent("part\(index).\(format)").path
            try FormatTests.encode(part, to: song, format: format)
            tracks.append(song)
            references += try Self.reference(song, in: folder)
        }
        let out = folder.appendingPathComponent("joined.wav").path
        let result = try Harness.tplayer(["-q", "-w", out] + tracks)
        #expect(result.status == 0, "\(result.stderr)")
        let joined = try Harness.pcm(ofWAV: out)
        #expect(Harness.samePCM(joined, references))
        #expect(joined.count == 9 * rate * 4, "\(joined.count / 4) frames, not \(9 * rate)")
        let ours = Self.samples(joined), sweep = Self.samples(try Harness.pcm(ofWAV: whole))
        try #require(ours.count == sweep.count, "the join and the sweep are compared sample for sample")
        // The error in a 20 ms window around each join, and the worst anywhere else.
        let error = zip(ours, sweep).map { abs(Int($0) - Int($1)) }
        let joins = [Int(2.5 * Double(rate)), Int(6.2 * Double(rate))]
        let window = rate / 50
        let near = joins.map { join in error[(2 * (join - window))..<(2 * (join + window))].max() ?? 0 }
        let far = error.indices.filter { index in joins.allSatisfy { abs(index / 2 - $0) > window } }.map { error[$0] }.max() ?? 0
        let rms = (Double(error.reduce(0) { $0 + $1 * $1 }) / Double(error.count)).squareRoot()
        // Measured: Vorbis RMS 173, worst 1,688 away from the joins; Opus a track's first
        // milliseconds err up to 1.5 times the worst elsewhere (each track starts the encoder
        // afresh: the reference decodes, equal to ours, have it too). A gap or an overlap would
        // show in the length, and in the error after it (a shifted sweep: up to twice its peak).
        #expect(near.allSatisfy { $0 <= 2 * far }, "error at the joins \(near), elsewhere at most \(far)")
        #expect(rms < 250 && far < 2500, "codec error: RMS \(rms), worst \(far) (of a 16,000 peak)")
    }

    @Test(arguments: ["ogg", "opus"])
    func checkSaysWhereASongIsDamaged(format: String) throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("noise.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "6", "pinknoise", "gain", "-6"])
        let good = folder.appendingPathComponent("good.\(format)").path
        try FormatTests.encode(wav, to: good, format: format)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        bytes[bytes.count / 2] ^= 0x55
        let damaged = folder.appendingPathComponent("damaged.\(format)").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let result = try Harness.tplayer("--check", good, damaged)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(!result.stderr.contains("good.\(format)"))
        let line = result.stderrLines.first { $0.contains("damaged.\(format)") } ?? ""
        #expect(line.hasPrefix("\(damaged): damaged from 0:0") && line.hasSuffix(", skipped"), "\(line)")
    }

    /// A chained Ogg Vorbis stream whose links change channels (`cat mono.ogg stereo.ogg`):
    /// every link plays, the second converted to the first's format as a song after it would
    /// be (vorbisfile, opened seekable, was left in the last link: the first was decoded with
    /// its setup, 2 s of 4 were written, and nothing was said); links at other rates are
    /// counted at the first's rate (`--check`'s length).
    @Test func everyLinkOfAChainedStreamPlays() throws {
        let folder = try Harness.temporaryFolder()
        var links: [String] = []
        for (name, rate, channels, tone) in [("mono", 44100, 1, 300), ("stereo", 44100, 2, 600), ("low", 22050, 2, 900)] {
            let wav = folder.appendingPathComponent("\(name).wav").path
            try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav, "synth", "2", "sine", "\(tone)", "gain", "-6"])
            let song = folder.appendingPathComponent("\(name).ogg").path
            try FormatTests.encode(wav, to: song, format: "ogg")
            links.append(song)
        }
        let chain = folder.appendingPathComponent("chain.ogg").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: links[0])) + Data(contentsOf: URL(fileURLWithPath: links[1])))
            .write(to: URL(fileURLWithPath: chain))
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, chain)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let ours = Self.samples(try Harness.pcm(ofWAV: out))
        let mono = Self.samples(try Self.reference(links[0], in: folder))
        let stereo = Self.samples(try Self.reference(links[1], in: folder))
        let mixed: [Int16] = stride(from: 0, to: stereo.count - 1, by: 2).map { (index: Int) -> Int16 in
            let sum: Int = Int(stereo[index]) + Int(stereo[index + 1])
            return Int16(sum / 2)
        }
        #expect(ours.count == mono.count + mixed.count, "\(ours.count) samples of \(mono.count + mixed.count)")
        #expect(ours == mono + mixed, "the mono link as oggdec decodes it, then the stereo one mixed to mono")
        // Links at 44.1 and 22.05 kHz: 4 s, not 3 (samples of both counted at the first's rate).
        let mixedRates = folder.appendingPathComponent("rates.ogg").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: links[1])) + Data(contentsOf: URL(fileURLWithPath: links[2])))
            .write(to: URL(fileURLWithPath: mixedRates))
        let check = try Harness.tplayer("--check", chain, mixedRates)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "2 songs decoded (0:08): none damaged\n")
    }
}
