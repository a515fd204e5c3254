/// What decoding a whole song found: `tplayer --check` on audio.
public enum SongVerdict: Equatable, Sendable {
    /// Every frame decoded; `seconds` of audio.
    case clean(seconds: Double)
    /// The stream is damaged at `at` seconds (libmpg123's reason); nothing after it plays.
    case damaged(at: Double, reason: String)
    /// The audio ends at `at` seconds, short of the `declared` length its LAME/Xing tag gives:
    /// the file was cut off (an interrupted copy or download).
    case truncated(at: Double, declared: Double)
    /// Damage was skipped (each span in seconds of the song) and every frame around it decoded.
    case skippedDamage([ClosedRange<Double>], seconds: Double)
    /// It cannot be opened as a song at all.
    case unplayable(LoadFailure)

    public var isClean: Bool {
        if case .clean = self { return true }
        return false
    }

    /// `damaged from 0:12.46 to 0:15.10, skipped`: what playing on past damage says.
    public static func damaged(_ span: ClosedRange<Double>) -> String {
        "damaged from \(TimeFormat.precise(span.lowerBound)) to \(TimeFormat.precise(span.upperBound)), skipped"
    }

    /// The one line that reports a song that is not clean: `album/07.mp3: damaged at 3:41.20: …`.
    public func report(for path: Path) -> String? {
        switch self {
        case .clean: nil
        case .damaged(let at, let reason): "\(path): damaged at \(TimeFormat.precise(at)): \(reason)"
        case .truncated(let at, let declared):
            "\(path): damaged at \(TimeFormat.precise(at)): the file ends there, but its header says \(TimeFormat.precise(declared)); was it cut short?"
        case .skippedDamage(let spans, _): "\(path): " + spans.map(Self.damaged).joined(separator: "; ")
        case .unplayable(let reason): "\(path): \(reason)"
        }
    }
}

/// The places of damage in one song: a skip that starts inside the last place, or within a
/// tenth of a second of it, joins it (a decoder finds its frames again in steps, junk that looks
/// like a frame cut in two), so playing, `-w` and `--check` say the same spans, once each.
public struct DamageSpans: Equatable, Sendable {
    public private(set) var spans: [ClosedRange<Double>] = []

    public init() {}

    /// Takes `span`; true when it begins a new place (the one before it is then whole).
    @discardableResult
    public mutating func add(_ span: ClosedRange<Double>) -> Bool {
        if let last = spans.last, span.lowerBound >= last.lowerBound - 0.1, span.lowerBound <= last.upperBound + 0.1 {
            spans[spans.count - 1] = min(last.lowerBound, span.lowerBound)...max(last.upperBound, span.upperBound)
            return false
        }
        spans.append(span)
        return true
    }
}

/// The places of damage the song playing has had skipped, said once each when whole: when the
/// next place begins, when playing has gone half a second past it, or when the song ends.
public struct DamageReport: Sendable {
    private var token: Int?
    private var path = Path("")
    private var spans = DamageSpans()
    private var said = 0

    public init() {}

    /// A skip of `span` in song `token` (at `path`): the lines to say now.
    public mutating func skipped(_ span: ClosedRange<Double>, token: Int, path: Path) -> [String] {
        var lines = token == self.token ? [] : flush()
        if token != self.token { (self.token, self.path, spans, said) = (token, path, DamageSpans(), 0) }
        if spans.add(span) { lines += say(upTo: spans.spans.count - 1) }
        return lines
    }

    /// The lines to say now that the song playing is at `position` seconds.
    public mutating func settle(at position: Double) -> [String] {
        guard let last = spans.spans.last, said < spans.spans.count, position > last.upperBound + 0.5 else { return [] }
        return say(upTo: spans.spans.count)
    }

    /// The lines still to say (the song ended, or another opened).
    public mutating func flush() -> [String] {
        say(upTo: spans.spans.count)
    }

    /// Whether anything was skipped in the song.
    public var any: Bool { !spans.spans.isEmpty }

    private mutating func say(upTo end: Int) -> [String] {
        guard said < end else { return [] }
        defer { said = end }
        return spans.spans[said..<end].map { "\(path): " + SongVerdict.damaged($0) }
    }
}
