/// What the state machine asks of the audio engine.
///
/// The live implementation (`AudioEngine.Engine`) posts each call to its playback thread; the
/// test implementation records the calls. Every call returns at once except `open`, which waits
/// for the playback thread to read the song's header, so a failure lands in a well-defined state.
public protocol PlaybackEngine: AnyObject {
    /// Stops output of the current song and opens `path`, reading its header, tags and length.
    /// Events about this song carry `token`, so late events about an earlier song are told apart.
    func open(_ path: Path, token: Int) throws(LoadError) -> SongInfo
    /// Starts or resumes output from the current position.
    func play()
    /// Holds output at the current position.
    func stop()
    /// Moves the current position to `frame`, counted in the song's own sample frames.
    func seek(toFrame frame: Int64)
    /// Frames of the current song already handed to the output.
    var position: Int64 { get }
    /// Software volume, 0 to 1 (libmpg123 scales the decoded samples); kept across songs.
    func setVolume(_ fraction: Double)

    /// Script pacing. With `limited`, the engine plays only audio time it has been granted:
    /// output holds (in any state) until `grant`, and `budgetSpent` reports when a grant is used
    /// up. Without it (the default) the engine plays freely.
    func limitPlayback(_ limited: Bool)
    /// Allows `time` more audio to be played (replacing what was left), reported as grant `id`.
    func grant(_ time: AudioTime, id: Int)
    /// Takes back what is left of the current grant (none is reported for it) and returns it.
    func revokeGrant() -> AudioTime
}

/// A call the transition table makes on the engine when a transition is taken.
public enum EngineCall: String, CaseIterable, Sendable {
    case stop
    case open
    case play
    case rewind
    /// Moves to the frame the event's `SeekTarget` names.
    case seek
}

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
    /// The audio time granted as `id` (see `PlaybackEngine.grant`) has been played.
    case budgetSpent(id: Int)
}

/// Why a song could not be loaded; `description` is the user-facing reason.
public struct LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: Path
    public let reason: String

    public init(path: Path, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
