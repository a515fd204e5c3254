import AudioEngine
import Glibc
import Inputs
import PlayerCore
import Terminal

/// One run of the player: wires the engine, the context, the session, an optional script and
/// the terminal, and loops until the list is played, `q` is pressed or a signal ends it.
struct PlayerRun {
    struct Options {
        var keepsOpen: Bool
        var repeats: Bool
        var shuffles: Bool
        var seed: UInt64
        var quiet: Bool
        var trace: Bool
    }

    let inputs: [Path]
    let script: Path?
    let output: OutputTarget
    let options: Options

    /// How often the status line is redrawn while playing, in seconds.
    static let statusInterval = 0.25

    /// Plays everything and returns the exit status.
    func run() throws -> Int32 {
        // A script is read and checked whole before anything plays; one with problems is refused.
        var scriptLines: [ScriptLine] = []
        var scriptReads: [Path] = []
        if let script {
            let compiled = ScriptCompiler(path: script)
            guard compiled.problems.isEmpty else {
                compiled.problems.forEach { printError($0.located) }
                fail("\(script): not run because of the problems above; tplayer --check \(script) lists them")
                return ScriptCheck.problemsFound
            }
            scriptLines = compiled.lines
            scriptReads = [script] + compiled.playlists + compiled.entries.map(\.path)
        }
        let list = InputExpander.expand(inputs)
        // Nothing is created or changed before `-w` is known to destroy nothing.
        if case .file(_, let path, let overwrite) = output {
            let reads = inputs + list.playlists + scriptReads + list.entries.map(\.path)
            if let refusal = WriteGuard.refusal(output: path, overwrite: overwrite, inputs: inputs, reads: reads) {
                fail(refusal.message)
                if case .usage = refusal { return 64 }
                return 1
            }
        }
        let engine: Engine
        do {
            engine = try Engine(output: output)
        } catch {
            fail(error.message)
            return error.isUsageError ? 64 : 1
        }
        defer { engine.shutdown() }

        list.problems.forEach { fail($0.brief) }
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher()
        } catch {
            fail("cannot start: \(error.reason)")
            return 1
        }
        let rawMode = interactive ? RawMode() : nil
        defer { rawMode?.restore() }
        let console = rawMode == nil ? nil : Console(showsStatus: !options.quiet)
        defer { console?.close() }

        let say: (String) -> Void = { line in
            if let console { console.print(line) } else { printError(line) }
        }
        let queue = PlayQueue(shuffle: options.shuffles, repeats: options.repeats, seed: options.seed)
        let session = Session(engine: engine, entries: list.entries, queue: queue, keepsOpen: options.keepsOpen)
        if options.trace {
            session.onTransition = { say("\($0)") }
        }
        session.report = { say("tplayer: " + $0) }
        session.expand = { path in
            let expanded = InputExpander.expand([path])
            expanded.problems.forEach { say("tplayer: " + $0.brief) }
            return expanded.entries
        }
        let runner = script.map { _ in
            ScriptRunner(lines: scriptLines, session: session, realTime: !output.isFile, keepsOpenAfter: options.keepsOpen)
        }
        runner?.report = { say("tplayer: " + $0) }
        if options.trace, let script {
            runner?.onLine = { say("\($0.location.brief): \($0.command)") }
        }

        var loop = EventLoop(keyFD: console == nil ? nil : STDIN_FILENO,
                             signalFD: signals.readFD, engineFD: engine.eventFD)
        if let runner { runner.start() } else { session.start() }
        var endingSignal: Int32?
        while endingSignal == nil {
            for event in engine.takeEvents() {
                if options.trace, case .playback(let phase) = event, phase != .idle, phase != .playing {
                    say("engine: \(phase)")
                }
                if let runner { runner.handle(event) } else { session.handle(event) }
            }
            runner?.run()
            if session.isFinished { break }
            console?.show(StatusSnapshot(
                state: session.state.id, song: session.state.song, position: engine.position,
                entry: session.queue.cursor, entryCount: session.entries.count,
                name: session.songName, repeats: session.queue.repeats, shuffles: session.queue.shuffles))
            let ticking = console != nil && !options.quiet && session.state.id == .play
            var timeout = ticking ? Self.statusInterval : nil
            if let deadline = runner?.deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
                timeout = min(timeout ?? .infinity, max(seconds, 0))
            }
            for input in loop.wait(timeout: timeout) {
                switch input {
                case .keys(let bytes):
                    let commands = console?.commands(from: bytes) ?? []
                    if !commands.isEmpty { runner?.takeOver() }
                    commands.forEach(session.perform)
                case .signals:
                    for signal in signals.take() {
                        switch signal {
                        case SIGWINCH: console?.resized()
                        case SIGTSTP: suspend(rawMode, console)
                        case SIGCONT: console?.resized()
                        default: if endingSignal == nil { endingSignal = signal }  // the first one wins
                        }
                    }
                case .engine, .keysClosed:
                    break
                }
            }
        }
        var status = max(session.exitStatus, list.problems.isEmpty ? 0 : 1)
        // The output is closed here, within a bounded time, so what it says reaches the user.
        switch engine.shutdown() {
        case .closed: break
        case .failed(let reason):
            say("tplayer: \(output.name): \(reason)")
            status = max(status, 1)
        case .timedOut where output.isFile:
            say("tplayer: \(output.name): could not finish the file: the writer did not stop in time")
            status = max(status, 1)
        case .timedOut:
            say("tplayer: output: the \(output.name) device did not stop in time; left as it is")
        }
        if let endingSignal { return 128 + endingSignal }
        return status
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    private func suspend(_ rawMode: RawMode?, _ console: Console?) {
        console?.close()
        rawMode?.restore()
        SignalWatcher.suspendSelf()
        rawMode?.enter()
        console?.resized()
    }

    private func fail(_ message: String) {
        printError("tplayer: \(message)")
    }
}
