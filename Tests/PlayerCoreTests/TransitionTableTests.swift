import Testing
@testable import PlayerCore

private let songA = SongInfo(path: "a.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000)
private let songB = SongInfo(path: "b.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000)

/// The expected behaviour, written out by hand (not read from `TransitionTable`), for every
/// (state, event) pair: the next state and the engine calls, or nil where the event is ignored.
private let expected: [StateID: [PlayerEvent.Kind: (StateID, [String])]] = [
    .idle: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .seek: (.idle, []),
    ],
    .loading: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .play: (.loading, []),
        .stop: (.loading, []),
        .toggle: (.loading, []),
        .seek: (.loading, []),
        .opened: (.prepare, []),
        .openFailed: (.idle, []),
    ],
    .prepare: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .play: (.play, ["play"]),
        .toggle: (.play, ["play"]),
        .seek: (.prepare, ["seek 2.0s"]),
    ],
    .play: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .stop: (.stop, ["stop"]),
        .toggle: (.stop, ["stop"]),
        .ended: (.prepare, ["seek 0.0s"]),
        .deviceLost: (.deviceLost, []),
        .seek: (.play, ["seek 2.0s"]),
    ],
    .stop: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .play: (.play, ["play"]),
        .toggle: (.play, ["play"]),
        .seek: (.stop, ["seek 2.0s"]),
    ],
    .deviceLost: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .deviceRestored: (.play, ["play"]),
        .stop: (.stop, ["stop"]),
        .toggle: (.stop, ["stop"]),
        .seek: (.deviceLost, ["seek 2.0s"]),
    ],
]

/// Events that bring a fresh context to each state (the song b.mp3 has token 1).
private let routes: [StateID: [PlayerEvent]] = [
    .idle: [],
    .loading: [.load("b.mp3")],
    .prepare: [.load("b.mp3"), .opened(songB, token: 1)],
    .play: [.load("b.mp3"), .opened(songB, token: 1), .play],
    .stop: [.load("b.mp3"), .opened(songB, token: 1), .play, .stop],
    .deviceLost: [.load("b.mp3"), .opened(songB, token: 1), .play, .deviceLost(token: 1)],
]

private func event(_ kind: PlayerEvent.Kind) -> PlayerEvent {
    switch kind {
    case .load: .load("a.mp3")
    case .play: .play
    case .stop: .stop
    case .toggle: .toggle
    case .seek: .seek(.to(.seconds(2)))
    case .opened: .opened(songB, token: 1)
    case .openFailed: .openFailed(LoadError(path: "b.mp3", reason: .missing), token: 1)
    case .ended: .ended(token: 1)
    case .deviceLost: .deviceLost(token: 1)
    case .deviceRestored: .deviceRestored(token: 1)
    }
}

private func context(in state: StateID) -> PlayerContext {
    var context = PlayerContext()
    routes[state, default: []].forEach { context.handle($0) }
    return context
}

struct TransitionTableTests {
    @Test(arguments: StateID.allCases, PlayerEvent.Kind.allCases)
    func eachStateAndEventGivesTheExpectedStateAndEngineCalls(state: StateID, kind: PlayerEvent.Kind) {
        var context = context(in: state)
        #expect(context.state.id == state)
        let outcome = context.handle(event(kind))
        if let (next, calls) = expected[state]?[kind] {
            #expect(context.state.id == next)
            #expect(outcome.calls.map(\.description) == calls)
            #expect(outcome.steps.map { "\($0.transition.from)/\($0.transition.to)" } == ["\(state)/\(next)"])
        } else {
            #expect(outcome.isIgnored)
            #expect(outcome.calls.isEmpty, "an ignored event must not touch the engine")
            #expect(context.state.id == state)
        }
    }

    @Test func theTableHasExactlyTheExpectedRows() {
        let count = expected.values.map(\.count).reduce(0, +)
        #expect(TransitionTable.rows.count == count)
        let pairs = TransitionTable.rows.map { "\($0.from)/\($0.on)" }
        #expect(Set(pairs).count == pairs.count, "one row per (state, event)")
    }

    @Test func markdownListsEveryRowAndADiagram() {
        let markdown = TransitionTable.markdown()
        #expect(markdown.hasPrefix("| From | Event | To | Engine calls |\n"))
        #expect(markdown.contains("| Play | stop | Stop | stop |"))
        #expect(markdown.contains("| Idle | load | Loading | stop, open |"))
        #expect(markdown.contains("| Loading | opened | Prepare | seek |"))
        #expect(markdown.contains("    DeviceLost --> Play: device restored"))
        let tableLines = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(tableLines.count == TransitionTable.rows.count + 2, "header, separator, one line per row")
    }
}

struct PlayerContextTests {
    @Test func playWhilePlayingDoesNothing() {
        var context = context(in: .play)
        #expect(context.handle(.play).isIgnored)
    }

    @Test func aPlayAskedForWhileLoadingPlaysAsSoonAsTheSongIsOpen() {
        var context = PlayerContext()
        #expect(context.handle(.load("a.mp3")).calls == [.stop, .open("a.mp3", token: 1)])
        #expect(context.handle(.play).calls.isEmpty, "nothing to play yet")
        let opened = context.handle(.opened(songA, token: 1))
        #expect(opened.steps.map(\.description) == ["Loading -> Prepare (opened)", "Prepare -> Play (play)"])
        #expect(opened.calls == [.play])
        #expect(context.state == .play(PlayState(song: songA, token: 1)))
    }

    @Test func aSongThatCannotBeOpenedLandsInIdleWithTheReason() {
        var context = context(in: .play)
        context.handle(.load("missing.mp3"))
        let failed = context.handle(.openFailed(LoadError(path: "missing.mp3", reason: .missing), token: 2))
        #expect(failed.steps.map(\.description) == ["Loading -> Idle (open failed: no such file)"])
        #expect(context.state == .idle(IdleState()))
        #expect(context.handle(.play).isIgnored, "nothing to play in Idle")
    }

    @Test func aReportAboutAnEarlierSongIsIgnored() {
        var context = context(in: .play)
        context.handle(.load("a.mp3"))
        #expect(context.handle(.opened(songB, token: 1)).isIgnored, "b.mp3's late answer")
        context.handle(.opened(songA, token: 2))
        context.handle(.play)
        #expect(context.handle(.ended(token: 1)).isIgnored)
        #expect(context.handle(.deviceLost(token: 1)).isIgnored)
        #expect(context.state.id == .play)
        #expect(context.state.song == songA)
    }

    @Test func seeksAskedForWithNoSongApplyToTheNextSongThatOpens() {
        var context = PlayerContext()
        context.handle(.seek(.to(.seconds(54 * 60))))
        context.handle(.load("a.mp3"))
        context.handle(.seek(.by(.seconds(5))))
        context.handle(.play)
        let opened = context.handle(.opened(songA, token: 1))
        #expect(opened.calls == [.seek(.to(.seconds(54 * 60))), .seek(.by(.seconds(5))), .play], "in order, before playing")
    }

    @Test func loadingDropsTheSeeksOfTheSongItReplaces() {
        var context = PlayerContext()
        context.handle(.load("a.mp3"))
        context.handle(.seek(.to(.seconds(30))))
        context.handle(.load("b.mp3"))
        #expect(context.handle(.opened(songB, token: 2)).calls.isEmpty)
    }
}
