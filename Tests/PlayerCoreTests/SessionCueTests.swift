import Testing
@testable import PlayerCore

/// A CUE sheet's tracks in the session.
struct SessionCueTests {
    /// A CUE sheet's track is opened as its span of the image and named by the sheet: its title
    /// and performer win over the image's own tags (status line, details, MPRIS, `-R`).
    @Test func aSheetsTrackIsOpenedAsItsSpanAndNamedByTheSheet() {
        let engine = FakeEngine(goodPaths: ["album.flac"])
        var track = Entry(path: "album.flac", title: "Breathe")
        track.span = TrackSpan(start: 75, end: 150)
        track.sheetTags = SongInfo.Tags(title: "Breathe", artist: "The Band", album: "The Album")
        let session = Session(engine: engine, entries: [track, Entry(path: "album.flac")], seams: TestSeams().seams)
        session.start()
        session.settle()
        #expect(engine.opened.last == SongSource("album.flac", span: TrackSpan(start: 75, end: 150)))
        #expect(session.state.song?.title == "Breathe" && session.state.song?.album == "The Album")
        #expect(session.songName == "The Band – Breathe")
        #expect(session.state.song?.id3.v2?.title == "Breathe", "-R's @I speaks of the track")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.songName == "album.flac", "the image itself keeps its own tags")
    }
}
