import Files
import PlayerCore

/// mpg123's generic remote interface (`-R`, protocol v10) on top of the session: command lines
/// in, `@`-lines out, exactly as `mpg123 -R` answers them, so front-ends written for mpg123
/// drive tplayer unchanged.
///
/// Every command goes through the session's state machine, as a key does. mpg123 answers each
/// command before it reads the next (a load has opened the file, a jump has landed); tplayer's
/// engine answers on its own thread, so while a load or a seek is on its way the lines that
/// follow wait, and their replies come in the same order as mpg123's.
public final class RemoteControl {
    /// mpg123's three modes, as `@P` reports them.
    enum Mode: Int {
        case stopped = 0
        case paused = 1
        case playing = 2
    }

    /// The mode `@P` said last.
    var saidMode = Mode.stopped

    private let controls: Controls
    var session: Session { controls.session }
    private let position: () -> Int64
    /// Writes one reply line (without its `@`); false when no one reads them any more.
    private let send: (String) -> Bool
    /// Reads a playlist for `LOADLIST` (saying its problems itself) and hands its entries to
    /// the second argument: at once, or later from the main loop.
    private let readList: (Path, @escaping (EntryList) -> Void) -> Void
    /// Each command line, for `--trace`; `nil` when nothing is traced.
    let onLine: ((String) -> Void)?
    /// Set when the front-end is gone (its end of stdout closed) or sent `QUIT`.
    public private(set) var isDone = false

    private var pending: [UInt8] = []
    private var inputEnded = false
    /// Dropping the rest of a line that was too long.
    private var discarding = false
    /// What the next lines wait for, and since when.
    var awaiting: Awaiting?
    /// The token of the song `LOAD` asked for, until it opens or fails (said then, whether or
    /// not the lines after it still wait).
    var loading: Int?
    private var silent = false
    /// mpg123 closes the track on `STOP`, at its end and when a load fails.
    var closed = true
    /// The song whose `@I` lines were sent, and whether its `@S` line was.
    var announced: (token: Int, headerSent: Bool)?
    private var nextProgress: ContinuousClock.Instant?
    /// The frame the last `@F` line was for (`nil`: none yet for this song or since a seek).
    private var progressFrame: Int64?
    /// The most frames one late tick sends `@F` lines for; beyond that it sends the frame now.
    static let progressCatchUp: Int64 = 40
    /// What `EQ`, `SHOWEQ` and `RVA` answer.
    private var equalizer = RemoteEqualizer()

    enum Awaiting {
        /// `stream`: an internet stream, which holds the lines after it only until one comes: a
        /// server may keep it waiting for seconds, and no command waits on a network.
        case load(since: ContinuousClock.Instant, stream: Bool)
        case seek(jump: Bool, since: ContinuousClock.Instant)
        /// A `LOADLIST`'s playlist being read: as mpg123 reads it before the next command, the
        /// lines after it wait, for as long as it takes (the read always ends: the list is capped).
        case list
    }

    /// How long a load or a seek may take before the lines after it go on regardless.
    static let patience: Duration = .seconds(5)

    /// The clock the waits and the progress lines are timed by.
    private let now: () -> ContinuousClock.Instant

    public init(controls: Controls, position: @escaping () -> Int64, send: @escaping (String) -> Bool,
                readList: @escaping (Path, @escaping (EntryList) -> Void) -> Void, onLine: ((String) -> Void)?,
                now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.controls = controls
        self.onLine = onLine
        self.now = now
        self.position = position
        self.send = send
        self.readList = readList
    }

    /// The greeting mpg123 sends first.
    public func start() {
        reply(RemoteReplies.greeting)
    }

    /// Bytes read from the command input.
    public func received(_ bytes: [UInt8]) {
        pending += bytes
        runLines()
    }

    /// The command input ended: as in mpg123, that is the end, once the lines read before it
    /// have been answered.
    public func inputClosed() {
        inputEnded = true
        runLines()
    }

    /// When `tick` has something to do next: a progress line, or giving up on a slow engine.
    public var deadline: ContinuousClock.Instant? {
        switch awaiting {
        case .load(let since, _), .seek(_, let since): since + Self.patience
        case .list, nil: nextProgress
        }
    }

    /// Sends the progress line when it is due, and goes on with waiting lines after a wait
    /// that took too long.
    public func tick() {
        let now = self.now()
        switch awaiting {
        case .load(let since, _) where now >= since + Self.patience:
            awaiting = nil
            runLines()
        case .seek(let jump, let since) where now >= since + Self.patience:
            awaiting = nil
            sendSeekReply(jump: jump, landed: position())
            runLines()
        case .load, .seek, .list, nil: break  // still within its patience, or nothing awaited
        }
        let status = status
        // Paused by no command of its own (the sleep timer, a media key): said, as mpg123 says a pause.
        if awaiting == nil, saidMode == .playing, mode(of: status) == .paused { reply("P 1") }
        guard !silent, mode(of: status) == .playing, let song = status.song else { return nextProgress = nil }
        if let due = nextProgress, now < due { return }
        // One `@F` per frame, as mpg123 sends them: each frame played since the last line (a
        // late tick catches up, at most a second's worth), none twice.
        let frame = RemoteReplies.mpegFrame(of: position(), in: song)
        let first = progressFrame.map { $0 < frame && frame - $0 <= Self.progressCatchUp ? $0 + 1 : frame } ?? frame
        if progressFrame != frame {
            for shown in first...frame { reply(RemoteReplies.progress(song, frame: shown)) }
        }
        progressFrame = frame
        nextProgress = now + .milliseconds(Int64(RemoteReplies.secondsPerFrame(song) * 1000))
    }

    /// Hands the bands to libmpg123 when a command changed them (as mpg123's `mpg123_eq` does).
    private func applyEqualizer(changedFrom before: [[Double]]) {
        guard equalizer.factors != before else { return }
        controls.submit(.mpegEqualizer(equalizer.factors), from: .remote)
    }

    // MARK: - Commands

    /// The player as -R reports it: a projection of the one status every front-end reads.
    var status: PlayerStatus { session.status(navigation: false) }

    /// mpg123's play state: a song loading to play is playing, one loading to wait is paused.
    var mode: Mode { mode(of: status) }

    /// The play state `status` is, as mpg123 says it (the status read once where its song is
    /// read too: the progress line's tick runs at every MPEG frame).
    func mode(of status: PlayerStatus) -> Mode {
        if closed { return .stopped }
        switch status.state {
        case .idle: return .stopped
        case .play, .deviceLost: return .playing
        case .loading: return status.playback == .playing ? .playing : .paused
        case .prepare, .stop: return .paused
        }
    }

    func runLines() {
        // A playlist being read holds the lines after it, as in mpg123; but QUIT among them ends
        // the read (however long it would take: the player's end stops it), so a front-end can
        // always quit.
        if case .list = awaiting, pendingLines.contains(where: { RemoteCommand.parse(Array($0)) == .quit }) {
            awaiting = nil
            return quit()
        }
        // A stream being loaded waits for its server: the next line goes on (a load stops it).
        if case .load(_, stream: true) = awaiting, pending.contains(where: { $0 == 0x0A || $0 == 0x0D }) { awaiting = nil }
        while awaiting == nil, !isDone, let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            let line = Array(pending[..<end])
            pending.removeSubrange(...end)
            if discarding {
                discarding = false
                continue
            }
            runLine(line)
        }
        guard awaiting == nil, !isDone else { return }
        if inputEnded {
            if !pending.isEmpty, !discarding { runLine(pending) }
            pending = []
            return quit()
        }
        if pending.count > RemoteCommand.maximumLineLength, !discarding {
            runLine(pending)  // answered: too long
            pending = []
            discarding = true
        } else if discarding {
            pending = []
        }
    }

    private func runLine(_ line: [UInt8]) {
        guard let command = RemoteCommand.parse(line) else { return }
        onLine?("remote: " + RemoteReplies.line(String(decoding: line.prefix(200), as: UTF8.self)))
        perform(command)
    }

    private func perform(_ command: RemoteCommand) {
        switch command {
        case .load(let path): load(path, paused: false)
        case .loadPaused(let path): load(path, paused: true)
        case .loadList(let entry, let path): loadList(entry, path)
        case .pause:
            switch mode {
            case .stopped: break
            case .playing: controls.submit(.stop, from: .remote)
            case .paused: controls.submit(.play, from: .remote)
            }
            reply("P \(mode.rawValue)")
            sendHeaderIfPlaying()
        case .stop:
            if !closed { controls.submit(.stop, from: .remote) }
            closeTrack()
            reply("P 0")
        case .jump(let jump):
            guard mode != .stopped, let song = status.song else { return reply("E No track loaded!") }
            seek(toSample: RemoteReplies.sample(for: jump, from: position(), in: song), in: song, jump: true)
        case .seek(let samples, let relative):
            guard mode != .stopped, let song = status.song else { return reply("E No track loaded!") }
            seek(toSample: RemoteReplies.sample(forSeek: samples, relative: relative, from: position()), in: song, jump: false)
        case .volume(let percent):
            controls.submit(.volume(Int(min(max(percent, 0), 100).rounded())), from: .remote)
            reply(RemoteReplies.volume(Double(status.volume)))
        case .mute:
            controls.submit(.setMute(true), from: .remote)
            reply("mute")
        case .unmute:
            controls.submit(.setMute(false), from: .remote)
            reply("unmute")
        case .silence:
            silent = true
            reply("silence")
        case .progress:
            silent = false
            reply("progress")
        case .sample:
            guard mode != .stopped, let song = status.song else { return reply("E No stream opened. (code 24)") }
            reply("SAMPLE \(position()) \(song.totalFrames ?? 0)")
        case .format:
            guard mode != .stopped, let song = status.song else { return reply("E No stream opened. (code 24)") }
            reply("FORMAT \(song.sampleRate) \(song.channels)")
        case .state:
            // Every position tplayer reports is exact: seeks are sample-accurate.
            ["STATE {", "STATE accurate 1", "STATE }"].forEach(reply)
        case .tag:
            RemoteReplies.tag(mode == .stopped ? nil : status.song).forEach(reply)
        case .help:
            RemoteReplies.help.forEach(reply)
        case .quit:
            quit()
        case .equalizer, .simpleEqualizer, .showEqualizer, .rva:
            let before = equalizer.factors
            equalizer.answer(command)?.forEach(reply)
            applyEqualizer(changedFrom: before)
            // mpg123's RVA mode is its ReplayGain: mix the track's, album the album's.
            if case .rva = command, session.replayGain.mode != equalizer.replayGainMode {
                session.replayGain.mode = equalizer.replayGainMode
            }
        case .equalizerFile(let path):
            let before = equalizer.factors
            let text = try? FileSystem.readAll(path, limit: 1 << 16).get()
            reply(text.map { equalizer.load(String(decoding: $0, as: UTF8.self)) } == true ? "EQFILE done" : "E failed to parse given eq file")
            applyEqualizer(changedFrom: before)
        case .scan:
            reply(mode == .stopped || status.song == nil ? "E No track loaded!" : "SCAN done")
        case .pitch(let value):
            // mpg123 applies a pitch only to an open track's format, and answers 0 without one.
            guard mode != .stopped, status.song != nil else { return reply("PITCH 0.000000") }
            let pitch = EngineCall.pitch(value)
            controls.submit(.pitch(pitch), from: .remote)
            reply("PITCH \(RemoteReplies.pitch(pitch))")
        case .sleep(let request):
            controls.submit(.setSleep(request), from: .remote)
            reply("SLEEP " + (session.status.sleep.describe(at: .now).map { String($0.dropFirst(6)) } ?? "off"))
        case .invalid(let message):
            reply("E " + RemoteReplies.line(message))
        }
    }

    private func load(_ path: Path, paused: Bool) {
        let before = status.token
        controls.submit(.load(path), from: .remote)
        guard status.token != before, status.state == .loading else {
            // Nothing to open (the path names nothing playable): mpg123 closes what played.
            if !closed { controls.submit(.stop, from: .remote) }
            closeTrack()
            reply("E Error opening stream: \(RemoteReplies.line("\(path)"))")
            return reply("P 0")
        }
        if paused { controls.submit(.stop, from: .remote) }
        closed = false
        loading = status.token
        awaiting = .load(since: now(), stream: StreamURL.looksLikeURL(path))
    }

    private func loadList(_ entry: Int, _ path: Path) {
        awaiting = .list
        var answeredAtOnce = true
        readList(path) { [weak self] entries in
            guard let self, case .list = self.awaiting else { return }
            self.awaiting = nil
            self.listRead(entries, entry: entry)
            // Read later (off the main loop): the lines that waited for it go on now.
            if !answeredAtOnce { self.runLines() }
        }
        answeredAtOnce = false
    }

    private func listRead(_ entries: EntryList, entry: Int) {
        reply("I {")
        for (number, item) in entries.enumerated() {
            reply("I LISTENTRY \(number + 1): \(RemoteReplies.line(item.written ?? "\(item.path)"))")
        }
        if entries.isEmpty { reply("I LIST EMPTY") }
        reply("I }")
        let chosen = entry == 0 ? entries.last : (entry > 0 && entry <= entries.count ? entries[entry - 1] : nil)
        if let chosen { load(chosen.path, paused: false) }
    }

    private func seek(toSample sample: Int64, in song: SongInfo, jump: Bool) {
        controls.submit(.seek(.to(AudioTime(frames: sample, rate: song.sampleRate))), from: .remote)
        awaiting = .seek(jump: jump, since: now())
    }

    func sendSeekReply(jump: Bool, landed: Int64) {
        progressFrame = nil  // counted anew from where it landed
        guard jump else { return reply("K \(landed)") }
        guard let song = status.song else { return reply("J 0") }
        reply("J \(RemoteReplies.mpegFrame(of: landed, in: song))")
    }

    /// The whole lines received and not yet run.
    private var pendingLines: [ArraySlice<UInt8>] {
        guard let end = pending.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return [] }
        return pending[...end].split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
    }

    /// The load the lines waited for is answered: they go on.
    func finishLoadWait() {
        guard case .load = awaiting else { return }
        awaiting = nil
        runLines()
    }

    /// mpg123 closes the track on `STOP`, at its end, and when it cannot be loaded or decoded.
    func closeTrack() {
        closed = true
        announced = nil
    }

    /// mpg123 sends `@S` when the song's first frame plays.
    func sendHeaderIfPlaying() {
        let status = status
        guard mode(of: status) == .playing, let announced, !announced.headerSent, let song = status.song else { return }
        self.announced?.headerSent = true
        if let header = RemoteReplies.stream(song) { reply(header) }
        nextProgress = now()
        progressFrame = nil
    }

    private func quit() {
        guard !isDone else { return }
        isDone = true
        controls.submit(.quit, from: .remote)
    }

    func reply(_ line: String) {
        guard !isDone || line.hasPrefix("E ") else { return }
        if line.hasPrefix("P "), let said = Int(line.dropFirst(2)).flatMap(Mode.init) { saidMode = said }
        if !send(line) { quit() }
    }
}
