import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// What the real decoder says of real files: the average rate of a VBR song, and when the
/// length it gives is exact enough to call a song that ends sooner cut short.
struct Mpg123DecoderTests {
    private static func make(_ name: String, _ script: String) throws -> Path {
        Path(try Fixture.make(name, script))
    }

    private static let noise = "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 20 pinknoise tremolo 0.5 40 gain -12"

    @Test func aVBRSongsRateIsItsAverageNotItsFirstFrames() throws {
        // A 200 KB tag in front (cover art, say) is not audio and does not count.
        let song = try Self.make("vbr.mp3", "\(Self.noise) | lame --quiet -V 7 --pad-id3v2-size 200000 --tt Title - \"$0\"")
        let decoder = try Mpg123Decoder()
        let info = try decoder.open(song).info
        let stream = try #require(info.stream)
        #expect(stream.mode == "VBR")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(song)")))
        #expect(bytes.starts(with: Array("ID3".utf8)))
        let tag = 10 + (Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9]))
        #expect(tag > 100_000)
        let seconds = Double(try #require(info.totalFrames)) / Double(info.sampleRate)  // -V 7 resamples to 32 kHz
        let expected = Double(bytes.count - tag) * 8 / seconds / 1000
        let average = try #require(stream.averageBitrate)
        #expect(abs(Double(average) - expected) < expected * 0.05, "\(average) kbit/s, expected about \(expected)")
        #expect(average != stream.bitrate, "not the first frame's \(stream.bitrate)")
    }

    /// Another format's data can hold bytes that look like MPEG frames (a WAV's samples did,
    /// dozens of times a second): played, they are noise. What the first bytes say decides,
    /// past an ID3 tag too, whatever the name.
    @Test(arguments: [("wav.mp3", "sox -q -n -t wav \"$0\" synth 1 sine 300", FileContent.wav),
                      ("song.flac", "sox -q -n -t flac \"$0\" synth 1 sine 300", FileContent.flac),
                      ("tagged.mp3", "printf 'ID3\\004\\000\\000\\000\\000\\000\\012abcdefghij' > \"$0\" && sox -q -n -t wav - synth 1 sine 300 >> \"$0\"",
                       FileContent.wav),
                      ("list.mp3", "printf '#EXTM3U\\na.mp3\\n' > \"$0\"", FileContent.m3u)])
    func anotherFormatIsRefusedByWhatItHoldsNotSearchedForFrames(name: String, script: String, content: FileContent) throws {
        let file = try Self.make(name, script)
        #expect(throws: LoadFailure.otherFormat(content)) { try Mpg123Decoder().open(file) }
    }

    @Test func anMP3BehindAnID3TagStillPlays() throws {
        let song = try Self.make("id3.mp3", "\(Self.noise) trim 0 1 | lame --quiet -b 128 --tt Title --add-id3v2 - \"$0\"")
        #expect(try Mpg123Decoder().open(song).info.sampleRate == 44100)
    }

    @Test func aCBRSongHasNoAverageToShow() throws {
        let song = try Self.make("cbr.mp3", "\(Self.noise) trim 0 2 | lame --quiet -b 128 - \"$0\"")
        let info = try Mpg123Decoder().open(song).info
        #expect(info.stream?.averageBitrate == nil)
        #expect(info.stream?.bitrate == 128)
    }

    @Test func onlyATaggedLengthIsExactSoAStreamWithoutATagIsNotCalledCutShort() throws {
        let tagged = try Self.make("tagged.mp3", "\(Self.noise) | lame --quiet -V 2 - \"$0\"")
        // Without a tag the length is a guess from the first frames: here a mono part at 64
        // kbit/s before a stereo one at 128, which makes the guess twice too long.
        func tone(_ channels: Int) -> String { "sox -q -n -r 44100 -b 16 -c \(channels) -t wav -" }
        let joined = try Self.make("joined.mp3", """
            \(tone(1)) synth 1 sine 300 | lame --quiet -t -b 64 - "$0.1" && \(tone(2)) synth 3 sine 500 | lame --quiet -t -b 128 - "$0.2" \
            && cat "$0.1" "$0.2" > "$0"
            """)
        let decoder = try Mpg123Decoder()
        _ = try decoder.open(tagged)
        #expect(decoder.lengthIsExact)
        _ = try decoder.open(joined)
        #expect(!decoder.lengthIsExact, "the length of an untagged stream is a guess")
        decoder.close()
        let checker = SongChecker()
        let verdict = checker.check(SongSource(joined))
        if case .clean(let seconds) = verdict {
            #expect(abs(seconds - 4) < 0.1, "both parts, 1 s and 3 s: \(seconds)")
        } else {
            Issue.record("an untagged stream called damaged: \(verdict)")
        }
        #expect(checker.check(SongSource(tagged)).isClean)
    }
}
