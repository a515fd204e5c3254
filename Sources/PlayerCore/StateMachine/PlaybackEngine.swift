/// The audio engine the player's states share: what the state machine's calls go to.
///
/// The live implementation (`AudioEngine.Engine`) posts each call to its playback thread and
/// returns at once; what comes of it (a song opened, or why not; its end) arrives later as an
/// `EngineEvent`. The test implementation records the calls and answers to order.
public protocol PlaybackEngine: AnyObject {
    /// Makes one call: every effect the session and the script runner want goes through here.
    func perform(_ call: EngineCall)
    /// Frames of the current song already handed to the output.
    var position: Int64 { get }
    /// What is left of the current grant (`EngineCall.grant`); `.zero` with none.
    var grantLeft: AudioTime { get }
}

/// An engine a main loop drives: its reports arrive on a descriptor a `poll` loop watches, and
/// shutting it down is bounded in time.
public protocol PlayerEngine: PlaybackEngine {
    /// Readable when reports are waiting.
    var eventFD: Int32 { get }
    /// The reports since the last call, oldest first.
    func takeEvents() -> [EngineEvent]
    /// Closes the output (a file's final header) and ends the engine, waiting a bounded time.
    func shutdown() -> EngineShutdown
    /// The device or file it plays to, for messages (`pulse`, `out.wav`).
    var outputName: String { get }
    /// Whether it writes a file (as fast as decoding allows) rather than a live device.
    var writesFile: Bool { get }
}

/// How the engine ended.
public enum EngineShutdown: Equatable, Sendable {
    /// The output closed cleanly (a file has its final header).
    case closed
    /// Closing the output failed: why, in one line.
    case failed(String)
    /// The playback thread did not stop in time (a device that no longer answers): it was left
    /// behind, and a file being written may lack its final header.
    case timedOut
}

/// A call on the engine: those the state machine's rows make (stop, open, play, seek), the
/// session's volume and the song it cues, and the script's pacing.
public enum EngineCall: Equatable, Sendable, CustomStringConvertible {
    /// Holds output at the current position.
    case stop
    /// Stops the song and opens `path` on the playback thread; the answer (`opened` or
    /// `openFailed`) and every later report about this song carry `token`.
    case open(SongSource, token: Int)
    /// Starts or resumes output from the current position.
    case play
    /// Moves the position where the target says, sample-accurately (a relative target counts
    /// from where the engine is when it gets there).
    case seek(SeekTarget)
    /// Software volume, 0 to 1 (libmpg123 scales the decoded samples); kept across songs.
    case setVolume(Double)
    /// Plays this fraction faster (and higher) on a live device, by playing at another rate;
    /// kept across songs (mpg123's `PITCH`), from `slowestPitch` to `fastestPitch`.
    case setPitch(Double)
    /// Which ReplayGain the songs opened from now on get (`--replaygain`; auto's choice changes
    /// with shuffle); the song playing keeps its own.
    case setReplayGain(ReplayGainChoice)
    /// The song that follows the current one if it plays to its end (`nil`: none), for an
    /// engine that opens it ahead to start it without a gap. A repeat of the last cue is free.
    case cue(SongSource?)
    /// Script pacing. Limited, the engine plays only audio time it has been granted: output
    /// holds (in any state) until `grant`, and `budgetSpent` reports when a grant is used up.
    /// Unlimited (the start) it plays freely.
    case limitPlayback(Bool)
    /// Allows `time` more audio to be played (replacing what was left), reported as grant `id`.
    case grant(AudioTime, id: Int)
    /// Takes back what is left of the current grant; none is reported for it.
    case revokeGrant

    /// The slowest a pitch plays (mpg123's bound): 1 % of the song's speed.
    public static let slowestPitch = -0.99
    /// The fastest asked for: 101 times the song's speed (the output's highest rate bounds what
    /// is played, as the hardware bounds mpg123's).
    public static let fastestPitch = 100.0

    /// `value` within the pitches played (a front-end may send 1e308).
    public static func pitch(_ value: Double) -> Double {
        min(max(value, slowestPitch), fastestPitch)
    }

    public var description: String {
        switch self {
        case .stop: "stop"
        case .open(let path, _): "open \(path)"
        case .play: "play"
        case .seek(let target): "seek \(target)"
        case .setVolume(let fraction): "volume \(fraction)"
        case .setPitch(let value): "pitch \(value)"
        case .setReplayGain(let choice): "replaygain \(choice)"
        case .cue(let path): "cue \(path.map { "\($0)" } ?? "nothing")"
        case .limitPlayback(let limited): "limit \(limited)"
        case .grant(let time, let id): "grant \(time.seconds)s as \(id)"
        case .revokeGrant: "revoke grant"
        }
    }

    /// A call the transition table lists, without its payload (`rewind` is a seek to 0).
    public enum Kind: String, CaseIterable, Sendable {
        case stop
        case open
        case play
        case rewind
        /// To the event's target (or, when a song opens, to the targets asked for before).
        case seek
    }
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
    /// The song asked for with `token` is open and waits to play.
    case opened(SongInfo, token: Int)
    /// The song asked for with `token` could not be opened.
    case openFailed(LoadError, token: Int)
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
}

/// What the playback thread is doing, as it reports it.
public enum PlaybackPhase: Equatable, Sendable, CustomStringConvertible {
    case idle
    case playing
    /// A script's granted audio time is used up: output holds until the next grant.
    case heldByBudget
    /// The device went away; it has been tried `retries` times since, every half second.
    case waitingForDevice(retries: Int)
    /// Playing, but what was decoded ahead has all played: the disk is slow.
    case waitingForDecoder

    public var description: String {
        switch self {
        case .idle: "idle"
        case .playing: "playing"
        case .heldByBudget: "held (the script's time is used up)"
        case .waitingForDevice(0): "waiting for the device"
        case .waitingForDevice(let retries): "waiting for the device (tried \(retries) time\(retries == 1 ? "" : "s"))"
        case .waitingForDecoder: "waiting for the decoder (the disk is slow)"
        }
    }
}

/// Why a song could not be loaded: a reason the caller can switch on, and say.
public enum LoadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case missing
    /// The system refused: permission denied, too many open files, file name too long.
    case notReadable(String)
    case isDirectory
    /// A named pipe, a device or a socket: never opened as a song.
    case notRegular(String)
    case empty
    /// Nothing in the file is audio that a decoder knows (no MPEG frames, no container FFmpeg reads).
    case notAudio
    /// The file's first bytes say it is something no decoder plays (an image, a playlist, Speex
    /// in Ogg…): it is never searched for MPEG frames, which such data can hold by chance and
    /// would play as noise.
    case otherFormat(FileContent)
    /// The format's decoder library could not be loaded (it is loaded when first needed).
    case decoderMissing(String)
    /// Audio, but its decoder cannot decode it (its reason).
    case damaged(String)
    /// The file `-w` is writing: reading it while it grows would never end.
    case isOutput
    /// The song's header claims a rate or channel count past `PlayableFormat`'s: refused, never
    /// multiplied out (2,000,000,000 Hz, 200 channels).
    case unplayableFormat(rate: Int, channels: Int)

    public var description: String {
        switch self {
        case .missing: "no such file"
        case .notReadable(let reason): reason
        case .isDirectory: "is a directory, not a song"
        case .notRegular(let kind): "not a regular file (it is a \(kind))"
        case .empty: "file is empty"
        case .notAudio: "not an audio format tplayer plays (no MPEG audio or other format found in it)"
        case .otherFormat(let content) where content.isAudio: "\(content), which tplayer cannot decode"
        case .otherFormat(let content) where content.isList:
            "\(content), not a song: play it as a list (name it as an input, or LOADLIST it with -R)"
        case .otherFormat(let content): "not an audio format tplayer plays (it looks like \(content))"
        case .decoderMissing(let library): "its decoder, \(library), cannot be loaded; install it"
        case .damaged(let reason): "cannot decode it: \(reason)"
        case .isOutput: "that is the file -w is writing; not played"
        case .unplayableFormat(let rate, let channels):
            "its header claims \(rate) Hz and \(channels) channels; tplayer plays \(PlayableFormat.description)"
        }
    }
}

/// The formats tplayer plays and writes: 1 Hz to 768 kHz (twice DXD's rate), 1 to 64 channels.
/// Every rate and channel count a decoder gives is checked against these before anything is
/// multiplied by it (buffer sizes, a file's header, a device's format, a pitch).
public enum PlayableFormat {
    public static let rates = 1...768_000
    public static let channels = 1...64

    public static func contains(rate: Int, channels count: Int) -> Bool {
        rates.contains(rate) && channels.contains(count)
    }

    public static let description = "1 Hz to 768 kHz, 1 to 64 channels"
}

/// A song that could not be loaded, and why.
public struct LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: Path
    public let reason: LoadFailure

    public init(path: Path, reason: LoadFailure) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
