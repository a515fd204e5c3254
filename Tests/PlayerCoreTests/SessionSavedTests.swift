import Testing
@testable import PlayerCore

/// What a session saves for `--resume`.
struct SessionSavedTests {
    /// A run that ends while its song is still loading saves that song, from its start (it saved
    /// no song, and the resumed run began the list again).
    @Test func aSongStillLoadingIsTheOneSaved() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3"])
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: TestSeams().seams)
        session.start()
        session.settle()
        session.perform(.next)
        #expect(session.state.id == .loading)
        #expect(session.saved.current == 1)
        #expect(session.saved.position == .zero)
        session.settle()
        #expect(session.saved.current == 1)
    }
}
