import Testing
@testable import PlayerCore

/// When a song counts as played: half of it or four minutes heard, seeks not heard.
struct ListeningTests {
    private func session() -> (Session, FakeEngine, TestSeams) {
        let engine = FakeEngine()
        let seams = TestSeams()
        let session = Session(engine: engine, entries: ["a.mp3", "b.mp3", "c.mp3"].map { Entry(path: Path($0)) }.reduce(into: EntryList()) {
            $0.append($1)
        }, seams: seams.seams)
        session.start()
        session.settle()
        return (session, engine, seams)
    }

    @Test func theThresholdIsHalfTheSongOrFourMinutes() {
        #expect(ListenTracker.threshold(length: 200) == 100)
        #expect(ListenTracker.threshold(length: 3600) == 240)
        #expect(ListenTracker.threshold(length: nil) == 240)
        #expect(ListenTracker.threshold(length: -5) == 0)
    }

    @Test func aSongCountsOnceHalfOfItIsHeard() {
        let (session, _, seams) = session()
        for second in 1...4 { session.hears(at: .seconds(Int64(second))) }
        #expect(seams.listens.isEmpty, "4 s of 10 heard")
        session.hears(at: .seconds(5))
        session.hears(at: .seconds(6))
        #expect(seams.listens.map(\.kind) == [.played] && seams.listens.first?.song.path == "a.mp3")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(seams.listens.count == 1, "once a play")
    }

    @Test func aSeeksJumpIsNotHeardAndNextBeforeCountingIsASkip() {
        let (session, engine, seams) = session()
        session.hears(at: .seconds(1))
        session.handle(.seeked(token: session.token, frame: 8 * 44100, took: 0))
        engine.position = 8 * 44100
        session.hears(at: .seconds(9))
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(seams.listens.isEmpty, "1 + 1 + 1 s heard of 10")
        session.hears(at: .seconds(2))
        session.perform(.next)
        session.settle()
        #expect(seams.listens.map(\.kind) == [.skipped] && seams.listens.first?.song.path == "b.mp3")
    }

    @Test func aSongPlayedWholeWithoutALookCountsAtItsEnd() {
        let (session, _, seams) = session()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(seams.listens.map(\.kind) == [.played] && seams.listens.first?.heard == 10)
    }
}
