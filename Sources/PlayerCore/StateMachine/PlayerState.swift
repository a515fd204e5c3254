/// The name of a state: what the transition table, the trace and the status line use.
public enum StateID: String, CaseIterable, Sendable {
    /// No song is loaded: the start, and where a failed load lands.
    case idle = "Idle"
    /// A song is being opened on the playback thread; keys keep working meanwhile.
    case loading = "Loading"
    /// A song is open, its header read, and it waits to play.
    case prepare = "Prepare"
    case play = "Play"
    /// Output held; the position is kept and `play` resumes from it.
    case stop = "Stop"
    /// The device went away mid-song; the position is kept until it comes back.
    case deviceLost = "DeviceLost"
}

extension [SeekTarget] {
    /// The most seeks kept while nothing is open: a person cannot press so many while a song
    /// loads; a script or a D-Bus client can send a million.
    static let pendingLimit = 256

    /// Adds `target` to the seeks to make once a song opens. A seek to a place (a time, a
    /// fraction, a saved place) makes the ones before it moot; past the limit a step is dropped.
    mutating func remember(_ target: SeekTarget) {
        switch target {
        case .to, .fraction, .resume: self = [target]
        case .by, .sequence: if count < Self.pendingLimit { append(target) }
        }
    }
}

/// No song. Seeks asked for now apply to the next song that loads (as `mpv --start` does).
public struct IdleState: Equatable, Sendable {
    public var pendingSeeks: [SeekTarget] = []
    /// Why the last load failed, when that is how the player came here.
    public var lastFailure: LoadError?

    public init(pendingSeeks: [SeekTarget] = [], lastFailure: LoadError? = nil) {
        self.pendingSeeks = pendingSeeks
        self.lastFailure = lastFailure
    }
}

/// A song being opened: the seeds' multi-step process, which ends in `Prepare` or, with the
/// reason, in `Idle`.
public struct LoadingState: Equatable, Sendable {
    public let path: Path
    /// Engine reports about this song carry it; reports carrying another are stale.
    public let token: Int
    /// Whether to play as soon as the song is open (a `play` while loading asks for it).
    public var startsPlaying = false
    /// Seeks asked for before the song was open, applied in order once it is.
    public var pendingSeeks: [SeekTarget] = []
}

/// A song open and waiting at its position.
public struct PrepareState: Equatable, Sendable {
    public let song: SongInfo
    public let token: Int
}

public struct PlayState: Equatable, Sendable {
    public let song: SongInfo
    public let token: Int
}

/// Output held; `play` goes on from the same sample.
public struct StopState: Equatable, Sendable {
    public let song: SongInfo
    public let token: Int
}

/// The device went away mid-song; it plays on when the device is back.
public struct DeviceLostState: Equatable, Sendable {
    public let song: SongInfo
    public let token: Int
}

/// The player's state: one of six structs, each holding exactly the data valid in it (a loaded
/// state's song is never optional).
public enum PlayerState: Equatable, Sendable {
    case idle(IdleState)
    case loading(LoadingState)
    case prepare(PrepareState)
    case play(PlayState)
    case stop(StopState)
    case deviceLost(DeviceLostState)

    public var id: StateID {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .prepare: .prepare
        case .play: .play
        case .stop: .stop
        case .deviceLost: .deviceLost
        }
    }

    /// The open song, in the states that have one.
    public var song: SongInfo? {
        switch self {
        case .idle, .loading: nil
        case .prepare(let state): state.song
        case .play(let state): state.song
        case .stop(let state): state.song
        case .deviceLost(let state): state.song
        }
    }

    /// The token of the song being opened or open; `nil` in `Idle`.
    public var token: Int? {
        switch self {
        case .idle: nil
        case .loading(let state): state.token
        case .prepare(let state): state.token
        case .play(let state): state.token
        case .stop(let state): state.token
        case .deviceLost(let state): state.token
        }
    }

    /// Playing, or about to: a song playing, waiting for its device, or opening to play.
    public var isPlaying: Bool {
        switch self {
        case .play, .deviceLost: true
        case .loading(let state): state.startsPlaying
        case .idle, .prepare, .stop: false
        }
    }

    /// The path of the song being opened or open.
    public var path: Path? {
        if case .loading(let state) = self { return state.path }
        return song?.path
    }
}
