import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// A track of a file (a CUE sheet's) through the real decoder: exactly the samples between its
/// INDEX 01 and the next track's, positions and seeks counted from its start.
struct TrackWindowTests {
    private static let drain = FlacDecoderTests.drain

    private static func song() throws -> Path {
        Path(try Fixture.make("image.mp3", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 5 sine 100:3000 gain -6 | lame --quiet -b 192 - \"$0\""))
    }

    @Test func aTrackIsExactlyItsPartOfTheFile() throws {
        let image = try Self.song()
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(image))
        let whole = Self.drain(decoder)
        // 00:01:00 to 00:03:37: 44,100 to 44,100 + 2 × 44,100 + 37 × 588 frames.
        let span = TrackSpan(start: 75, end: 75 * 3 + 37)
        let song = try decoder.open(SongSource(image, span: span))
        let start = 44100, end = 3 * 44100 + 37 * 588
        #expect(song.info.totalFrames == Int64(end - start))
        let track = Self.drain(decoder)
        #expect(track == Array(whole[(start * 2)..<(end * 2)]))
        // The last track runs to the file's end; the next one starts where this one stopped.
        _ = try decoder.open(SongSource(image, span: TrackSpan(start: span.end!)))
        #expect(Self.drain(decoder) == Array(whole[(end * 2)...]))
    }

    @Test func seeksCountFromTheTracksStartAndStopAtItsEnd() throws {
        let image = try Self.song()
        let decoder = SongDecoder()
        _ = try decoder.open(SongSource(image))
        let whole = Self.drain(decoder)
        _ = try decoder.open(SongSource(image, span: TrackSpan(start: 150, end: 225)))
        #expect(decoder.seek(toFrame: 1000) == 1000)
        #expect(Self.drain(decoder) == Array(whole[((88200 + 1000) * 2)..<(132300 * 2)]))
        #expect(decoder.seek(toFrame: 10_000_000) == 44100)
        #expect(Self.drain(decoder).isEmpty)
    }

    @Test func aTrackThatStartsPastTheEndIsRefused() throws {
        let image = try Self.song()
        let decoder = SongDecoder()
        #expect(throws: LoadFailure.damaged("the track starts at 00:09:00, past the end of the file")) {
            try decoder.open(SongSource(image, span: TrackSpan(start: 9 * 75)))
        }
    }
}
