import PlayerCore

/// What the console shows: one mode at a time, each with its own data.
extension Console {
    /// What the screen shows, each with what it alone needs: the one place a new view (the
    /// library) is added.
    enum Mode {
        /// The status line on the normal screen, and above it a panel (the help, the song's
        /// details) until the next key.
        case status(panel: Panel?)
        /// A prompt on the normal screen's bottom line (`l`), and Tab's choices above it.
        case prompt(OpenPrompt, panel: Panel?)
        /// The list view, full screen.
        case list(ListScreen)
        /// The library view, full screen.
        case library(LibraryScreen)
        /// The now-playing view, full screen.
        case nowPlaying(NowPlayingScreen)
    }

    /// Lines laid out for the screen as it is (again when the window changes size).
    typealias Panel = (Screen) -> [String]

    /// A full-screen view's frame while `overlay` (the help, the song's details) is shown instead
    /// of it: its lines from the top, `bottom` on the last row.
    func overlayFrame(_ overlay: Panel, bottom: StyledLine) -> [StyledLine] {
        let rows = screen.height - 1
        let lines = Array(overlay(screen).map { StyledLine($0) }.prefix(rows))
        return lines + Array(repeating: StyledLine(), count: max(rows - lines.count, 0)) + [bottom]
    }

    struct OpenPrompt {
        var line: PromptLine
        /// What its text is for.
        let purpose: PromptPurpose
    }

    enum PromptPurpose: Equatable {
        /// `l`: a path to play now.
        case load
        /// `l` in the list view: a path to put into the list at an entry.
        case add(at: Int)
        /// `w` in the list view: the name to save the list as.
        case save
        /// `:`: a command, as a script's line says it.
        case command
    }

    /// The list view on the alternate screen, and what it shows besides the list.
    struct ListScreen {
        var view: ListView
        /// The list as the session has it (kept only while the view is open: a copy held
        /// meanwhile would make every change to a list of 100,000 entries copy it whole).
        var list: ListSnapshot
        /// A prompt on its bottom line (add, save, load).
        var prompt: OpenPrompt?
        /// The help, the song's details or Tab's choices, shown instead of the list until the
        /// next key.
        var overlay: Panel?
        /// Messages that came while it was open: the last shows on its title line until the
        /// next key, and all are printed on the normal screen when it closes, so none is lost.
        var heldMessages: [String] = []
        var freshMessage: String?
    }

    /// Runs `body` on the list view in place. The mode is emptied while it runs, so that the
    /// view's one copy (its search text is large) is mutated, not copied: `body` must not look
    /// at the mode. `nil` when the list view is not open.
    func withList<Result>(_ body: (inout ListScreen) -> Result) -> Result? {
        guard case .list(var screen) = mode else { return nil }
        mode = .status(panel: nil)
        let result = body(&screen)
        mode = .list(screen)
        return result
    }

    /// The prompt open now, on either screen.
    var openPrompt: OpenPrompt? {
        switch mode {
        case .prompt(let open, _): open
        case .list(let screen): screen.prompt
        case .library(let screen): screen.prompt
        case .status, .nowPlaying: nil
        }
    }

    /// Whether the list view is open (the main loop hands it the list only then).
    public var showsList: Bool {
        if case .list = mode { true } else { false }
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let blank = { (character: Character) in set.contains(character) }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
