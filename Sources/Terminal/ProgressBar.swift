import PlayerCore

/// `[=====-----] 12/120 43% album/07.mp3` on one line of stderr (songs done, songs in all, how far
/// into the one decoding now), redrawn at most ten times a second, cut to the terminal's width
/// in columns so that it never wraps. Nothing is drawn in the first `delay`: a check that ends
/// sooner needs no bar.
public struct ProgressBar {
    let fd: Int32
    let enabled: Bool
    private let now: () -> ContinuousClock.Instant
    private var shown = false
    private var last: ContinuousClock.Instant?
    private let started: ContinuousClock.Instant
    static let delay = Duration.milliseconds(300)

    /// Draws on `fd` when `enabled` (it is a terminal), timed by `now`.
    public init(fd: Int32, enabled: Bool, now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.fd = fd
        self.enabled = enabled
        self.now = now
        started = now()
    }

    /// `done` of `total` songs decoded, and `within` (0 to 1) of the one decoding now.
    public mutating func show(done: Int, total: Int, within: Double = 0, name: String) {
        guard enabled, total > 0 else { return }
        let now = self.now()
        guard now - started >= Self.delay else { return }
        if let last, now - last < .milliseconds(100) { return }
        last = now
        let within = min(max(within, 0), 1)
        let head = StatusLine.bar((Double(done) + within) / Double(total), width: 20) + " \(done)/\(total) "
            + (within > 0 && done < total ? "\(Int(within * 100))% " : "")
        let columns = Screen.columns(of: fd) ?? 80
        // The name is from the disk: made safe, and cut to what is left of the line from its
        // start, so that the file's own name stays (`fit` keeps a prefix: fit the reversed name).
        let room = columns - TextWidth.columns(head) - 1
        let line = head + String(TextWidth.fit(String(TerminalText.safe(name).reversed()), room).reversed())
        writeAll(fd, "\r\u{1b}[K" + line)
        shown = true
    }

    public mutating func clear() {
        guard shown else { return }
        writeAll(fd, "\r\u{1b}[K")
        shown = false
    }
}
