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

/// `[=====-----] 12/120 album/07.mp3` on one line of stderr, redrawn at most ten times a second.
struct ProgressBar {
    let enabled: Bool
    private var shown = false
    private var last = 0.0

    init(enabled: Bool) {
        self.enabled = enabled
    }

    mutating func show(done: Int, total: Int, name: String) {
        guard enabled, total > 1 else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        guard seconds - last >= 0.1 || done == 0 else { return }
        last = seconds
        let width = 20
        let filled = total > 0 ? width * done / total : 0
        var columns = winsize()
        let screen = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &columns) == 0 && columns.ws_col > 0 ? Int(columns.ws_col) : 80
        let head = "[" + String(repeating: "=", count: filled) + String(repeating: "-", count: width - filled) + "] \(done)/\(total) "
        // The name is from the disk: made safe, and cut to the line so that it never wraps.
        let room = max(screen - head.count - 1, 0)
        let safe = TerminalText.safe(name)
        let line = head + (safe.count > room ? "…" + safe.suffix(max(room - 1, 0)) : safe)
        writeAll(STDERR_FILENO, "\r\u{1b}[K" + line)
        shown = true
    }

    mutating func clear() {
        guard shown else { return }
        writeAll(STDERR_FILENO, "\r\u{1b}[K")
        shown = false
    }
}
