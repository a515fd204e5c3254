/// What decoding a whole song found: `tplayer --check` on audio.
public enum SongVerdict: Equatable, Sendable {
    /// Every frame decoded; `seconds` of audio.
    case clean(seconds: Double)
    /// The stream is damaged at `at` seconds (libmpg123's reason); nothing after it plays.
    case damaged(at: Double, reason: String)
    /// The audio ends at `at` seconds, short of the `declared` length its LAME/Xing tag gives:
    /// the file was cut off (an interrupted copy or download).
    case truncated(at: Double, declared: Double)
    /// It cannot be opened as a song at all.
    case unplayable(LoadFailure)

    public var isClean: Bool {
        if case .clean = self { return true }
        return false
    }

    /// The one line that reports a song that is not clean: `album/07.mp3: damaged at 3:41.20: …`.
    public func report(for path: Path) -> String? {
        switch self {
        case .clean: nil
        case .damaged(let at, let reason): "\(path): damaged at \(TimeFormat.precise(at)): \(reason)"
        case .truncated(let at, let declared):
            "\(path): damaged at \(TimeFormat.precise(at)): the file ends there, but its header says \(TimeFormat.precise(declared)); was it cut short?"
        case .unplayable(let reason): "\(path): \(reason)"
        }
    }
}
