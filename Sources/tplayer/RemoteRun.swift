import AudioEngine
import Files
import Glibc
import Inputs
import PlayerApp
import PlayerCore
import Terminal

/// `tplayer -R`: mpg123's generic remote interface. Commands come from stdin or a named pipe,
/// replies go to stdout (or stderr with `--remote-err`); inputs on the command line are ignored,
/// as mpg123 ignores them (front-ends pass a placeholder).
struct RemoteRun {
    let fifo: Path?
    let repliesToStderr: Bool
    let output: OutputTarget
    let fades: Bool
    let trace: Bool

    func run() -> Int32 {
        let engine: Engine
        let signals: SignalWatcher
        switch Startup.engineAndSignals(output: output, fades: fades, measuresStartDelay: true) {
        case .success(let started): (engine, signals) = started
        case .failure(let failure): return failure.status
        }
        var input = CommandInput.standardInput
        if let fifo {
            switch CommandInput.open(fifo: fifo) {
            case .success(let opened): input = opened
            case .failure(let problem):
                printError("tplayer: \(problem.message)")
                return problem.isUsageError ? 64 : 1
            }
        }
        defer { input.close() }
        let session = Session(engine: engine, entries: [], keepsOpen: true)
        session.keepsSongOnFailedLoad = false
        session.failedSongsFailTheRun = false
        session.expand = { path in
            let expanded = InputExpander.expand([path])
            expanded.problems.forEach { printError("tplayer: " + $0.brief) }
            return expanded.entries
        }
        let replies = repliesToStderr ? STDERR_FILENO : STDOUT_FILENO
        let remote = RemoteControl(
            session: session, position: { engine.position },
            send: { writeAll(replies, "@" + $0 + "\n") },
            readList: { path in
                if case .failure(let error) = FileSystem.status(of: path) {
                    printError("tplayer: \(path): \(error.reason)")
                    return []
                }
                let expanded = InputExpander.expand([path])
                expanded.problems.forEach { printError("tplayer: " + $0.brief) }
                return expanded.entries
            })
        let io = Player.IO(engine: engine, screen: nil, keys: input.descriptor, signals: signals, log: printError,
                           remote: remote)
        return Player(session: session, script: nil, io: io, options: Player.Options(quiet: true, trace: trace)).run()
    }
}

/// Where remote commands come from: stdin, or a named pipe that tplayer opened (and created,
/// when it did not exist).
struct CommandInput {
    let descriptor: Int32
    /// Holds the pipe open for writing, so that a front-end closing its end is not the end.
    private var writer: Int32?
    private var created: Path?

    static let standardInput = CommandInput(descriptor: STDIN_FILENO)

    private init(descriptor: Int32, writer: Int32? = nil, created: Path? = nil) {
        self.descriptor = descriptor
        self.writer = writer
        self.created = created
    }

    struct Problem: Error {
        let message: String
        var isUsageError = false
    }

    /// Opens `path`, an existing named pipe or a new one (mode 0600). Anything else there is
    /// left alone: a user's file is never replaced by a pipe.
    static func open(fifo path: Path) -> Result<CommandInput, Problem> {
        var created: Path?
        var info = stat()
        if path.withCString({ lstat($0, &info) }) == 0 {
            guard info.st_mode & S_IFMT == S_IFIFO else {
                return .failure(Problem(message: "--fifo \(path): exists and is not a named pipe; name a new path (tplayer creates the pipe) or an existing pipe", isUsageError: true))
            }
        } else if errno == ENOENT {
            guard path.withCString({ mkfifo($0, 0o600) }) == 0 else {
                return .failure(Problem(message: "--fifo \(path): cannot create the named pipe: \(String(cString: strerror(errno)))"))
            }
            created = path
        } else {
            return .failure(Problem(message: "--fifo \(path): \(String(cString: strerror(errno)))"))
        }
        let reader = path.withCString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        let writer = reader < 0 ? -1 : path.withCString { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        guard reader >= 0, writer >= 0 else {
            let reason = String(cString: strerror(errno))
            if reader >= 0 { Glibc.close(reader) }
            if let created { _ = created.withCString { unlink($0) } }
            return .failure(Problem(message: "--fifo \(path): cannot open the named pipe: \(reason)"))
        }
        return .success(CommandInput(descriptor: reader, writer: writer, created: created))
    }

    /// Closes the pipe, and removes it when tplayer made it.
    func close() {
        guard let writer else { return }
        Glibc.close(writer)
        Glibc.close(descriptor)
        if let created { _ = created.withCString { unlink($0) } }
    }
}
