import Foundation
import Glibc
import Testing

/// Runs the built `tplayer` and the tools the tests compare it with.
enum Harness {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tplayer` built next to this test bundle (`swift build` puts them in one folder).
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TPLAYER_BIN"] { return path }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tplayer").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return root.appendingPathComponent(".build/debug/tplayer").path
    }()

    static let songs = ["01-morning-arpeggio.mp3", "02-night-drive.mp3", "03-tiny-waltz.mp3"]
        .map { root.appendingPathComponent("Resources/\($0)").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// Runs `executable` with stdin from /dev/null (not a terminal), waits, and collects output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                    environment: [String: String] = [:], detached: Bool = false, timeout: Double = BoundedWait.defaultSeconds,
                    whileRunning: ((Process) -> Void)? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        if detached {
            return Result(status: try spawnAndWait(executable, arguments, environment: environment, timeout: timeout),
                          stdout: "", stderr: "")
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        whileRunning?(process)
        // Past `timeout` the child is killed (`waitUntilExit(within:)` names it): a hang fails
        // the test instead of holding the run.
        let deadline = Date().addingTimeInterval(timeout)
        var ended = false
        let (outData, errData) = drain(out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor) {
            ended = process.hasEnded
            return ended || Date() >= deadline
        }
        if !ended, !process.hasEnded, Date() >= deadline {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("\(([executable] + arguments.prefix(6)).joined(separator: " ")) did not end within \(Int(timeout)) s: killed")
        }
        // Both pipes may end before the child does (it closed them, or passed them on).
        process.waitUntilExit(within: max(deadline.timeIntervalSinceNow, 0) + 10)
        return Result(status: process.exitStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads two pipes at once (so neither can fill and block the child) until both end or the
    /// child has `exited()`. EOF alone is not enough: a daemon that another test spawned at the
    /// wrong moment may hold a copy of the write end for minutes. EINTR is retried
    /// (`FileHandle.readDataToEndOfFile` turns it into a crash).
    static func drain(_ first: Int32, _ second: Int32, exited: () -> Bool) -> (Data, Data) {
        var data = [Data(), Data()]
        var fds = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        for fd in [first, second] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var childGone = false
        while fds.contains(where: { $0.fd >= 0 }) {
            childGone = exited()  // checked before reading, so the last read sees everything
            if poll(&fds, nfds_t(fds.count), childGone ? 0 : 100) < 0 && errno != EINTR { break }
            for index in fds.indices where fds[index].fd >= 0 {
                while true {
                    let count = read(fds[index].fd, &buffer, buffer.count)
                    if count > 0 {
                        data[index].append(contentsOf: buffer[0..<count])
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        if count == 0 || errno != EAGAIN || childGone { fds[index].fd = -1 }
                        break
                    }
                }
            }
        }
        return (data[0], data[1])
    }

    static func tplayer(_ arguments: String..., in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        try tplayer(arguments, in: directory, environment: environment)
    }

    static func tplayer(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(binary, arguments, in: directory, environment: environment)
    }

    /// Runs `script` (sh) on a private D-Bus session bus (`dbus-run-session`), then ends the
    /// bus's daemon with SIGKILL: started from the tests, the daemon outlived dbus-run-session
    /// and a SIGTERM alike (a shell started by hand ends it), so every one was left running,
    /// each holding an inotify instance (128 a user: a few runs of the suite used them all up,
    /// and the library's watcher could not start).
    @discardableResult
    static func dbusSession(_ script: String, environment: [String: String] = [:]) throws -> Result {
        let wrapped = """
            ( \(script)
            ); status=$?
            daemon=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus / \\
              org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus 2>/dev/null | awk '/uint32/ {print $2}')
            [ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
            exit $status
            """
        return try run("/usr/bin/dbus-run-session", ["--", "sh", "-c", wrapped], environment: environment)
    }

    /// Runs a program that leaves a daemon behind (tmux, pulseaudio) and waits for it alone.
    /// Foundation's `Process` would wait for the daemon too: the daemon inherits the descriptor
    /// `Process` watches. Output goes to /dev/null.
    static func spawnAndWait(_ executable: String, _ arguments: [String], environment: [String: String],
                             timeout: Double = BoundedWait.defaultSeconds) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // The daemon must not keep other tests' pipes open (their readers would wait for it).
        _ = spawnActionsCloseFrom(&actions, 3)
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // Signals as a login session has them (the test runner may ignore or block some, and a
        // child inherits that): a shell in a tmux pane must stop on Ctrl-Z as a person's does.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw HarnessError.timedOut("cannot start \(executable): \(spawned)") }
        return waitForChild(pid, named: executable, within: timeout)
    }

    /// Whether two PCM buffers are the same bytes. Compared here and not inside `#expect`, which
    /// would diff megabytes on failure; the comment says where they part.
    static func samePCM(_ ours: Data, _ reference: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if ours.elementsEqual(reference) { return true }
        let first = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        Issue.record("PCM differs: \(ours.count) bytes vs \(reference.count) of the reference; first differing byte: \(first.map(String.init) ?? "none (one is a prefix)")",
                     sourceLocation: sourceLocation)
        return false
    }

    /// The size of the file at `path`, or 0 when there is none.
    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The folder this test process's temporary folders go in, removed when the process ends.
    static let temporaryRoot: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-tests-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        // rm, not FileManager: a test makes a tree deeper than PATH_MAX.
        atexit { _ = try? Harness.run("/bin/rm", ["-rf", Harness.temporaryRoot.path]) }
        return url
    }()

    /// A fresh empty folder for one test.
    static func temporaryFolder() throws -> URL {
        let url = temporaryRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The PCM bytes of a WAV file's `data` chunk; headers differ between writers (libao writes
    /// WAVE_FORMAT_EXTENSIBLE, mpg123 plain PCM), the samples must not.
    static func pcm(ofWAV path: String) throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian32(bytes, offset + 4))
            if id == "data" { return bytes[(offset + 8)..<min(offset + 8 + size, bytes.count)] }
            offset += 8 + size + (size & 1)
        }
        throw HarnessError.noDataChunk(path)
    }

    static func littleEndian32(_ bytes: Data, _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[bytes.startIndex + offset + $1]) << (8 * $1) }
    }

    /// `mpg123 -w` of `inputs`: the reference decode.
    static func referenceDecode(_ inputs: [String], in folder: URL) throws -> Data {
        let path = folder.appendingPathComponent("reference.wav").path
        // The reference: mpg123 playing on past damage, as tplayer does.
        let result = try run("/usr/bin/mpg123", ["-q", "--resync-limit", "-1", "-w", path] + inputs)
        #expect(result.status == 0, "mpg123 -w failed: \(result.stderr)")
        return try pcm(ofWAV: path)
    }

    /// A short generated MP3: `seconds` of a tone, 44.1 kHz stereo, made with sox and lame.
    static func makeSong(seconds: Double, in folder: URL, name: String = "short.mp3") throws -> String {
        let wav = folder.appendingPathComponent("tone.wav").path
        let mp3 = folder.appendingPathComponent(name).path
        try run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                 "synth", "\(seconds)", "sine", "440", "gain", "-6"])
        try run("/usr/bin/lame", ["--quiet", "-b", "128", wav, mp3])
        return mp3
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Glibc module does not
/// export: the spawned program starts with every descriptor from `from` up closed.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

enum HarnessError: Error {
    case noDataChunk(String)
    case timedOut(String)
    case failed(String)
}
