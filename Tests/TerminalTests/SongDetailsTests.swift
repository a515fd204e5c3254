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

struct SongDetailsGainTests {
    @Test func theGainIsShownAsTaggedAndAsApplied() {
        var song = SongInfo(path: "a.flac", sampleRate: 44100, channels: 2, totalFrames: 44100, title: "A")
        song.codec = "FLAC, 16 bits"
        #expect(SongDetails.lines(song).contains("Gain     –"))
        #expect(SongDetails.lines(song).contains("Stream   FLAC, 16 bits, 44100 Hz, stereo"))
        song.replayGain = ReplayGain(trackGain: -6.2, trackPeak: 0.98765, albumGain: 1.5)
        #expect(SongDetails.lines(song).contains("Gain     track -6.20 dB (peak 0.988), album +1.50 dB, not applied"))
        song.appliedGain = -6.2
        #expect(SongDetails.lines(song).contains("Gain     track -6.20 dB (peak 0.988), album +1.50 dB, applied -6.20 dB"))
    }
}

struct SongDetailsOutputTests {
    @Test func theOutputAndTheEqualizerAreShown() {
        var song = SongInfo(path: "a.flac", sampleRate: 96000, channels: 2, totalFrames: 96000, title: "A")
        #expect(SongDetails.lines(song).contains("Output   –"))
        #expect(SongDetails.lines(song).contains("EQ       off"))
        song.played = "pulse: 24-bit, 96000 Hz, stereo\u{1B}[2J"
        #expect(SongDetails.lines(song).contains { $0.hasPrefix("Output   pulse: 24-bit, 96000 Hz, stereo") && !$0.contains("\u{1B}") })
        #expect(SongDetails.lines(song, equalizer: [5, 4, 3, 1, -1, -1, 1, 3, 4, 5.5])
            .contains("EQ       31 Hz +5  62 +4  125 +3  250 +1  500 -1  1k -1  2k +1  4k +3  8k +4  16k +5.5 dB"))
        #expect(SongDetails.lines(song).contains("Speed    the song's own"))
        #expect(SongDetails.lines(song, speed: 1.21).contains("Speed    1.21×, the same pitch (librubberband)"))
        #expect(SongDetails.lines(song, speed: 0.5).contains("Speed    0.5×, the same pitch (librubberband)"))
    }
}

extension SongDetailsTests {
    /// `i` on an internet stream: its station and what is on air first, escapes neutralised,
    /// and the URL where a file's path goes.
    @Test func aStreamShowsItsStationAndWhatIsOnAir() {
        var song = SongInfo(path: "http://radio.example/live", sampleRate: 44100, channels: 2, totalFrames: nil)
        song.isStream = true  // as its source said when it opened
        var said = StreamState()
        said.station = IcyMetadata.Station(name: "Test FM", genre: "Jazz", url: "http://radio.example/", bitrate: 128)
        said.title = "Artist - \u{1B}[2JTitle"
        let lines = SongDetails.lines(song, stream: said)
        #expect(lines.prefix(3) == ["Station  Test FM (Jazz, 128 kbit/s)", "On air   Artist - \\e[2JTitle", "Website  http://radio.example/"], "\(lines)")
        #expect(lines.contains("URL      http://radio.example/live") && lines.contains("Length   not known"))
    }
}
