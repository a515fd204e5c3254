import Foundation
import Glibc

/// Runs a program the way a hostile test needs: arguments as raw bytes (names that are not
/// UTF-8, which Foundation's `Process` cannot pass), stdout or stderr a pipe whose reader is
/// already gone, a time limit after which the program is killed (a hang is a finding, not a
/// stuck test run), and the program's peak RSS. The peak comes from GNU time, which forks from
/// a small process: `wait4` on a child spawned from this large test process would count the
/// test's own memory, which the child shares until it execs.
enum RawProcess {
    enum Output {
        /// Collected by the test.
        case captured
        /// A pipe with no reader: every write fails with EPIPE (or raises SIGPIPE).
        case closedPipe
    }

    struct Outcome {
        /// The exit status, or 128 + N when signal N ended the program.
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// Peak resident set size in KB (0 when unknown).
        var peakRSS: Int
        var timedOut: Bool

        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        var stderrLines: [String] { stderrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `argv` (the program first) in `directory` with stdin from /dev/null.
    static func run(_ command: [[UInt8]], in directory: URL? = nil, stdout: Output = .captured, stderr: Output = .captured,
                    environment: [String: String] = [:], timeout: Double = 60) throws -> Outcome {
        let measure = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-rss-\(UUID().uuidString)").path
        defer { unlink(measure) }
        let argv = ["/usr/bin/time", "-q", "-f", "%M", "-o", measure].map { Array($0.utf8) } + command
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so a time-out ends the program and not only GNU time.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var readEnds: [Int32] = [-1, -1]
        var toClose: [Int32] = []
        for (index, (fd, output)) in [(Int32(1), stdout), (Int32(2), stderr)].enumerated() {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw HarnessError.timedOut("pipe: \(errno)") }
            posix_spawn_file_actions_adddup2(&actions, ends[1], fd)
            toClose.append(ends[1])
            switch output {
            case .captured: readEnds[index] = ends[0]
            case .closedPipe: close(ends[0])  // nobody will ever read
            }
        }
        _ = spawnActionsCloseFrom(&actions, 3)
        if let directory { _ = spawnActionsChdir(&actions, directory.path) }
        // A crash is a finding to report, not a backtrace to wait minutes for.
        let env = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 }) { $1 }
            .map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { bytes in bytes.withUnsafeBufferPointer { raw -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: raw.count + 1)
            for (index, byte) in raw.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[raw.count] = 0
            return copy
        } } + [nil]
        let cEnvironment = env.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { $0?.deallocate() }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, cArguments[0]!, &actions, &attributes, cArguments, cEnvironment)
        toClose.forEach { close($0) }
        guard spawned == 0 else {
            readEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw HarnessError.timedOut("cannot start \(String(decoding: argv[0], as: UTF8.self)): \(spawned)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        let exited = { () -> Bool in
            if Date() > deadline, !timedOut {
                timedOut = true
                kill(-pid, SIGKILL)
            }
            // Peek without reaping: `wait4` below collects the status and the rusage.
            var info = siginfo_t()
            return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
        }
        let (out, err) = Harness.drain(readEnds[0], readEnds[1], exited: exited)
        readEnds.filter { $0 >= 0 }.forEach { close($0) }
        while !exited() { usleep(10_000) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // GNU time exits with the program's status, or 128 + N when signal N ended it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let peak = (try? String(contentsOfFile: measure, encoding: .utf8))?
            .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return Outcome(status: code, stdout: out, stderr: err, peakRSS: peak, timedOut: timedOut)
    }

    /// The `tplayer` under test with `arguments`, each a string or raw bytes.
    static func tplayer(_ arguments: [[UInt8]], in directory: URL? = nil, stdout: Output = .captured,
                        stderr: Output = .captured, timeout: Double = 60) throws -> Outcome {
        try run([Array(Harness.binary.utf8)] + arguments, in: directory, stdout: stdout, stderr: stderr, timeout: timeout)
    }

    static func tplayer(_ arguments: String..., in directory: URL? = nil, stdout: Output = .captured,
                        stderr: Output = .captured, timeout: Double = 60) throws -> Outcome {
        try tplayer(arguments.map { Array($0.utf8) }, in: directory, stdout: stdout, stderr: stderr, timeout: timeout)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` and `..._addchdir_np`, which the Glibc
/// module does not export.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnActionsChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
