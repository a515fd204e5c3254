import AudioEngine
import Glibc
import Inputs
import PlayerApp
import PlayerCore
import Terminal

/// One run of the player, wired: the checks before it starts, the engine, the session, an
/// optional script, the terminal and the signals, handed to `Player`, which runs it.
struct PlayerRun {
    struct Options {
        var repeats: Bool
        var shuffles: Bool
        var fades: Bool
        var seed: UInt64
        var quiet: Bool
        var trace: Bool
    }

    let inputs: [Path]
    let script: Path?
    let output: OutputTarget
    let options: Options

    /// Plays everything and returns the exit status.
    func run() -> Int32 {
        var writing: (path: Path, overwrite: Bool)?
        if case .file(_, let path, let overwrite) = output { writing = (path, overwrite) }
        let launch: Launch
        switch Launch.prepare(inputs: inputs, script: script, writing: writing) {
        case .success(let prepared): launch = prepared
        case .failure(let refusal):
            refusal.lines.forEach(printError)
            return refusal.status
        }
        let engine: Engine
        let signals: SignalWatcher
        do {
            engine = try Engine(output: output, fades: options.fades)
        } catch {
            printError("tplayer: \(error.message)")
            return error.isUsageError ? 64 : 1
        }
        do {
            signals = try SignalWatcher()
        } catch {
            printError("tplayer: cannot start: \(error.reason)")
            return 1
        }
        // Keys whenever stdin is a terminal; then the list stays open at its end, as in cmus,
        // and q quits. With no one at the keys, the run ends with the list.
        let terminal = TerminalSession(showsStatus: !options.quiet) { typed in
            let completion = TypedPath.complete(typed)
            return Console.Completion(text: completion.text, choices: completion.choices)
        }
        defer { terminal?.close() }
        let say: (String) -> Void = { line in
            if let terminal, terminal.takesMessages { terminal.print(line) } else { printError(line) }
        }
        launch.problems.forEach { say("tplayer: " + $0.brief) }

        let interactive = terminal != nil
        let queue = PlayQueue(shuffle: options.shuffles, repeats: options.repeats, seed: options.seed)
        let session = Session(engine: engine, entries: launch.entries, queue: queue, keepsOpen: interactive)
        session.expand = { path in
            let expanded = InputExpander.expandTyped("\(path)")
            expanded.problems.forEach { say("tplayer: " + $0.brief) }
            return expanded.entries
        }
        let runner = launch.script.map {
            ScriptRunner(lines: $0, session: session, realTime: !output.isFile, keepsOpenAfter: interactive)
        }
        let io = Player.IO(engine: engine, screen: terminal, keys: STDIN_FILENO, signals: signals, log: printError)
        let player = Player(session: session, script: runner, io: io,
                            options: Player.Options(quiet: options.quiet, trace: options.trace),
                            earlierProblems: launch.problems.count)
        return player.run()
    }
}
