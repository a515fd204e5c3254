/// The player's state machine, as a value: it holds the current state, and handling an event
/// performs no I/O. It returns what happened (the transition taken) and the engine calls to
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
            let condition = transition.when == .always ? "" : ", \(transition.when)"
            return "\(transition.from.rawValue) -> \(transition.to.rawValue) (\(event)\(condition))"
        }
    }

    /// What handling an event did: the transition taken (none when it was ignored), the engine
    /// calls to make, in order, and what the session is to do next.
    public struct Outcome: Equatable, Sendable {
        public var step: Step?
        public var calls: [EngineCall] = []
        public var followUp: Transition.FollowUp?

        public var isIgnored: Bool { step == nil }
    }

    @discardableResult
    public mutating func handle(_ event: PlayerEvent) -> Outcome {
        if let token = event.token, token != state.token { return Outcome() }  // about an earlier song
        guard let row = TransitionTable.transition(from: state, on: event.kind) else { return Outcome() }
        let token = row.calls.contains(.open) ? lastToken + 1 : state.token
        let calls = row.calls.map { call($0, of: row, on: event, token: token) }
        state = entered(row, on: event, token: token)
        if let token { lastToken = max(lastToken, token) }
        return Outcome(step: Step(transition: row, event: event), calls: calls, followUp: row.then)
    }

    // MARK: - What a row makes

    /// The engine call a row lists, with its payload from the event or the state it leaves.
    private func call(_ kind: EngineCall.Kind, of row: Transition, on event: PlayerEvent, token: Int?) -> EngineCall {
        switch kind {
        case .stop: return .stop
        case .skip: return .skip
        case .play: return .play
        case .rewind: return .seek(.to(.zero))
        case .open:
            guard case .load(let source) = event, let token else { impossible(row, event) }
            return .open(source, token: token)
        case .seek:
            if case .seek(let target) = event { return .seek(target) }
            // A song opening: the seeks asked for while it loaded, in order, as one.
            guard case .loading(let loading) = state, let first = loading.pendingSeeks.first else { impossible(row, event) }
            return .seek(loading.pendingSeeks.count == 1 ? first : .sequence(loading.pendingSeeks))
        }
    }

    /// The state a row leads to: its data carried over from the state it leaves or taken from
    /// the event.
    private func entered(_ row: Transition, on event: PlayerEvent, token: Int?) -> PlayerState {
        switch row.to {
        case .idle: return .idle(idle(after: row, event))
        case .loading: return .loading(loading(after: row, event, token: token))
        case .prepare:
            let (song, token) = song(after: row, event)
            return .prepare(PrepareState(song: song, token: token))
        case .play:
            let (song, token) = song(after: row, event)
            return .play(PlayState(song: song, token: token))
        case .stop:
            let (song, token) = song(after: row, event)
            return .stop(StopState(song: song, token: token))
        case .deviceLost:
            let (song, token) = song(after: row, event)
            return .deviceLost(DeviceLostState(song: song, token: token))
        }
    }

    private func idle(after row: Transition, _ event: PlayerEvent) -> IdleState {
        switch (state, event) {
        case (.loading, .openFailed(let error, _)): return IdleState(lastFailure: error)
        case (.loading, .served): return IdleState()
        case (.idle(var idle), .seek(let target)):
            idle.pendingSeeks.remember(target)
            return idle
        case (.idle(let idle), .play), (.idle(let idle), .toggle): return idle
        case (.idle, _), (.loading, _), (.prepare, _), (.play, _), (.stop, _), (.deviceLost, _): impossible(row, event)
        }
    }

    private func loading(after row: Transition, _ event: PlayerEvent, token: Int?) -> LoadingState {
        switch (state, event) {
        case (_, .load(let source)):
            guard let token else { impossible(row, event) }
            var loading = LoadingState(path: source.path, token: token)
            // Seeks asked for with nothing loaded apply to this song.
            if case .idle(let idle) = state { loading.pendingSeeks = idle.pendingSeeks }
            return loading
        case (.loading(var loading), .play):
            loading.startsPlaying = true
            return loading
        case (.loading(var loading), .stop):
            loading.startsPlaying = false
            return loading
        case (.loading(var loading), .toggle):
            loading.startsPlaying.toggle()
            return loading
        case (.loading(var loading), .seek(let target)):
            loading.pendingSeeks.remember(target)
            return loading
        case (.idle, _), (.loading, _), (.prepare, _), (.play, _), (.stop, _), (.deviceLost, _): impossible(row, event)
        }
    }

    /// The song of a state that has one: the one that just opened, or the one already open.
    private func song(after row: Transition, _ event: PlayerEvent) -> (SongInfo, Int) {
        switch (state, event) {
        case (.loading(let loading), .opened(let song, let token)) where token == loading.token: return (song, token)
        case (.prepare(let state), _): return (state.song, state.token)
        case (.play(let state), _): return (state.song, state.token)
        case (.stop(let state), _): return (state.song, state.token)
        case (.deviceLost(let state), _): return (state.song, state.token)
        case (.idle, _), (.loading, _): impossible(row, event)
        }
    }

    /// A row the table holds that the state it leaves cannot take: a bug, never a user's doing.
    private func impossible(_ row: Transition, _ event: PlayerEvent) -> Never {
        preconditionFailure("transition \(row.from.rawValue) -> \(row.to.rawValue) on \(event) from state \(state)")
    }
}
