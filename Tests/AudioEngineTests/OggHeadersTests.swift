@testable import AudioEngine
import PlayerCore
import Testing

/// The library's fast read of Ogg files says what the decoders say when they open them.
struct OggHeadersTests {
    static let songs: [(String, String)] = [
        ("stereo.ogg", "sox -n -b 16 -r 44100 -c 2 t.wav synth 2.5 sine 440 vol 0.3 && "
            + "oggenc -Q -t 'Army of Me' -a Björk -a Tricky -l Post -d 1995 -N 3 -c REPLAYGAIN_TRACK_GAIN=-3.5 t.wav -o \"$0\""),
        ("mono-96k.ogg", "sox -n -b 16 -r 96000 -c 1 t.wav synth 1.3 sine 440 vol 0.3 && oggenc -Q -t Mono t.wav -o \"$0\""),
        ("six.ogg", "sox -n -b 16 -r 48000 -c 6 t.wav synth 1 sine 440 vol 0.3 && oggenc -Q t.wav -o \"$0\""),
        ("stereo.opus", "sox -n -b 16 -r 44100 -c 2 t.wav synth 2.5 sine 440 vol 0.3 && "
            + "opusenc --quiet --title 'It''s Oh So Quiet' --artist Björk --comment R128_TRACK_GAIN=-512 t.wav \"$0\""),
        ("mono.opus", "sox -n -b 16 -r 16000 -c 1 t.wav synth 0.7 sine 440 vol 0.3 && opusenc --quiet t.wav \"$0\""),
        ("chained.ogg", "sox -n -b 16 -r 44100 -c 2 a.wav synth 1 sine 440 vol 0.3 && sox -n -b 16 -r 22050 -c 1 b.wav synth 1 sine 220 && "
            + "oggenc -Q -t First a.wav -o a.ogg && oggenc -Q -t Second b.wav -o b.ogg && cat a.ogg b.ogg > \"$0\""),
    ]

    @Test(arguments: songs) func theHeadersSayWhatTheDecoderSays(name: String, script: String) throws {
        let path = Path(try Fixture.make(name, "cd \"$(dirname \"$0\")\" && " + script))
        let checker = SongChecker()
        let opened = try checker.info(SongSource(path)).get()
        let read = try checker.tags(SongSource(path)).get()
        #expect(read.tags == opened.tags && read.comments == opened.comments && read.replayGain == opened.replayGain)
        #expect(read.sampleRate == opened.sampleRate && read.channels == opened.channels && read.codec == opened.codec)
        #expect(read.totalFrames == opened.totalFrames, "\(name)")
    }

    @Test func aChainedStreamIsLeftToTheDecoder() throws {
        let path = Path(try Fixture.make("chained.ogg", "cd \"$(dirname \"$0\")\" && " + Self.songs[5].1))
        let file = try SongFile.open(path)
        #expect(OggHeaders.info(file, path: path) == nil)
        let plain = Path(try Fixture.make("plain.ogg", "cd \"$(dirname \"$0\")\" && " + Self.songs[0].1))
        #expect(OggHeaders.info(try SongFile.open(plain), path: plain) != nil, "a file of one stream is read from its headers")
    }

    @Test func pagesThatAreNotAsTheSpecificationSaysAreLeftToTheDecoder() throws {
        let path = Path(try Fixture.make("cut.ogg", "cd \"$(dirname \"$0\")\" && " + Self.songs[0].1 + " && head -c 3000 \"$0\" > c && mv c \"$0\""))
        #expect(OggHeaders.info(try SongFile.open(path), path: path) == nil, "its last page is no whole page")
        #expect(OggHeaders.checksum(Array("OggS".utf8) + [UInt8](repeating: 0, count: 23), 0..<27) != 0)
    }
}
