import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// Ogg Vorbis through libvorbisfile and Opus through libopusfile, judged by their reference
/// decoders: the same samples as `oggdec` and `opusdec --rate 48000 --no-dither`, seeks on the
/// very sample, chained streams, the tags and the gains, damage.
struct OggDecoderTests {
    static let make = FlacDecoderTests.make
    static let samples = FlacDecoderTests.samples(ofWAV:)
    static let drain = FlacDecoderTests.drain
    static let decode = FlacDecoderTests.decode

    static func sweep(rate: Int, seconds: Int = 7, channels: Int = 2) -> String {
        "sox -q -n -r \(rate) -c \(channels) -b 16 -t wav - synth \(seconds) sine 100:5000 gain -3"
    }

    /// `song` decoded by the format's reference tool: oggdec, or opusdec at 48 kHz without dither.
    static func reference(_ song: String) throws -> [Int16] {
        let tool = song.hasSuffix(".opus") ? "opusdec --quiet --rate 48000 --no-dither" : "oggdec -Q -o"
        let order = song.hasSuffix(".opus") ? "\"\(song)\" \"$0\"" : "\"$0\" \"\(song)\""
        return try samples(try make("reference.wav", "\(tool) \(order)"))
    }

    @Test(arguments: [("stereo 44.1 kHz", "vorbis.ogg", "\(sweep(rate: 44100)) | oggenc -Q -o \"$0\" -"),
                      ("mono 22.05 kHz, quality 1", "mono.ogg", "\(sweep(rate: 22050, channels: 1)) | oggenc -Q -q 1 -o \"$0\" -"),
                      ("loud noise, clipped", "loud.ogg", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 4 pinknoise gain -1 | oggenc -Q -o \"$0\" -"),
                      ("stereo 48 kHz", "opus.opus", "\(sweep(rate: 48000)) | opusenc --quiet - \"$0\""),
                      ("mono from 44.1 kHz", "mono.opus", "\(sweep(rate: 44100, channels: 1)) | opusenc --quiet --bitrate 24 - \"$0\""),
                      ("loud noise, soft-clipped", "loud.opus", "sox -q -n -r 48000 -c 2 -b 16 -t wav - synth 4 pinknoise gain -1 | opusenc --quiet - \"$0\"")])
    func theSamplesAreExactlyWhatTheReferenceWrites(kind: String, name: String, script: String) throws {
        let song = try Self.make(name, script)
        let (opened, samples) = try Self.decode(song)
        let expected = try Self.reference(song)
        // Compared outside `#expect`, which would print every sample on failure.
        let differing = zip(samples, expected).filter { $0 != $1 }.count
        #expect(samples.count == expected.count && differing == 0, "\(kind): \(samples.count) samples, \(expected.count) expected, \(differing) differ")
        #expect(opened.info.totalFrames == Int64(expected.count / opened.format.channels), "\(kind)")
        #expect(opened.info.codec == (name.hasSuffix(".opus") ? "Opus" : "Ogg Vorbis"))
        if name.hasSuffix(".opus") { #expect(opened.format.rate == 48000) }
    }

    /// 5.1, six tones, one per channel: in WAV's order (FL FR C LFE BL BR), not Vorbis's
    /// (FL C FR BL BR LFE). opusdec writes exactly that; oggdec 1.4.2 reorders with the inverse
    /// permutation (its last three channels are BR LFE BL: the tones show it), which is undone
    /// here before comparing.
    @Test(arguments: ["six.ogg", "six.opus"])
    func surroundIsInWAVsChannelOrder(name: String) throws {
        let tones = "sox -q -n -r 48000 -c 6 -b 16 -t wav - synth 2 sine 300 sine 500 sine 700 sine 900 sine 1100 sine 1300 gain -3"
        let encode = name.hasSuffix(".opus") ? "opusenc --quiet - \"$0\"" : "oggenc -Q -o \"$0\" -"
        let song = try Self.make(name, "\(tones) | \(encode)")
        let (opened, samples) = try Self.decode(song)
        #expect(opened.format.channels == 6)
        var expected = try Self.reference(song)
        if name.hasSuffix(".ogg") {
            expected = stride(from: 0, to: expected.count - 5, by: 6).flatMap { frame in [0, 1, 2, 4, 5, 3].map { expected[frame + $0] } }
        }
        let differing = zip(samples, expected).filter { $0 != $1 }.count
        #expect(samples.count == expected.count && differing == 0, "\(name): \(differing) samples differ")
        // The tones where WAV puts them: 300 Hz front left, 1100 Hz back left, 1300 Hz back right.
        func rises(_ channel: Int) -> Int {
            let wave = stride(from: channel, to: samples.count, by: 6).map { samples[$0] }
            return (1..<wave.count).filter { wave[$0 - 1] < 0 && wave[$0] >= 0 }.count
        }
        #expect(abs(rises(0) - 600) <= 2 && abs(rises(4) - 2200) <= 4 && abs(rises(5) - 2600) <= 4, "\(rises(0)) \(rises(4)) \(rises(5))")
    }

    @Test(arguments: ["song.ogg", "song.opus"])
    func aSeekLandsOnTheVerySample(name: String) throws {
        let encoder = name.hasSuffix(".opus") ? "opusenc --quiet - \"$0\"" : "oggenc -Q -o \"$0\" -"
        let song = try Self.make(name, "\(Self.sweep(rate: 48000)) | \(encoder)")
        let whole = try Self.decode(song).samples
        let frames = whole.count / 2
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(Path(song)))
        for target in [100_000, 1, 959, 960, 4095, 4097, 48000 * 5 + 7, frames - 1, 0, 250_001] {
            #expect(decoder.seek(toFrame: Int64(target)) == Int64(target))
            let after = Self.drain(decoder)
            let straight = Array(whole[(target * 2)...])
            let differing = zip(after, straight).enumerated().filter { $0.element.0 != $0.element.1 }
            let most = differing.map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 0
            #expect(after.count == straight.count && differing.isEmpty,
                    "\(name): after a seek to \(target): \(differing.count) samples differ, by up to \(most), the last at \((differing.last?.offset ?? 0) / 2)")
        }
        #expect(decoder.seek(toFrame: Int64(frames + 10)) == Int64(frames))
        #expect(Self.drain(decoder).isEmpty)
    }

    /// Two files of other formats, one after the other in one file (`cat`): the second link says
    /// `.newFormat`, and its samples follow in it.
    @Test(arguments: ["chain.ogg", "chain.opus"])
    func aChainedLinkInAnotherFormatSaysSo(name: String) throws {
        let opus = name.hasSuffix(".opus")
        let suffix = opus ? ".opus" : ".ogg"
        let encode = { (out: String) in opus ? "opusenc --quiet - \"\(out)\"" : "oggenc -Q -o \"\(out)\" -" }
        // Vorbis: 44.1 kHz stereo then 22.05 kHz mono; Opus (always 48 kHz): stereo then mono.
        let song = try Self.make(name, "\(Self.sweep(rate: 44100, seconds: 2)) | \(encode("$0-1\(suffix)")) && "
            + "\(Self.sweep(rate: opus ? 48000 : 22050, seconds: 1, channels: 1)) | \(encode("$0-2\(suffix)")) && cat \"$0-1\(suffix)\" \"$0-2\(suffix)\" > \"$0\"")
        let decoder = SongDecoder()
        let opened = try decoder.open(SongSource(Path(song)))
        #expect(opened.format == PCMFormat(rate: opus ? 48000 : 44100, channels: 2))
        var parts: [[Int16]] = [[]]
        var formats: [PCMFormat] = []
        var buffer = [Int16](repeating: 0, count: 8192)
        reading: while true {
            switch buffer.withUnsafeMutableBytes({ decoder.read(into: $0.baseAddress!, capacity: $0.count) }) {
            case .data(let bytes): parts[parts.count - 1] += buffer.prefix(bytes / 2)
            case .newFormat(let format):
                formats.append(format)
                parts.append([])
            case .skipped, .pending: continue
            case .done, .damaged: break reading
            }
        }
        #expect(formats == [PCMFormat(rate: opus ? 48000 : 22050, channels: 1)])
        let first = try Self.reference(song + "-1" + suffix), second = try Self.reference(song + "-2" + suffix)
        let same = parts.count == 2 && parts[0] == first && parts[1] == second
        #expect(same, "\(parts.map(\.count)) samples in the links, \([first.count, second.count]) expected")
    }

    @Test func theVorbisTagsAndGainAreRead() throws {
        let song = try Self.make("tagged.ogg", "\(Self.sweep(rate: 44100, seconds: 1)) | oggenc -Q -t Sweep -a Band -l Tones -N 3 "
            + "-c 'REPLAYGAIN_TRACK_GAIN=-3.50 dB' -c REPLAYGAIN_TRACK_PEAK=0.70 -o \"$0\" -")
        let info = try Self.decode(song).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band" && info.tags.album == "Tones" && info.tags.track == "3")
        #expect(info.replayGain == ReplayGain(trackGain: -3.5, trackPeak: 0.7))
        #expect(info.id3.v2?.title == "Sweep")
        #expect(info.totalFrames == 44100)
    }

    /// R128 gains are Q7.8 dB to −23 LUFS: ReplayGain's −18 LUFS is 5 dB louder.
    @Test func opusR128GainsBecomeReplayGain() throws {
        let song = try Self.make("tagged.opus", "\(Self.sweep(rate: 48000, seconds: 1)) | opusenc --quiet --title Sweep --artist Band "
            + "--comment R128_TRACK_GAIN=-512 --comment R128_ALBUM_GAIN=384 - \"$0\"")
        let info = try Self.decode(song).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band")
        #expect(info.replayGain == ReplayGain(trackGain: 3, albumGain: 6.5))
        #expect(info.totalFrames == 48000)
    }

    /// The Ogg page checksum (CRC-32, polynomial 0x04C11DB7, not reflected, over the page with
    /// its checksum field zero).
    static func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in page {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// The OpusHead's output gain (Q7.8 dB) is applied, as opusdec applies it: +6 dB doubles.
    @Test func theOpusOutputGainIsApplied() throws {
        let plain = try Self.make("plain.opus", "\(Self.sweep(rate: 48000, seconds: 2)) gain -9 | opusenc --quiet - \"$0\"")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        // The first page: 27 bytes of header, one lacing byte, then OpusHead; the gain at 16.
        let pageLength = 28 + Int(bytes[27])
        bytes[44] = UInt8(1536 & 0xFF)
        bytes[45] = UInt8(1536 >> 8)
        for index in 22..<26 { bytes[index] = 0 }
        let crc = Self.oggCRC(bytes[0..<pageLength])
        for index in 0..<4 { bytes[22 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
        let louder = URL(fileURLWithPath: plain).deletingLastPathComponent().appendingPathComponent("louder.opus").path
        try Data(bytes).write(to: URL(fileURLWithPath: louder))
        let quiet = try Self.decode(plain).samples
        let loud = try Self.decode(louder).samples
        let reference = try Self.reference(louder)
        let same = loud == reference
        #expect(same, "\(loud.count) samples, \(reference.count) of opusdec's")
        let peak = { (samples: [Int16]) in Double(samples.map { abs(Int($0)) }.max() ?? 0) }
        #expect(abs(peak(loud) / peak(quiet) - pow(10, 6.0 / 20)) < 0.01, "\(peak(loud)) / \(peak(quiet))")
    }

    /// A byte flipped in the middle: the page's CRC fails, it is dropped, and the song plays on,
    /// the samples lost said where the damage is; a cut file ends where its last whole page does.
    @Test(arguments: ["song.ogg", "song.opus"])
    func damageIsSkippedAndACutFileEnds(name: String) throws {
        let encoder = name.hasSuffix(".opus") ? "opusenc --quiet - \"$0\"" : "oggenc -Q -o \"$0\" -"
        let good = try Self.make(name, "\(Self.sweep(rate: 48000)) | \(encoder)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let folder = URL(fileURLWithPath: good).deletingLastPathComponent()
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x55
        let files = [("damaged-" + name, damaged), ("cut-" + name, Array(bytes.prefix(bytes.count * 3 / 4)))]
        for (file, content) in files { try Data(content).write(to: folder.appendingPathComponent(file)) }
        let checker = SongChecker()
        #expect(checker.check(SongSource(Path(good))) == .clean(seconds: 7))
        let verdicts = files.map { checker.check(SongSource(Path(folder.appendingPathComponent($0.0).path))) }
        guard case .skippedDamage(let spans, let seconds) = verdicts[0] else { Issue.record("damaged: \(verdicts[0])"); return }
        // About the middle (the file's bytes, not its time, are halved), a page's worth lost.
        // About the middle (the file's bytes, not its time, are halved), a page lost: a sweep
        // compresses well, a page holds up to 1.4 s of it.
        #expect(spans.count == 1 && spans[0].lowerBound > 2 && spans[0].upperBound < 6.5, "\(spans), \(seconds) s played")
        #expect(spans[0].upperBound - spans[0].lowerBound > 0.01 && spans[0].upperBound - spans[0].lowerBound < 2, "\(spans)")
        #expect(abs(seconds + (spans[0].upperBound - spans[0].lowerBound) - 7) < 0.05, "\(seconds) s played")
        // What is played around the damage is what the reference tool writes of the damaged file.
        let damagedPath = folder.appendingPathComponent(files[0].0).path
        let reference = try Self.reference(damagedPath)
        let played = try Self.decode(damagedPath).samples
        let same = played == reference
        #expect(same, "\(played.count) samples, \(reference.count) of the reference's")
        guard case .clean(let cut) = verdicts[1] else { Issue.record("cut: \(verdicts[1])"); return }
        #expect(cut > 4 && cut < 6, "\(cut)")
    }

    /// An Ogg stream of another codec (Speex, here a Vorbis file's identification packet renamed)
    /// is not for these decoders.
    @Test func anOggStreamOfAnotherCodecIsNotOurs() throws {
        var head = Array("OggS".utf8) + [UInt8](repeating: 0, count: 24) + Array("Speex   ".utf8)
        #expect(Codec(FileContent.sniff(head)) == .ffmpeg)
        head.replaceSubrange(28..<36, with: Array("OpusHead".utf8))
        #expect(Codec(FileContent.sniff(head)) == .opus)
    }
}
