import PlayerCore

/// The library view in the console: opened and closed by its key, keys handed to it, drawn.
extension Console {
    /// The library view on the alternate screen.
    struct LibraryScreen {
        var view: LibraryView
        /// Messages that came while it was open: the last on its title line until the next
        /// key, all printed on the normal screen when it closes.
        var heldMessages: [String] = []
        /// A prompt on its bottom line (`:`, `l`).
        var prompt: OpenPrompt?
        /// The help or the song's details, shown instead of the library until the next key.
        var overlay: Panel?
    }

    /// Runs `body` on the library view in place; `nil` when it is not open.
    func withLibrary<Result>(_ body: (inout LibraryScreen) -> Result) -> Result? {
        guard case .library(var screen) = mode else { return nil }
        mode = .status(panel: nil)
        let result = body(&screen)
        mode = .library(screen)
        return result
    }

    /// Whether the library view is open.
    public var showsLibrary: Bool {
        if case .library = mode { true } else { false }
    }

    func openLibrary() {
        guard let library else {
            print("tplayer: there is no library yet: tplayer --scan ~/Music makes one (see tplayer --help)")
            return
        }
        var view = LibraryView()
        view.refresh(library)
        mode = .library(LibraryScreen(view: view))
        screen.enterFullScreen()
        redraw()
    }

    func closeLibrary() {
        guard case .library(let closing) = mode else { return }
        mode = .status(panel: nil)
        screen.leaveFullScreen()
        for message in closing.heldMessages { screen.print(message) }
        redraw()
    }

    /// A key the library view takes (moving, opening, filtering…): its command, if it gives
    /// one, in `commands`, and `edited` set when the view is to be drawn again, once after the
    /// keys that came together (a filter pasted is one query, not one a character: 17 KB
    /// pasted froze every key for a minute). False for a key it has no use for, which means
    /// what it means everywhere (space pauses).
    func libraryTakes(_ key: Key, into commands: inout [Command], edited: inout Bool) -> Bool {
        guard showsLibrary, let library else { return false }
        let rows = screen.height - 2
        let isOpenKey = bindings.action(for: key) == .library
        let outcome: LibraryView.Outcome?? = withLibrary { $0.view.handle(key, isOpenKey: isOpenKey, library, rows: rows) }
        switch outcome ?? nil {
        case nil: return false
        case .redraw?: edited = true
        case .command(let command)?:
            commands.append(command)
            edited = true
        case .close?: closeLibrary()
        case .scan?:
            _ = run(commandLine: "scan")
            edited = true
        }
        return true
    }

    /// The library changed (a scan ended): the view reads it again.
    public func libraryChanged() {
        guard let library else { return }
        if withLibrary({ $0.view.refresh(library) }) != nil { redraw() }
    }

    /// A message while the view is open: held, and shown on its title line.
    func holdInLibrary(_ message: String) -> Void? {
        withLibrary { screen in
            screen.heldMessages.append(message)
            screen.view.hold(message)
        }
    }

    /// The messages held, for the normal screen (the player stopping with the view open).
    func takeLibraryMessages() -> [String] {
        withLibrary { screen in
            defer { screen.heldMessages = [] }
            return screen.heldMessages
        } ?? []
    }

    /// The library view's frame, when it is open.
    func libraryFrame(_ bottom: StyledLine) -> [StyledLine]? {
        guard let library else { return nil }
        let (width, height, waiting) = (screen.width, screen.height, countsAside)
        return withLibrary { screen in
            if let overlay = screen.overlay { return overlayFrame(overlay, bottom: bottom) }
            return screen.view.lines(library, width: width, height: height, bottom: bottom, waiting: waiting)
        }
    }

    /// The count the library view wants run off the main loop (each asked for once).
    public func takeLibraryCount() -> LibraryCountRequest? {
        countsAside = true
        return withLibrary { $0.view.takeCountRequest() } ?? nil
    }

    /// A count come back: shown if the view still shows what it was for.
    public func showLibraryCount(_ result: LibraryCountResult) {
        if withLibrary({ $0.view.apply(result) }) == true { redraw() }
    }
}
