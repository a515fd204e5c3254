/// Plays a list of entries through the player's state machine: the command loop's brain.
///
/// It drives the `PlayerContext` (handing it commands and engine reports as events, and making
/// the engine calls it returns on the one engine), walks the list in the queue's order (repeat,
/// shuffle), skips entries that cannot be opened, and knows when the run is over and with which
/// exit status. It does no I/O of its own: messages go to `report`, one line each, and turning a
/// typed path into entries is `expand`'s job.
public final class Session {
    public private(set) var context = PlayerContext()
    public let engine: any PlaybackEngine
    public internal(set) var entries: EntryList {
        didSet { edits += 1 }
    }
    /// Counts the changes to `entries` (an edit, a load), so a view can tell its copy is old.
    public private(set) var edits = 0
    public internal(set) var queue: PlayQueue
    /// The rules of this run, fixed when it starts.
    public let policy: Policy
    /// While a script runs the end of the list does not end the run (the script may add more).
    private var heldOpen = false
    /// More of the list is still being read (a long playlist or folder named at start): the
    /// end of what is there does not end the run, and the list goes on when more arrives.
    public internal(set) var listIsComing = false
    /// At the end of the list: stay on the last song (true) or finish the run (false).
    public var keepsOpen: Bool { policy.keepsOpen || heldOpen || listIsComing || loadIsComing }
    /// A load's songs are being read (`load`, MPRIS's `OpenUri`): a run that ends with its list
    /// waits for them, and plays them, rather than ending while they come.
    var loadIsComing = false
    /// Where the run is in its list (beside the machine's state, which says what the song
    /// does): one value, so that a run cannot be both over and waiting at the list's end.
    public internal(set) var listPlace = ListPlace.inList
    /// True once the run is over: the list played through, or `quit`.
    public var isFinished: Bool { listPlace == .finished }
    /// Software volume in percent (0–100). It belongs to the engine, not to a song, so it
    /// holds across songs and in every state.
    public internal(set) var volume = 100
    /// Muted: the engine plays at 0 until unmuted (or the volume is changed).
    public internal(set) var muted = false
    /// The song playing plays again when it ends (not on `next`).
    public private(set) var repeatsOne = false
    /// What the internet stream playing or opening has said (`Session+Stream`).
    var streamSaid: (path: Path, state: StreamState)?
    /// Each playlist served over http that was opened, and the one that named it (the cycle check).
    var servedFrom: [Path: Path] = [:]
    /// The playlist served over http whose entries took its place at the last open that found
    /// one (`nil`: that one was refused): a front-end's "could not open" waits for its first.
    public internal(set) var adoptedPlaylist: Path?
    /// Album mode: the list stops at the end of an album (when the next song's album is another),
    /// the next song ready (cmus's `m`).
    public internal(set) var albumMode = false
    /// How many times as fast the songs play, at their own pitch (`--speed`, `[` `]`).
    public internal(set) var speed = 1.0
    /// The graphic equaliser's bands in dB (`nil`: none set) and whether it is on.
    public internal(set) var equalizerBands: [Double]?
    public internal(set) var equalizerOn = false
    /// The list stops when the song playing ends, with the next song ready; then this is off.
    public internal(set) var stopsAfterCurrent = false
    /// `--replaygain`: what the engine applies to the songs it opens (auto follows shuffle).
    public var replayGain = ReplayGainSetting() {
        didSet { applyReplayGain() }
    }
    /// The list has played to its end and waits there, its last song rewound (`keepsOpen`).
    public var isAtEndOfList: Bool {
        if case .atEnd = listPlace { true } else { false }
    }
    /// Stopped and taken back to the start (`rewind`, or the end of the list after `next`):
    /// what MPRIS calls Stopped, where a stop that keeps its place is Paused.
    public var isStoppedAtStart: Bool {
        switch listPlace {
        case .stoppedAtStart, .atEnd(stoppedAtStart: true): true
        case .inList, .atEnd(stoppedAtStart: false), .finished: false
        }
    }
    /// Where its problems go, and the work it does not do itself (`Seams`), fixed when it is made.
    let report: (String) -> Void
    let onTransition: ((PlayerContext.Step) -> Void)?
    let expand: Seams.Expand
    let saveList: (Path, EntryList) -> Void
    let listened: (Listen) -> Void
    let albumOf: (SongSource) -> String?
    /// The albums asked of `albumOf` (a song's album is read once a run).
    var albums: [SongSource: String?] = [:]
    /// What is heard of the song playing, to count it as played.
    var listening = ListenTracker()
    /// The load whose entries are awaited: a newer one supersedes it.
    var loads = 0
    /// The load whose asker waits for its answer (`load(_:answer:)`), and how to answer it.
    var awaitingAnswer: (load: Int, answer: (LoadAnswer) -> Void)?
    /// The entries that could not be played this run, and why (one line each): passed over
    /// from then on, and marked in the list view.
    public internal(set) var failures: [Int: String] = [:]
    /// Whether any song failed this run (taking it out of the list does not undo that).
    private var someFailed = false
    /// Entries not to be played in this run, nor counted as failed (`setAside`).
    var setAsideEntries = Set<Int>()
    /// A song played on past damage (skipped and said).
    private var playedPastDamage = false
    /// The places of damage skipped in the song playing, each said once when whole.
    var damage = DamageReport()
    private var outputFailed = false
    /// The entry being opened, and which way the list was moving: where to go on if it fails.
    var opening: (entry: Int, move: Move)?

    /// Which way the list moves past an entry that cannot be opened.
    enum Move {
        case forward(AtEnd)
        case backward
        /// A song asked for by a person: if it cannot be opened, the song that was playing
        /// goes on from where it was.
        case instead(of: Resume)
    }

    /// Where to go back to.
    struct Resume {
        let entry: Int
        let at: AudioTime
        let playing: Bool
    }

    /// What to do when the list runs out.
    enum AtEnd {
        /// The song just ended and is already rewound in `Prepare`: leave it.
        case rest
        /// The user asked for the next song: stop and rewind the current one.
        case rewind
    }

    public init(engine: any PlaybackEngine, entries: EntryList, queue: PlayQueue? = nil, policy: Policy = Policy(), seams: Seams) {
        self.engine = engine
        report = seams.report
        onTransition = seams.onTransition
        expand = seams.expand
        saveList = seams.saveList
        listened = seams.listened
        albumOf = seams.album
        self.entries = entries
        self.policy = policy
        var queue = queue ?? PlayQueue(seed: 0)
        queue.append(entries.count - queue.count)
        self.queue = queue
    }

    /// The entry playing or last played; `nil` before the first.
    public var index: Int? { queue.current }
    /// 1-based place in the list, for `3/12`: the number the list view shows the entry by,
    /// shuffled or not (one numbering everywhere).
    public var place: Int? { index.map { $0 + 1 } }
    public var state: PlayerState { context.state }

    /// 0 when every entry played whole, 1 when at least one could not be played or was
    /// damaged (unless the policy says failed songs do not fail the run) or the output failed.
    public var exitStatus: Int32 {
        ((!someFailed && !playedPastDamage) || !policy.failedSongsFailTheRun) && !outputFailed ? 0 : 1
    }

    /// A script holds the run open while it runs (`true`), and lets go when it is over.
    public func holdOpen(_ held: Bool) {
        heldOpen = held
    }

    /// Skips `entries` in this run without a word and without failing it (saved songs that
    /// are not there: said once before the run); they stay in the list.
    public func setAside(_ entries: [Int]) {
        setAsideEntries.formUnion(entries)
    }

    /// Whether the list passes over `entry`: it failed, or it was set aside.
    func skips(_ entry: Int) -> Bool { failures[entry] != nil || setAsideEntries.contains(entry) }

    /// Opens and plays the first entry that can be played.
    public func start() {
        advance(atEnd: .rewind)
    }

    /// Starts where `saved` left off: its song at its position, with its volume (the list and
    /// the modes are the session's own, made from it).
    public func resume(_ saved: SavedSession) {
        volume = saved.volume
        muted = saved.muted
        repeatsOne = saved.repeatsOne
        albumMode = saved.albumMode
        for entry in saved.upNext { queue.toggleQueued(entry) }
        if saved.volume != 100 || saved.muted { applyVolume() }
        guard let entry = saved.current, entry < entries.count else { return start() }
        defer { cueNext() }
        queue.select(entry)
        open(entry, moving: .forward(.rewind))
        if saved.position > .zero { apply(.seek(.resume(saved.position))) }
    }

    public func perform(_ command: Command) {
        guard !isFinished else { return }
        defer { cueNext() }
        observeHeard()  // what was heard counts before the command moves on (a skip past half is a play)
        switch command {
        case .play: apply(.play)
        case .playFromStart:
            if let song = context.state.song, song.isSeekable { apply(.seek(.to(.zero))) }
            apply(.play)
        case .toggle:
            apply(.toggle)
            sayPausedStream()
        case .stop:
            apply(.stop)
            sayPausedStream()
        case .rewind: rewind()
        case .next:
            noteSkip()
            advance(atEnd: .rewind)
        case .previous: retreat()
        case .load(let path): startLoad(path)
        case .quit: finish()
        case .toggleRepeat: queue.repeats.toggle()
        case .toggleShuffle:
            queue.setShuffle(!queue.shuffles)
            applyReplayGain()
        case .setRepeat(let on): queue.repeats = on
        case .setShuffle(let on):
            queue.setShuffle(on)
            applyReplayGain()
        case .seek(let target):
            // A stream that cannot seek is read from start to end: a seek would only drop what is buffered.
            if let song = context.state.song, !song.isSeekable {
                return report("\(song.path): \(song.totalFrames == nil ? "a live stream cannot seek" : "its server takes no byte ranges, so it cannot seek")")
            }
            apply(.seek(target))
        case .volume, .changeVolume, .toggleMute, .setMute, .pitch, .speed, .changeSpeed, .mpegEqualizer, .toggleEqualizer, .setEqualizerOn,
             .setGraphicEqualizer:
            performSound(command)
        case .promptLoad, .promptCommand, .help, .info, .listView, .libraryView, .nowPlayingView: break  // the terminal's own business
        case .playSongs(let paths): playNow(EntryList(paths: paths), asked: true)
        case .appendSongs(let paths): append(EntryList(paths: paths))
        case .replaceWithSongs(let paths): replaceList(EntryList(paths: paths))
        case .queueSongs(let paths):
            let first = entries.count
            append(EntryList(paths: paths))
            for entry in first..<entries.count { queue.toggleQueued(entry) }
        case .playEntry(let entry): play(entry)
        case .removeEntry(let entry): remove(entry)
        case .moveEntry(let entry, let step): move(entry, by: step)
        case .queueEntry(let entry): queue.toggleQueued(entry)
        case .toggleRepeatOne: repeatsOne.toggle()
        case .setRepeatOne(let on): repeatsOne = on
        case .toggleStopAfter: stopsAfterCurrent.toggle()
        case .toggleAlbumMode: albumMode.toggle()
        case .setAlbumMode(let on): albumMode = on
        case .setStopAfter(let on): stopsAfterCurrent = on
        case .saveList(let path): saveList(path, entries)
        case .add(let path, let at):
            expand(path) { [weak self] added, _ in
                guard let self, !self.isFinished else { return }
                self.insert(added, at: min(max(at, 0), self.entries.count))
            }
        }
    }

    /// The shuffles from now on (turning shuffle on, a new round with repeat, songs added in
    /// shuffle mode) follow `seed`: the same seed, the same order.
    public func seedShuffles(_ seed: UInt64) {
        queue.seed(seed)
    }

    /// The song playing (or paused) and where it is, to come back to.
    func resumePoint() -> Resume? {
        guard let entry = queue.current, let song = context.state.song else { return nil }
        return Resume(entry: entry, at: AudioTime(frames: engine.position, rate: song.sampleRate),
                      playing: context.state.isPlaying)
    }

    public func handle(_ event: EngineEvent) {
        guard !isFinished else { return }
        defer { cueNext() }
        switch event {
        case .opened, .openFailed, .ended, .decodeFailed, .damaged:
            damage.flush().forEach(report)  // what the song before was skipped, said before what follows
        case .damageSkipped, .deviceLost, .deviceRestored, .outputFallback, .outputFailed, .budgetSpent, .playback,
             .seeked, .deviceBuffer, .stream:
            break
        }
        switch event {
        case .opened(let song, let token):
            // A CUE sheet's track is named by the sheet, not by its image file's tags.
            let tags = (opening?.entry ?? index).flatMap { entries[$0].sheetTags }
            if !apply(.opened(tags.map(song.named(by:)) ?? song, token: token)).isIgnored {
                opening = nil
                listening.start(token, at: 0)
            }
        case .openFailed(let error, let token):
            guard !apply(.openFailed(error, token: token)).isIgnored, let opening else { return }
            self.opening = nil
            var error = error
            if case .playlist(let served) = error.reason {
                guard let refusal = adopt(served, at: opening.entry, moving: opening.move) else { return }
                error = LoadError(path: error.path, reason: refusal)
            }
            report(entries[opening.entry].describe(error))
            failures[opening.entry] = "\(error.reason)"
            someFailed = true
            switch opening.move {
            case .forward(let atEnd): advance(atEnd: atEnd)
            case .backward: retreat()
            case .instead(let resume):
                queue.select(resume.entry)
                self.opening = (resume.entry, .forward(.rewind))
                apply(.load(entries[resume.entry].source))
                apply(.seek(.to(resume.at)))
                if resume.playing { apply(.play) }
            }
        case .ended(let token):
            if let song = context.state.song, token == context.state.token {
                heard(song, at: song.totalFrames.map(song.seconds) ?? .infinity, token: token, ended: true)
            }
            if !apply(.ended(token: token)).isIgnored { advance(atEnd: .rest) }
        case .decodeFailed(let token, let message):
            failCurrent(token, message)
        case .damaged(let token, let at, let reason):
            failCurrent(token, "damaged at \(TimeFormat.precise(at.seconds)): \(reason)")
        case .damageSkipped(let token, let at, let seconds):
            guard token == context.state.token, let song = context.state.song else { return }
            // The decoder can find its frames again in steps: each place is said once, whole,
            // as `--check` says it.
            damage.skipped(at.seconds...(at.seconds + seconds), token: token, path: song.path).forEach(report)
            playedPastDamage = true
        case .deviceLost(let token, let message):
            guard token == context.state.token else { return }
            report("output: \(message); will resume when it is back")
            apply(.deviceLost(token: token))
        case .deviceRestored(let token):
            apply(.deviceRestored(token: token))
        case .outputFallback(let message):
            report(message)
        case .outputFailed(let message):
            report(message)
            outputFailed = true
            finish()
        case .seeked(let token, let frame, _):
            if let song = context.state.song { listening.jump(token, to: song.seconds(frame)) }
        case .stream(let path, let news):
            heard(news, from: path)
        case .budgetSpent, .playback, .deviceBuffer:
            break  // the script runner's, the trace's and the status line's business
        }
    }

    /// Hands `event` to the state machine, makes the engine calls it returns and does what
    /// the row asks of the session.
    @discardableResult
    func apply(_ event: PlayerEvent) -> PlayerContext.Outcome {
        let outcome = context.handle(event)
        if let step = outcome.step {
            onTransition?(step)
            listPlace = listPlace.moved  // any transition leaves the start
        }
        outcome.calls.forEach(engine.perform)
        switch outcome.followUp {
        case .startList?: playCurrentOrNext()
        case nil: break
        }
        return outcome
    }

    /// The song playing cannot go on: said in one line, counted for the exit status, and the
    /// list goes on.
    private func failCurrent(_ token: Int, _ message: String) {
        guard token == context.state.token, let song = context.state.song else { return }
        report("\(song.path): \(message)")
        if let index { failures[index] = message }
        someFailed = true
        apply(.ended(token: token))
        advance(atEnd: .rest)
    }

    /// Stops the song (or the one loading) and takes it back to its start.
    func rewind() {
        guard context.state.id != .idle else { return }
        apply(.stop)
        apply(.seek(.to(.zero)))
        listPlace = listPlace.rewound(stopped: context.state.id == .stop)
    }

    /// Opens entry `entry` to play it as soon as it is open. If it cannot be, the engine says
    /// so and the list moves on the same way.
    func open(_ entry: Int, moving move: Move) {
        listPlace = .inList
        opening = (entry, move)
        apply(.load(entries[entry].source))
        apply(.play)
    }

    func finish() {
        guard !isFinished else { return }
        damage.flush().forEach(report)
        apply(.stop)
        listPlace = .finished
        answerLoad(.overtaken)
    }
}
