import Library
import PlayerCore
import Testing

struct ListenLogTests {
    private func listen(_ kind: Listen.Kind, title: String?, artist: String?) -> Listen {
        var song = SongInfo(path: "/m/a.flac", sampleRate: 44100, channels: 2, totalFrames: 44100 * 321, title: title, artist: artist,
                            album: "Post")
        song.tags.track = "2/11"
        return Listen(kind: kind, song: song, heard: 200)
    }

    @Test func aLineIsTheRockboxFormatWithTabsAndLineBreaksTakenOut() {
        #expect(ListenLog.line(listen(.played, title: "Hyper\tballad", artist: "Björk\nX"), started: 1_764_185_000)
            == "Björk X\tPost\tHyper ballad\t2\t321\tL\t1764185000\t\n")
        #expect(ListenLog.line(listen(.skipped, title: "T", artist: "A"), started: 5) == "A\tPost\tT\t2\t321\tS\t5\t\n")
        #expect(ListenLog.line(listen(.played, title: "T", artist: " "), started: 5) == nil, "no artist: no scrobble")
        #expect(ListenLog.header.hasPrefix("#AUDIOSCROBBLER/1.1\n#TZ/UTC\n"))
    }
}
