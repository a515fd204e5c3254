import Glibc

/// The bottom line of the terminal (on stderr), redrawn in place: the status line, or the
/// prompt while one is open. Messages print above it and it is drawn again below them.
public final class Screen {
    private let fd: Int32
    private var shown: String?
    public private(set) var width = 80

    public init(fd: Int32 = STDERR_FILENO) {
        self.fd = fd
        measure()
        emit("\u{1B}[?25l")  // hide the cursor while the status line owns the bottom line
    }

    /// Reads the terminal width again (after SIGWINCH).
    public func measure() {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        }
        shown = nil
    }

    /// Draws `line` on the bottom line, unless it is already what is shown: no flicker.
    public func draw(_ line: String) {
        let line = TerminalText.safe(line)
        guard line != shown else { return }
        shown = line
        emit("\r" + line + "\u{1B}[K")
    }

    /// Prints `message` on its own line above the bottom line.
    public func print(_ message: String) {
        let redraw = shown
        emit("\r\u{1B}[K" + TerminalText.safe(message) + "\n")
        shown = nil
        if let redraw { draw(redraw) }
    }

    /// Clears the bottom line and shows the cursor again: the terminal as it was.
    public func close() {
        emit("\r\u{1B}[K\u{1B}[?25h")
        shown = nil
    }

    private func emit(_ text: String) {
        writeAll(fd, text)
    }
}

/// Writes one line to stderr, unbuffered, in one `write` where it can; whatever came from a
/// file is shown, never interpreted (`TerminalText`).
public func printError(_ line: String) {
    writeAll(STDERR_FILENO, TerminalText.safe(line) + "\n")
}

/// Writes one line to stdout, as `printError` does to stderr.
public func printOutput(_ line: String) {
    writeAll(STDOUT_FILENO, TerminalText.safe(line) + "\n")
}

/// Writes all of `text` to `fd`, going on after short writes and interruptions.
public func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return write(fd, base + offset, raw.count - offset)
        }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
