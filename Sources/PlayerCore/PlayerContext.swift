/// The player's state machine, as a value: it holds the current state, and handling an event
/// performs no I/O. It returns what happened (the transitions taken) and the engine calls to
/// make; whoever drives it (the `Session`) makes them on the one engine all states share.
///
/// Every move comes from `TransitionTable`; an event the table does not list for the current
/// state is ignored, and so is an engine report about an earlier song.
public struct PlayerContext: Sendable {
    public private(set) var state = PlayerState.idle(IdleState())
    /// The last token handed out; each load takes a new one.
    public private(set) var lastToken = 0

    public init() {}

    /// One transition taken, and the event that took it.
    public struct Step: Equatable, Sendable, CustomStringConvertible {
        public let transition: Transition
        public let event: PlayerEvent

        /// `Prepare -> Play (play)`: how `--trace` shows it.
        public var description: String {
            "\(transition.from.rawValue) -> \(transition.to.rawValue) (\(event))"
        }
    }

    /// What handling an event did: the transitions (none when it was ignored) and the engine
    /// calls to make, in order.
    public struct Outcome: Equatable, Sendable {
        public var steps: [Step] = []
        public var calls: [EngineCall] = []

        public var isIgnored: Bool { steps.isEmpty }
    }

    @discardableResult
    public mutating func handle(_ event: PlayerEvent) -> Outcome {
        var outcome = Outcome()
        apply(event, to: &outcome)
        return outcome
    }

    private mutating func apply(_ event: PlayerEvent, to outcome: inout Outcome) {
        if let token = event.token, token != state.token { return }  // about an earlier song
        guard let transition = TransitionTable.transition(from: state.id, on: event.kind) else { return }
        let before = state
        let (next, calls) = move(transition, on: event)
        state = next
        outcome.steps.append(Step(transition: transition, event: event))
        outcome.calls += calls
        // A `play` asked for while the song was opening takes effect as soon as it is open.
        if case .opened = event, case .loading(let loading) = before, loading.startsPlaying {
            apply(.play, to: &outcome)
        }
    }

    /// The state `transition` leads to from the current one on `event`, and its engine calls.
    private mutating func move(_ transition: Transition, on event: PlayerEvent) -> (PlayerState, [EngineCall]) {
        switch (state, event) {
        case (_, .load(let path)):
            lastToken += 1
            var loading = LoadingState(path: path, token: lastToken)
            if case .idle(let idle) = state { loading.pendingSeeks = idle.pendingSeeks }
            return (.loading(loading), [.stop, .open(path, token: lastToken)])
        case (.idle(var idle), .seek(let target)):
            idle.pendingSeeks.append(target)
            return (.idle(idle), [])
        case (.loading(var loading), _):
            switch event {
            case .play: loading.startsPlaying = true
            case .stop: loading.startsPlaying = false
            case .toggle: loading.startsPlaying.toggle()
            case .seek(let target): loading.pendingSeeks.append(target)
            case .opened(let song, _):
                return (.prepare(PrepareState(song: song, token: loading.token)), loading.pendingSeeks.map { .seek($0) })
            default: return (.idle(IdleState()), [])  // open failed
            }
            return (.loading(loading), [])
        case (_, .seek(let target)):
            return (state, [.seek(target)])
        default:
            guard let song = state.song, let token = state.token else { return (.idle(IdleState()), []) }
            let calls = transition.calls.compactMap { kind -> EngineCall? in
                switch kind {
                case .stop: .stop
                case .play: .play
                case .rewind: .seek(.to(.zero))
                case .open, .seek: nil  // made above, with their payloads
                }
            }
            switch transition.to {
            case .prepare: return (.prepare(PrepareState(song: song, token: token)), calls)
            case .play: return (.play(PlayState(song: song, token: token)), calls)
            case .stop: return (.stop(StopState(song: song, token: token)), calls)
            case .deviceLost: return (.deviceLost(DeviceLostState(song: song, token: token)), calls)
            case .idle, .loading: return (.idle(IdleState()), calls)
            }
        }
    }
}
