/// The name of a state: what the transition table, the trace and the status line use.
public enum StateID: String, CaseIterable, Sendable {
    /// No song is loaded: the start, and where a failed load lands.
    case idle = "Idle"
    /// A song is open, its header read, and it waits to play.
    case prepare = "Prepare"
    case play = "Play"
    /// Output held; the position is kept and `play` resumes from it.
    case stop = "Stop"
    /// The device went away mid-song; the position is kept until it comes back.
    case deviceLost = "DeviceLost"
}

/// One state of the player. Every state shares the one engine and knows the song it is about.
///
/// States are values: a transition builds the next state rather than mutating the current one,
/// so the context never holds a half-applied state.
public protocol PlayerState {
    static var id: StateID { get }
    var engine: any PlaybackEngine { get }
    /// The loaded song; `nil` only in `IdleState`.
    var song: SongInfo? { get }
}

extension PlayerState {
    public var id: StateID { Self.id }
}

public struct IdleState: PlayerState {
    public static let id = StateID.idle
    public let engine: any PlaybackEngine
    public var song: SongInfo? { nil }
}

public struct PrepareState: PlayerState {
    public static let id = StateID.prepare
    public let engine: any PlaybackEngine
    public let song: SongInfo?
}

public struct PlayState: PlayerState {
    public static let id = StateID.play
    public let engine: any PlaybackEngine
    public let song: SongInfo?
}

public struct StopState: PlayerState {
    public static let id = StateID.stop
    public let engine: any PlaybackEngine
    public let song: SongInfo?
}

public struct DeviceLostState: PlayerState {
    public static let id = StateID.deviceLost
    public let engine: any PlaybackEngine
    public let song: SongInfo?
}

extension StateID {
    /// Builds the state named by `self` around the shared engine.
    func make(engine: any PlaybackEngine, song: SongInfo?) -> any PlayerState {
        switch self {
        case .idle: IdleState(engine: engine)
        case .prepare: PrepareState(engine: engine, song: song)
        case .play: PlayState(engine: engine, song: song)
        case .stop: StopState(engine: engine, song: song)
        case .deviceLost: DeviceLostState(engine: engine, song: song)
        }
    }
}
