import AudioEngine
import Glibc
import PlayerApp
import PlayerCore
import Terminal

/// `tplayer --check PATH...` on the real decoder: problems on stderr as they are found, the
/// summary on stdout, and a progress bar on stderr while songs decode, when it is a terminal.
struct CheckRun {
    let inputs: [Path]

    func run() -> Int32 {
        let checker: SongChecker
        do {
            checker = try SongChecker()
        } catch {
            printError("tplayer: \(error.message)")
            return 1
        }
        var bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        let result = Check.run(inputs, decode: checker.check, progress: { done, total, path in
            bar.show(done: done, total: total, name: "\(path)")
        }, found: { line in
            bar.clear()
            printError(line)
        })
        bar.clear()
        result.summary.forEach(printOutput)
        return result.status
    }
}

/// `[=====-----] 12/120 album/07.mp3` on one line of stderr, redrawn at most ten times a second,
/// cut to the terminal's width in columns so that it never wraps.
struct ProgressBar {
    let enabled: Bool
    private var shown = false
    private var last: ContinuousClock.Instant?

    init(enabled: Bool) {
        self.enabled = enabled
    }

    mutating func show(done: Int, total: Int, name: String) {
        guard enabled, total > 1 else { return }
        let now = ContinuousClock.now
        if let last, done > 0, now - last < .milliseconds(100) { return }
        last = now
        let head = StatusLine.bar(Double(done) / Double(total), width: 20) + " \(done)/\(total) "
        let columns = Screen.columns(of: STDERR_FILENO) ?? 80
        // The name is from the disk: made safe, and cut to what is left of the line from its
        // start, so that the file's own name stays (`fit` keeps a prefix: fit the reversed name).
        let room = columns - TextWidth.columns(head) - 1
        let line = head + String(TextWidth.fit(String(TerminalText.safe(name).reversed()), room).reversed())
        writeAll(STDERR_FILENO, "\r\u{1b}[K" + line)
        shown = true
    }

    mutating func clear() {
        guard shown else { return }
        writeAll(STDERR_FILENO, "\r\u{1b}[K")
        shown = false
    }
}
