/// A call on the engine: those the state machine's rows make (stop, open, play, seek), the
/// session's volume and the song it cues, and the script's pacing.
public enum EngineCall: Equatable, Sendable, CustomStringConvertible {
    /// Holds output at the current position.
    case stop
    /// Stops the song playing for the one opened next (a next, a previous, a jump asked for
    /// while it plays): as `stop`, but with a skip's fade set the two fade into each other.
    case skip
    /// Stops the song and opens `path` on the playback thread; the answer (`opened` or
    /// `openFailed`) and every later report about this song carry `token`.
    case open(SongSource, token: Int)
    /// Starts or resumes output from the current position.
    case play
    /// Moves the position where the target says, sample-accurately (a relative target counts
    /// from where the engine is when it gets there).
    case seek(SeekTarget)
    /// Software volume, 0 to 1 (the engine's processing stage scales the samples, after the
    /// decode-ahead queue: nothing is decoded again); kept across songs.
    case setVolume(Double)
    /// Plays this fraction faster (and higher) on a live device, by playing at another rate;
    /// kept across songs (mpg123's `PITCH`), from `slowestPitch` to `fastestPitch`.
    case setPitch(Double)
    /// Turns output `n` (0-based, of several) on or off while playing.
    case setOutputEnabled(Int, Bool)
    /// Plays this many times as fast at the song's own pitch (`--speed`, `[` `]`), from
    /// `slowestSpeed` to `fastestSpeed`; kept across songs. Position and time stay the song's.
    case setSpeed(Double)
    /// Which ReplayGain the songs get (`--replaygain`; auto's choice changes with shuffle). The
    /// song playing takes it at once where the processing stage applies its gain (every song
    /// libmpg123 does not decode); an MP3 keeps what libmpg123 applied as it opened, and the new
    /// mode is heard from the next MP3 opened.
    case setReplayGain(ReplayGainChoice)
    /// libmpg123's equaliser (mpg123's `-R` `EQ`, `SEQ`, `EQFILE`): each of its 32 bands' factor,
    /// left (`[0]`) and right (`[1]`), for MPEG audio decoded from now on (what is decoded ahead
    /// plays as it was); the other formats get the same bands in the processing stage, from the
    /// next samples written.
    case setEqualizer([[Double]])
    /// The listener's 10-band graphic equaliser, each band's gain in dB (`nil`: off), for every
    /// format, from the next samples written.
    case setGraphicEqualizer([Double]?)
    /// The song that follows the current one if it plays to its end (`nil`: none), for an
    /// engine that opens it ahead to start it without a gap. A repeat of the last cue is free.
    case cue(SongSource?)
    /// How songs join from now on: the crossfade at a song's end and a skip's fade
    /// (`CrossfadeSetting`); the engine decides at each join whether it fades.
    case setCrossfade(CrossfadeSetting)
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

    /// The speeds played at the song's own pitch (`--speed`): a quarter to four times its own.
    public static let slowestSpeed = 0.25
    public static let fastestSpeed = 4.0

    /// `value` within the speeds played (a front-end may send 1e308, or NaN: the song's own).
    public static func speed(_ value: Double) -> Double {
        value.isNaN ? 1 : min(max(value, slowestSpeed), fastestSpeed)
    }

    /// `value` within the pitches played (a front-end may send 1e308).
    public static func pitch(_ value: Double) -> Double {
        min(max(value, slowestPitch), fastestPitch)
    }

    /// Whether it opens a song (the playback thread takes commands up to one: see `PlaybackLoop.run`).
    public var isOpen: Bool {
        if case .open = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .stop: "stop"
        case .skip: "skip"
        case .open(let path, _): "open \(path)"
        case .play: "play"
        case .seek(let target): "seek \(target)"
        case .setVolume(let fraction): "volume \(fraction)"
        case .setPitch(let value): "pitch \(value)"
        case .setOutputEnabled(let index, let on): "output \(index + 1) \(on ? "on" : "off")"
        case .setSpeed(let value): "speed \(value)"
        case .setReplayGain(let choice): "replaygain \(choice)"
        case .setEqualizer: "equalizer"
        case .setGraphicEqualizer(let gains): "graphic equalizer \(gains.map { "\($0)" } ?? "off")"
        case .cue(let path): "cue \(path.map { "\($0)" } ?? "nothing")"
        case .setCrossfade(let setting): "crossfade \(setting.seconds) skip \(setting.skipSeconds)"
        case .limitPlayback(let limited): "limit \(limited)"
        case .grant(let time, let id): "grant \(time.seconds)s as \(id)"
        case .revokeGrant: "revoke grant"
        }
    }

    /// A call the transition table lists, without its payload (`rewind` is a seek to 0).
    public enum Kind: String, CaseIterable, Sendable {
        case stop
        /// A stop for the song opened next, while one plays (`EngineCall.skip`).
        case skip
        case open
        case play
        case rewind
        /// To the event's target (or, when a song opens, to the targets asked for before).
        case seek
    }
}
