import AudioEngine
import Glibc
import PlayerCore
import Terminal

/// One run of the player: wires the engine, the context, the session and the terminal, and
/// loops until the list is played, `q` is pressed or a signal ends it.
struct PlayerRun {
    let inputs: [String]
    let output: OutputTarget
    let quiet: Bool
    let trace: Bool

    /// How often the status line is redrawn while playing, in seconds.
    static let statusInterval = 0.25

    /// Plays everything and returns the exit status.
    func run() throws -> Int32 {
        if case .file(_, let path, overwrite: false) = output, access(path, F_OK) == 0 {
            fail("\(path): file exists; add --force to overwrite it")
            return 1
        }
        let engine: Engine
        do {
            engine = try Engine(output: output)
        } catch {
            fail(error.message)
            return 64
        }
        defer { engine.shutdown() }

        let list = InputList(inputs)
        list.problems.forEach(fail)
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        let signals = SignalWatcher()
        let rawMode = interactive ? RawMode() : nil
        defer { rawMode?.restore() }
        let console = rawMode == nil ? nil : Console(showsStatus: !quiet)
        defer { console?.close() }

        let say: (String) -> Void = { line in
            if let console { console.print(line) } else { printError(line) }
        }
        let context = PlayerContext(engine: engine)
        if trace {
            context.onTransition = { transition, event in
                say("\(transition.from.rawValue) -> \(transition.to.rawValue) (\(event))")
            }
        }
        let session = Session(context: context, inputs: list.songs)
        session.report = { say("tplayer: " + $0) }

        var loop = EventLoop(keyFD: console == nil ? nil : STDIN_FILENO,
                             signalFD: signals.readFD, engineFD: engine.eventFD)
        session.start()
        var endingSignal: Int32?
        while endingSignal == nil {
            engine.takeEvents().forEach(session.handle)
            if session.isFinished { break }
            console?.show(StatusSnapshot(
                state: context.state.id, song: context.state.song, position: engine.position,
                entry: session.index, entryCount: session.inputs.count))
            let ticking = console != nil && !quiet && context.state.id == .play
            for input in loop.wait(timeout: ticking ? Self.statusInterval : nil) {
                switch input {
                case .keys(let bytes):
                    console?.commands(from: bytes).forEach(session.perform)
                case .signals:
                    for signal in signals.take() {
                        switch signal {
                        case SIGWINCH: console?.resized()
                        case SIGTSTP: suspend(rawMode, console)
                        case SIGCONT: console?.resized()
                        default: endingSignal = signal
                        }
                    }
                case .engine, .keysClosed:
                    break
                }
            }
        }
        if let endingSignal { return 128 + endingSignal }
        let problems = list.problems.isEmpty ? 0 : Int32(1)
        return max(session.exitStatus, problems)
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
