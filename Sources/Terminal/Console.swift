import PlayerCore

/// The interactive terminal: keys in, commands out; the status line, the load prompt, the
/// help and the song's details, and messages on the screen. It decides nothing about playback:
/// that is the session's job.
public final class Console {
    /// What Tab makes of the prompt's text: the text completed as far as it goes, and the
    /// choices when there are several.
    public struct Completion: Equatable, Sendable {
        public var text: String
        public var choices: [String]

        public init(text: String, choices: [String] = []) {
            self.text = text
            self.choices = choices
        }
    }

    /// How long "press h for keys" stays after a key that means nothing.
    public static let hintSeconds = 2.0

    private let screen: Screen
    private let showsStatus: Bool
    private var decoder = KeyDecoder()
    private var prompt: PromptLine?
    /// What the open prompt's text is for.
    private var promptPurpose = PromptPurpose.load

    private enum PromptPurpose: Equatable {
        /// `l`: a path to play now.
        case load
        /// `l` in the list view: a path to put into the list at an entry.
        case add(at: Int)
        /// `w` in the list view: the name to save the list as.
        case save
    }
    /// The paths loaded this run, for ↑/↓ at the prompt.
    private var history: [String] = []
    private var lastStatus: StatusSnapshot?
    /// The help, the song's details or Tab's choices, shown above the status line until the
    /// next key: laid out again when the window changes size.
    private var panel: ((Screen) -> [String])?
    /// When the last key came: the list view does its work ahead only when none has for a moment.
    private var lastKey: ContinuousClock.Instant?
    /// No key yet: the status line says `h: keys`.
    private var keysSeen = false
    private var hint: (text: String, until: ContinuousClock.Instant)?
    /// The list view, while it is open (on the alternate screen), and the list it shows.
    private var listView: ListView?
    private var list = ListSnapshot()
    /// Messages that came while the list view was open: the last shows on its title line, and
    /// all are printed on the normal screen when it closes, so none is lost.
    private var heldMessages: [String] = []
    /// The last message, on the list view's title line until the next key.
    private var freshMessage: String?
    /// Songs on screen in the list view whose tags and length are not known: asked for once
    /// each (`takeFactRequests`), read off the main loop, and shown when they come.
    private var factRequests: [SongSource] = []
    private var requested = Set<SongSource>()
    /// The help or the song's details, shown in the list view instead of the list until the
    /// next key.
    private var overlay: ((Screen) -> [String])?
    /// Which key does what (tplayer's own keys, or the configuration file's), and how far
    /// the step keys go.
    public var bindings = KeyBindings.standard
    public var steps = Steps()
    /// The first key bound to the help, as the hints name it.
    private var helpKey: String? {
        bindings.firstKey(for: .help).map(KeyBindings.name)
    }

    /// What a path typed at a prompt means, and what completes it: the file system's business,
    /// handed in.
    public struct TypedPaths {
        /// Completes what is typed: the completion is handed to the second argument, at once or
        /// later from the main loop (a folder of 200,000 files takes a while to list; the keys
        /// are answered meanwhile).
        public var complete: (String, @escaping (Completion) -> Void) -> Void
        /// The path the text typed means (`~/`, quotes, blanks around it).
        public var resolve: (String) -> Path

        public init(complete: @escaping (String, @escaping (Completion) -> Void) -> Void, resolve: @escaping (String) -> Path) {
            self.complete = complete
            self.resolve = resolve
        }

        /// Text taken as the path it spells, completing nothing (tests, and what has no files).
        public static var literal: TypedPaths {
            TypedPaths(complete: { text, done in done(Completion(text: text)) }, resolve: { Path($0) })
        }
    }

    private let paths: TypedPaths

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
        let bound = prompt == nil && (listView != nil ? bindings.listAction(for: key) : bindings.action(for: key)) != nil
        return bound ? [key] : [.escape, .character(character)]
    }

    /// The same, with the list as it is now, for a key that opens the list view: the keys that
    /// came with it (Tab ↓, a paste) move in the list, where they were lost on an empty one.
    public func commands(from bytes: [UInt8], list current: () -> ListSnapshot) -> [Command] {
        var commands: [Command] = []
        var edited = false
        defer { if edited { redraw() } }
        for key in decoder.decode(bytes).lazy.flatMap(escapeUnlessBound) {
            closePanel()
            hint = nil
            freshMessage = nil
            keysSeen = true
            lastKey = .now
            if prompt != nil {
                if let command = edit(with: key) { commands.append(command) }
                edited = true
                continue
            }
            if overlay != nil {
                overlay = nil
                if key == .escape { redraw(); continue }
            }
            if var view = listView {
                listView = nil  // the view's one copy is mutated, not copied (its search text is large)
                let outcome = view.handle(key, action: bindings.listAction(for: key), in: list, rows: screen.height - 2)
                listView = view
                switch outcome {
                case .redraw?: edited = true; continue
                case .command(let command)?: commands.append(command); redraw(); continue
                case .say(let text)?:
                    hint = (text, .now.advanced(by: .seconds(Self.hintSeconds)))
                    redraw()
                    continue
                case .close?: closeList(); continue
                case .askToAdd(let at)?:
                    openPrompt(label: "Add after \(at): ", for: .add(at: at))
                    continue
                case .askToSave?:
                    openPrompt(label: "Save the list as (a new .m3u8): ", for: .save)
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
                openPrompt(label: "Load: ", for: .load)
            case .listView:
                if listView != nil {
                    closeList()
                } else {
                    openList(current())
                }
            case .help where listView != nil:
                let (bindings, steps) = (bindings, steps)
                overlay = { screen in
                    ["Keys in the list view (any key goes back to the list):"]
                        + PanelLayout.lines(KeyMap.helpLines(inListView: true, bindings: bindings, steps: steps), width: screen.width, rows: screen.height - 2, packed: false)
                }
                redraw()
            case .info where listView != nil:
                let lines = SongDetails.lines(lastStatus?.song, failure: lastStatus?.failure)
                overlay = { screen in PanelLayout.lines(lines, width: screen.width, rows: screen.height - 1, packed: false) }
                redraw()
            case .help:
                let (bindings, steps) = (bindings, steps)
                openPanel { screen in
                    ["Keys:"] + PanelLayout.lines(KeyMap.helpLines(inListView: false, bindings: bindings, steps: steps), width: screen.width, rows: screen.height - 2, packed: false)
                }
            case .info:
                let lines = SongDetails.lines(lastStatus?.song, failure: lastStatus?.failure)
                openPanel { screen in PanelLayout.lines(lines, width: screen.width, rows: screen.height - 1, packed: false) }
            case .play, .stop, .rewind, .toggle, .next, .previous, .load, .quit, .toggleRepeat, .toggleShuffle, .setRepeat,
                 .setShuffle, .seek, .volume, .changeVolume, .toggleMute, .setMute, .pitch, .playEntry, .removeEntry, .add,
                 .saveList, .moveEntry:
                commands.append(command)  // the player's
            }
        }
        return commands
    }

    /// One key at the open prompt; the command it gives, when Enter submits a path.
    private func edit(with key: Key) -> Command? {
        guard var open = prompt else { return nil }
        switch open.apply(key) {
        case .editing:
            prompt = open
        case .cancelled:
            prompt = nil
        case .complete:
            prompt = open
            let typed = open.text
            paths.complete(typed) { [weak self] completion in self?.completed(typed, completion) }
        case .submitted(let text):
            prompt = nil
            let typed = text.trimmingCharacters(in: " \t")
            guard !typed.isEmpty else { return nil }
            if history.last != typed { history.append(typed) }
            switch promptPurpose {
            case .load: return .load(paths.resolve(typed))
            case .add(let at): return .add(paths.resolve(typed), at: at)
            case .save: return .saveList(paths.resolve(typed))
            }
        }
        return nil
    }

    private func openPrompt(label: String, for purpose: PromptPurpose) {
        prompt = PromptLine(label: label, history: history)
        promptPurpose = purpose
        redraw()
    }

    /// Tab's completion of `typed` is ready: applied if the prompt still holds what it was
    /// asked for (a key typed since, or the prompt closed, makes it moot).
    private func completed(_ typed: String, _ completion: Completion) {
        guard var open = prompt, open.text == typed else { return }
        open.complete(to: completion.text)
        prompt = open
        if completion.choices.count > 1 {
            let choices = completion.choices
            openPanel { screen in PanelLayout.lines(choices, width: screen.width, rows: screen.height - 1, packed: true) }
        } else {
            redraw()
        }
    }

    /// What the load prompt holds, while it is open.
    var promptText: String? { prompt?.text }

    /// Shows `status` on the bottom line (unless the prompt has it).
    public func show(_ status: StatusSnapshot) {
        lastStatus = status
        // Idle: no key for a moment (the status line's tick while nothing is typed).
        redraw(idle: lastKey.map { $0.duration(to: .now) > .milliseconds(300) } ?? true)
    }

    public func print(_ message: String) {
        guard listView == nil else {
            heldMessages.append(message)
            freshMessage = message
            return redraw()
        }
        screen.print(message)
    }

    /// The list as the session has it now, for the list view.
    public func showList(_ list: ListSnapshot) {
        // Kept only while the view is open: a copy held meanwhile would make every change the
        // session makes to a list of 100,000 entries copy it whole.
        self.list = listView != nil ? list : ListSnapshot()
    }

    /// The songs on screen whose tags and length the list view would show, once each.
    public func takeFactRequests() -> [SongSource] {
        defer { factRequests = [] }
        return factRequests
    }

    /// Whether the list view is open (the main loop hands it the list only then).
    public var showsList: Bool { listView != nil }

    /// Opens the list view on `snapshot`, the list as it is now, its cursor on the song playing.
    private func openList(_ snapshot: ListSnapshot) {
        list = snapshot
        listView = ListView(cursor: snapshot.current ?? 0)
        screen.enterFullScreen()
        redraw()
    }

    private func closeList() {
        listView = nil
        overlay = nil
        screen.leaveFullScreen()
        let messages = heldMessages
        heldMessages = []
        messages.forEach(screen.print)
        redraw()
    }

    /// When the screen next changes by itself (the hint going away), for the main loop's wait.
    public var nextChange: ContinuousClock.Instant? { hint?.until }

    /// The terminal was resized: the panel is laid out again for the new size.
    public func resized() {
        if listView != nil { screen.enterFullScreen() }
        screen.measure()
        if let panel { screen.showPanel(panel(screen)) }
        redraw()
    }

    /// Ctrl-C: cancels the open prompt or the list view's search, as a shell does; true when it
    /// did (the player goes on).
    public func interrupted() -> Bool {
        if var view = listView, view.isSearching {
            listView = nil
            _ = view.handle(.escape, action: nil, in: list, rows: screen.height - 2)
            listView = view
            redraw()
            return true
        }
        guard prompt != nil else { return false }
        prompt = nil
        closePanel()
        redraw()
        return true
    }

    /// Leaves the bottom line empty and the cursor visible.
    public func close() {
        closePanel()
        screen.close()
        // Said on the normal screen; the view opens again if the player comes back (Ctrl-Z, fg).
        let messages = heldMessages
        heldMessages = []
        messages.forEach(screen.print)
    }

    private func openPanel(_ layout: @escaping (Screen) -> [String]) {
        closePanel()
        panel = layout
        screen.showPanel(layout(screen))
        redraw()
    }

    private func closePanel() {
        guard panel != nil else { return }
        panel = nil
        screen.hidePanel()
    }

    /// `idle`: no key waits for this redraw (the status line's tick).
    private func redraw(idle: Bool = false) {
        if let hint, hint.until < .now { self.hint = nil }
        if var view = listView {
            listView = nil  // as above: no copy of 100,000 entries' search text at each redraw
            let lines: [StyledLine]
            if let overlay {
                let rows = screen.height - 1
                lines = Array(overlay(screen).map { StyledLine($0) }.prefix(rows))
                screen.drawFrame(lines + Array(repeating: StyledLine(), count: max(rows - lines.count, 0)) + [bottomLine()])
            } else {
                var frame = view.lines(list, width: screen.width, height: screen.height, bottom: bottomLine(), foldingAhead: idle,
                                       keys: bindings)
                for entry in view.shown {
                    let source = list.entries[entry].source
                    if list.known[source] == nil, requested.insert(source).inserted { factRequests.append(source) }
                }
                if requested.count > 50_000 { requested = Set(list.known.keys) }  // bounded, whatever is scrolled through
                if let message = freshMessage, !frame.isEmpty {
                    frame[0] = StyledLine(TextWidth.fit(message, screen.width - 1), .yellow)
                }
                screen.drawFrame(frame)
            }
            listView = view
            return
        }
        screen.draw(bottomLine())
    }

    /// What the bottom line shows: the prompt, a hint, or the status line.
    private func bottomLine() -> StyledLine {
        if let prompt {
            return StyledLine(prompt.rendered(width: screen.width - 1))
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

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let blank = { (character: Character) in set.contains(character) }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
