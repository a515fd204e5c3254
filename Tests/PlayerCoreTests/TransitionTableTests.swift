import Testing
@testable import PlayerCore

/// The expected behaviour, written out by hand (not read from `TransitionTable`), for every
/// (state, event) pair: the next state and the engine calls, or nil where the event is ignored.
private let expected: [StateID: [PlayerEvent.Kind: (StateID, [String])]] = [
    .idle: [
        .load: (.prepare, ["stop", "open a.mp3"]),
    ],
    .prepare: [
        .load: (.prepare, ["stop", "open a.mp3"]),
        .play: (.play, ["play"]),
        .toggle: (.play, ["play"]),
        .loadFailed: (.idle, []),
        .seek: (.prepare, ["seek 88200"]),
    ],
    .play: [
        .load: (.prepare, ["stop", "open a.mp3"]),
        .stop: (.stop, ["stop"]),
        .toggle: (.stop, ["stop"]),
        .ended: (.prepare, ["seek 0"]),
        .deviceLost: (.deviceLost, []),
        .seek: (.play, ["seek 88200"]),
    ],
    .stop: [
        .load: (.prepare, ["stop", "open a.mp3"]),
        .play: (.play, ["play"]),
        .toggle: (.play, ["play"]),
        .seek: (.stop, ["seek 88200"]),
    ],
    .deviceLost: [
        .load: (.prepare, ["stop", "open a.mp3"]),
        .deviceRestored: (.play, ["play"]),
        .stop: (.stop, ["stop"]),
        .toggle: (.stop, ["stop"]),
        .seek: (.deviceLost, ["seek 88200"]),
    ],
]

/// Events that bring a fresh context to each state.
private let routes: [StateID: [PlayerEvent]] = [
    .idle: [],
    .prepare: [.load("b.mp3")],
    .play: [.load("b.mp3"), .play],
    .stop: [.load("b.mp3"), .play, .stop],
    .deviceLost: [.load("b.mp3"), .play, .deviceLost],
]

private func event(_ kind: PlayerEvent.Kind) -> PlayerEvent {
    switch kind {
    case .load: .load("a.mp3")
    case .play: .play
    case .stop: .stop
    case .toggle: .toggle
    case .ended: .ended
    case .loadFailed: .loadFailed
    case .deviceLost: .deviceLost
    case .deviceRestored: .deviceRestored
    case .seek: .seek(.to(.seconds(2)))
    }
}

private func context(in state: StateID) -> (PlayerContext, FakeEngine) {
    let engine = FakeEngine()
    let context = PlayerContext(engine: engine)
    routes[state, default: []].forEach { context.handle($0) }
    engine.calls.removeAll()
    return (context, engine)
}

struct TransitionTableTests {
    @Test(arguments: StateID.allCases, PlayerEvent.Kind.allCases)
    func eachStateAndEventGivesTheExpectedStateAndEngineCalls(state: StateID, kind: PlayerEvent.Kind) {
        let (context, engine) = context(in: state)
        #expect(context.state.id == state)
        let outcome = context.handle(event(kind))
        if let (next, calls) = expected[state]?[kind] {
            #expect(context.state.id == next)
            #expect(engine.calls == calls)
            guard case .moved(let transition) = outcome else {
                Issue.record("expected a transition, got \(outcome)")
                return
            }
            #expect(transition.from == state && transition.to == next)
        } else {
            #expect(outcome == .ignored)
            #expect(context.state.id == state)
            #expect(engine.calls.isEmpty, "an ignored event must not touch the engine")
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
        #expect(markdown.contains("| Idle | load | Prepare | stop, open |"))
        #expect(markdown.contains("    DeviceLost --> Play: device restored"))
        let tableLines = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(tableLines.count == TransitionTable.rows.count + 2, "header, separator, one line per row")
    }
}
