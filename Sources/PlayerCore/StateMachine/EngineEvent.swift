/// What the engine reports back, asynchronously, to whoever drives the context.
public enum EngineEvent: Equatable, Sendable {
    /// The song opened with `token` has played to its end.
    case ended(token: Int)
    /// Decoding the song failed after it had started; it is treated as ended.
    case decodeFailed(token: Int, message: String)
    /// The output device stopped accepting audio; the position is kept.
    case deviceLost(token: Int, message: String)
    /// The output device is back and ready to resume.
    case deviceRestored(token: Int)
    /// The output cannot take audio at all (a file that cannot be written): the run ends.
    case outputFailed(message: String)
    /// The requested live device could not be opened; output goes to the null device instead.
    case outputFallback(message: String)
    /// Something to say of the output that plays on as it is (a Snapcast server that stopped
    /// reading, or reads again; the format it was told to write).
    case outputNotice(message: String)
    /// The audio time granted as `id` (see `PlaybackEngine.grant`) has been played.
    case budgetSpent(id: Int)
    /// The song asked for with `token` is open and waits to play.
    case opened(SongInfo, token: Int)
    /// The song asked for with `token` could not be opened.
    case openFailed(LoadError, token: Int)
    /// What was asked for with `token` (`path`) is a playlist served over http (a radio's
    /// `.pls`), not a song: its entries play in its place.
    case servedPlaylist(ServedPlaylist, path: Path, token: Int)
    /// The stream is damaged at `at` (libmpg123's `reason`): the song ended there, as in mpg123.
    case damaged(token: Int, at: AudioTime, reason: String)
    /// The stream was damaged at `at`; about `seconds` of the song were skipped there, and it
    /// plays on.
    case damageSkipped(token: Int, at: AudioTime, seconds: Double)
    /// What the playback thread does now (for `--trace`: holds for a script's budget, retries).
    case playback(PlaybackPhase)
    /// A seek in the song with `token` landed at `frame` (the status line shows the new place),
    /// after `took` seconds on the playback thread (for `--trace`).
    case seeked(token: Int, frame: Int64, took: Double)
    /// The live device's buffer, measured by filling it once, and how much of it the playback
    /// thread keeps queued, in seconds (for `--trace`).
    case deviceBuffer(seconds: Double, kept: ClosedRange<Double>)
    /// What the internet stream `path` says as it plays: its station, a new title, a
    /// reconnection (on the network's thread, whenever it comes).
    case stream(path: Path, news: StreamNews)
}

/// What the playback thread is doing, as it reports it.
public enum PlaybackPhase: Equatable, Sendable, CustomStringConvertible {
    case idle
    case playing
    /// A script's granted audio time is used up: output holds until the next grant.
    case heldByBudget
    /// The device went away; it has been tried `retries` times since, every half second.
    case waitingForDevice(retries: Int)
    /// Playing, but what was decoded ahead has all played: the disk or the network is slow.
    case waitingForDecoder

    public var description: String {
        switch self {
        case .idle: "idle"
        case .playing: "playing"
        case .heldByBudget: "held (the script's time is used up)"
        case .waitingForDevice(0): "waiting for the device"
        case .waitingForDevice(let retries): "waiting for the device (tried \(retries) time\(retries == 1 ? "" : "s"))"
        case .waitingForDecoder: "waiting for the decoder (the disk or the network is slow)"
        }
    }
}
