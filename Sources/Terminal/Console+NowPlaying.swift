import PlayerCore

/// The now-playing view in the console: opened and closed by its key, fed the next songs, the
/// cover and the spectrum, drawn.
extension Console {
    /// The now-playing view on the alternate screen.
    struct NowPlayingScreen {
        var view: NowPlayingView
        /// Messages that came while it was open: the last above the status line until the next
        /// key, all printed on the normal screen when it closes.
        var heldMessages: [String] = []
        /// The cover asked for and not yet drawn (taken by the main loop, drawn off it).
        var coverWanted: CoverRequest?
        var coverAsked: CoverRequest?
        /// The help or the song's details, shown instead of the view until the next key.
        var overlay: Panel?
    }

    /// Runs `body` on the now-playing view in place; `nil` when it is not open.
    func withNowPlaying<Result>(_ body: (inout NowPlayingScreen) -> Result) -> Result? {
        guard case .nowPlaying(var screen) = mode else { return nil }
        mode = .status(panel: nil)
        let result = body(&screen)
        mode = .nowPlaying(screen)
        return result
    }

    /// Whether the now-playing view is open.
    public var showsNowPlaying: Bool {
        if case .nowPlaying = mode { true } else { false }
    }

    /// Opens the now-playing view (its key, or `view = now-playing` in the settings).
    public func openNowPlaying() {
        closePanel()
        mode = .nowPlaying(NowPlayingScreen(view: NowPlayingView(options: nowPlayingOptions)))
        screen.enterFullScreen()
        redraw()
    }

    func closeNowPlaying() {
        guard case .nowPlaying(let closing) = mode else { return }
        mode = .status(panel: nil)
        screen.leaveFullScreen()
        closing.heldMessages.forEach(screen.print)
        redraw()
    }

    /// A key the view takes: Esc goes back, as in the list view.
    func nowPlayingTakes(_ key: Key) -> Bool {
        guard showsNowPlaying else { return false }
        _ = withNowPlaying { $0.view.message = nil }
        guard key == .escape else { return false }
        closeNowPlaying()
        return true
    }

    /// A message while the view is open: held, and shown above the status line.
    func holdInNowPlaying(_ message: String) -> Void? {
        withNowPlaying { screen in
            screen.heldMessages.append(message)
            screen.view.message = message
        }
    }

    func takeNowPlayingMessages() -> [String] {
        withNowPlaying { screen in
            defer { screen.heldMessages = [] }
            return screen.heldMessages
        } ?? []
    }

    /// The list as it is now: the view keeps the names of the songs that play next.
    func nowPlayingSees(_ list: ListSnapshot, shuffled: Bool) {
        guard showsNowPlaying else { return }
        var next = Array(list.upNext.filter { $0 < list.entries.count }.prefix(5))
        if !shuffled, let current = list.current {
            var entry = current + 1
            while next.count < 5, entry < list.entries.count {
                if !list.upNext.contains(entry) { next.append(entry) }
                entry += 1
            }
        }
        // Their tags are read off the main loop, as the list view's rows are: titles, not file names.
        for entry in next {
            let source = list.entries[entry].source
            if list.known[source] == nil, requested.insert(source).inserted { factRequests.append(source) }
        }
        _ = withNowPlaying { screen in
            screen.view.next = next.map { ListRow(list, $0, withLength: false).name }
            screen.view.shuffled = shuffled
        }
    }

    /// The view's frame, when it is open; the cover it needs is asked for.
    func nowPlayingFrame(_ bottom: StyledLine) -> [StyledLine]? {
        let (width, height, status) = (screen.width, screen.height, lastStatus)
        let terminal = self.screen
        return withNowPlaying { screen in
            if let overlay = screen.overlay { return overlayFrame(overlay, bottom: bottom) }
            let frame = screen.view.lines(status, width: width, height: height, bottom: bottom)
            let wanted = screen.view.coverRequest(for: status?.song, cell: terminal.cellPixels)
            if wanted != screen.coverAsked { screen.coverWanted = wanted }
            return frame
        }
    }

    /// The cover in the terminal's own graphics, where the view placed it (none over an overlay).
    var nowPlayingGraphic: ScreenGraphic? {
        guard case .nowPlaying(let screen) = mode, screen.overlay == nil else { return nil }
        return screen.view.graphic
    }

    /// The cover the view needs drawn, once each.
    public func takeCoverRequest() -> CoverRequest? {
        withNowPlaying { screen in
            defer { screen.coverWanted = nil }
            if let wanted = screen.coverWanted { screen.coverAsked = wanted }
            return screen.coverWanted
        } ?? nil
    }

    /// A cover drawn off the main loop: shown if the view still wants it.
    public func showCover(_ cover: CoverArt) {
        let shown = withNowPlaying { screen -> Bool in
            guard screen.coverAsked == cover.request else { return false }
            screen.view.cover = cover
            return true
        } ?? false
        if shown { redraw() }
    }

    /// The spectrum's bars wanted now (their number), while the view shows one.
    public var spectrumBars: Int? {
        guard case .nowPlaying(let screen) = mode, let style = screen.view.options.spectrum else { return nil }
        return max(min(style.bars, self.screen.width - 1), 1)  // no more than the columns draw
    }

    public func showSpectrum(_ levels: [Double]) {
        _ = withNowPlaying { $0.view.spectrum = levels }
    }

    /// How often the screen is to be drawn again while a song plays: often enough for the
    /// spectrum (25 times a second) or the lyrics' words (10); `nil`: the status line's own pace.
    public var tick: Double? {
        guard case .nowPlaying(let screen) = mode else { return nil }
        return screen.view.options.spectrum != nil ? 0.04 : 0.1
    }
}
