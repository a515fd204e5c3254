import Testing
@testable import PlayerCore

struct PlaylistTests {
    @Test func m3uSkipsCommentsAndResolvesRelativePaths() {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:9,Band - Song\r\none.mp3\r\n\r\n  /abs/two.mp3  \r\nsub/three.mp3"
        #expect(Playlist.m3uEntries(text, directory: "/music") == ["/music/one.mp3", "/abs/two.mp3", "/music/sub/three.mp3"])
    }

    @Test func m3uInTheCurrentFolderKeepsPathsAsTheyAre() {
        #expect(Playlist.m3uEntries("a.mp3\nb.mp3\n", directory: "") == ["a.mp3", "b.mp3"])
    }

    @Test func playlistsAreKnownByTheirExtension() {
        #expect(Playlist.isPlaylist("x/List.M3U"))
        #expect(Playlist.isPlaylist("x.m3u8"))
        #expect(!Playlist.isPlaylist("song.mp3"))
    }
}

struct TimeFormatTests {
    @Test(arguments: [(0.0, "0:00"), (9.99, "0:09"), (61, "1:01"), (3599, "59:59"), (3723, "1:02:03"), (-5, "0:00"), (.nan, "0:00")])
    func clock(seconds: Double, shown: String) {
        #expect(TimeFormat.clock(seconds) == shown)
    }
}

struct SongInfoTests {
    @Test func displayNameIsArtistAndTitleOrTheFileName() {
        var song = SongInfo(path: "/m/x/track.mp3", sampleRate: 44100, channels: 2, totalFrames: nil)
        #expect(song.displayName == "track.mp3")
        song.title = "Title"
        #expect(song.displayName == "Title")
        song.artist = "Artist"
        #expect(song.displayName == "Artist – Title")
        song.title = "  "
        #expect(song.displayName == "Artist – track.mp3")
    }
}

struct KeyBindingsTests {
    @Test func keysMapToTheirCommands() {
        #expect(KeyBindings.command(for: " ") == .toggle)
        #expect(KeyBindings.command(for: "p") == .play)
        #expect(KeyBindings.command(for: "s") == .stop)
        #expect(KeyBindings.command(for: "l") == .promptLoad)
        #expect(KeyBindings.command(for: "n") == .next)
        #expect(KeyBindings.command(for: "b") == .previous)
        #expect(KeyBindings.command(for: "q") == .quit)
        #expect(KeyBindings.command(for: "h") == .help)
        #expect(KeyBindings.command(for: "?") == .help)
        #expect(KeyBindings.command(for: "x") == nil)
    }
}
