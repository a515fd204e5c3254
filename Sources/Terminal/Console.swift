import PlayerCore

/// The interactive terminal: keys in, commands out; the status line, the load prompt, the
/// help and the song's details, and messages on the screen. It decides nothing about playback:
/// that is the session's job.
public final class Console {
    /// How long "press h for keys" stays after a key that means nothing.
    public static let hintSeconds = 2.0

    let screen: Screen
    private let showsStatus: Bool
    private var decoder = KeyDecoder()
    /// What the screen shows now (the console's alone; `Console+Mode` reads it).
    var mode = Mode.status(panel: nil)

    /// The paths loaded this run, for ↑/↓ at the prompt.
    var history: [String] = []
    /// The lines given at `:` this run, for ↑/↓ there.
    var commandHistory: [String] = []
    private(set) var lastStatus: StatusSnapshot?
    /// The panel open says what the status does (the song's details): laid out again with it.
    private var panelFollowsStatus = false
    /// When the last key came: the list view does its work ahead only when none has for a moment.
    private var lastKey: ContinuousClock.Instant?
    /// No key yet: the status line says `h: keys`.
    private var keysSeen = false
    private var hint: (text: String, until: ContinuousClock.Instant)?
    /// Songs on screen in the list view whose tags and length are not known: asked for once
    /// each (`takeFactRequests`), read off the main loop, and shown when they come.
    var factRequests: [SongSource] = []
    /// Whether the player runs the library view's counts off the main loop (it has asked for
    /// one: `takeLibraryCount`); until then they are run here.
    var countsAside = false
    var requested = Set<SongSource>()
    /// Which key does what (tplayer's own keys, or the configuration file's), and how far
    /// the step keys go.
    public var bindings = KeyBindings.standard
    public var steps = Steps()
    /// What the now-playing view shows besides the song (the settings' `cover`, `spectrum`).
    public var nowPlayingOptions = NowPlayingView.Options()
    /// Several outputs, as `i` lists them and a digit there switches them.
    var outputSwitches = OutputSwitches()
    /// The first key bound to the help, as the hints name it.
    private var helpKey: String? {
        bindings.firstKey(for: .help).map(KeyBindings.name)
    }

    let paths: TypedPaths
    /// The library, for the library view; `nil` when there is none (the view says how to make one).
    public var library: LibraryBrowser?
    /// Starts a scan of the library's folders (a folder added to them first), off the main
    /// loop (`:scan`, `u` in the library view); `nil` where there can be none.
    public var scanLibrary: ((Path?) -> Void)?
    /// What the library knows of a song (`i` shows it); `nil` for one it does not hold.
    public var statistics: ((Path) -> SongDetails.Statistics?)?

    /// `showsStatus: false` is `--quiet`: keys still work, but no status line is drawn.
    public init(screen: Screen = Screen(), showsStatus: Bool, paths: TypedPaths) {
        self.screen = screen
        self.showsStatus = showsStatus
        self.paths = paths
    }

    /// The commands that `bytes` typed mean. Keys typed while the prompt is open edit it, and
    /// it (or the list view the keys move in) is drawn once they are all in: a paste of a long
    /// path is many keys at once.
    func commands(from bytes: [UInt8]) -> [Command] {
        commands(from: bytes, list: { ListSnapshot() })
    }

    /// Alt and a character come as ESC and the character in one read; so do Esc and a key
    /// pressed after it while the player was busy (or sent together by tmux). Unless Alt and that
    /// character is bound where it is pressed (the list view, or outside it; a prompt binds
    /// none), it is read as the two keys, as before Alt keys were read at all: Esc (which closes
    /// the prompt or the view) and then the key.
    private func escapeUnlessBound(_ key: Key) -> [Key] {
        guard case .alt(let character) = key else { return [key] }
        let bound: Bool
        switch mode {
        case .prompt: bound = false
        case .list(let screen): bound = screen.prompt == nil && bindings.listAction(for: key) != nil
        case .library(let screen): bound = screen.prompt == nil && bindings.action(for: key) != nil
        case .status, .nowPlaying: bound = bindings.action(for: key) != nil
        }
        return bound ? [key] : [.escape, .character(character)]
    }

    /// Puts `prompt` (or none) where the prompt is: on the list view, or the normal screen.
    func setPrompt(_ prompt: OpenPrompt?) {
        if withList({ (screen: inout ListScreen) in screen.prompt = prompt }) != nil { return }
        if withLibrary({ $0.prompt = prompt }) != nil { return redraw() }
        closePanel()
        mode = prompt.map { .prompt($0, panel: nil) } ?? .status(panel: nil)
    }

    /// The same, with the list as it is now, for a key that opens the list view: the keys that
    /// came with it (Tab ↓, a paste) move in the list, where they were lost on an empty one.
    public func commands(from bytes: [UInt8], list current: () -> ListSnapshot) -> [Command] {
        var commands: [Command] = []
        var edited = false
        defer { if edited { redraw() } }
        for key in decoder.decode(bytes).lazy.flatMap(escapeUnlessBound) {
            if let command = outputSwitches.command(for: key) {
                commands.append(command)  // the details stay open, and show it done
                continue
            }
            closePanel()
            hint = nil
            keysSeen = true
            lastKey = .now
            if openPrompt != nil {
                _ = withList { (screen: inout ListScreen) in
                    screen.freshMessage = nil
                    screen.overlay = nil  // Tab's choices, as the panel above a prompt goes
                }
                if let command = edit(with: key) { commands.append(command) }
                edited = true
                continue
            }
            let overlaid = withList { screen -> Bool in
                screen.freshMessage = nil
                defer { screen.overlay = nil }
                return screen.overlay != nil
            } ?? withNowPlaying { screen -> Bool in
                defer { screen.overlay = nil }
                return screen.overlay != nil
            } ?? withLibrary { screen -> Bool in
                defer { screen.overlay = nil }
                return screen.overlay != nil
            } ?? false
            if overlaid, key == .escape {
                redraw()
                continue
            }
            if libraryTakes(key, into: &commands, edited: &edited) || nowPlayingTakes(key) { continue }
            let rows = screen.height - 2
            let action = bindings.listAction(for: key)
            if let outcome = withList({ $0.view.handle(key, action: action, in: $0.list, rows: rows) }) {
                switch outcome {
                case .redraw?: edited = true; continue
                case .command(let command)?: commands.append(command); redraw(); continue
                case .say(let text)?:
                    hint = (text, .now.advanced(by: .seconds(Self.hintSeconds)))
                    redraw()
                    continue
                case .close?: closeList(); continue
                case .askToAdd(let at)?:
                    open(prompt: "Add after \(at): ", for: .add(at: at))
                    continue
                case .askToSave?:
                    open(prompt: "Save the list as (a new .m3u8): ", for: .save)
                    continue
                case nil: break
                }
            }
            guard let command = bindings.action(for: key)?.command(steps) else {
                if key != .escape {
                    let text = helpKey.map { "press \($0) for keys" } ?? "that key does nothing (no key is bound to help)"
                    hint = (text, .now.advanced(by: .seconds(Self.hintSeconds)))
                }
                redraw()
                continue
            }
            switch command {
            case .promptLoad:
                open(prompt: "Load: ", for: .load)
            case .promptCommand:
                open(prompt: ":", for: .command)
            case .listView:
                if case .list = mode {
                    closeList()
                } else {
                    closeLibrary()
                    closeNowPlaying()
                    openList(current())
                }
            case .libraryView:
                closeNowPlaying()
                if showsLibrary { closeLibrary() } else { openLibrary() }
            case .nowPlayingView:
                if showsNowPlaying {
                    closeNowPlaying()
                } else {
                    closeList()
                    closeLibrary()
                    openNowPlaying()
                }
            case .help:
                let (bindings, steps) = (bindings, steps)
                let (inList, inLibrary) = (showsList, showsLibrary)
                show { screen in
                    [inList ? "Keys in the list view (any key goes back to the list):" : inLibrary ? "Keys in the library view:"
                        : "Keys (the list view's and the library view's own: h there):"]
                        + PanelLayout.lines(KeyMap.helpLines(inListView: inList, inLibraryView: inLibrary, bindings: bindings, steps: steps),
                                            width: screen.width, rows: screen.height - 2, packed: false)
                }
            case .info:
                // Laid out from the status each time it is drawn: a command given with the same
                // keys (`:equalizer rock` then `i`) shows once the player has done it. The plays
                // and stars are read once per song.
                var counted: (path: Path, statistics: SongDetails.Statistics?)?
                defer { outputSwitches.detailsOpen = true }
                show(followsStatus: true) { [unowned self] screen in
                    let status = lastStatus
                    if let song = status?.song, counted?.path != song.path { counted = (song.path, statistics?(song.path)) }
                    let lines = SongDetails.lines(status?.song, failure: status?.failure, equalizer: status?.list.equalizerBands,
                                                  speed: status?.list.speed ?? 1, stream: status?.stream,
                                                  statistics: status?.song == nil ? nil : counted?.statistics,
                                                  outputs: outputSwitches.listed(off: status?.outputsOff ?? []))
                    return PanelLayout.lines(lines, width: screen.width, rows: screen.height - 1, packed: false)
                }
            case .play, .playFromStart, .stop, .rewind, .toggle, .next, .previous, .nextAlbum, .previousAlbum, .load, .quit, .toggleRepeat, .toggleShuffle, .setRepeat,
                 .setShuffle, .setShuffleMode, .playlist, .seek, .volume, .changeVolume, .toggleMute, .setMute, .setOutput, .pitch, .speed, .changeSpeed, .mpegEqualizer, .toggleEqualizer, .setGraphicEqualizer, .setEqualizerOn, .setCrossfade, .toggleCrossfade, .setSkipFade, .setSleep, .playEntry, .removeEntry, .clearList, .add,
                 .saveList, .moveEntry, .queueEntry, .toggleRepeatOne, .setRepeatOne, .toggleStopAfter, .setStopAfter, .playSongs,
                 .appendSongs, .queueSongs, .toggleAlbumMode, .setAlbumMode, .replaceWithSongs, .setStopAfterEach, .setConsume, .shuffleEntries,
                 .setPriority, .setSpan, .tagEntry:
                commands.append(command)  // the player's
            }
        }
        return commands
    }

    /// Shows `lines` until the next key: over the list in the list view, above the status line
    /// otherwise. A panel that `followsStatus` is laid out again as the status changes (over a
    /// view, every panel is laid out at each redraw).
    func show(followsStatus: Bool = false, _ lines: @escaping Panel) {
        if withList({ (screen: inout ListScreen) in screen.overlay = lines }) != nil || withLibrary({ $0.overlay = lines }) != nil
            || withNowPlaying({ $0.overlay = lines }) != nil { return redraw() }
        openPanel(lines)
        panelFollowsStatus = followsStatus
    }

    /// What the prompt holds, while one is open.
    var promptText: String? { openPrompt?.line.text }

    /// Shows `status` on the bottom line (unless the prompt has it).
    public func show(_ status: StatusSnapshot) {
        lastStatus = status
        if panelFollowsStatus, let panel { screen.updatePanel(panel(screen)) }
        // Idle: no key for a moment (the status line's tick while nothing is typed).
        redraw(idle: lastKey.map { $0.duration(to: .now) > .milliseconds(300) } ?? true)
    }

    public func print(_ message: String) {
        let held: Void? = withList { (list: inout ListScreen) in
            list.heldMessages.append(message)
            list.freshMessage = message
        }
        guard held == nil, holdInLibrary(message) == nil, holdInNowPlaying(message) == nil else { return redraw() }
        screen.print(message)
    }

    /// The list as the session has it now, for the list view.
    public func showList(_ list: ListSnapshot) {
        _ = withList { (screen: inout ListScreen) in screen.list = list }
        nowPlayingSees(list, shuffled: lastStatus?.list.shuffles ?? false)
    }

    /// The songs on screen whose tags and length the list view would show, once each.
    public func takeFactRequests() -> [SongSource] {
        defer { factRequests = [] }
        return factRequests
    }

    /// Opens the list view on `snapshot`, the list as it is now, its cursor on the song playing.
    private func openList(_ snapshot: ListSnapshot) {
        closePanel()
        mode = .list(ListScreen(view: ListView(cursor: snapshot.current ?? 0), list: snapshot))
        screen.enterFullScreen()
        redraw()
    }

    private func closeList() {
        guard case .list(let closing) = mode else { return }
        mode = .status(panel: nil)
        screen.leaveFullScreen()
        closing.heldMessages.forEach(screen.print)
        redraw()
    }

    /// When the screen next changes by itself (the hint going away), for the main loop's wait.
    public var nextChange: ContinuousClock.Instant? { hint?.until }

    /// The terminal was resized: the panel is laid out again for the new size.
    public func resized() {
        if showsList || showsLibrary || showsNowPlaying { screen.enterFullScreen() }
        screen.measure()
        if let panel { screen.showPanel(panel(screen)) }
        redraw()
    }

    /// Ctrl-C: cancels the open prompt or the list view's search, as a shell does; true when it
    /// did (the player goes on).
    public func interrupted() -> Bool {
        let rows = screen.height - 2
        let searching = withList { screen -> Bool in
            guard screen.prompt == nil, screen.view.isSearching else { return false }
            _ = screen.view.handle(.escape, action: nil, in: screen.list, rows: rows)
            return true
        } ?? false
        if searching {
            redraw()
            return true
        }
        guard openPrompt != nil else { return false }
        setPrompt(nil)
        redraw()
        return true
    }

    /// Leaves the bottom line empty and the cursor visible.
    public func close() {
        closePanel()
        screen.close()
        // Said on the normal screen; the view opens again if the player comes back (Ctrl-Z, fg).
        let messages = withList { screen -> [String] in
            defer { screen.heldMessages = [] }
            return screen.heldMessages
        } ?? takeLibraryMessages() + takeNowPlayingMessages()
        messages.forEach(screen.print)
    }

    /// The panel above the status line, when one is open.
    private var panel: Panel? {
        switch mode {
        case .status(let panel), .prompt(_, let panel): panel
        case .list, .library, .nowPlaying: nil
        }
    }

    private func openPanel(_ layout: @escaping Panel) {
        closePanel()
        switch mode {
        case .status: mode = .status(panel: layout)
        case .prompt(let open, _): mode = .prompt(open, panel: layout)
        case .list, .library, .nowPlaying: return
        }
        screen.showPanel(layout(screen))
        redraw()
    }

    func closePanel() {
        outputSwitches.detailsOpen = false
        guard panel != nil else { return }
        switch mode {
        case .status: mode = .status(panel: nil)
        case .prompt(let open, _): mode = .prompt(open, panel: nil)
        case .list, .library, .nowPlaying: break
        }
        screen.hidePanel()
    }

    /// `idle`: no key waits for this redraw (the status line's tick).
    func redraw(idle: Bool = false) {
        if let hint, hint.until < .now { self.hint = nil }
        let bottom = bottomLine()
        let (width, height) = (screen.width, screen.height)
        let drawn = withList { list -> [StyledLine] in
            if let overlay = list.overlay { return overlayFrame(overlay, bottom: bottom) }
            var frame = list.view.lines(list.list, width: width, height: height, bottom: bottom, foldingAhead: idle, keys: bindings)
            for entry in list.view.shown {
                let source = list.list.entries[entry].source
                if list.list.known[source] == nil, requested.insert(source).inserted { factRequests.append(source) }
            }
            if requested.count > 50_000 { requested = Set(list.list.known.keys) }  // bounded, whatever is scrolled through
            if let message = list.freshMessage, !frame.isEmpty {
                frame[0] = StyledLine(TextWidth.fit(message, width - 1), .yellow)
            }
            return frame
        }
        if let drawn = drawn ?? libraryFrame(bottom) ?? nowPlayingFrame(bottom) {
            screen.drawFrame(drawn, graphic: nowPlayingGraphic)
        } else {
            screen.draw(bottom)
        }
    }

    /// What the bottom line shows: the prompt, a hint, or the status line.
    private func bottomLine() -> StyledLine {
        if let prompt = openPrompt {
            return StyledLine(prompt.line.rendered(width: screen.width - 1))
        } else if let hint {
            return StyledLine(TextWidth.fit(hint.text, screen.width - 1), .cyan)
        } else if showsStatus, var status = lastStatus {
            status.keysHint = !keysSeen && helpKey != nil
            status.helpKey = helpKey ?? "h"
            return StatusLine.render(status, width: screen.width)
        } else {
            return StyledLine("")
        }
    }
}
