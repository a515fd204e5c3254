/// Runs a scripted playlist file against a session, one command after another.
///
/// Time in a script is audio time: a `wait` while playing grants the engine exactly that much
/// audio (`EngineCall.grant`) and resumes when the engine reports it played, so a script
/// writing to a file gives the same samples on every run, as fast as decoding allows, and a live
/// device makes it real time. A wait that starts (or goes on) with nothing playing lets the time
/// pass in real time on a live device and at once for a file.
///
/// While the script runs, the end of the list does not end the run (the script may add more);
/// when the script runs out, the session goes on as without one: a song playing plays on to the
/// end of the list, otherwise the run is over (unless the session's policy keeps it open:
/// `--keep-open`). A key pressed by a person
/// takes over: the rest of the script is dropped and playback is free again.
public final class ScriptRunner {
    public let lines: [ScriptLine]
    public let session: Session
    /// Waits with nothing playing take real time (live device) or none (file output).
    public let realTime: Bool
    /// True once the script has run out, quit, or been taken over.
    public private(set) var isDone = false
    /// Called before each line runs (for `--trace`); `nil` when nothing is traced.
    let onLine: ((ScriptLine) -> Void)?
    /// Receives each problem, one line each.
    let report: (String) -> Void
    /// Where the script's commands go: the session, or the one door (`Controls`) that sets it.
    var submit: (Command) -> Void
    private var next = 0
    private var waiting: Waiting?
    private var grantID = 0

    private enum Waiting: Equatable {
        /// The engine is playing a grant; `budgetSpent(id)` ends the wait.
        case audio(id: Int)
        /// Nothing plays; the wait ends at this instant.
        case clock(until: ContinuousClock.Instant)
        /// `wait end`: the song with this token ending ends the wait.
        case songEnd(token: Int)
    }

    /// More audio than any song holds: what `wait end` grants.
    static let unlimited = AudioTime(flicks: Int64.max / 4)

    /// The clock real-time waits are timed by.
    private let now: () -> ContinuousClock.Instant

    public init(lines: [ScriptLine], session: Session, realTime: Bool, report: @escaping (String) -> Void,
                onLine: ((ScriptLine) -> Void)?, now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.lines = lines
        self.report = report
        self.onLine = onLine
        self.session = session
        self.realTime = realTime
        self.now = now
        submit = { [unowned session] in session.perform($0) }
    }

    private var engine: any PlaybackEngine { session.engine }
    /// Playing, or about to: a song ended while album mode reads the next one's album.
    private var isPlaying: Bool { session.state.isPlaying || session.awaitsAlbum }

    /// Holds the engine to granted time and runs the first lines.
    public func start() {
        session.holdOpen(true)
        engine.perform(.limitPlayback(true))
        run()
    }

    /// When a real-time wait ends, for the main loop's poll timeout.
    public var deadline: ContinuousClock.Instant? {
        if case .clock(let until) = waiting { return until }
        return nil
    }

    /// Runs lines until one waits for something that has not happened yet, or the end.
    public func run() { run(now: now()) }

    func run(now: ContinuousClock.Instant) {
        while !isDone, !session.isFinished {
            switch waiting {
            case .clock(let until) where now < until: return
            case .audio, .songEnd: return
            case .clock, nil: waiting = nil
            }
            if session.awaitsAnswer { return }  // the next line once the albums are read or the playlist is done
            guard next < lines.count else { return finish(takenOver: false) }
            let line = lines[next]
            next += 1
            onLine?(line)
            execute(line.command, now: now)
        }
        if session.isFinished { isDone = true }
    }

    /// Engine events go through the runner, which sees them before the session does.
    public func handle(_ event: EngineEvent) {
        switch event {
        case .budgetSpent(let id):
            if waiting == .audio(id: id) { waiting = nil }
        case .ended(let token), .decodeFailed(let token, _), .damaged(let token, _, _), .openFailed(_, let token),
             .servedPlaylist(_, _, let token):
            // Take the rest of `wait end`'s grant back before the next song starts.
            if waiting == .songEnd(token: token) {
                engine.perform(.revokeGrant)
                waiting = nil
            }
        case .deviceLost, .deviceRestored, .outputFailed, .outputFallback, .outputNotice, .opened, .playback, .seeked, .deviceBuffer, .damageSkipped,
             .stream:
            break
        }
        session.handle(event)
        if !isDone, case .audio = waiting, !isPlaying {
            // The list ran out mid-wait: the rest of it passes with nothing playing.
            // Nothing plays, so nothing spends what is left while it is taken back.
            let left = engine.grantLeft
            engine.perform(.revokeGrant)
            passIdle(left, now: now())
        }
        if !isDone { run() }
    }

    /// A person (or a program driving the player) asked for something: the script stops here
    /// and playback is free.
    public func takeOver(by origin: Origin = .keys) {
        guard !isDone else { return }
        report("\(origin): the script stops before line \(next < lines.count ? lines[next].location.line : lines.last?.location.line ?? 0); the keys have control")
        finish(takenOver: true)
    }

    private func execute(_ command: ScriptCommand, now: ContinuousClock.Instant) {
        switch command {
        case .add(let entries, playNow: false): session.append(entries)
        case .add(let entries, playNow: true): session.playNow(entries)
        case .perform(let command):
            submit(command)
            if command == .quit { isDone = true }
        case .wait(let time):
            guard time > .zero else { return }
            if isPlaying {
                grantID += 1
                engine.perform(.grant(time, id: grantID))
                waiting = .audio(id: grantID)
            } else {
                passIdle(time, now: now)
            }
        case .seed(let seed): session.seedShuffles(seed)
        case .waitEnd:
            guard isPlaying else { return }  // nothing is playing, so nothing will end
            grantID += 1
            engine.perform(.grant(Self.unlimited, id: grantID))
            waiting = .songEnd(token: session.state.token ?? 0)
        }
    }

    /// Lets `time` pass with nothing playing.
    private func passIdle(_ time: AudioTime, now: ContinuousClock.Instant) {
        waiting = realTime && time > .zero
            ? .clock(until: now.advanced(by: time.duration))
            : nil
    }

    private func finish(takenOver: Bool) {
        guard !isDone else { return }
        isDone = true
        waiting = nil
        engine.perform(.revokeGrant)
        engine.perform(.limitPlayback(false))
        session.holdOpen(false)
        if !takenOver, !isPlaying, !session.keepsOpen {
            submit(.quit)
        }
    }
}
