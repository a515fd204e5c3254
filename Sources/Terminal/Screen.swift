import Files
import Glibc

/// The bottom line of the terminal, redrawn in place: the status line, or the prompt while one
/// is open. Messages print above it and it is drawn again below them. Every line is measured in
/// columns and kept short of the last one, so it never wraps (a wrapped line scrolls at every
/// redraw and is left behind on exit).
public final class Screen {
    private let fd: Int32
    private var shown: String?
    /// The columns the bottom line's text takes.
    private var shownColumns = 0
    public private(set) var width = 80
    public private(set) var height = 24
    /// Whether styles are drawn as colours: a terminal that has them, and NO_COLOR unset.
    public let colours: Bool

    /// `colours: false` (the configuration file's `colours = off`) draws none, whatever the
    /// terminal has.
    public init(fd: Int32 = STDERR_FILENO, colours: Bool = true) {
        self.fd = fd
        RawMode.displayFD = fd
        self.colours = colours && Self.coloursWanted(on: fd)
        measure()
        emit("\u{1B}[?25l")  // hide the cursor while the status line owns the bottom line
    }

    /// https://no-color.org: any NO_COLOR turns colours off; so does a terminal without them.
    static func coloursWanted(on fd: Int32) -> Bool {
        guard isatty(fd) == 1, getenv("NO_COLOR") == nil, let term = getenv("TERM") else { return false }
        let name = String(cString: term)
        return !name.isEmpty && name != "dumb"
    }

    /// Reads the terminal's size again (after SIGWINCH), and takes away what was drawn at the
    /// old width: a terminal that narrows wraps the panel's lines and the bottom line onto more
    /// rows (tmux, VTE and kitty reflow them), so it is cleared from where they now start. The
    /// caller draws them again at the new width.
    public func measure() {
        guard let size = TerminalSize.of(fd) else { return }
        let old = width
        width = size.columns
        if let rows = size.rows { height = rows }
        cellPixels = size.cell
        if frame != nil {
            // The whole screen is drawn again at the new size.
            frame = []
            shownGraphic = nil
            emit("\u{1B}[H\u{1B}[2J")
            return
        }
        let rows = { (columns: Int) in max((columns + self.width - 1) / self.width, 1) }
        guard width < old, panelHeight > 0 || shown != nil else {
            hidePanel()
            shown = nil
            return
        }
        let up = panelLines.map { rows(TextWidth.columns($0)) }.reduce(0, +) + rows(shownColumns) - 1
        emit("\r" + (up > 0 ? "\u{1B}[\(up)A" : "") + "\u{1B}[J")
        panelHeight = 0
        panelLines = []
        shown = nil
    }

    /// A cell's size in pixels, when the terminal says (TIOCGWINSZ's pixel size; most do), as
    /// last measured.
    public private(set) var cellPixels: (width: Int, height: Int)?

    /// The width of the terminal `fd` is, in columns; `nil` when it is not one.
    public static func columns(of fd: Int32) -> Int? {
        TerminalSize.of(fd)?.columns
    }

    /// Draws `line` on the bottom line, unless it is already what is shown: no flicker.
    public func draw(_ line: StyledLine) {
        let drawn = line.rendered(colours: colours)
        guard drawn != shown else { return }
        shown = drawn
        shownColumns = line.columns
        emit("\r" + drawn + "\u{1B}[K")
    }

    public func draw(_ line: String) {
        draw(StyledLine(line))
    }

    /// Prints `message` on its own line above the bottom line (and above the panel, which is
    /// drawn again below it, so that taking the panel away never takes the message).
    public func print(_ message: String) {
        let redraw = shown
        let panel = panelLines
        hidePanel()
        emit("\r\u{1B}[K" + TerminalText.safe(message) + "\n")
        if !panel.isEmpty { showPanel(panel) }
        shown = nil
        if let redraw {
            shown = redraw
            emit("\r" + redraw + "\u{1B}[K")
        }
    }

    /// How many lines the panel above the bottom line takes, and what they say.
    private var panelHeight = 0
    private(set) var panelLines: [String] = []

    /// Shows `lines` above the bottom line (the help, a song's details) until `hidePanel`. Each
    /// is cut to the width, so none wraps and the panel can be taken away exactly.
    public func showPanel(_ lines: [String]) {
        hidePanel()
        let text = lines.map { TextWidth.fit(TerminalText.safe($0), width - 1) }
        emit("\r\u{1B}[K" + text.map { $0 + "\r\n\u{1B}[K" }.joined())
        panelHeight = text.count
        panelLines = text
        shown = nil
    }

    /// Shows `lines` in place of the open panel, when they differ from what it shows.
    public func updatePanel(_ lines: [String]) {
        guard panelHeight > 0, lines.map({ TextWidth.fit(TerminalText.safe($0), width - 1) }) != panelLines else { return }
        showPanel(lines)
    }

    /// Takes the panel away: up to where it starts, everything below cleared.
    public func hidePanel() {
        guard panelHeight > 0 else { return }
        emit("\r\u{1B}[\(panelHeight)A\u{1B}[J")
        panelHeight = 0
        panelLines = []
        shown = nil
    }

    /// Clears the bottom line and shows the cursor again: the terminal as it was.
    public func close() {
        leaveFullScreen()
        emit("\r\u{1B}[K\u{1B}[?25h")
        shown = nil
    }

    /// The lines drawn on the alternate screen, as written; `nil` when it is not shown.
    private var frame: [String]?

    /// Whether the alternate screen (the list view) is shown.
    public var isFullScreen: Bool { frame != nil }

    /// Switches to the terminal's alternate screen (as `less` and `vim` do): what was on the
    /// screen comes back as it was when `leaveFullScreen` switches back.
    public func enterFullScreen() {
        guard frame == nil else { return }
        hidePanel()
        frame = []
        RawMode.alternateScreen = true
        // The bottom line is cleared first: a terminal resized meanwhile reflows the normal screen,
        // and a status line left there would come back wrapped onto rows no redraw clears.
        emit("\r\u{1B}[K\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
        shown = nil
    }

    /// Draws `lines` as the whole alternate screen, top to bottom, writing only the lines that
    /// changed since the last frame (a cursor moving one row rewrites two lines); then `graphic`,
    /// when it is new or a line under it was written (which wiped it).
    public func drawFrame(_ lines: [StyledLine], graphic: ScreenGraphic? = nil) {
        guard var old = frame else { return }
        let rendered = lines.prefix(height).map { $0.rendered(colours: colours) }
        // A sixel or iTerm2 picture going away (or changing) is erased by writing its rows again.
        if let shown = shownGraphic, !shown.kitty, graphic != shown {
            for row in shown.row..<min(shown.row + shown.rows, old.count) { old[row] = "\u{0}" }
        }
        var out = ""
        var written: [Int] = []
        for (row, line) in rendered.enumerated() where row >= old.count || old[row] != line {
            out += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
            written.append(row)
        }
        if rendered.count < old.count { out += "\u{1B}[\(rendered.count + 1);1H\u{1B}[J" }
        frame = rendered
        let covered = graphic.map { graphic in written.contains { $0 >= graphic.row && $0 < graphic.row + graphic.rows } } ?? false
        if graphic != shownGraphic || covered {
            // kitty keeps its images apart from the text: the old one is deleted first.
            if shownGraphic?.kitty == true || graphic?.kitty == true { out += "\u{1B}_Ga=d\u{1B}\\" }
            if let graphic { out += "\u{1B}[\(graphic.row + 1);\(graphic.column + 1)H" + graphic.text }
            shownGraphic = graphic
        }
        if !out.isEmpty { emit(out) }
    }

    /// The graphic drawn over the frame, if any.
    private var shownGraphic: ScreenGraphic?

    /// Back to the normal screen, as it was; the bottom line is drawn again by the next `draw`.
    public func leaveFullScreen() {
        guard frame != nil else { return }
        frame = nil
        if shownGraphic?.kitty == true { emit("\u{1B}_Ga=d\u{1B}\\") }
        shownGraphic = nil
        emit("\u{1B}[?1049l")
        RawMode.alternateScreen = false
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

/// Writes all of `text` to `fd`, going on after short writes and interruptions; false when
/// the descriptor refuses (its reader gone).
@discardableResult
public func writeAll(_ fd: Int32, _ text: String) -> Bool {
    writeAll(fd, bytes: Array(text.utf8))
}

/// Writes all of `bytes` to `fd`, as `writeAll(_:_:)` does a text's.
@discardableResult
public func writeAll(_ fd: Int32, bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return write(fd, base + offset, raw.count - offset)
        }
        if written < 0 && SystemError.current == .interrupted { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}
