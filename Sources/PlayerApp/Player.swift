import Glibc
import Inputs
import PlayerCore
import Terminal

/// The main loop: waits for keys, signals and engine reports, routes them to the session and
/// the script, keeps the status line current, and decides the exit status.
///
/// It does no setup of its own: the engine, the terminal and the signals are handed to it, so
/// tests drive it with a fake engine, a fake screen and pipes standing in for stdin and the
/// signal handler.
public final class Player {
    public struct Options: Sendable {
        /// No status line (keys still work).
        public var quiet: Bool
        /// Every transition, script line, engine hold and retry on its own line.
        public var trace: Bool
        /// How often the status line is redrawn while playing, in seconds.
        public var statusInterval: Double
        /// Where the first song starts (`--start`).
        public var start: SeekTarget?
        /// Each line of the song's `.lrc` said as it is sung (`lyrics = on`).
        public var lyrics: Bool

        public init(quiet: Bool = false, trace: Bool = false, statusInterval: Double = 0.25, start: SeekTarget? = nil, lyrics: Bool = false) {
            (self.quiet, self.trace, self.statusInterval, self.start, self.lyrics) = (quiet, trace, statusInterval, start, lyrics)
        }
    }

    /// What the loop reads and writes: the engine, the terminal when there is one (and stdin's
    /// descriptor for its keys), the signals, and where messages go without a terminal.
    public struct IO {
        public var engine: any PlayerEngine
        public var screen: (any PlayerScreen)?
        public var keys: Int32?
        public var signals: any SignalSource
        public var log: (String) -> Void
        /// mpg123's remote protocol (`-R`), reading commands from `keys` instead of a terminal.
        public var remote: RemoteControl?
        /// MPRIS, when a session bus is there.
        public var outside: (any OutsideControl)?
        /// MPD's protocol, served on sockets (`--mpd`).
        public var server: (any SocketService)?
        /// Folder walks, playlist reads and completions under way off the main loop.
        public var work: BackgroundWork?
        /// Reads songs' tags and lengths from their headers (never a whole decode), off the main
        /// loop, for the list view.
        public var readFacts: (@Sendable ([SongSource]) -> [SongSource: SongFacts])?
        /// Draws a song's cover for the now-playing view, off the main loop.
        public var drawCover: (@Sendable (CoverRequest) -> CoverArt)?
        /// Every song named failed to open, at the keys, before any played: opens the library
        /// view and says true, or says false when there is no library (the run then ends, said).
        public var nothingPlayed: (() -> Bool)?
        /// The clock the loop's deadlines are measured by.
        public var now: () -> ContinuousClock.Instant = { .now }
        /// Told, after each turn of the loop that changed something, the player's status and
        /// what changed in it (MPD's `idle` groups): for a front-end that waits for changes.
        public var statusChanged: ((PlayerStatus, StatusChanges) -> Void)?

        public init(engine: any PlayerEngine, screen: (any PlayerScreen)?, keys: Int32?, signals: any SignalSource,
                    log: @escaping (String) -> Void, remote: RemoteControl? = nil) {
            self.engine = engine
            self.screen = screen
            self.keys = keys
            self.signals = signals
            self.log = log
            self.remote = remote
        }
    }

    private let controls: Controls
    private var session: Session { controls.session }
    private var script: ScriptRunner? { controls.script }
    private let io: IO
    private let options: Options
    private var loop: EventLoop
    /// Problems found in the inputs (before the run, or in a long list read while it plays):
    /// the exit status counts them.
    private var earlierProblems: Int

    /// What the list view knows of the songs (tags, length).
    private var facts = SongFactsBook()

    /// What changed since the status last told to `IO.statusChanged`.
    private var changes = StatusChangeTracker()

    /// Whether a song has played this run, or the run was seen to play nothing (`checkSomethingPlays`).
    private var playedOrChecked = false

    /// Where a resumed run picks up.
    private let resuming: SavedSession?
    /// A resumed run says so once its song opens (tags known): `Resuming: 3/12 artist – title at 1:23`.
    private var resumeToSay = false
    /// Whether the engine records what it writes for a spectrum.
    private var spectrumShown = false
    /// The song's lyrics, each line said as it is sung (`lyrics = on`).
    private lazy var lyrics: LyricsFollower? = options.lyrics ? LyricsFollower() : nil

    /// `controls` is the one door every front-end's commands go through: the session, and the
    /// script if there is one.
    public init(controls: Controls, io: IO, options: Options = Options(), earlierProblems: Int = 0,
                resuming: SavedSession? = nil) {
        self.resuming = resuming
        self.controls = controls
        self.io = io
        self.options = options
        self.earlierProblems = earlierProblems
        loop = EventLoop(keyFD: io.screen == nil && io.remote == nil ? nil : io.keys, signalFD: io.signals.readFD,
                         engineFD: io.engine.eventFD, workFD: io.work?.descriptor)
    }

    /// Counts problems found in the inputs while the run plays (the rest of a long list).
    public func countProblems(_ count: Int) {
        earlierProblems += count
    }

    private var engine: any PlayerEngine { io.engine }
    private var screen: (any PlayerScreen)? { io.screen }

    /// Plays until the list is played, `q` is pressed or a signal ends it; returns the exit
    /// status. The engine is shut down (within a bounded time) before it returns.
    public func run() -> Int32 {
        io.remote?.start()
        if let script {
            script.start()
        } else if let resuming {
            if options.trace, let entry = resuming.current {
                say("session: resuming entry \(entry + 1) of \(resuming.entries.count) at \(resuming.position.flicks) flicks")
            }
            resumeToSay = resuming.current != nil
            session.resume(resuming)
        } else {
            session.start()
            // Made as the first song opens (a seek while it loads is kept for it).
            if let start = options.start { session.perform(.seek(start)) }
        }
        var endingSignal: Int32?
        while endingSignal == nil {
            for event in engine.takeEvents() { route(event) }
            script?.run()
            io.remote?.tick()
            if session.isFinished { break }
            // What is heard is followed at every turn, whatever shows on screen (it was the
            // status line's business: a run with no terminal counted what it never observed).
            session.observeHeard()
            checkSomethingPlays()
            if session.isFinished { break }
            showStatus()
            publishStatus()
            // The now-playing view shows the lyrics itself.
            if let line = lyrics?.line(session, position: engine.position), screen?.showsNowPlaying != true { say("♪ " + line) }
            io.outside?.update()
            loop.controlFD = io.outside?.descriptor
            loop.sockets = io.server?.watched ?? []
            for input in loop.wait(timeout: timeout()) {
                switch input {
                case .keys(let bytes) where io.remote != nil:
                    io.remote?.received(bytes)
                case .keysClosed:
                    io.remote?.inputClosed()
                case .keys(let bytes):
                    controls.submit(screen?.commands(from: bytes, list: listSnapshot) ?? [], from: .keys)
                case .signals:
                    for signal in io.signals.take() {
                        switch signal {
                        case SIGWINCH, SIGCONT: screen?.resized()
                        case SIGTSTP: screen?.suspend()
                        case SIGINT where screen?.interrupted() == true: break
                        default: if endingSignal == nil { endingSignal = signal }  // the first one decides
                        }
                    }
                case .engine:
                    break
                case .work:
                    io.work?.deliver()
                case .control:
                    io.outside?.process()
                case .sockets(let ready):
                    io.server?.process(ready)
                }
            }
        }
        io.work?.cancelAll()
        var status = max(session.exitStatus, earlierProblems > 0 ? 1 : 0)
        // The output is closed here, within a bounded time, so what it says reaches the user.
        switch engine.shutdown() {
        case .closed: break
        case .failed(let reason):
            say("tplayer: \(engine.outputName): \(reason)")
            status = max(status, 1)
        case .timedOut where engine.writesFile:
            say("tplayer: \(engine.outputName): could not finish the file: the writer did not stop in time")
            status = max(status, 1)
        case .timedOut:
            say("tplayer: output: the \(engine.outputName) device did not stop in time; left as it is")
        }
        if let endingSignal { return 128 + endingSignal }
        return status
    }

    /// The output fell back to silence in real time (no device could be opened).
    private var silent = false

    private func route(_ event: EngineEvent) {
        if case .outputFallback = event { silent = true }
        if options.trace, case .playback(let phase) = event, phase != .idle, phase != .playing {
            say("engine: \(phase)")
        }
        if options.trace, case .seeked(_, let frame, let took) = event, let rate = session.state.song?.sampleRate {
            say("engine: seeked to \(TimeFormat.precise(Double(frame) / Double(rate))) (sample \(frame)) in \(Int((took * 1000).rounded(.up))) ms")
        }
        if options.trace, case .deviceBuffer(let seconds, let kept) = event {
            func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
            say("engine: the device buffers \(ms(seconds)) ms; \(ms(kept.lowerBound))–\(ms(kept.upperBound)) ms of it are kept queued")
        }
        // The song that ends early (damaged, cut short) is as long as it played, in the list view.
        if case .damaged(let token, let at, _) = event, session.state.token == token, let index = session.index {
            facts[session.entries[index].source]?.seconds = at.seconds
        }
        if case .ended(let token) = event, session.state.token == token, let song = session.state.song,
           let line = lyrics?.lineAtEnd(of: song), screen?.showsNowPlaying != true {
            say("♪ " + line)
        }
        if let script { script.handle(event) } else { session.handle(event) }
        if case .opened(_, let token) = event, session.state.token == token, let song = session.state.song,
           let index = session.index {
            facts[session.entries[index].source] = SongFacts(song)
        }
        // A stream is named in the list view as on the status line: its station, what is on air.
        if event.isStreamNewsOrOpened, let name = session.stream?.name, let index = session.index {
            facts[session.entries[index].source] = SongFacts(tags: SongInfo.Tags(title: name), seconds: nil)
        }
        io.remote?.observe(event)
        io.outside?.observe(event)
        lyrics?.observe(event, session: session)
        changes.note(event)
        if resumeToSay, case .opened(let song, let token) = event, session.state.token == token, let name = session.songName {
            resumeToSay = false
            let place = session.place.map { "\($0)/\(session.entries.count) " } ?? ""
            let saved = resuming?.position ?? .zero
            // Where it resumes: the saved place, or the start when the song is no longer that long.
            if let total = song.totalFrames, saved.frames(rate: song.sampleRate) >= total, saved > .zero {
                let length = TimeFormat.clock(song.seconds(total))
                say("Resuming: \(place)\(name) from the start: the saved place, \(TimeFormat.clock(saved.seconds)), is past "
                    + "its end (\(length)) (tplayer --help for more)")
            } else {
                say("Resuming: \(place)\(name) at \(TimeFormat.clock(saved.seconds)) (tplayer --help for more)")
            }
        }
        // With no screen to show it, each song that starts is named once, as mpg123 does.
        if screen == nil, !options.quiet, case .opened(_, let token) = event, session.state.token == token,
           let name = session.songName {
            let more = session.listIsComing ? "+" : ""
            say("Playing \(session.place.map { "\($0)/\(session.entries.count)\(more)" } ?? "?"): \(name)")
            // A stream's first title is in its name; its station's genre and rate follow.
            session.stream?.station?.described.map { say("Station: " + $0) }
        }
        if case .stream(let path, let news) = event, session.state.song?.path == path {
            tell(news, of: path)
        }
    }

    /// A stream's news, as it plays: with no screen, its station and each new title a line, as
    /// a song's start is; a reconnection in any case.
    private func tell(_ news: StreamNews, of path: Path) {
        let lines = screen == nil && !options.quiet
        switch news {
        case .station(let station) where lines: station.described.map { say("Station: " + $0) }
        case .title(let title) where lines: say("Title: \(title)")
        case .reconnecting(let attempt, let of, let reason): say("\(path): \(reason); reconnecting (\(attempt) of \(of))")
        case .resumed: say("\(path): reconnected")
        case .station, .title: break
        }
    }

    /// The list as the list view shows it (sharing the session's storage: no copy).
    private func listSnapshot() -> ListSnapshot {
        ListSnapshot(entries: session.entries, current: session.state.id == .idle ? nil : session.index,
                     failures: session.outcome.failures, known: facts.known, edits: session.edits, upNext: session.queue.upNext)
    }

    private func showStatus() {
        guard let screen else { return }
        if screen.showsList || screen.showsNowPlaying {
            facts.ask(screen.takeFactRequests())
            readFactsAhead()
        }
        // Always, so that the list view opens with its cursor on the song playing; the screen
        // keeps the list itself only while the view is open (the snapshot shares the session's
        // storage, and a copy kept would make the session's next change copy it whole).
        screen.showList(listSnapshot())
        var status = StatusSnapshot(session.status(navigation: false), position: engine.position)
        status.silent = silent
        if let bars = screen.spectrumBars {
            spectrumShown = true
            if session.state.id == .play, let levels = engine.spectrum(bars: bars) { screen.showSpectrum(levels) }
        } else if spectrumShown {
            spectrumShown = false
            engine.hideSpectrum()
        }
        screen.show(status)
        drawCover(for: screen)
        countLibrary(for: screen)
    }

    /// Counts what the library view's filter leaves off the main loop, so that every key is
    /// answered meanwhile: a newer count replaces one under way, whose result is dropped.
    private func countLibrary(for screen: any PlayerScreen) {
        guard let work = io.work, let request = screen.takeLibraryCount() else { return }
        work.start(.libraryCount, { _ in LibraryCountResult(generation: request.generation, counted: request.run()) },
                   then: { [weak screen] (result: LibraryCountResult) in screen?.showLibraryCount(result) })
    }

    /// Draws the cover the now-playing view asks for, off the main loop (a newer request
    /// replaces one under way).
    private func drawCover(for screen: any PlayerScreen) {
        guard let work = io.work, let draw = io.drawCover, let request = screen.takeCoverRequest() else { return }
        work.start(.cover, { _ in draw(request) }, then: { [weak screen] (cover: CoverArt) in screen?.showCover(cover) })
    }

    /// Reads the next songs' facts off the main loop, a screenful at a time.
    private func readFactsAhead() {
        guard let read = io.readFacts, let work = io.work, !work.isBusy(.facts), let batch = facts.nextBatch() else { return }
        work.start(.facts, { _ in read(batch) }, then: { [weak self] (found: [SongSource: SongFacts]) in
            guard let self else { return }
            self.facts.learn(found)
            self.readFactsAhead()
        })
    }

    /// How long the loop may sleep: until the next status tick while playing, or the script's
    /// next real-time deadline; without either, until something happens.
    private func timeout() -> Double? {
        let ticking = screen != nil && !options.quiet && session.state.id == .play
        var timeout = ticking ? min(options.statusInterval, screen?.tick ?? .infinity) : nil
        if let next = lyrics?.wait(session, position: engine.position) { timeout = min(timeout ?? .infinity, next) }
        if let next = session.modes.sleep.nextChange(after: .now) { timeout = min(timeout ?? .infinity, next) }
        for deadline in [script?.deadline, screen?.nextChange, io.remote?.deadline].compactMap({ $0 }) {
            timeout = min(timeout ?? .infinity, max(io.now().duration(to: deadline).inSeconds, 0))
        }
        return timeout
    }

    private func say(_ line: String) {
        if let screen, screen.takesMessages { screen.print(line) } else { io.log(line) }
    }
}

extension Player {
    /// Says that `groups` changed where the session's status does not show it: a playlist
    /// saved, the library scanned, a play counted. Told with the next turn's changes.
    public func noteChanged(_ groups: StatusChanges) {
        changes.note(groups)
    }

    /// Tells `IO.statusChanged` what changed this turn, if anything did.
    private func publishStatus() {
        guard io.statusChanged != nil || io.server != nil else { return }
        let now = session.status
        let changed = changes.take(now)
        guard !changed.isEmpty else { return }
        io.statusChanged?(now, changed)
        io.server?.changed(now, changed)
    }
}

private extension EngineEvent {
    var isStreamNewsOrOpened: Bool {
        switch self {
        case .stream, .opened: true
        case .ended, .decodeFailed, .deviceLost, .deviceRestored, .outputFailed, .outputFallback, .outputNotice, .budgetSpent, .openFailed, .damaged,
             .damageSkipped, .playback, .seeked, .deviceBuffer, .servedPlaylist: false
        }
    }
}

extension Player {
    /// What a run at the keys says when nothing it was given can be played, and no library opens.
    public static let nothingToPlay = "tplayer: nothing to play: none of the songs named could be opened"

    /// At the keys, a run whose every song named failed before any played does not sit at End
    /// of list taking what is typed next: the library opens, or the run ends saying so (as mpv's
    /// and mpg123's do), status 1.
    private func checkSomethingPlays() {
        guard !playedOrChecked else { return }
        if session.state.id == .play { playedOrChecked = true }
        guard !playedOrChecked, let nothingPlayed = io.nothingPlayed, screen != nil, script == nil, io.remote == nil,
              session.isAtEndOfList, !session.listIsComing, !session.entries.isEmpty, session.outcome.failures.count >= session.entries.count
        else { return }
        playedOrChecked = true
        if !nothingPlayed() {
            say(Self.nothingToPlay)
            controls.submit([.quit], from: .keys)
        }
    }
}
