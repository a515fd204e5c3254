/// Holds the player's current state and moves it through `TransitionTable`.
///
/// The context performs no I/O of its own: each transition's engine calls go to the shared
/// `PlaybackEngine`, which the live build backs with the playback thread and tests with a fake.
public final class PlayerContext {
    public private(set) var state: any PlayerState
    public let engine: any PlaybackEngine
    /// Called after every transition taken, with the event that caused it (for `--trace`).
    public var onTransition: ((Transition, PlayerEvent) -> Void)?
    /// The token of the song currently open; engine events carrying another token are stale.
    public private(set) var token = 0
    /// Software volume in percent (0–100). It belongs to the engine, not to a song, so it holds
    /// across songs and in every state.
    public private(set) var volume = 100

    public init(engine: any PlaybackEngine) {
        self.engine = engine
        self.state = IdleState(engine: engine)
    }

    /// What handling an event did.
    public enum Outcome: Equatable {
        /// The transition was taken.
        case moved(Transition)
        /// The event is not legal in the current state; nothing changed.
        case ignored
        /// A `load` failed: the context went on to `Idle`, and this says why.
        case loadFailed(LoadError)
    }

    /// Applies `event` if the table allows it in the current state; otherwise does nothing.
    @discardableResult
    public func handle(_ event: PlayerEvent) -> Outcome {
        guard let transition = TransitionTable.transition(from: state.id, on: event.kind) else {
            return .ignored
        }
        var song = state.song
        for call in transition.calls {
            switch call {
            case .stop: engine.stop()
            case .play: engine.play()
            case .rewind: engine.seek(.to(.zero))
            case .seek:
                guard case .seek(let target) = event, song != nil else { continue }
                engine.seek(target)
            case .open:
                guard case .load(let path) = event else { continue }
                token += 1
                do {
                    song = try engine.open(path, token: token)
                } catch {
                    move(transition, event, song: nil)
                    handle(.loadFailed)
                    return .loadFailed(error)
                }
            }
        }
        move(transition, event, song: song)
        return .moved(transition)
    }

    /// Sets the software volume, clamped to 0–100%.
    public func setVolume(_ percent: Int) {
        volume = min(max(percent, 0), 100)
        engine.setVolume(Double(volume) / 100)
    }

    private func move(_ transition: Transition, _ event: PlayerEvent, song: SongInfo?) {
        state = transition.to.make(engine: engine, song: song)
        onTransition?(transition, event)
    }
}
