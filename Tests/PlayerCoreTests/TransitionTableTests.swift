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
        .play: (.idle, []),
        .toggle: (.idle, []),
    ],
    .loading: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .play: (.loading, []),
        .stop: (.loading, ["stop"]),
        .toggle: (.loading, ["stop"]),
        .seek: (.loading, []),
        .opened: (.prepare, []),
        .openFailed: (.idle, []),
        .served: (.idle, []),
    ],
    .prepare: [
        .load: (.loading, ["stop", "open a.mp3"]),
        .play: (.play, ["play"]),
        .toggle: (.play, ["play"]),
        .seek: (.prepare, ["seek 2.0s"]),
    ],
    .play: [
        .load: (.loading, ["skip", "open a.mp3"]),
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
    case .served: .served(token: 1)
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
            #expect(outcome.step.map { "\($0.transition.from)/\($0.transition.to)" } == "\(state)/\(next)")
        } else {
            #expect(outcome.isIgnored)
            #expect(outcome.calls.isEmpty, "an ignored event must not touch the engine")
            #expect(context.state.id == state)
        }
    }

    @Test func theTableHasExactlyTheExpectedRows() {
        let count = expected.values.map(\.count).reduce(0, +)
        // A song opening has a row for each of what was asked while it loaded.
        #expect(TransitionTable.rows.count == count + 3)
        let pairs = TransitionTable.rows.map { "\($0.from)/\($0.on)/\($0.when)" }
        #expect(Set(pairs).count == pairs.count, "one row per (state, event, condition)")
        let opened = TransitionTable.rows.filter { $0.from == .loading && $0.on == .opened }
        #expect(opened.map(\.when) == [.asked(play: false, seek: false), .asked(play: false, seek: true),
                                        .asked(play: true, seek: false), .asked(play: true, seek: true)])
    }

    /// Whatever was asked while a song loaded, one row says what its opening does.
    @Test func aSongOpensIntoWhatWasAskedWhileItLoaded() {
        for play in [false, true] {
            for seek in [false, true] {
                var context = PlayerContext()
                context.handle(.load("a.mp3"))
                if seek { context.handle(.seek(.to(.seconds(3)))) }
                if play { context.handle(.play) }
                let outcome = context.handle(.opened(songA, token: 1))
                #expect(context.state.id == (play ? .play : .prepare))
                #expect(outcome.calls == (seek ? [.seek(.to(.seconds(3)))] : []) + (play ? [.play] : []))
                #expect(outcome.step?.transition.when == .asked(play: play, seek: seek))
            }
        }
    }

    @Test func markdownListsEveryRowAndADiagram() {
        let markdown = TransitionTable.markdown()
        #expect(markdown.hasPrefix("| From | Event | To | Engine calls | Then |\n"))
        #expect(markdown.contains("| Play | stop | Stop | stop | – |"))
        #expect(markdown.contains("| Idle | load | Loading | stop, open | – |"))
        #expect(markdown.contains("| Loading | opened, seek asked | Prepare | seek | – |"))
        #expect(markdown.contains("| Loading | opened, play and seek asked | Play | seek, play | – |"))
        #expect(markdown.contains("| Idle | toggle | Idle | – | start the list |"))
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
        #expect(opened.step?.description == "Loading -> Play (opened, play asked)")
        #expect(opened.calls == [.play])
        #expect(context.state == .play(PlayState(song: songA, token: 1)))
    }

    @Test func aSongThatCannotBeOpenedLandsInIdleWithTheReason() {
        var context = context(in: .play)
        context.handle(.load("missing.mp3"))
        let failed = context.handle(.openFailed(LoadError(path: "missing.mp3", reason: .missing), token: 2))
        #expect(failed.step?.description == "Loading -> Idle (open failed: no such file)")
        let reason = LoadError(path: "missing.mp3", reason: .missing)
        #expect(context.state == .idle(IdleState(lastFailure: reason)), "Idle keeps why")
        let play = context.handle(.play)
        #expect(play.calls.isEmpty && play.followUp == .startList, "nothing to play in Idle: the session starts the list")
        context.handle(.seek(.by(.seconds(1))))
        #expect(context.state == .idle(IdleState(pendingSeeks: [.by(.seconds(1))], lastFailure: reason)))
        context.handle(.load("a.mp3"))
        context.handle(.opened(songA, token: 3))
        context.handle(.load("gone.mp3"))
        context.handle(.openFailed(LoadError(path: "gone.mp3", reason: .empty), token: 4))
        #expect(context.state == .idle(IdleState(lastFailure: LoadError(path: "gone.mp3", reason: .empty))), "the last failure only")
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
        #expect(opened.calls == [.seek(.sequence([.to(.seconds(54 * 60)), .by(.seconds(5))])), .play], "in order, before playing")
    }

    @Test func loadingDropsTheSeeksOfTheSongItReplaces() {
        var context = PlayerContext()
        context.handle(.load("a.mp3"))
        context.handle(.seek(.to(.seconds(30))))
        context.handle(.load("b.mp3"))
        #expect(context.handle(.opened(songB, token: 2)).calls.isEmpty)
    }
}

struct SeekSequenceTests {
    /// A sequence lands where its targets would, made one after another, each clamped.
    @Test func eachTargetCountsFromWhereTheOneBeforeLanded() {
        let rate = 44100
        func frames(_ seconds: Int64) -> Int64 { seconds * Int64(rate) }
        #expect(SeekTarget.sequence([.to(.seconds(3)), .by(.seconds(5))]).frame(in: songA, from: 0) == frames(8))
        #expect(SeekTarget.sequence([.by(.seconds(-5)), .by(.seconds(8))]).frame(in: songA, from: frames(2)) == frames(8),
                "the step back stops at the start")
        #expect(SeekTarget.sequence([.to(.seconds(60)), .by(.seconds(-5))]).frame(in: songA, from: 0) == frames(5),
                "the first stops at the end (10 s)")
        #expect(SeekTarget.sequence([.fraction(permyriad: 5000), .by(.seconds(1))]).frame(in: songA, from: 0) == frames(6))
        #expect(SeekTarget.sequence([]).frame(in: songA, from: frames(3)) == frames(3))
        #expect(SeekTarget.sequence([.to(.seconds(3)), .by(.seconds(-1))]).description == "3.0s then -1.0s")
    }

    /// Seeks sent while nothing is open (a D-Bus client's million `Seek` calls) are bounded: a
    /// seek to a place replaces those before it, and past the limit a step is dropped.
    @Test func seeksWhileNothingIsOpenAreBounded() {
        var context = PlayerContext()
        for _ in 0..<100_000 { context.handle(.seek(.by(.seconds(3_000_000)))) }
        guard case .idle(let idle) = context.state else { return #expect(Bool(false), "still idle") }
        #expect(idle.pendingSeeks.count == 256)
        context.handle(.seek(.to(.seconds(5))))
        context.handle(.seek(.by(.seconds(1))))
        #expect(context.state == .idle(IdleState(pendingSeeks: [.to(.seconds(5)), .by(.seconds(1))])))
    }
}
