/// Something that asks the player to change state: a user command or an engine report.
public enum PlayerEvent: Equatable, Sendable, CustomStringConvertible {
    /// Load the song at this path; it then waits in `Prepare`.
    case load(Path)
    case play
    case stop
    /// Play when not playing, stop when playing.
    case toggle
    /// The engine played the song to its end.
    case ended
    /// Opening the song of the last `load` failed (raised by the context itself).
    case loadFailed
    /// The output device went away mid-song.
    case deviceLost
    /// The output device is back.
    case deviceRestored
    /// Move the play position; the state stays as it is.
    case seek(SeekTarget)

    public var kind: Kind {
        switch self {
        case .load: .load
        case .play: .play
        case .stop: .stop
        case .toggle: .toggle
        case .ended: .ended
        case .loadFailed: .loadFailed
        case .deviceLost: .deviceLost
        case .deviceRestored: .deviceRestored
        case .seek: .seek
        }
    }

    public var description: String {
        switch self {
        case .load(let path): "load \(path)"
        case .seek(let target): "seek \(target)"
        default: kind.rawValue
        }
    }

    /// The event without its payload: what the transition table is keyed by.
    public enum Kind: String, CaseIterable, Sendable {
        case load
        case play
        case stop
        case toggle
        case ended
        case loadFailed = "load failed"
        case deviceLost = "device lost"
        case deviceRestored = "device restored"
        case seek
    }
}
