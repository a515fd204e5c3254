/// A song heard long enough to count as played (the Audioscrobbler rule: half its length or
/// four minutes, whichever comes first, of audio actually played: a seek's jump is not heard),
/// or skipped with `next` before that.
public struct Listen: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case played
        case skipped
    }

    public var kind: Kind
    public var song: SongInfo
    /// Seconds of it heard when it counted (or was skipped).
    public var heard: Double

    public init(kind: Kind, song: SongInfo, heard: Double) {
        self.kind = kind
        self.song = song
        self.heard = heard
    }
}

/// Counts what is heard of the song playing, from what the engine reports: where it opened
/// and was sought to, where it is at each look (`reach`), and that it ended.
struct ListenTracker {
    private(set) var token: Int?
    private var at = 0.0
    private(set) var heard = 0.0
    private(set) var counted = false

    /// Four minutes: a song longer than eight counts once four are heard.
    static let cap = 240.0
    /// Two looks further apart than this are a jump (a seek the engine has not reported yet).
    static let longestStep = 5.0

    static func threshold(length: Double?) -> Double {
        length.map { min(max($0, 0) / 2, cap) } ?? cap
    }

    /// The song `token` opened at `seconds`.
    mutating func start(_ token: Int, at seconds: Double) {
        self = ListenTracker()
        self.token = token
        at = seconds
    }

    /// It was sought to `seconds`: the jump is not heard.
    mutating func jump(_ token: Int, to seconds: Double) {
        if token == self.token { at = seconds }
    }

    /// It played on to `seconds` (`ended`: to its end, however far). True the one time it
    /// comes to count as played.
    mutating func reach(_ token: Int, _ seconds: Double, length: Double?, ended: Bool = false) -> Bool {
        guard token == self.token, seconds.isFinite else { return false }
        let step = seconds - at
        if step > 0, step <= Self.longestStep || ended { heard += step }
        at = seconds
        guard !counted, heard >= Self.threshold(length: length) else { return false }
        counted = true
        return true
    }
}
