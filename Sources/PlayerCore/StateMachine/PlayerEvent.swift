/// Something that asks the player to change state: a user command or an engine report. Engine
/// reports carry the token of the song they are about; the context ignores stale ones.
public enum PlayerEvent: Equatable, Sendable, CustomStringConvertible {
    /// Open this song (it then waits in `Prepare`).
    case load(SongSource)
    case play
    case stop
    /// Play when not playing, stop when playing.
    case toggle
    /// Move the play position; the state stays as it is.
    case seek(SeekTarget)
    /// The engine opened the song it was asked for.
    case opened(SongInfo, token: Int)
    /// The engine could not open it.
    case openFailed(LoadError, token: Int)
    /// What the engine opened is a playlist served over http, not a song.
    case served(token: Int)
    /// The engine played the song to its end.
    case ended(token: Int)
    /// The output device went away mid-song.
    case deviceLost(token: Int)
    /// The output device is back.
    case deviceRestored(token: Int)

    public var kind: Kind {
        switch self {
        case .load: .load
        case .play: .play
        case .stop: .stop
        case .toggle: .toggle
        case .seek: .seek
        case .opened: .opened
        case .openFailed: .openFailed
        case .served: .served
        case .ended: .ended
        case .deviceLost: .deviceLost
        case .deviceRestored: .deviceRestored
        }
    }

    /// The song the event is about, for an engine report.
    var token: Int? {
        switch self {
        case .opened(_, let token), .openFailed(_, let token), .served(let token), .ended(let token),
             .deviceLost(let token), .deviceRestored(let token):
            token
        case .load, .play, .stop, .toggle, .seek:
            nil
        }
    }

    public var description: String {
        switch self {
        case .load(let path): "load \(path)"
        case .seek(let target): "seek \(target)"
        case .openFailed(let error, _): "open failed: \(error.reason)"
        case .play, .stop, .toggle, .opened, .served, .ended, .deviceLost, .deviceRestored: kind.rawValue
        }
    }

    /// The event without its payload: what the transition table is keyed by.
    public enum Kind: String, CaseIterable, Sendable {
        case load
        case play
        case stop
        case toggle
        case seek
        case opened
        case openFailed = "open failed"
        case served = "a served playlist"
        case ended
        case deviceLost = "device lost"
        case deviceRestored = "device restored"
    }
}
