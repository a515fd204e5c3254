import Testing
@testable import PlayerCore

private func m3u(_ text: String) -> (items: [Playlist.Item], problems: [Diagnostic]) {
    Playlist.parse(Array(text.utf8), format: .m3u)
}

struct PlaylistTests {
    @Test func m3uReadsPathsTitlesAndSkipsComments() {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:9,Band - Song\r\none.mp3\r\n\r\n# a comment\r\n  /abs/two.mp3  \r\nsub/three.mp3"
        let (items, problems) = m3u(text)
        #expect(problems.isEmpty)
        #expect(items.map(\.path) == ["one.mp3", "/abs/two.mp3", "sub/three.mp3"])
        #expect(items.map(\.title) == ["Band - Song", nil, nil], "a title belongs to the next entry only")
        #expect(items.map(\.location.line) == [3, 6, 7])
        #expect(items[1].location.column == 3)
    }

    @Test func lineEndsMayBeLFCRLFOrCR() {
        #expect(m3u("a.mp3\rb.mp3\r\nc.mp3\nd.mp3").items.map(\.path) == ["a.mp3", "b.mp3", "c.mp3", "d.mp3"])
    }

    @Test func fileURLsArePercentDecodedStreamsKeptAndOtherURLsRefused() {
        let (items, problems) = m3u("file:///music/My%20Song%C3%A9.mp3\nfile://localhost/x/y.mp3\nhttp://radio.example/stream\nfile:///bad%zz.mp3\nfile://otherhost/x.mp3\nftp://host/x.mp3\nHTTPS://radio.example/b")
        #expect(items.map(\.path) == ["/music/My Songé.mp3", "/x/y.mp3", "http://radio.example/stream", "HTTPS://radio.example/b"])
        #expect(items[2].written == "http://radio.example/stream", "a stream as written")
        #expect(problems.map(\.location.line) == [4, 5, 6])
        #expect(problems[0].message.hasPrefix("bad %-escape"))
        #expect(problems[2].message.hasPrefix("not a local file or an http stream: ftp://host/x.mp3"))
    }

    @Test func namesThatAreNotUTF8KeepTheirBytesAndOfferTheirLatin1Reading() {
        // "café.mp3" written in Latin-1 (an old .m3u): é is the single byte 0xE9. The file may
        // be named with that byte, or renamed to UTF-8 since: both readings are kept.
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3\n".utf8)
        let location = Playlist.parse(bytes, format: .m3u).items.map(\.path)
        #expect(location == [Path(bytes: Array("caf".utf8) + [0xE9] + Array(".mp3".utf8))])
        #expect(location.first?.latin1AsUTF8 == "café.mp3")
        #expect(location.first?.description == "caf\u{FFFD}.mp3")
        #expect(Path("café.mp3").latin1AsUTF8 == nil, "UTF-8 needs no second reading")
    }

    @Test func aBinaryFileIsRecognisedFromItsFirstBytes() {
        // An MP3 renamed .m3u: the ID3 header holds NUL bytes.
        let bytes: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0x20] + Array(repeating: 0x41, count: 200_000)
        let (items, problems) = Playlist.parse(bytes, format: .m3u)
        #expect(items.isEmpty)
        #expect(problems == [Diagnostic(SourceLocation(file: "", line: 0, column: 1), "binary data, not a playlist")])
    }

    @Test func binaryJunkAndHugeLinesLaterOnAreReportedNotTakenAsPaths() {
        var bytes: [UInt8] = Array(String(repeating: "# padding past the sniffed start\n", count: 300).utf8)
        bytes += Array("good.mp3\n".utf8)
        bytes += [0x00, 0xFF, 0x13, 0x37, 0x00] + Array("\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "x"), count: 100_000) + Array("\nlast.mp3".utf8)
        let (items, problems) = Playlist.parse(bytes, format: .m3u)
        #expect(items.map(\.path) == ["good.mp3", "last.mp3"])
        #expect(problems.map(\.location.line) == [302, 303])
        #expect(problems.first?.message == "binary data, not text")
        #expect(problems.last?.message.hasPrefix("line too long (100000 bytes") == true)
    }

    @Test func chunksOfAnySizeParseAsTheWhole() {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:1,Título\r\none.mp3\r\rtwo.mp3\n" + String(repeating: "y", count: 5000)
            + "\r\nthree.mp3\r\n[playlist]\nFile1=a.mp3\nFile3=\nTitle1=A"
        let bytes = Array(text.utf8)
        for format in [Playlist.Format.m3u, .pls] {
            let whole = Playlist.parse(bytes, format: format)
            for size in [1, 2, 3, 7, 64, 4097] {
                var parser = Playlist.Parser(format: format)
                var items: [Playlist.Item] = []
                var problems: [Diagnostic] = []
                var start = 0
                while start < bytes.count {
                    let end = min(start + size, bytes.count)
                    _ = bytes[start..<end].withUnsafeBufferPointer {
                        parser.feed($0, item: { items.append($0) }, problem: { problems.append($0) })
                    }
                    start = end
                }
                parser.finish(item: { items.append($0) }, problem: { problems.append($0) })
                #expect(items == whole.items, "chunks of \(size)")
                #expect(problems == whole.problems, "chunks of \(size)")
            }
        }
    }

    @Test func anEmptyPLSEntryIsAProblemNotTheFolder() {
        // `File2=` once expanded to the playlist's own folder, recursively.
        let text = "[playlist]\nFile1=one.mp3\nFile2=\nfile3=   \nNumberOfEntries=3\n"
        let (items, problems) = Playlist.parse(Array(text.utf8), format: .pls)
        #expect(items.map(\.path) == ["one.mp3"])
        #expect(problems == [
            Diagnostic(SourceLocation(file: "", line: 3, column: 7), "empty entry (File2=); skipped"),
            Diagnostic(SourceLocation(file: "", line: 4, column: 7), "empty entry (file3=); skipped"),
        ])
    }

    @Test func aFileFullOfProblemsIsNotReadToTheEnd() {
        let text = String(repeating: "ftp://example.com/x\n", count: 10_000) + "late.mp3\n"
        let (items, problems) = m3u(text)
        #expect(items.isEmpty)
        #expect(problems.count == Playlist.maxProblems + 1)
        #expect(problems.last?.message.hasSuffix("is it really a playlist?") == true)
    }

    @Test func plsReadsFilesAndTitlesInNumberOrder() {
        let text = "[playlist]\nNumberOfEntries=3\nFile2=b.mp3\nTitle2=Bee\nFile1=file:///a%20a.mp3\nFile10=c.mp3\nLength1=-1\nVersion=2\nnonsense\n"
        let (items, problems) = Playlist.parse(Array(text.utf8), format: .pls)
        #expect(items.map(\.path) == ["/a a.mp3", "b.mp3", "c.mp3"])
        #expect(items.map(\.title) == [nil, "Bee", nil])
        #expect(items[1].location.line == 3 && items[1].location.column == 7)
        #expect(problems.map(\.location.line) == [9])
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

/// One `file://` reader and writer, for playlists and for MPRIS.
struct FileURLTests {
    @Test func anyPathRoundTripsThroughItsURL() throws {
        let odd = Path(bytes: Array("/music/a b/é%#?".utf8) + [0xFF, 0x0A])
        let url = FileURL.string(for: odd)
        #expect(url == "file:///music/a%20b/%C3%A9%25%23%3F%FF%0A")
        #expect(try FileURL.path(url).get() == odd)
        #expect(FileURL.path("FILE://localhost/x.mp3") == .success(Path("/x.mp3")))
        #expect(FileURL.path("file://host/x.mp3") == .failure(.otherHost))
        #expect(FileURL.path("file:///x%0.mp3") == .failure(.badEscape))
        #expect(FileURL.path("file:///x%00.mp3") == .failure(.badEscape))
        #expect(FileURL.path("http://x/y.mp3") == .failure(.notFileURL))
    }
}

/// For mpg123's `LOADLIST`, which numbers every entry, a URL is kept as written.
struct PlaylistURLTests {
    @Test func urlsAreKeptAsWrittenWhenAsked() {
        let text = Array("a.mp3\nhttp://radio.example/live\nfile:///music/b%20c.mp3\nftp://host/x\n".utf8)
        var parser = Playlist.Parser(format: .m3u, file: "l.m3u")
        parser.keepsURLs = true
        var items: [Playlist.Item] = []
        var problems: [Diagnostic] = []
        text.withUnsafeBufferPointer { _ = parser.feed($0, item: { items.append($0) }, problem: { problems.append($0) }) }
        parser.finish(item: { items.append($0) }, problem: { problems.append($0) })
        #expect(problems.isEmpty)
        #expect(items.map(\.path) == ["a.mp3", "http://radio.example/live", "/music/b c.mp3", "ftp://host/x"])
        #expect(items.map(\.written) == [nil, "http://radio.example/live", "file:///music/b%20c.mp3", "ftp://host/x"])
        let (plain, said) = Playlist.parse(text, format: .m3u, file: "l.m3u")
        #expect(plain.count == 3 && said.count == 1, "by default an http stream is kept and another URL is a problem, located")
    }

    /// A file name with `://` in it that is no URL (its "scheme" has a space) is a path, resolved
    /// as one, never kept as a URL.
    @Test func aNameThatOnlyLooksLikeAURLIsAPath() {
        var parser = Playlist.Parser(format: .m3u, file: "l.m3u")
        parser.keepsURLs = true
        var items: [Playlist.Item] = []
        Array("my song://x.mp3\n".utf8).withUnsafeBufferPointer { _ = parser.feed($0, item: { items.append($0) }, problem: { _ in }) }
        parser.finish(item: { items.append($0) }, problem: { _ in })
        #expect(items.map(\.path) == ["my song://x.mp3"])
        #expect(items.map(\.written) == [nil])
    }
}
