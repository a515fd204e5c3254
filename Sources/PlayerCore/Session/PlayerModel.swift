/// The player as a value: the list, the state machine, the modes, the sound, and what the run
/// has heard and failed. Each input (a command, an engine's report, the answer to something it
/// asked for) goes to `handle`, which changes the model and returns what is to be done: the
/// engine calls, the lines to say, the reads it asks for. It does no I/O and calls nothing: what
/// it needs from a file or the library is an effect whose answer comes back as an input.
/// `Session` makes the effects.
public struct PlayerModel {
    public private(set) var context = PlayerContext()
    public internal(set) var entries: EntryList {
        didSet { edits = turn.editsBefore + 1 }
    }
    /// Counts the changes to `entries` (an edit, a load), so a view can tell its copy is old.
    public internal(set) var edits = 0
    /// Each entry's id and the version it last changed at, for MPD's clients (`EntryMarks`).
    public internal(set) var marks: EntryMarks
    /// The list's version as MPD's clients read it (its `playlist`): 1 for the list first
    /// given, one more with each edit.
    public var listVersion: UInt32 { UInt32(truncatingIfNeeded: edits + 1) & 0x7FFF_FFFF }
    public internal(set) var queue: PlayQueue
    /// The rules of this run, fixed when it starts.
    public let policy: Policy
    /// At the end of the list: stay on the last song (true) or finish the run (false).
    public var keepsOpen: Bool { policy.keepsOpen || holds.any }
    /// Where the run is in its list (beside the machine's state, which says what the song
    /// does): one value, so that a run cannot be both over and waiting at the list's end.
    public internal(set) var listPlace = ListPlace.inList
    /// True once the run is over: the list played through, or `quit`.
    public var isFinished: Bool { listPlace == .finished }
    public internal(set) var modes = PlayModes()
    public internal(set) var sound = Sound()
    /// What holds the run open at the end of its list.
    var holds = Holds()
    /// What failed, so far, and so the exit status.
    public internal(set) var outcome = RunOutcome()
    /// What internet streams have said and named (`PlayerModel+Stream`).
    var streams = StreamBook()
    /// The entry being opened and the loads awaited.
    var loading = Loading()
    /// What is heard of the song playing: listening and damage.
    var hearing = Hearing()
    /// The input being handled: what the engine said with it, and the effects so far.
    var turn = Turn()

    /// More of the list is still being read (a long playlist or folder named at start): the
    /// end of what is there does not end the run, and the list goes on when more arrives.
    public var listIsComing: Bool { holds.listComing }
    /// The playlist served over http whose entries took its place at the last open that found
    /// one (`nil`: that one was refused): a front-end's "could not open" waits for its first.
    public var adoptedPlaylist: Path? { streams.adopted }
    /// `--replaygain`: what the engine applies to the songs it opens (auto follows shuffle),
    /// applied as soon as it is set.
    public var replayGain: ReplayGainSetting { sound.replayGain }
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

    public init(entries: EntryList, queue: PlayQueue? = nil, policy: Policy = Policy()) {
        self.entries = entries
        marks = EntryMarks(count: entries.count, version: 1)
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
        outcome.exitStatus(policy)
    }

    /// A script holds the run open while it runs (`true`), and lets go when it is over.
    public mutating func holdOpen(_ held: Bool) {
        holds.script = held
    }

    /// Skips `entries` in this run without a word and without failing it (saved songs that
    /// are not there: said once before the run); they stay in the list.
    public mutating func setAside(_ entries: [Int]) {
        outcome.setAside.formUnion(entries)
    }

    /// Whether the list passes over `entry`: it failed, or it was set aside.
    func skips(_ entry: Int) -> Bool { outcome.skips(entry) }

    /// Opens and plays the first entry that can be played (shuffled by album, once the albums
    /// are known).
    mutating func start() {
        modes.startAwaitsAlbums = queue.byAlbum && !queue.knowsEveryAlbum
        if !modes.startAwaitsAlbums { advance(atEnd: .rewind) }
    }

    /// Starts where `saved` left off: its song at its position, with its volume (the list and
    /// the modes are the session's own, made from it).
    mutating func resume(_ saved: SavedSession) {
        sound.volume = saved.volume
        sound.muted = saved.muted
        modes.repeatsOne = saved.repeatsOne
        modes.albumMode = saved.albumMode
        modes.stopsAfterEach = saved.stopsAfterEach
        modes.consumes = saved.consumes
        for (entry, priority) in saved.priorities where entry < entries.count {
            marks.setPriority(priority, at: entry, version: listVersion)
        }
        for entry in saved.upNext { queue.toggleQueued(entry) }
        if saved.volume != 100 || saved.muted { applyVolume() }
        guard let entry = saved.current, entry < entries.count else { return start() }
        defer { cueNext() }
        queue.select(entry)
        open(entry, moving: .forward(.rewind))
        if saved.position > .zero { apply(.seek(.resume(saved.position))) }
    }

    mutating func perform(_ command: Command) {
        guard !isFinished else { return }
        defer {
            goOnIfAlbumNeedsNoAnswer()
            cueNext()
        }
        observeHeard()  // what was heard counts before the command moves on (a skip past half is a play)
        if [.play, .toggle, .playFromStart].contains(command), queue.byAlbum, !queue.knowsEveryAlbum, context.state.song == nil { return modes.startAwaitsAlbums = true }
        if modes.endedAwaitingAlbum, command == .play || command == .toggle {
            // Play asked for while the next song's album is read: it plays, album or not (as
            // play does where album mode stopped), not the song that ended.
            return advance(atEnd: .rest, checkingAlbum: false)
        }
        switch command {
        case .play: apply(.play)
        case .playFromStart:
            if let song = context.state.song, song.isSeekable {
                apply(.seek(.to(.zero)))
                hearing.seeks += 1
            }
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
            let played = index
            advance(atEnd: .rewind)
            consume(played)
        case .previous: retreat()
        case .load(let path): startLoad(path)
        case .quit: finish()
        case .toggleRepeat: queue.repeats.toggle()
        case .toggleShuffle: setShuffle(queue.shuffle.next)
        case .setRepeat(let on): queue.repeats = on
        case .setShuffle(let on): setShuffle(on ? (queue.shuffles ? queue.shuffle : .songs) : .off)  // MPD's random 1 keeps albums
        case .setShuffleMode(let mode): setShuffle(mode)
        case .nextAlbum: moveByAlbum(forward: true)
        case .previousAlbum: moveByAlbum(forward: false)
        case .seek(let target):
            // A stream that cannot seek is read from start to end: a seek would only drop what is buffered.
            if let song = context.state.song, !song.isSeekable {
                return emit(.report("\(song.path): \(song.totalFrames == nil ? "a live stream cannot seek" : "its server takes no byte ranges, so it cannot seek")"))
            }
            apply(.seek(target))
            hearing.seeks += 1
        case .volume, .changeVolume, .toggleMute, .setMute, .setOutput, .pitch, .speed, .changeSpeed, .mpegEqualizer, .toggleEqualizer, .setEqualizerOn,
             .setGraphicEqualizer, .setCrossfade, .toggleCrossfade, .setSkipFade, .setSleep:
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
        case .clearList: clear()
        case .moveEntry(let entry, let step): move(entry, by: step)
        case .queueEntry(let entry): queue.toggleQueued(entry)
        case .toggleRepeatOne: modes.repeatsOne.toggle()
        case .setRepeatOne(let on): modes.repeatsOne = on
        case .toggleStopAfter: modes.stopsAfterCurrent.toggle()
        case .toggleAlbumMode: modes.albumMode.toggle()
        case .setAlbumMode(let on): modes.albumMode = on
        case .setStopAfter(let on): modes.stopsAfterCurrent = on
        case .setStopAfterEach(let on): modes.stopsAfterEach = on
        case .setConsume(let on): modes.consumes = on
        case .shuffleEntries(let range): shuffle(range)
        case .setPriority(let priority, let range): setPriority(priority, of: range)
        case .setSpan(let entry, let span): setSpan(span, of: entry)
        case .tagEntry(let entry, let name, let value): tag(entry, name: name, value: value)
        case .saveList(let path): emit(.saveList(path, entries))
        case .playlist(let request): ask(request)
        case .add(let path, let at):
            emit(.expand(path, .add(at: at)))
        }
    }

    /// The shuffles from now on (turning shuffle on, a new round with repeat, songs added in
    /// shuffle mode) follow `seed`: the same seed, the same order.
    public mutating func seedShuffles(_ seed: UInt64) {
        queue.seed(seed)
    }

    /// The song playing (or paused) and where it is, to come back to.
    func resumePoint() -> Resume? {
        guard let entry = queue.current, let song = context.state.song else { return nil }
        return Resume(entry: entry, at: AudioTime(frames: turn.position, rate: song.sampleRate),
                      playing: context.state.isPlaying)
    }

    mutating func handle(_ event: EngineEvent) {
        guard !isFinished else { return }
        defer { cueNext() }
        switch event {
        case .opened, .openFailed, .servedPlaylist, .ended, .decodeFailed, .damaged:
            hearing.damage.flush().forEach { emit(.report($0)) }  // what the song before was skipped, said before what follows
        case .damageSkipped, .deviceLost, .deviceRestored, .outputFallback, .outputNotice, .outputFailed, .budgetSpent, .playback,
             .seeked, .deviceBuffer, .stream:
            break
        }
        switch event {
        case .opened(let song, let token):
            // A CUE sheet's track is named by the sheet, not by its image file's tags.
            let tags = (loading.opening?.entry ?? index).flatMap { entries[$0].sheetTags }
            if !apply(.opened(tags.map(song.named(by:)) ?? song, token: token)).isIgnored {
                loading.opening = nil
                hearing.listening.start(token, at: 0)
            }
        case .openFailed(let error, let token):
            guard !apply(.openFailed(error, token: token)).isIgnored, let opening = loading.opening else { return }
            loading.opening = nil
            failOpening(opening, error)
        case .servedPlaylist(let served, let path, let token):
            // One it refuses is a song that could not be opened: the machine keeps why.
            var refusal: LoadFailure?
            if let opening = loading.opening { refusal = self.refusal(of: served, at: opening.entry) }
            var event = PlayerEvent.served(token: token)
            if let refusal { event = .openFailed(LoadError(path: path, reason: refusal), token: token) }
            guard !apply(event).isIgnored, let opening = loading.opening else { return }
            loading.opening = nil
            served.problems.forEach { emit(.report($0.brief)) }
            if let refusal {
                streams.adopted = nil
                failOpening(opening, LoadError(path: path, reason: refusal))
            } else {
                adopt(served, at: opening.entry, moving: opening.move)
            }
        case .ended(let token):
            if let song = context.state.song, token == context.state.token {
                heard(song, at: song.totalFrames.map(song.seconds) ?? .infinity, token: token, ended: true)
            }
            if !apply(.ended(token: token)).isIgnored {
                let played = index
                advance(atEnd: .rest)
                consume(played)
            }
        case .decodeFailed(let token, let message):
            failCurrent(token, message)
        case .damaged(let token, let at, let reason):
            failCurrent(token, "damaged at \(TimeFormat.precise(at.seconds)): \(reason)")
        case .damageSkipped(let token, let at, let seconds):
            guard token == context.state.token, let song = context.state.song else { return }
            // The decoder can find its frames again in steps: each place is said once, whole,
            // as `--check` says it.
            hearing.damage.skipped(at.seconds...(at.seconds + seconds), token: token, path: song.path).forEach { emit(.report($0)) }
            outcome.playedPastDamage = true
        case .deviceLost(let token, let message):
            guard token == context.state.token else { return }
            emit(.report("output: \(message); will resume when it is back"))
            apply(.deviceLost(token: token))
        case .deviceRestored(let token):
            apply(.deviceRestored(token: token))
        case .outputFallback(let message), .outputNotice(let message):
            emit(.report(message))
        case .outputFailed(let message):
            emit(.report(message))
            outcome.outputFailed = true
            finish()
        case .seeked(let token, let frame, _):
            if let song = context.state.song { hearing.listening.jump(token, to: song.seconds(frame)) }
        case .stream(let path, let news):
            heard(news, from: path)
        case .budgetSpent, .playback, .deviceBuffer:
            break  // the script runner's, the trace's and the status line's business
        }
    }

    /// Hands `event` to the state machine, makes the engine calls it returns and does what
    /// the row asks of the session.
    @discardableResult
    mutating func apply(_ event: PlayerEvent) -> PlayerContext.Outcome {
        let outcome = context.handle(event)
        if let step = outcome.step {
            emit(.transition(step))
            listPlace = listPlace.moved  // any transition leaves the start
        }
        outcome.calls.forEach { emit(.engine($0)) }
        switch outcome.followUp {
        case .startList?: playCurrentOrNext()
        case nil: break
        }
        return outcome
    }

    /// The entry being opened cannot be played: said in one line, counted for the exit status,
    /// and the list goes on the way it was moving.
    private mutating func failOpening(_ opening: (entry: Int, move: Move), _ error: LoadError) {
        emit(.report(entries[opening.entry].describe(error)))
        outcome.failures[opening.entry] = "\(error.reason)"
        outcome.someFailed = true
        switch opening.move {
        case .forward(let atEnd): advance(atEnd: atEnd)
        case .backward: retreat()
        case .instead(let resume):
            queue.select(resume.entry)
            loading.opening = (resume.entry, .forward(.rewind))
            apply(.load(entries[resume.entry].source))
            apply(.seek(.to(resume.at)))
            if resume.playing { apply(.play) }
        }
    }

    /// The song playing cannot go on: said in one line, counted for the exit status, and the
    /// list goes on.
    private mutating func failCurrent(_ token: Int, _ message: String) {
        guard token == context.state.token, let song = context.state.song else { return }
        emit(.report("\(song.path): \(message)"))
        if let index { outcome.failures[index] = message }
        outcome.someFailed = true
        apply(.ended(token: token))
        advance(atEnd: .rest)
    }

    /// Stops the song (or the one loading) and takes it back to its start.
    mutating func rewind() {
        guard context.state.id != .idle else { return }
        apply(.stop)
        apply(.seek(.to(.zero)))
        listPlace = listPlace.rewound(stopped: context.state.id == .stop)
    }

    /// Opens entry `entry` to play it as soon as it is open. If it cannot be, the engine says
    /// so and the list moves on the same way.
    mutating func open(_ entry: Int, moving move: Move) {
        listPlace = .inList
        modes.endedAwaitingAlbum = false
        loading.opening = (entry, move)
        apply(.load(entries[entry].source))
        apply(.play)
    }

    mutating func finish() {
        guard !isFinished else { return }
        hearing.damage.flush().forEach { emit(.report($0)) }
        apply(.stop)
        listPlace = .finished
        answerLoad(.overtaken)
    }
}
