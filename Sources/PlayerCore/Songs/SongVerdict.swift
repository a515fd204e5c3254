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
