import PlayerCore

/// `[=====-----] 12/120 album/07.mp3` on one line of stderr, redrawn at most ten times a second,
/// cut to the terminal's width in columns so that it never wraps.
public struct ProgressBar {
    let fd: Int32
    let enabled: Bool
    private let now: () -> ContinuousClock.Instant
    private var shown = false
    private var last: ContinuousClock.Instant?

    /// Draws on `fd` when `enabled` (it is a terminal), timed by `now`.
    public init(fd: Int32, enabled: Bool, now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.fd = fd
        self.enabled = enabled
        self.now = now
    }

    public mutating func show(done: Int, total: Int, name: String) {
        guard enabled, total > 1 else { return }
        let now = self.now()
        if let last, done > 0, now - last < .milliseconds(100) { return }
        last = now
        let head = StatusLine.bar(Double(done) / Double(total), width: 20) + " \(done)/\(total) "
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
