import PlayerCore
import Testing

/// Playlists served over http (a radio's `listen.pls`): told by type, content or name; their
/// entries are streams only, resolved against the playlist's URL; in a run they take the place
/// of the URL that named them.
struct ServedPlaylistTests {
    @Test(arguments: [
        ("stream.mp3", "http://radio.example/lists/listen.pls?id=3", "http://radio.example/lists/stream.mp3"),
        ("/live", "http://radio.example:8000/lists/listen.pls", "http://radio.example:8000/live"),
        ("//cdn.example/live.aac", "https://radio.example/x.pls", "https://cdn.example/live.aac"),
        ("?id=4", "http://radio.example/listen?id=3", "http://radio.example/listen?id=4"),
        ("../up/one.mp3", "http://radio.example/a/b/list.m3u", "http://radio.example/a/up/one.mp3"),
        ("../../../../x", "http://radio.example/a/list.m3u", "http://radio.example/x"),
        ("./here/./it.ogg", "http://radio.example/a/list.m3u", "http://radio.example/a/here/it.ogg"),
        ("My Song ☃.mp3", "http://radio.example/a/list.m3u", "http://radio.example/a/My%20Song%20%E2%98%83.mp3"),
        ("HTTPS://Other.example/s", "http://radio.example/a/list.m3u", "HTTPS://Other.example/s"),
        ("stream", "http://radio.example", "http://radio.example/stream"),
    ])
    func aRelativeEntryIsResolvedAgainstThePlaylistsURL(reference: String, base: String, expected: String) {
        #expect(StreamURL.resolve(reference, against: base)?.text == expected)
    }

    @Test(arguments: ["ftp://radio.example/x.mp3", "file:///etc/passwd", "gopher://x/", "javascript:alert(1)", "", "   "])
    func anotherSchemeIsNoStream(reference: String) {
        #expect(StreamURL.resolve(reference, against: "http://radio.example/list.m3u") == nil)
    }

    @Test func itsFormatComesFromItsTypeThenItsContentThenItsName() {
        let noise: [UInt8] = [0x12, 0x34, 0x56]
        #expect(ServedPlaylist.format(contentType: "audio/x-scpls", head: noise, url: "http://r/x") == .pls)
        #expect(ServedPlaylist.format(contentType: "Audio/X-MpegURL; charset=utf-8", head: noise, url: "http://r/x") == .m3u)
        #expect(ServedPlaylist.format(contentType: "application/octet-stream", head: Array("[playlist]\n".utf8), url: "http://r/x") == .pls)
        #expect(ServedPlaylist.format(contentType: nil, head: Array("#EXTM3U\n".utf8), url: "http://r/x") == .m3u)
        #expect(ServedPlaylist.format(contentType: "text/plain", head: Array("song.mp3\n".utf8), url: "http://r/a.m3u?x=1") == .m3u)
        // Audio is audio, whatever the URL is called; text that is not named a playlist is no playlist.
        #expect(ServedPlaylist.format(contentType: "audio/mpeg", head: noise, url: "http://r/radio.m3u") == nil)
        #expect(ServedPlaylist.format(contentType: nil, head: Array("ID3\u{4}".utf8), url: "http://r/radio.pls") == nil)
        #expect(ServedPlaylist.format(contentType: "text/html", head: Array("<html>".utf8), url: "http://r/") == nil)
    }

    @Test func itsEntriesAreStreamsOnlyEachSaidWhereItIs() {
        let body = Array("[playlist]\nFile1=stream.mp3\nTitle1=One\nFile2=file:///etc/passwd\nFile3=ftp://x/y\nFile4=/abs\n".utf8)
        let served = ServedPlaylist.parse(body, format: .pls, url: "http://radio.example/lists/r.pls")
        #expect(served.entries.map(\.path) == ["http://radio.example/lists/stream.mp3", "http://radio.example/abs"])
        #expect(served.entries.first?.title == "One")
        #expect(served.entries.first?.origin?.brief == "http://radio.example/lists/r.pls:2")
        let problems = served.problems.map(\.brief)
        #expect(problems.contains { $0.hasPrefix("http://radio.example/lists/r.pls:4:") && $0.contains("not files on this machine") })
        #expect(problems.contains { $0.hasPrefix("http://radio.example/lists/r.pls:5:") && $0.contains("ftp://x/y") }, "\(problems)")
    }

    @Test func anHLSPlaylistIsToldByItsTags() {
        #expect(ServedPlaylist.isHLS(Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\nseg.ts\n".utf8)))
        #expect(!ServedPlaylist.isHLS(Array("#EXTM3U\n#EXTINF:-1,Radio\nhttp://r/live\n".utf8)))
    }

    @Test func aServersTypeNamesTheAudioWhenItsFirstBytesDoNot() {
        #expect(FileContent(mediaType: "audio/aacp") == .adts)
        #expect(FileContent(mediaType: "Audio/MPEG ; charset=x") == .mpegAudio)
        #expect(FileContent(mediaType: "text/html") == nil)
    }

    /// AAC joined mid-frame is read from the first header two more follow, not from a false one.
    @Test func aacIsJoinedAtItsFirstWholeFrame() {
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x9F, 0xFC] + [UInt8](repeating: 0x11, count: 13)  // 20 bytes
        let falseHeader: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x01, 0x1F, 0xFC, 0x00, 0x00]  // says 8 bytes: no header follows
        #expect(AdtsSync.firstFrame(in: Array("junk!".utf8) + frame + frame + frame) == 5)
        #expect(AdtsSync.firstFrame(in: falseHeader + frame + frame + frame) == falseHeader.count)
        #expect(AdtsSync.firstFrame(in: frame + frame) == nil, "two frames are not yet sure")
        #expect(AdtsSync.firstFrame(in: Array(repeating: 0xFF, count: 4096)) == nil)
    }

    // MARK: In a run

    private func session(_ paths: [Path], served: [Path: ServedPlaylist]) -> (Session, FakeEngine, TestSeams) {
        let engine = FakeEngine(goodPaths: ["a.mp3", "c.mp3", "http://r/one", "http://r/two"])
        engine.servedPlaylists = served
        let seams = TestSeams()
        let session = Session(engine: engine, entries: EntryList(paths.map { Entry(path: $0) }), seams: seams.seams)
        return (session, engine, seams)
    }

    private func served(_ url: String, _ entries: [String]) -> ServedPlaylist {
        ServedPlaylist(url: url, format: .m3u, entries: entries.enumerated().map { Entry(path: Path($1), origin: SourceLocation(file: url, line: $0 + 1)) },
                       problems: [])
    }

    @Test func itsStreamsTakeItsPlaceInTheListAndTheFirstPlays() {
        let (session, _, seams) = session(["a.mp3", "http://r/list.pls", "c.mp3"],
                                          served: ["http://r/list.pls": served("http://r/list.pls", ["http://r/one", "http://r/two"])])
        session.start()
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.entries.map(\.path) == ["a.mp3", "http://r/one", "http://r/two", "c.mp3"])
        #expect(session.state.song?.path == "http://r/one" && session.state.id == .play)
        #expect(seams.lines.isEmpty, "\(seams.lines)")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "http://r/two", "then the next of it, then the list's next")
    }

    @Test func aPlaylistThatNamesItselfIsSaidOnceAndTheListGoesOn() {
        let (session, engine, seams) = session(["http://r/a.m3u", "c.mp3"],
                                               served: ["http://r/a.m3u": served("http://r/a.m3u", ["http://r/b.m3u"]),
                                                        "http://r/b.m3u": served("http://r/b.m3u", ["http://r/a.m3u"])])
        session.start()
        session.settle()
        #expect(session.state.song?.path == "c.mp3", "\(seams.lines)")
        #expect(engine.opened.map(\.path) == ["http://r/a.m3u", "http://r/b.m3u", "http://r/a.m3u", "c.mp3"])
        #expect(seams.lines == ["http://r/b.m3u:1: playlist cycle: http://r/a.m3u -> http://r/b.m3u -> http://r/a.m3u; not followed: http://r/a.m3u"])
        #expect(session.outcome.failures.count == 1)
    }

    /// A served playlist with no stream in it, the last entry of a run that stays open, is a
    /// song that could not be opened: the status says why (a playlist that plays is no failure).
    @Test func aRefusedPlaylistIsAFailureTheStatusNames() {
        let engine = FakeEngine(goodPaths: ["a.mp3"])
        engine.servedPlaylists = ["http://r/empty.pls": served("http://r/empty.pls", [])]
        let seams = TestSeams()
        let session = Session(engine: engine, entries: EntryList([Entry(path: "http://r/empty.pls")]),
                              policy: Session.Policy(keepsOpen: true), seams: seams.seams)
        session.start()
        session.settle()
        #expect(session.status.failure == "http://r/empty.pls: a playlist with no stream in it", "\(session.status)")
        #expect(seams.lines == ["http://r/empty.pls: a playlist with no stream in it"], "\(seams.lines)")
        #expect(session.adoptedPlaylist == nil && session.exitStatus == 1)
    }

    /// A playlist that was queued plays its first stream when its turn comes (the queue's next
    /// was once taken instead: the list's next song).
    @Test func aQueuedPlaylistPlaysItsFirstStream() {
        let (session, _, _) = session(["a.mp3", "c.mp3", "http://r/list.pls"],
                                      served: ["http://r/list.pls": served("http://r/list.pls", ["http://r/one", "http://r/two"])])
        session.start()
        session.settle()
        session.perform(.queueEntry(2))
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "http://r/one", "\(session.entries.map(\.path))")
    }

    /// A playlist that answers from another URL (a redirect, `http://x` made `http://x/`) and
    /// names itself is a cycle all the same.
    @Test func aCycleBehindARedirectIsACycle() {
        var redirected = served("https://r/a.m3u", ["http://r/a.m3u"])
        redirected.url = "https://r/a.m3u"
        let (session, engine, seams) = session(["http://r/a.m3u", "c.mp3"], served: ["http://r/a.m3u": redirected])
        session.start()
        session.settle()
        #expect(session.state.song?.path == "c.mp3", "\(seams.lines)")
        #expect(engine.opened.map(\.path) == ["http://r/a.m3u", "http://r/a.m3u", "c.mp3"])
        #expect(seams.lines.count == 1 && seams.lines[0].contains("playlist cycle"), "\(seams.lines)")
    }
}
