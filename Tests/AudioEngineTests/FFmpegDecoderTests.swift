import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// Every other format through FFmpeg, judged by the ffmpeg command: the same samples (up to an
/// MP4's declared end, where ffmpeg 5.1 goes on into the encoder's padding), seeks on the very
/// sample, tags, ReplayGain and the codec's name, files nothing else knows, and damage.
struct FFmpegDecoderTests {
    typealias Flac = FlacDecoderTests

    /// What `ffmpeg -i song -f s16le -acodec pcm_s16le -` writes.
    static func reference(_ song: String) throws -> [Int16] {
        let raw = try Flac.make("reference.raw", "ffmpeg -v quiet -y -i \"\(song)\" -f s16le -acodec pcm_s16le \"$0\"")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// `-R`: the same dither on every run, so a test's file (and a lossy codec's choices in it)
    /// is the same each time.
    static let sweep = "sox -R -q -n -r 44100 -c 2 -b 16 -t wav - synth 3 sine 100:5000 gain -3"
    /// 3 s of the sweep: 132,300 frames.
    static let sweepFrames = 132_300

    /// What `ffmpeg -i song -f FORMAT -` writes, as bytes (s24le: 24 bits packed; f32le: floats).
    static func referenceBytes(_ song: String, format: String) throws -> [UInt8] {
        let raw = try Flac.make("reference.raw", "ffmpeg -v quiet -y -i \"\(song)\" -f \(format) -acodec pcm_\(format) \"$0\"")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// A lossy codec's samples are ffmpeg's 16 bits; a lossless one's are its own depth (24-bit
    /// ALAC and WAV as 24 bits, a float WAV as floats), each exactly what ffmpeg writes in it.
    @Test(arguments: [("AAC in MP4", "\(sweep) | ffmpeg -v quiet -f wav -i - -c:a aac -b:a 160k \"$0.m4a\" && mv \"$0.m4a\" \"$0\"", "AAC (MP4)"),
                      ("ALAC in MP4", "sox -q -n -r 48000 -c 2 -b 24 -t wav - synth 2 sine 300:9000 gain -1 | ffmpeg -v quiet -f wav -i - -c:a alac \"$0.m4a\" && mv \"$0.m4a\" \"$0\"", "ALAC (MP4)"),
                      ("WAV 16 bits", "\(sweep) > \"$0\"", "WAV, 16 bits"),
                      ("WAV 24 bits", "sox -q -n -r 96000 -c 2 -b 24 \"$0.wav\" synth 2 sine 300:9000 gain -1 && mv \"$0.wav\" \"$0\"", "WAV, 24 bits"),
                      ("WAV float", "sox -q -n -r 48000 -c 2 -e floating-point -b 32 \"$0.wav\" synth 2 sine 300:9000 gain -1 && mv \"$0.wav\" \"$0\"", "WAV, 32 bits"),
                      ("AIFF", "sox -q -n -r 22050 -c 1 -b 16 \"$0.aiff\" synth 2 pinknoise gain -3 && mv \"$0.aiff\" \"$0\"", "AIFF, 16 bits")])
    func theSamplesAreWhatTheFFmpegCommandWrites(kind: String, script: String, codec: String) throws {
        let song = try Flac.make("song", script)
        let decoder = SongDecoder()
        let opened = try decoder.open(SongSource(Path(song)))
        let bytes = Flac.drainBytes(decoder)
        let (encoding, format): (SampleEncoding, String) = kind.contains("24") || kind.hasPrefix("ALAC") ? (.s24, "s24le")
            : kind.contains("float") ? (.float32, "f32le") : (.s16, "s16le")
        #expect(opened.format.encoding == encoding, "\(kind)")
        let expected = try Self.referenceBytes(song, format: format)
        #expect(opened.info.codec == codec, "\(kind)")
        #expect(opened.info.totalFrames == Int64(bytes.count / opened.format.bytesPerFrame), "\(kind)")
        if kind == "AAC in MP4" {
            // The edit list's length: the source's, to the sample; ffmpeg 5.1 writes the padding too.
            #expect(bytes.count == Self.sweepFrames * 4)
            #expect(expected.count > bytes.count)
            #expect(bytes[...] == expected.prefix(bytes.count))
        } else {
            #expect(bytes.count == expected.count, "\(kind)")
            let same = bytes == expected  // not inside #expect, which would print every sample
            #expect(same, "\(kind)")
        }
    }

    /// WAV, and AAC encoded without noise substitution (PNS), seek to the very sample, the samples
    /// after it exactly those of a straight decode. With PNS (ffmpeg's encoder uses it by
    /// default), the noise filling a band comes from the decoder's random generator, which a
    /// seek does not put back where a straight decode has it: the samples land on the very
    /// position, but differ by the noise's difference. With the sweep dithered the same on every
    /// run (`sox -R`) that is 2 (of 32,768) on every run; dithered anew each run, as it was, it
    /// measured from 2 to 477, as the bands the encoder fills with noise changed. The bound is
    /// 1024 (-30 dBFS), far below what a seek one sample off makes of the sweep (about 16,000).
    @Test(arguments: [("wav", " > \"$0\"", 0), ("m4a", " | ffmpeg -v quiet -f wav -i - -c:a aac -aac_pns 0 \"$0.m4a\" && mv \"$0.m4a\" \"$0\"", 0),
                      ("m4a with PNS", " | ffmpeg -v quiet -f wav -i - -c:a aac \"$0.m4a\" && mv \"$0.m4a\" \"$0\"", 1024)])
    func aSeekLandsOnTheVerySample(format: String, encode: String, bound: Int) throws {
        let song = try Flac.make("song", Self.sweep + encode)
        let whole = try Flac.decode(song).samples
        let frames = whole.count / 2
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(Path(song)))
        for target in [100_000, 1, 1023, 1024, 1025, 2047, 44_100, frames - 1, 0, 77_777, 131_000] {
            #expect(decoder.seek(toFrame: Int64(target)) == Int64(target), "\(format) to \(target)")
            let after = Flac.drain(decoder)
            #expect(after.count == (frames - target) * 2, "\(format) after a seek to \(target)")
            let differing = zip(after, whole[(target * 2)...]).enumerated().filter { $0.element.0 != $0.element.1 }
            let most = differing.map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 0
            let first = differing.first.map { $0.offset / 2 } ?? 0
            #expect(most <= bound, "\(format) after a seek to \(target): \(differing.count) samples differ, from \(first) on, by up to \(most)")
        }
        #expect(decoder.seek(toFrame: Int64(frames + 10)) == Int64(frames))
        #expect(Flac.drain(decoder).isEmpty)
    }

    @Test func theTagsAndTheGainAreRead() throws {
        let tags = "-metadata title=Sweep -metadata artist=Band -metadata album=Tones -metadata album_artist=Various "
            + "-metadata date=2024 -metadata genre=Test -metadata track=3 -metadata comment=Hello"
        let mp4 = try Flac.make("tagged.m4a", "\(Self.sweep) trim 0 1 | ffmpeg -v quiet -f wav -i - -c:a aac \(tags) \"$0\"")
        var info = try Flac.decode(mp4).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band" && info.tags.album == "Tones")
        #expect(info.tags.year == "2024" && info.tags.genre == "Test" && info.tags.track == "3" && info.tags.comment == "Hello")
        #expect(info.id3.v2?.title == "Sweep")  // what -R's @I says
        // APE tags in WavPack, with the gain.
        let gain = "-metadata 'REPLAYGAIN_TRACK_GAIN=-3.50 dB' -metadata REPLAYGAIN_TRACK_PEAK=0.70 -metadata 'REPLAYGAIN_ALBUM_GAIN=+1.25 dB'"
        let wavPack = try Flac.make("tagged.wv", "\(Self.sweep) trim 0 1 | ffmpeg -v quiet -f wav -i - -c:a wavpack \(tags) \(gain) \"$0\"")
        info = try Flac.decode(wavPack).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band" && info.tags.track == "3")
        #expect(info.codec == "WavPack")
        #expect(info.replayGain == ReplayGain(trackGain: -3.5, trackPeak: 0.7, albumGain: 1.25))
        // RIFF INFO in a WAV.
        let wav = try Flac.make("tagged.wav", "\(Self.sweep) trim 0 1 | ffmpeg -v quiet -f wav -i - \(tags) \"$0\"")
        info = try Flac.decode(wav).song.info
        #expect(info.tags.title == "Sweep" && info.tags.artist == "Band" && info.tags.genre == "Test")
    }

    /// CAF, by its magic; what nothing recognises by its first bytes and libmpg123 finds no MPEG
    /// audio in is tried in FFmpeg: AC-3 plays, text and noise are still refused.
    @Test func aFileNothingElseKnowsPlaysOnlyWhenFFmpegIsSure() throws {
        let caf = try Flac.make("song.caf", "\(Self.sweep) trim 0 1 | ffmpeg -v quiet -f wav -i - -c:a alac -f caf \"$0\"")
        let (opened, samples) = try Flac.decode(caf)
        #expect(opened.info.codec == "ALAC (CAF)")
        #expect(samples == (try Self.reference(caf)))
        let ac3 = try Flac.make("song.ac3", "\(Self.sweep) trim 0 1 | ffmpeg -v quiet -f wav -i - -c:a ac3 -f ac3 \"$0\"")
        // Told by its sync word: libmpg123 once found MPEG frames by chance in one (when the
        // sweep was dithered anew each run) and played it as noise.
        #expect(FileContent.sniff(try [UInt8](Data(contentsOf: URL(fileURLWithPath: ac3)))) == .ac3)
        let (decoded, pcm) = try Flac.decode(ac3)
        #expect(decoded.info.codec == "AC-3")
        #expect(pcm == (try Self.reference(ac3)))
        let text = try Flac.make("notes.txt", "seq 1 20000 > \"$0\"")
        let noise = try Flac.make("noise.bin", "head -c 200000 /dev/urandom > \"$0\"")
        for path in [text, noise] {
            let decoder = SongDecoder()
            #expect(throws: LoadFailure.notAudio, "\(path)") { try decoder.open(SongSource(Path(path))) }
        }
    }

    /// A cut MP4 (its index first) ends where it is cut and is said to be cut; damaged packets are
    /// skipped; nothing hangs.
    @Test func damageIsSkippedAndACutFileEnds() throws {
        let good = try Flac.make("good.m4a", "\(Self.sweep) | ffmpeg -v quiet -f wav -i - -c:a aac -movflags +faststart \"$0\"")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let folder = URL(fileURLWithPath: good).deletingLastPathComponent()
        var damaged = bytes
        var generator = SystemRandomNumberGenerator()
        for index in (bytes.count / 2)..<(bytes.count / 2 + 3000) { damaged[index] = UInt8.random(in: 0...255, using: &generator) }
        let files = [("damaged.m4a", damaged), ("cut.m4a", Array(bytes.prefix(bytes.count * 2 / 3)))]
        for (name, content) in files { try Data(content).write(to: folder.appendingPathComponent(name)) }
        let checker = SongChecker()
        #expect(checker.check(SongSource(Path(good))).isClean)
        let verdicts = files.map { checker.check(SongSource(Path(folder.appendingPathComponent($0.0).path))) }
        guard case .skippedDamage(let spans, _) = verdicts[0] else { Issue.record("damaged: \(verdicts[0])"); return }
        #expect(spans.allSatisfy { $0.lowerBound > 1 && $0.upperBound < 2.5 }, "\(spans)")
        guard case .truncated(let at, let declared) = verdicts[1] else { Issue.record("cut: \(verdicts[1])"); return }
        #expect(at > 1.5 && at < declared && declared == 3, "\(at) of \(declared)")
    }
}

/// The pieces of FFmpeg's song information that need no file.
struct FFmpegSongInfoTests {
    @Test func iTunSMPBGivesTheSongsLength() {
        #expect(FFmpegSongInfo.iTunesLength(" 00000000 00000840 000001CA 00000000003F31F6 00000000 00000000") == 0x3F31F6)
        #expect(FFmpegSongInfo.iTunesLength(" 00000000 00000840 000001CA") == nil)
        #expect(FFmpegSongInfo.iTunesLength(" 00000000 00000840 000001CA zz") == nil)
        #expect(FFmpegSongInfo.iTunesLength(nil) == nil)
    }

    @Test func theCodecIsNamedWithItsContainer() {
        #expect(FFmpegSongInfo.name(codec: "aac", container: "mov,mp4,m4a,3gp,3g2,mj2", bits: 0) == "AAC (MP4)")
        #expect(FFmpegSongInfo.name(codec: "pcm_s24le", container: "wav", bits: 24) == "WAV, 24 bits")
        #expect(FFmpegSongInfo.name(codec: "ape", container: "ape", bits: 16) == "Monkey's Audio")
        #expect(FFmpegSongInfo.name(codec: "flac", container: "matroska,webm", bits: 16) == "FLAC (Matroska)")
        #expect(FFmpegSongInfo.name(codec: "aac", container: "aac", bits: 0) == "AAC (ADTS)")
    }
}
