/// Plays a list of entries through a `PlayerContext`: the command loop's brain.
///
/// It turns commands (keys, scripts) and engine reports into context events, walks the list in
/// the queue's order (repeat, shuffle), skips entries that cannot be loaded, and knows when the
/// run is over and with which exit status. It does no I/O: messages go to `report`, one line
/// each, and turning a typed path into entries is `expand`'s job.
public final class Session {
    public let context: PlayerContext
    public private(set) var entries: [Entry]
    public private(set) var queue: PlayQueue
    /// At the end of the list: stay on the last song (true) or finish the run (false).
    public var keepsOpen: Bool
    /// True once the run is over: the list played through, or `quit`.
    public private(set) var isFinished = false
    /// Receives each problem as `"<input>: <what went wrong>"`.
    public var report: (String) -> Void = { _ in }
    /// Turns a path given to `load` into entries (a folder or playlist gives many), reporting
    /// problems itself. The default takes the path as one song.
    public var expand: (Path) -> [Entry] = { [Entry(path: $0)] }
    private var failedEntries = Set<Int>()
    private var outputFailed = false

    public init(context: PlayerContext, entries: [Entry], queue: PlayQueue? = nil, keepsOpen: Bool = false) {
        self.context = context
        self.entries = entries
        self.keepsOpen = keepsOpen
        var queue = queue ?? PlayQueue(seed: 0)
        queue.append(entries.count - queue.count)
        self.queue = queue
    }

    /// The entry playing or last played; `nil` before the first.
    public var index: Int? { queue.current }
    /// 1-based place in the play order, for `3/12`.
    public var place: Int? { queue.cursor.map { $0 + 1 } }

    /// 0 when every entry played, 1 when at least one could not be played.
    public var exitStatus: Int32 { failedEntries.isEmpty && !outputFailed ? 0 : 1 }

    /// Loads and plays the first entry that can be played.
    public func start() {
        advance()
    }

    public func perform(_ command: Command) {
        guard !isFinished else { return }
        switch command {
        case .play, .toggle:
            if context.state.id == .idle {
                // Nothing loaded yet (a script's first `play`): start the list.
                playCurrentOrNext()
            } else {
                context.handle(command == .play ? .play : .toggle)
            }
        case .stop: context.handle(.stop)
        case .next: advance()
        case .previous: retreat()
        case .load(let path): playNow(expand(path))
        case .quit: finish()
        case .toggleRepeat: queue.repeats.toggle()
        case .toggleShuffle: queue.setShuffle(!queue.shuffles)
        case .setRepeat(let on): queue.repeats = on
        case .setShuffle(let on): queue.setShuffle(on)
        case .seek(let target): context.handle(.seek(target))
        case .volume(let percent): context.setVolume(percent)
        case .promptLoad, .help: break  // the terminal's own business
        }
    }

    /// Adds entries at the end of the list (in shuffle mode, at random places still to come).
    public func append(_ added: [Entry]) {
        entries += added
        queue.append(added.count)
    }

    /// Adds entries and plays them now; the list goes on after them from where it was.
    public func playNow(_ added: [Entry]) {
        guard !added.isEmpty else { return }
        entries += added
        queue.insertNext(added.count)
        advance()
    }

    public func handle(_ event: EngineEvent) {
        guard !isFinished else { return }
        switch event {
        case .ended(let token):
            guard token == context.token else { return }
            context.handle(.ended)
            advance(atEnd: .rest)
        case .decodeFailed(let token, let message):
            guard token == context.token else { return }
            failCurrent(message)
        case .damaged(let token, let at, let reason):
            guard token == context.token else { return }
            failCurrent("damaged at \(TimeFormat.precise(at.seconds)): \(reason)")
        case .deviceLost(let token, let message):
            guard token == context.token else { return }
            report("output: \(message); will resume when it is back")
            context.handle(.deviceLost)
        case .deviceRestored(let token):
            guard token == context.token else { return }
            context.handle(.deviceRestored)
        case .outputFallback(let message):
            report(message)
        case .outputFailed(let message):
            report(message)
            outputFailed = true
            finish()
        case .budgetSpent, .playback, .opened, .openFailed:
            break  // the script runner's, the trace's, and the loader's business
        }
    }

    /// The song playing cannot go on: said in one line, counted for the exit status, and the
    /// list goes on.
    private func failCurrent(_ message: String) {
        report("\(context.state.song.map { "\($0.path)" } ?? "?"): \(message)")
        if let index { failedEntries.insert(index) }
        context.handle(.ended)
        advance(atEnd: .rest)
    }

    /// What to do when the list runs out.
    private enum AtEnd {
        /// The song just ended and is already rewound in `Prepare`: leave it.
        case rest
        /// The user asked for the next song: stop and rewind the current one.
        case rewind
    }

    /// Plays the next playable entry in the queue's order. Past the end: finish, or with
    /// `keepsOpen` stay on the last song, rewound.
    private func advance(atEnd: AtEnd = .rewind) {
        let original = queue.current
        for _ in 0...entries.count {
            guard let entry = queue.advance() else { break }
            if !failedEntries.contains(entry), load(entry) { return }
        }
        guard keepsOpen else { return finish() }
        if let original { queue.select(original) }
        if atEnd == .rewind, context.state.id != .idle {
            context.handle(.stop)
            context.handle(.seek(.to(.zero)))
        }
    }

    /// Plays the previous playable entry; with none before it, starts the current song again.
    private func retreat() {
        let original = queue.current
        for _ in 0..<entries.count {
            let before = queue.cursor
            guard let entry = queue.retreat(), queue.cursor != before else { break }
            if !failedEntries.contains(entry), load(entry) { return }
        }
        if let original { queue.select(original) }
        context.handle(.seek(.to(.zero)))
    }

    /// What the status line names the current song: its tags, else the playlist's title for
    /// it, else its file name.
    public var songName: String? {
        guard let song = context.state.song else { return nil }
        if song.title == nil && song.artist == nil, let index, let title = entries[index].title {
            return title
        }
        return song.displayName
    }

    private func playCurrentOrNext() {
        guard let entry = queue.current else { return advance() }
        if failedEntries.contains(entry) || !load(entry) { advance() }
    }

    /// Loads entry `entry` and plays it; false (reported) when it cannot be loaded.
    private func load(_ entry: Int) -> Bool {
        if case .loadFailed(let error) = context.handle(.load(entries[entry].path)) {
            report(entries[entry].describe(error))
            failedEntries.insert(entry)
            return false
        }
        context.handle(.play)
        return true
    }

    private func finish() {
        guard !isFinished else { return }
        context.handle(.stop)
        isFinished = true
    }
}
