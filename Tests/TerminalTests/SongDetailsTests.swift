import PlayerCore
import Testing
@testable import Terminal

/// What `i` says of a song's stream.
struct SongDetailsTests {
    private func stream(_ vbr: Int, bitrate: Int, average: Int?) -> String? {
        var song = SongInfo(path: "/music/a.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000)
        var stream = SongInfo.Stream(layer: 3, bitrate: bitrate)
        stream.header.vbr = vbr
        stream.header.mode = 1
        stream.averageBitrate = average
        song.stream = stream
        return SongDetails.lines(song).first { $0.hasPrefix("Stream") }
    }

    @Test func aVBRSongShowsItsAverageRateNotItsFirstFrames() {
        #expect(stream(1, bitrate: 256, average: 95) == "Stream   MPEG 1 layer III, 95 kbit/s VBR, 44100 Hz, joint stereo")
        #expect(stream(0, bitrate: 128, average: nil) == "Stream   MPEG 1 layer III, 128 kbit/s CBR, 44100 Hz, joint stereo")
    }
}
