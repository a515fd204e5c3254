import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// FLAC through libFLAC, judged by `flac -d`: the same samples, seeks on the very sample, the
/// tags and the gain, in Ogg and behind an ID3 tag too.
struct FlacDecoderTests {
    static let make = Fixture.make

    /// The 16-bit samples of a WAV file's data chunk.
    static func samples(ofWAV path: String) throws -> [Int16] {
        let data = try dataChunk(ofWAV: path)
        return stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// The bytes of a WAV file's data chunk.
    static func dataChunk(ofWAV path: String) throws -> ArraySlice<UInt8> {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                return bytes[(offset + 8)..<min(offset + 8 + size, bytes.count)]
            }
            offset += 8 + size + (size & 1)
        }
        return []
    }

    /// Every byte of PCM the decoder gives from where it is to the end, whatever its depth.
    static func drainBytes(_ decoder: SongDecoder) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 24576)
        while true {
            let result = buffer.withUnsafeMutableBytes { decoder.read(into: $0.baseAddress!, capacity: $0.count) }
            switch result {
            case .data(let count): bytes += buffer.prefix(count)
            case .newFormat, .pending, .skipped: continue
            case .done, .damaged: return bytes
            }
        }
    }

    /// Every sample the decoder gives from where it is to the end.
    static func drain(_ decoder: SongDecoder) -> [Int16] {
        drainSayingSkips(decoder).samples
    }

    /// Every sample the decoder gives from where it is to the end, and each skip it says.
    static func drainSayingSkips(_ decoder: SongDecoder) -> (samples: [Int16], skips: [Double]) {
        var samples: [Int16] = []
        var skips: [Double] = []
        var buffer = [Int16](repeating: 0, count: 8192)
        while true {
            let result = buffer.withUnsafeMutableBytes { decoder.read(into: $0.baseAddress!, capacity: $0.count) }
            switch result {
            case .data(let bytes): samples += buffer.prefix(bytes / 2)
            case .skipped(let seconds): skips.append(seconds)
            case .newFormat, .pending: continue
            case .done, .damaged: return (samples, skips)
            }
        }
    }

    /// Where each frame of the FLAC at `path` starts in the file, from `flac -a`'s analysis.
    static func frameOffsets(_ path: String) throws -> [Int] {
        let analysis = try make("song.ana", "flac -s -a -f -o \"$0\" \"\(path)\"")
        return try String(contentsOfFile: analysis, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard line.hasPrefix("frame="), let field = line.split(separator: "\t").first(where: { $0.hasPrefix("offset=") }) else { return nil }
            return Int(field.dropFirst("offset=".count))
        }
    }

    static func decode(_ path: String) throws -> (song: OpenedSong, samples: [Int16]) {
        let decoder = SongDecoder()
        let song = try decoder.open(SongSource(Path(path)))
        return (song, drain(decoder))
    }

    static let sweep = "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 7 sine 100:5000 gain -3"

    @Test(arguments: [("16-bit stereo", "\(sweep) | flac -s -o \"$0\" -"),
                      ("in Ogg", "\(sweep) | flac -s --ogg -o \"$0\" -"),  // named .flac: the content decides
                      ("behind an ID3 tag", "\(sweep) | flac -s -o \"$0.raw\" - && printf 'ID3\\004\\000\\000\\000\\000\\000\\012abcdefghij' > \"$0\" && cat \"$0.raw\" >> \"$0\""),
                      ("mono 22.05 kHz", "sox -q -n -r 22050 -c 1 -b 16 -t wav - synth 3 sine 440 | flac -s -o \"$0\" -")])
    func theSamplesAreExactlyWhatFlacWrites(kind: String, script: String) throws {
        let song = try Self.make("song.flac", script)
        let ogg = kind == "in Ogg" ? "--ogg " : ""
        let reference = try Self.make("reference.wav", "flac -s -d \(ogg)-f -o \"$0\" \"\(song)\"")
        let (opened, samples) = try Self.decode(song)
        let expected = try Self.samples(ofWAV: reference)
        #expect(samples.count == expected.count, "\(kind)")
        #expect(samples == expected, "\(kind)")
        #expect(opened.info.totalFrames == Int64(expected.count / opened.format.channels))
        #expect(opened.info.codec?.hasPrefix("FLAC") == true)
    }

    /// A 24-bit song's samples are its own, every bit: the bytes `flac -d` writes.
    @Test func deeperSamplesKeepEveryBit() throws {
        let song = try Self.make("deep.flac", "sox -q -n -r 96000 -c 2 -b 24 -t wav - synth 2 sine 300:9000 gain -1 | flac -s -o \"$0\" -")
        let reference = try Self.make("reference.wav", "flac -s -d -f -o \"$0\" \"\(song)\"")
        let decoder = SongDecoder()
        let opened = try decoder.open(SongSource(Path(song)))
        #expect(opened.format == PCMFormat(rate: 96000, channels: 2, encoding: .s24))
        #expect(opened.info.codec == "FLAC, 24 bits")
        let bytes = Self.drainBytes(decoder)
        let expected = try Self.dataChunk(ofWAV: reference)
        #expect(bytes.count == 2 * 96000 * 2 * 3 && bytes[...] == expected)
        #expect(stride(from: 0, to: bytes.count, by: 3).contains { bytes[$0] != 0 }, "the low byte carries the song")
    }

    /// Depths, rates and channel counts, each decoded to the bytes `flac -d` writes: 8 bits
    /// unsigned, 16 as they are, 24 packed; more than two channels as they are.
    @Test(arguments: [(8, 8000, 1), (16, 8000, 2), (16, 192_000, 2), (24, 48000, 6), (16, 44100, 4), (8, 96000, 2)])
    func everyDepthRateAndChannelCountDecodes(bits: Int, rate: Int, channels: Int) throws {
        let song = try Self.make("song.flac", "sox -q -n -r \(rate) -c \(channels) -b \(bits) \"$0.wav\" synth 1.5 sine 200:3000 gain -1 "
            + "&& flac -s -o \"$0\" \"$0.wav\"")
        let reference = try Self.make("reference.wav", "flac -s -d -f -o \"$0\" \"\(song)\"")
        let decoder = SongDecoder()
        let opened = try decoder.open(SongSource(Path(song)))
        let kind = "\(bits) bits, \(rate) Hz, \(channels) channels"
        #expect(opened.format == PCMFormat(rate: rate, channels: channels, encoding: .holding(bits: bits)), "\(kind)")
        #expect(opened.info.codec == "FLAC, \(bits) bits")
        #expect(opened.info.totalFrames == Int64(rate * 3 / 2), "\(kind)")
        let expected = try Self.dataChunk(ofWAV: reference)
        let bytes = Self.drainBytes(decoder)
        #expect(bytes.count == expected.count && bytes[...] == expected, "\(kind)")
    }

    /// Damage is skipped and said once per run of damaged blocks, with about the length not
    /// heard; every other sample is as it was.
    @Test(arguments: [("a block's residual", [37], false, 0xA5), ("a block's sync code", [37], true, 0xA5),
                      ("two blocks in a row", [37, 38], false, 0xA5),
                      ("two blocks libFLAC gives up on", [42, 43], false, 0xFF)])  // process_single fails in READ_FRAME
    func damageIsSkippedAndSaidOnce(kind: String, blocks: [Int], header: Bool, pattern: UInt8) throws {
        // sox's repeatable dither: the file, and where the damage falls, is the same every run.
        let song = try Self.make("song.flac", "\(Self.sweep.replacingOccurrences(of: "sox -q", with: "sox -q -R")) | flac -s -b 4096 -o \"$0\" -")
        let whole = try Self.decode(song).samples
        let offsets = try Self.frameOffsets(song)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: song)))
        for block in blocks {
            let (start, end) = (offsets[block], offsets[block + 1])
            let damage = header ? start..<(start + 2) : ((start + end) / 2)..<((start + end) / 2 + 16)
            for index in damage { bytes[index] ^= pattern }
        }
        let damaged = URL(fileURLWithPath: song).deletingLastPathComponent().appendingPathComponent("damaged.flac")
        try Data(bytes).write(to: damaged)
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(Path(damaged.path)))
        let (samples, skips) = Self.drainSayingSkips(decoder)
        // Up to the damage as it was; then nothing but silence (libFLAC 1.4.2 gives a block of it
        // for a damaged run and loses the block after; where it gives up on a block, what it
        // held is dropped); then the song again from a block after the damage, to its end.
        let block = 4096 * 2
        let start = blocks[0] * block
        #expect(samples[..<start] == whole[..<start], "\(kind)")
        let resumed = ((blocks.last! + 1)..<(whole.count / block)).first { index in
            let tail = whole.count - index * block
            return samples.count - tail >= start && samples.suffix(tail) == whole[(index * block)...]
        }
        guard let resumed else { Issue.record("\(kind): the song does not play on after the damage"); return }
        #expect(samples[start..<(samples.count - (whole.count - resumed * block))].allSatisfy { $0 == 0 }, "\(kind)")
        // Said once; its length is an estimate, from the bytes skipped: a block at least, and no
        // more than the blocks not heard.
        #expect(skips.count == 1, "\(kind): \(skips)")
        #expect(skips.allSatisfy { $0 >= 4096.0 / 44100 && $0 <= Double((resumed - blocks[0]) * 4096) / 44100 }, "\(kind): \(skips), resumed at block \(resumed)")
    }

    @Test(arguments: ["", "--ogg "])
    func aSeekLandsOnTheVerySample(container: String) throws {
        let song = try Self.make("song.flac", "\(Self.sweep) | flac -s \(container)-o \"$0\" -")
        let whole = try Self.decode(song).samples
        let frames = whole.count / 2
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(Path(song)))
        for target in [100_000, 1, 4095, 4096, 4097, frames - 1, 0, 250_001] {
            #expect(decoder.seek(toFrame: Int64(target)) == Int64(target))
            let after = Self.drain(decoder)
            #expect(after == Array(whole[(target * 2)...]), "after a seek to \(target)")
        }
        #expect(decoder.seek(toFrame: Int64(frames + 10)) == Int64(frames))
        #expect(Self.drain(decoder).isEmpty)
    }

    @Test func theTagsAndTheGainAreRead() throws {
        let song = try Self.make("tagged.flac", "\(Self.sweep) trim 0 1 | flac -s -T TITLE=Sweep -T ARTIST=Band -T ALBUM=Tones -T TRACKNUMBER=3 "
            + "-T 'REPLAYGAIN_TRACK_GAIN=-3.50 dB' -T REPLAYGAIN_TRACK_PEAK=0.70 -o \"$0\" -")
        let info = try Self.decode(song).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band" && info.tags.album == "Tones" && info.tags.track == "3")
        #expect(info.replayGain == ReplayGain(trackGain: -3.5, trackPeak: 0.7))
        #expect(info.id3.v2?.title == "Sweep")  // what -R's @I says
    }

    @Test func checkingFindsDamageACutAndAWrongSignature() throws {
        let good = try Self.make("good.flac", "\(Self.sweep) | flac -s -o \"$0\" -")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let folder = URL(fileURLWithPath: good).deletingLastPathComponent()
        var damaged = bytes
        for index in (bytes.count / 2)..<(bytes.count / 2 + 200) { damaged[index] = 0 }
        var signed = bytes
        let signature = 4 + 4 + 18  // fLaC, the block header, STREAMINFO up to its MD5
        for index in signature..<(signature + 16) { signed[index] ^= 0x5A }
        let files = [("damaged.flac", damaged), ("cut.flac", Array(bytes.prefix(bytes.count - 5000))), ("signed.flac", signed)]
        for (name, content) in files { try Data(content).write(to: folder.appendingPathComponent(name)) }
        let checker = SongChecker()
        #expect(checker.check(SongSource(Path(good))).isClean)
        let verdicts = files.map { checker.check(SongSource(Path(folder.appendingPathComponent($0.0).path))) }
        guard case .skippedDamage(let spans, _) = verdicts[0] else { Issue.record("damaged: \(verdicts[0])"); return }
        #expect(spans.count == 1 && spans[0].lowerBound > 1 && spans[0].upperBound < 6.5, "\(spans)")
        guard case .truncated(let at, let declared) = verdicts[1] else { Issue.record("cut: \(verdicts[1])"); return }
        #expect(at < declared && declared == 7)
        #expect(verdicts[2] == .damaged(at: 7, reason: "the decoded audio does not match the MD5 signature in its STREAMINFO"))
    }
}
