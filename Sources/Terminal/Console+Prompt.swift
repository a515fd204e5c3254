import PlayerCore

/// The prompt on the bottom line (`l`, `:`, the list view's add and save): its keys, and what
/// Enter gives.
extension Console {
    /// One key at the open prompt; the command it gives, when Enter submits a path.
    func edit(with key: Key) -> Command? {
        guard var open = openPrompt else { return nil }
        switch open.line.apply(key) {
        case .editing:
            setPrompt(open)
        case .cancelled:
            setPrompt(nil)
        case .complete:
            setPrompt(open)
            let typed = open.line.text
            paths.complete(typed) { [weak self] completion in self?.completed(typed, completion) }
        case .submitted(let text):
            setPrompt(nil)
            let typed = text.trimmingCharacters(in: " \t")
            guard !typed.isEmpty else { return nil }
            if open.purpose == .command {
                if commandHistory.last != typed { commandHistory.append(typed) }
                return run(commandLine: typed)
            }
            if history.last != typed { history.append(typed) }
            switch open.purpose {
            case .command: return nil
            case .load: return .load(paths.resolve(typed))
            case .add(let at): return .add(paths.resolve(typed), at: at)
            case .save: return .saveList(paths.resolve(typed))
            }
        }
        return nil
    }

    func open(prompt label: String, for purpose: PromptPurpose) {
        setPrompt(OpenPrompt(line: PromptLine(label: label, history: purpose == .command ? commandHistory : history), purpose: purpose))
        redraw()
    }

    /// Tab's completion of `typed` is ready: applied if the prompt still holds what it was
    /// asked for (a key typed since, or the prompt closed, makes it moot).
    func completed(_ typed: String, _ completion: Completion) {
        guard var open = openPrompt, open.line.text == typed else { return }
        open.line.complete(to: completion.text)
        setPrompt(open)
        if completion.choices.count > 1 {
            let choices = completion.choices
            show { screen in PanelLayout.lines(choices, width: screen.width, rows: screen.height - 1, packed: true) }
        } else {
            redraw()
        }
    }

    /// Runs the line typed at `:`: the command it gives (for the player), or a scan started, or
    /// its problem said.
    func run(commandLine text: String) -> Command? {
        switch TypedCommand.read(text, inLibrary: showsLibrary, resolve: paths.resolve) {
        case .command(let command): return command
        case .scan(let folder):
            guard let scanLibrary else {
                print("tplayer: the library cannot be scanned from here")
                return nil
            }
            scanLibrary(folder)
            print("tplayer: library: scanning" + (folder.map { " (\($0) added)" } ?? "") + "…")
        case .problem(let problem):
            print("tplayer: :\(UntrustedText.shown(String(text.prefix(60)))): \(problem)")
        }
        return nil
    }
}
