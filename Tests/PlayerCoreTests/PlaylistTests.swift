import Testing
@testable import PlayerCore

private func m3u(_ text: String) -> (items: [Playlist.Item], problems: [Playlist.Problem]) {
    Playlist.parse(Array(text.utf8), format: .m3u)
}

struct PlaylistTests {
    @Test func m3uReadsPathsTitlesAndSkipsComments() {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:9,Band - Song\r\none.mp3\r\n\r\n# a comment\r\n  /abs/two.mp3  \r\nsub/three.mp3"
        let (items, problems) = m3u(text)
        #expect(problems.isEmpty)
        #expect(items.map(\.location) == ["one.mp3", "/abs/two.mp3", "sub/three.mp3"])
        #expect(items.map(\.title) == ["Band - Song", nil, nil], "a title belongs to the next entry only")
        #expect(items.map(\.line) == [3, 6, 7])
        #expect(items[1].column == 3)
    }

    @Test func lineEndsMayBeLFCRLFOrCR() {
        #expect(m3u("a.mp3\rb.mp3\r\nc.mp3\nd.mp3").items.map(\.location) == ["a.mp3", "b.mp3", "c.mp3", "d.mp3"])
    }

    @Test func fileURLsArePercentDecodedAndOtherURLsRefused() {
        let (items, problems) = m3u("file:///music/My%20Song%C3%A9.mp3\nfile://localhost/x/y.mp3\nhttp://radio.example/stream\nfile:///bad%zz.mp3\nfile://otherhost/x.mp3")
        #expect(items.map(\.location) == ["/music/My Songé.mp3", "/x/y.mp3"])
        #expect(problems.map(\.line) == [3, 4, 5])
        #expect(problems[0].message.hasPrefix("not a local file: http://radio.example/stream"))
        #expect(problems[1].message.hasPrefix("bad %-escape"))
    }

    @Test func latin1LinesAreDecodedAsLatin1() {
        // "café.mp3" written in Latin-1 (an old .m3u): é is the single byte 0xE9.
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3\n".utf8)
        #expect(Playlist.parse(bytes, format: .m3u).items.map(\.location) == ["café.mp3"])
    }

    @Test func binaryJunkAndHugeLinesAreReportedNotTakenAsPaths() {
        var bytes: [UInt8] = Array("good.mp3\n".utf8)
        bytes += [0x00, 0xFF, 0x13, 0x37, 0x00] + Array("\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "x"), count: 100_000) + Array("\nlast.mp3".utf8)
        let (items, problems) = Playlist.parse(bytes, format: .m3u)
        #expect(items.map(\.location) == ["good.mp3", "last.mp3"])
        #expect(problems.map(\.line) == [2, 3])
        #expect(problems[0].message == "binary data, not text")
        #expect(problems[1].message.hasPrefix("line too long (100000 bytes"))
    }

    @Test func randomBytesNeverCrashTheParsers() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let bytes = (0..<Int(generator.next(below: 2000))).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = Playlist.parse(bytes, format: .m3u)
            _ = Playlist.parse(bytes, format: .pls)
            _ = ScriptParser.parse(bytes)
        }
    }

    @Test func plsReadsFilesAndTitlesInNumberOrder() {
        let text = "[playlist]\nNumberOfEntries=3\nFile2=b.mp3\nTitle2=Bee\nFile1=file:///a%20a.mp3\nFile10=c.mp3\nLength1=-1\nVersion=2\nnonsense\n"
        let (items, problems) = Playlist.parse(Array(text.utf8), format: .pls)
        #expect(items.map(\.location) == ["/a a.mp3", "b.mp3", "c.mp3"])
        #expect(items.map(\.title) == [nil, "Bee", nil])
        #expect(items[1].line == 3 && items[1].column == 7)
        #expect(problems.map(\.line) == [9])
    }

    @Test func playlistsAreKnownByTheirExtension() {
        #expect(Playlist.isPlaylist("x/List.M3U"))
        #expect(Playlist.isPlaylist("x.m3u8"))
        #expect(Playlist.format(of: "radio.PLS") == .pls)
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
        #expect(KeyBindings.command(for: "r") == .toggleRepeat)
        #expect(KeyBindings.command(for: "z") == .toggleShuffle)
        #expect(KeyBindings.command(for: "h") == .help)
        #expect(KeyBindings.command(for: "?") == .help)
        #expect(KeyBindings.command(for: "x") == nil)
    }
}
