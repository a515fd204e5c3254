/// What the engine opens as one song: a file, an internet stream (a path that is an http or
/// https URL), or one track of a file (a CUE sheet's track in its image file: the image with a
/// `span`, or a path naming the track, `…/x.cue/track0002`).
public struct SongSource: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let path: Path
    /// The part of the file that is the song; `nil`: the whole file.
    public var span: TrackSpan?
    /// Whether it is an internet stream (its path a URL), known once, as it is named: what
    /// opens it, cues it and shows it asks this, never the path again.
    public let isStream: Bool

    public init(_ path: Path, span: TrackSpan? = nil) {
        self.path = path
        self.span = span
        isStream = StreamURL.looksLikeURL(path)
    }

    public init(stringLiteral value: String) {
        self.init(Path(value))
    }

    public var description: String {
        guard let span else { return "\(path)" }
        return "\(path) [\(span)]"
    }
}

/// Where a track lies in its file, as a CUE sheet says: from its INDEX 01 to the next track's
/// INDEX 01 (or the end of the file), in CD frames of 1/75 s.
public struct TrackSpan: Hashable, Sendable, CustomStringConvertible {
    public static let framesPerSecond: Int64 = 75

    public var start: Int64
    /// `nil`: to the end of the file.
    public var end: Int64?

    public init(start: Int64, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    /// The span in sample frames at `rate`: exact at every rate that is a multiple of 75 Hz
    /// (44100 Hz: 588 samples per CD frame); rounded down at others.
    public func samples(at rate: Int) -> (start: Int64, end: Int64?) {
        // A saved session's span may be absurd: held at the bound, never a trap.
        (start.scaled(by: Int64(rate), over: Self.framesPerSecond), end.map { $0.scaled(by: Int64(rate), over: Self.framesPerSecond) })
    }

    /// `mm:ss:ff`, as a sheet writes a time.
    public static func time(_ frames: Int64) -> String {
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(frames / 75 / 60)):\(two(frames / 75 % 60)):\(two(frames % 75))"
    }

    public var description: String { "\(Self.time(start))–\(end.map(Self.time) ?? "end")" }
}
