import AudioEngine
import Cover
import Files
import Library
import Glibc
import Inputs
import MpdServer
import Mpris
import PlayerApp
import PlayerCore
import Terminal

/// One run of the player, wired: the checks before it starts, the engine, the session, an
/// optional script, the terminal and the signals, handed to `Player`, which runs it.
struct PlayerRun {
    struct Options {
        var repeats: Bool
        var shuffle: Shuffle
        var fades: Bool
        var replayGain = ReplayGainSetting()
        var seed: UInt64
        var quiet: Bool
        var trace: Bool
        /// Offer MPRIS on the session bus, when there is one (`--no-mpris`: never).
        var mpris = true
        /// Pick up the saved session (`--resume`, or no inputs in a terminal when one is saved).
        var resume = false
        /// Open the library view at start (`tplayer` alone in a terminal, with a library).
        var opensLibrary = false
        /// The configuration file's: the starting volume, the keys and their steps, colours.
        var settings = Settings()
        /// `--volume`: the volume to start at, whatever the settings or the saved session say.
        var volume: Int?
        /// `--start`: where the first song starts.
        var start: SeekTarget?
        /// `--bits`: every song written in 16, 24 or 32 bits, whatever its own.
        var bits: Int?
        /// `--speed` (or the settings' `speed =`): how many times as fast, at the songs' pitch.
        var speed: Double?
        /// `--crossfade` (or the settings' `crossfade =`) and `crossfade-skip =`, in seconds.
        var crossfade: Double?
        var skipFade: Double?
        /// `--sleep`: when playback stops.
        var sleep: SleepTimer.Request?
        /// `--mpd`: where to serve MPD's protocol, and to whom.
        var mpd: MpdServer.Settings?
        /// `-a` (or the settings' `device =`) and Snapcast's server.
        var setup = OutputSetup()
    }

    let inputs: [Path]
    let script: Path?
    let output: OutputTarget
    let options: Options

    /// Plays everything and returns the exit status.
    func run() -> Int32 {
        var writing: (path: Path, overwrite: Bool)?
        if case .file(_, let path, let overwrite) = output { writing = (path, overwrite) }
        // A long list plays from its first songs while the rest is read, as mpg123's does; a
        // shuffled or repeated one is read whole first (its order needs all of it), and so is
        // every list under a tight `ulimit -v` (a helper thread's stack takes 8 MB of address
        // space, which glibc keeps for the next thread: the list's room, and the player's).
        let tight = MemoryLimit.limit.map { $0 < 1 << 30 } ?? false
        let reader = options.shuffle != .off || options.repeats || options.resume || tight ? nil : try? BackgroundWork()
        let launch: Launch
        switch Launch.prepare(inputs: inputs, script: script, writing: writing, reading: reader) {
        case .success(let prepared): launch = prepared
        case .failure(let refusal):
            refusal.lines.forEach(printError)
            return refusal.status
        }
        defer { launch.rest?.stop() }
        // Nothing named could be played, at the keys: the library is opened when there is one;
        // else that is said and the run ends, as mpv's and mpg123's do (it sat at End of list,
        // taking whatever was typed next).
        var opensLibrary = options.opensLibrary
        // The library, opened once, when first asked (the view at start, the first song heard).
        let shared = SharedLibrary(open: LibraryRun.existingLibrary)
        if launch.entries.isEmpty, launch.rest == nil, script == nil, !options.resume, !inputs.isEmpty, !output.isFile,
           isatty(STDIN_FILENO) == 1 {
            guard LibraryRun.holdsSongs(shared.database) else {
                launch.problems.forEach { printError("tplayer: " + $0.brief) }
                printError(Player.nothingToPlay)
                return 1
            }
            opensLibrary = true
        }
        // Only a person's runs are saved and resumed: never -w, --check, a script or -R.
        let store = script == nil && !output.isFile ? SessionStore.location : nil
        var saved: SavedSession?
        // The saved songs that are not there: skipped in this run, kept in the list it saves.
        var missing: [Int] = []
        if options.resume {
            guard let store else {
                printError("tplayer: --resume: neither XDG_STATE_HOME nor HOME says where the saved session is")
                return 64
            }
            switch SessionStore.load(from: store) {
            case .none:
                printError("tplayer: no saved session to resume (\(store)); name a song, a folder, a playlist or a CUE sheet")
                return 64
            case .unusable(let reason):
                printError("tplayer: " + reason)
                if options.mpd != nil { break }  // a service starts with an empty list
                printError("tplayer: nothing to play: name a song, a folder, a playlist or a CUE sheet")
                return 64
            case .session(let session, let cut, let notes):
                notes.forEach { printError("tplayer: " + $0) }
                if cut {
                    printError("tplayer: \(store): the saved list has more than \(Entry.listLimit) songs; the first \(Entry.listLimit) are kept")
                }
                let (present, gone) = SessionStore.present(session)
                gone.forEach { printError("tplayer: \(session.entries[$0].path): no longer there; skipped") }
                // A service starts all the same, with an empty list for its clients to fill.
                if options.mpd != nil, gone.count >= session.entries.count { break }
                guard gone.count < session.entries.count else {
                    let none = session.entries.isEmpty ? "the saved session holds no songs" : "none of the saved session's songs is there any more"
                    printError("tplayer: \(none); name a song, a folder, a playlist or a CUE sheet")
                    return 64
                }
                saved = present
                missing = gone
            }
        }
        let engine: Engine
        let signals: SignalWatcher
        let work: BackgroundWork
        switch Startup.start(output: output, fades: options.fades, setup: options.setup, bits: options.bits, reconnects: options.settings.reconnects, work: reader) {
        case .success(let started): (engine, signals, work) = started
        case .failure(let failure): return failure.status
        }
        defer { work.cancelAll() }
        // Keys whenever stdin is a terminal; then the list stays open at its end, as in cmus,
        // and q quits. With no one at the keys, the run ends with the list.
        // A folder or a playlist loaded while playing, and Tab's listing of a folder, are done
        // off the main loop: the keys are answered meanwhile, and a newer one (or quitting)
        // stops them.
        // A path typed at a prompt is read as a person means it (`~/`, quotes); Tab completes it
        // off the main loop.
        let paths = Console.TypedPaths(complete: { typed, done in
            work.start(.completion, { cancel in TypedPath.complete(typed) { cancel.isSet } }, then: { completion in
                done(Console.Completion(text: completion.text, choices: completion.choices))
            })
        }, resolve: TypedPath.resolve)
        let terminal = TerminalSession(showsStatus: !options.quiet, colours: options.settings.colours,
                                       bindings: options.settings.bindings, steps: options.settings.steps, paths: paths)
        defer { terminal?.close() }
        let say: (String) -> Void = { line in
            if let terminal, terminal.takesMessages { terminal.print(line) } else { printError(line) }
        }
        launch.problems.forEach { say("tplayer: " + $0.brief) }
        var watcher: LibraryWatcher?
        // What changes where the session's status does not show it (a save, a scan, a play
        // counted), told to the player once it is made (`Player.noteChanged`).
        var changed: (StatusChanges) -> Void = { _ in }
        let libraryRun = LibraryRun(settings: options.settings)
        if let terminal, let library = shared.database {
            terminal.library = LibraryShelf(database: library, order: options.settings.librarySort, playlists: ListKeeping.folder.map(NamedPlaylists.init))
            // Each rescan of the watcher's changes the library: told as the database's change.
            let scanned = work.listen(.libraryWatch) { (_: Bool) in changed(.database) }
            watcher = libraryRun.watcher(library, scanned: { scanned(true) }, say: say)
            if options.settings.view == .library || opensLibrary { terminal.openLibrary() }
        }
        if let terminal {
            // `:scan [FOLDER]`: off the main loop; the library view reads the library again after
            // it, made now if this scan made it.
            terminal.scanLibrary = { [weak terminal] folder in
                work.start(.libraryScan, { cancel in libraryRun.scanWhilePlaying(adding: folder, isCancelled: { cancel.isSet }) },
                           then: { (lines: [String]) in
                    lines.forEach(say)
                    changed(.database)
                    guard let terminal else { return }
                    if terminal.library == nil {
                        shared.lookAgain()
                        if let library = shared.database {
                            terminal.library = LibraryShelf(database: library, order: options.settings.librarySort, playlists: ListKeeping.folder.map(NamedPlaylists.init))
                        }
                    }
                    terminal.libraryChanged()
                })
            }
            terminal.statistics = { path in
                guard let song = (try? shared.database?.songs(at: [path]).get())?.first else { return nil }
                return SongDetails.Statistics(plays: song.playCount, skips: song.skipCount, lastPlayed: song.lastPlayed, rating: song.rating)
            }
            if engine.outputs.count > 1 { terminal.outputNames = engine.outputs.map(\.name) }
            terminal.nowPlayingOptions = options.settings.nowPlaying(
                ProcessEnvironment.values(of: ["TERM", "COLORTERM", "TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "COLORFGBG"]),
                colours: terminal.colours)
        }
        if options.settings.view == .nowPlaying && !opensLibrary { terminal?.openNowPlaying() }
        defer {
            watcher?.stop()
            libraryRun.laterLines.read { $0 }.forEach(say)
        }

        // A run at the keys or serving MPD's clients stays open at the end of its list, and
        // keeps its session.
        let interactive = terminal != nil || options.mpd != nil
        // Of two runs at once, the first saves its session; this one says now if it will not.
        let claim = interactive ? store.map(SessionStore.claim) : nil
        if case .anotherRuns? = claim { say("tplayer: another tplayer is running; this one will not save its session") }
        let shuffle = saved.map { !$0.shuffles ? .off : $0.shufflesAlbums ? .albums : .songs } ?? options.shuffle
        let repeats = saved?.repeats ?? options.repeats
        // A resumed list plays in the order it was playing in (shuffled, or with songs put next).
        var queue = saved?.order.map { PlayQueue(order: $0, shuffle: shuffle != .off, repeats: repeats, seed: options.seed, byAlbum: shuffle == .albums) }
            ?? PlayQueue(shuffle: shuffle == .songs, repeats: repeats, seed: options.seed)
        queue.setShuffle(shuffle)
        let expand: Session.Seams.Expand = { path, done in
            work.start(.load, { cancel in
                let expanded = InputExpander.expandLoaded(path) { cancel.isSet }
                // Opened here first, off the main loop: one that cannot be is said, and the
                // song playing never stops for it.
                let checker = SongChecker()
                let probed = LoadProbe.playable(expanded.entries, opens: { source in
                    guard case .failure(let failure) = checker.info(source) else { return nil }
                    return failure
                }, isCancelled: { cancel.isSet })
                return (expanded.problems.map(\.brief) + probed.refused, ListHandoff(probed.entries))
            }, then: { (problems: [String], entries: ListHandoff) in
                problems.forEach { say("tplayer: " + $0) }
                done(entries.take(), problems)
            })
        }
        let lists = ListKeeping(work: work, library: shared, say: say, changed: { changed(.storedPlaylist) })
        let report = { (line: String) in say("tplayer: " + line) }
        let listens = ListenRecorder(log: options.settings.listenLog.flatMap(LibraryRun.expanded), library: shared, work: work, say: say)
        // Album mode asks the next song's album once, shuffle by album every song's (a batch at
        // a time), as their headers say, off the main loop.
        let albums: Session.Seams.Albums = { sources, ask, answer in
            // A stream is never opened for it (a dead host held the batch for seconds): no album.
            work.start(ask == .next ? .album : .albums, { cancel in
                sources.map { source in
                    guard !source.isStream, !cancel.isSet else { return AlbumTrack(unreadable: source.path) }
                    return (try? SongChecker().tags(source).get()).map(AlbumTrack.init) ?? AlbumTrack(unreadable: source.path)
                }
            }, then: answer)
        }
        defer { listens.finish() }
        // A song written to a file is not heard.
        let listened: (Listen) -> Void = { listen in
            if !output.isFile {
                listens.record(listen)
                changed(.sticker)
            }
        }
        let session = Session(engine: engine, entries: saved?.entries ?? launch.entries, queue: queue,
                              policy: Session.Policy(keepsOpen: interactive),
                              seams: Session.Seams(report: report, expand: expand, saveList: lists.saveList,
                                                   onTransition: options.trace ? { say("\($0)") } : nil,
                                                   listened: listened,
                                                   albums: albums, playlists: lists.playlist))
        session.setAside(missing)
        session.replayGain = options.replayGain
        if options.settings.albumMode { session.perform(.setAlbumMode(true)) }
        if let bands = options.settings.equalizer { session.perform(.setGraphicEqualizer(bands, on: true)) }
        if let speed = options.speed, speed != 1 { session.perform(.speed(speed)) }
        if let seconds = options.skipFade { session.perform(.setSkipFade(seconds)) }
        if let seconds = options.crossfade, seconds > 0 { session.perform(.setCrossfade(seconds)) }
        if let sleep = options.sleep { session.perform(.setSleep(sleep)) }
        // The configured volume starts a new run; a resumed one keeps the volume it had.
        if let volume = options.volume ?? (saved == nil ? options.settings.volume : nil) { session.perform(.volume(volume)) }
        let runner = launch.script.map {
            ScriptRunner(lines: $0, session: session, realTime: !output.isFile, report: report,
                         onLine: options.trace ? { say("\($0.location.brief): \($0.command)") } : nil)
        }
        let controls = Controls(session: session, script: runner)
        var io = Player.IO(engine: engine, screen: terminal, keys: STDIN_FILENO, signals: signals, log: printError)
        io.work = work
        // Made with the first cover drawn: a run that never shows one never makes it.
        io.drawCover = { CoverArtist.shared.draw($0) }
        io.readFacts = { sources in
            let checker = SongChecker()
            var facts: [SongSource: SongFacts] = [:]
            for source in sources {
                if case .success(let info) = checker.info(source) { facts[source] = SongFacts(info) }
            }
            return facts
        }
        // A run that plays aloud (one writing a file stays open at the keys: its `l` prompt loads on).
        if !output.isFile {
            io.nothingPlayed = {
                guard let terminal, LibraryRun.holdsSongs(shared.database) else { return false }
                terminal.openLibrary()
                return true
            }
        }
        // Media keys and widgets for a run that plays aloud; a file being written has no use.
        let mpris = options.mpris && !output.isFile ? MprisServer.start(controls: controls, position: { engine.position }) : nil
        defer { mpris?.close() }
        mpris?.library = { path in
            guard let song = (try? shared.database?.songs(at: [path]).get())?.first else { return nil }
            return MprisServer.LibraryFacts(albumArtists: song.albumArtists, disc: song.disc, plays: song.playCount, rating: song.rating)
        }
        let covers = CoverFile(runtime: ProcessEnvironment.values(of: ["XDG_RUNTIME_DIR"])["XDG_RUNTIME_DIR"])
        mpris?.artURL = { covers.url(for: $0) }
        io.outside = mpris
        if options.trace, let mpris { say("mpris: on the session bus as \(mpris.name)") }
        var server: MpdServer?
        if let settings = options.mpd {
            let roots = MpdRoots(shared.database.map(libraryRun.folders) ?? [])
            var link = MpdResponder.Link(
                controls: controls, position: { engine.position }, library: { shared.database }, roots: roots,
                quit: { controls.submit(.quit, from: .mpd) }, outputName: engine.outputName)
            if engine.outputs.count > 1 { link.outputs = engine.outputs }
            // `update`: the library's folders scanned off the main loop, as `:scan` scans them.
            link.update = { done in
                work.start(.libraryScan, { cancel in libraryRun.scanWhilePlaying(adding: nil, isCancelled: { cancel.isSet }) },
                           then: { (lines: [String]) in
                    if options.trace { lines.forEach(say) }
                    shared.lookAgain()
                    changed(.database)
                    done()
                })
            }
            link.playlists = ListKeeping.folder
            link.loadCatalog = { done in
                work.start(.mpdCatalog, { _ in MpdCatalog.read(shared.database, roots: roots) }, then: done)
            }
            link.comments = { song in
                SongChecker().tags(SongSource(song)).map { $0.comments?.fields ?? [] }
            }
            link.picture = { song, embedded in embedded ? CoverBytes.embedded(in: song) : CoverBytes.beside(song).map { ($0, nil) } }
            let responder = MpdResponder(link)
            switch MpdServer.start(settings, responder: responder) {
            case .success(let started): server = started
            case .failure(let problem):
                say("tplayer: --mpd \(problem.reason)")
                return 1
            }
            if options.trace { say("mpd: serving on \(settings.addresses.map(\.description).joined(separator: ", "))") }
        }
        defer { server?.close() }
        io.server = server
        let player = Player(controls: controls, io: io,
                            options: Player.Options(quiet: options.quiet, trace: options.trace, start: options.start,
                                                           lyrics: options.settings.lyrics),
                            earlierProblems: launch.problems.count, resuming: saved)
        changed = { [weak player] in player?.noteChanged($0) }
        if let rest = launch.rest {
            session.expectMore()
            rest.arrive = { [weak player] piece, isLast in
                piece.problems.forEach { say("tplayer: " + $0.brief) }
                player?.countProblems(piece.problems.count)
                session.arrive(piece.entries, isLast: isLast)
            }
        }
        let status = player.run()
        if case .saves = claim, session.listIsComing {
            say("tplayer: the list was still being read when the player quit; the session is not saved")
        } else if case .saves(let lock)? = claim, let store {
            defer { withExtendedLifetime(lock) {} }  // held until the session is saved
            var state = session.saved
            let folder = FileSystem.currentFolder()
            for index in state.entries.indices where !state.entries[index].path.isAbsolute {
                state.entries[index].path = state.entries[index].path.resolved(against: folder)
            }
            if let problem = SessionStore.save(state, to: store) { say("tplayer: " + problem) }
            if options.trace {
                say("session: saved \(state.current.map { "entry \($0 + 1) at \(state.position.flicks) flicks" } ?? "no song") to \(store)")
            }
        }
        return status
    }
}
