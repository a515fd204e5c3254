import Testing
@testable import PlayerCore

private func session(_ inputs: [String], good: Set<String> = ["a.mp3", "b.mp3", "c.mp3"]) -> (Session, FakeEngine, Reports) {
    let engine = FakeEngine(goodPaths: good)
    let session = Session(context: PlayerContext(engine: engine), inputs: inputs)
    let reports = Reports()
    session.report = { reports.lines.append($0) }
    return (session, engine, reports)
}

private final class Reports { var lines: [String] = [] }

struct SessionTests {
    @Test func playsTheFirstInputAndMovesOnWhenItEnds() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        #expect(session.context.state.id == .play)
        #expect(session.context.state.song?.path == "a.mp3")
        session.handle(.ended(token: session.context.token))
        #expect(session.context.state.song?.path == "b.mp3")
        #expect(session.index == 1)
        session.handle(.ended(token: session.context.token))
        #expect(session.isFinished)
        #expect(session.exitStatus == 0)
    }

    @Test func anInputThatCannotLoadIsReportedAndTheNextOnePlays() {
        let (session, _, reports) = session(["a.mp3", "missing.mp3", "c.mp3"])
        session.start()
        session.handle(.ended(token: session.context.token))
        #expect(reports.lines == ["missing.mp3: no such file"])
        #expect(session.context.state.song?.path == "c.mp3")
        #expect(session.context.state.id == .play)
        session.handle(.ended(token: session.context.token))
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
    }

    @Test func whenNoInputCanLoadTheSessionFinishesWithStatusOne() {
        let (session, _, reports) = session(["x.mp3", "y.mp3"])
        session.start()
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines.count == 2)
    }

    @Test func anEndReportAboutAnEarlierSongIsIgnored() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        let stale = session.context.token
        session.perform(.next)
        session.handle(.ended(token: stale))
        #expect(session.context.state.song?.path == "b.mp3")
        #expect(session.context.state.id == .play)
    }

    @Test func nextAndPreviousMoveThroughTheList() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.perform(.next)
        session.perform(.next)
        #expect(session.context.state.song?.path == "c.mp3")
        session.perform(.previous)
        #expect(session.context.state.song?.path == "b.mp3")
        session.perform(.previous)
        session.perform(.previous)  // at the first: plays it again from the start
        #expect(session.context.state.song?.path == "a.mp3")
        #expect(!session.isFinished)
        session.perform(.next)
        session.perform(.next)
        session.perform(.next)  // past the last: done
        #expect(session.isFinished)
    }

    @Test func previousSkipsBackOverInputsThatCannotLoad() {
        let (session, _, _) = session(["a.mp3", "bad.mp3", "c.mp3"])
        session.start()
        session.perform(.next)
        #expect(session.index == 2)
        session.perform(.previous)
        #expect(session.index == 0)
    }

    @Test func loadPlaysAnotherSongNowAndTheListGoesOnAfterIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.perform(.load("c.mp3"))
        #expect(session.context.state.song?.path == "c.mp3")
        #expect(session.context.state.id == .play)
        session.handle(.ended(token: session.context.token))
        #expect(session.context.state.song?.path == "b.mp3")
    }

    @Test func quitStopsAndFinishes() {
        let (session, engine, _) = session(["a.mp3"])
        session.start()
        session.perform(.quit)
        #expect(session.isFinished)
        #expect(engine.calls.last == "stop")
        #expect(session.exitStatus == 0)
    }

    @Test func aLostDeviceHoldsTheSongAndItsReturnResumesIt() {
        let (session, engine, reports) = session(["a.mp3"])
        session.start()
        engine.position = 500
        session.handle(.deviceLost(token: session.context.token, message: "gone"))
        #expect(session.context.state.id == .deviceLost)
        #expect(reports.lines == ["output: gone; will resume when it is back"])
        session.handle(.deviceRestored(token: session.context.token))
        #expect(session.context.state.id == .play)
        #expect(engine.position == 500)
    }

    @Test func anOutputThatFailsEndsTheRunWithStatusOne() {
        let (session, _, reports) = session(["a.mp3", "b.mp3"])
        session.start()
        session.handle(.outputFailed(message: "out.wav: cannot write"))
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines == ["out.wav: cannot write"])
    }
}
