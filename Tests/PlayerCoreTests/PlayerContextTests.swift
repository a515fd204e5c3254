import Testing
@testable import PlayerCore

struct PlayerContextTests {
    @Test func playWhilePlayingDoesNothing() {
        let engine = FakeEngine()
        let context = PlayerContext(engine: engine)
        context.handle(.load("a.mp3"))
        context.handle(.play)
        #expect(context.handle(.play) == .ignored)
        #expect(engine.calls.filter { $0 == "play" }.count == 1)
    }

    @Test func stopKeepsThePositionAndPlayResumesFromIt() {
        let engine = FakeEngine()
        let context = PlayerContext(engine: engine)
        context.handle(.load("a.mp3"))
        context.handle(.play)
        engine.position = 12345
        context.handle(.stop)
        context.handle(.play)
        #expect(engine.position == 12345)
        #expect(!engine.calls.contains { $0.hasPrefix("seek") }, "stop and play must not move the position")
    }

    @Test func aSongThatCannotBeLoadedLandsInIdleWithTheReason() {
        let engine = FakeEngine()
        let context = PlayerContext(engine: engine)
        context.handle(.load("a.mp3"))
        context.handle(.play)
        var trace: [String] = []
        context.onTransition = { transition, event in
            trace.append("\(transition.from.rawValue) -> \(transition.to.rawValue) (\(event))")
        }
        let outcome = context.handle(.load("missing.mp3"))
        #expect(outcome == .loadFailed(LoadError(path: "missing.mp3", reason: .missing)))
        #expect(context.state.id == .idle)
        #expect(context.state.song == nil)
        #expect(trace == ["Play -> Prepare (load missing.mp3)", "Prepare -> Idle (load failed)"])
        #expect(context.handle(.play) == .ignored, "nothing to play in Idle")
    }

    @Test func loadingGivesTheStateTheSongAndANewToken() {
        let engine = FakeEngine()
        let context = PlayerContext(engine: engine)
        context.handle(.load("a.mp3"))
        let first = context.token
        context.handle(.load("b.mp3"))
        #expect(context.token > first)
        #expect(context.state.song?.path == "b.mp3")
        #expect(context.state is PrepareState)
    }

    @Test func traceNamesEachTransitionAndItsEvent() {
        let context = PlayerContext(engine: FakeEngine())
        var trace: [String] = []
        context.onTransition = { transition, event in
            trace.append("\(transition.from.rawValue) -> \(transition.to.rawValue) (\(event))")
        }
        context.handle(.load("a.mp3"))
        context.handle(.play)
        context.handle(.toggle)
        context.handle(.stop)  // ignored: already stopped
        #expect(trace == ["Idle -> Prepare (load a.mp3)", "Prepare -> Play (play)", "Play -> Stop (toggle)"])
    }
}
