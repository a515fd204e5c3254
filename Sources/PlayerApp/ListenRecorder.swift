import Dispatch
import Files
import Glibc
import Library
import PlayerCore

/// Where the songs heard go: the library's play counts, skips and last played (for the songs
/// the library holds), and the listen log when the settings ask for one (`listen-log = PATH`).
/// Written off the main loop (`BackgroundWork`), one at a time in the order heard; a failure is
/// said once, on the main loop, and the music plays on.
public final class ListenRecorder: @unchecked Sendable {
    // @unchecked: `log`, `library` and `work` are set once in `init`; `logFailed` and
    // `databaseFailed` are touched only on `queue`.
    private let queue = DispatchQueue(label: "tplayer.listens")
    /// Opened when the first song is heard (unless the run opened it before): a run that plays
    /// one song briefly never pays for it.
    private let library: SharedLibrary
    private let log: Path?
    private let work: BackgroundWork
    private let say: (String) -> Void
    private var logFailed = false
    private var databaseFailed = false
    /// Listens handed to a helper thread and not yet written.
    private let inFlight = Locked(0)
    /// Failures written down and not yet said (on the main loop, or by `finish`).
    private let unsaid = Locked<[String]>([])

    /// Counts what is heard in `library`, and writes it to the listen log at `log` when there
    /// is one, off the main loop (`work`); what fails is said through `say`, once.
    public init(log: Path?, library: SharedLibrary, work: BackgroundWork, say: @escaping (String) -> Void) {
        self.library = library
        self.work = work
        self.say = say
        self.log = log
    }

    public func record(_ listen: Listen) {
        let now = Int64(time(nil))
        inFlight.update { $0 += 1 }
        work.start(.listen, { [self] _ in
            let failures = write(listen, at: now)
            unsaid.update { $0 += failures }
            inFlight.update { $0 -= 1 }
        }, then: { [self] (_: Void) in sayFailures() })
    }

    /// Writes `listen` down; what failed for the first time, to be said.
    private func write(_ listen: Listen, at now: Int64) -> [String] {
        queue.sync {
            var failures: [String] = []
            if !databaseFailed, let database = library.database, case .failure(let error) = database.record(listen, at: now) {
                databaseFailed = true
                failures.append("tplayer: plays are not counted in this run: \(error)")
            }
            guard let log, !logFailed, let line = ListenLog.line(listen, started: now - Int64(listen.heard.rounded())) else {
                return failures
            }
            if case .failure(let error) = FileSystem.append(Array(line.utf8), to: log, header: Array(ListenLog.header.utf8),
                                                           startingWith: Array(ListenLog.firstLine.utf8), kind: "a listen log (#AUDIOSCROBBLER)") {
                logFailed = true
                failures.append("tplayer: \(log): cannot write the listen log: \(error); songs are not logged in this run")
            }
            return failures
        }
    }

    /// Waits for what is being written (before the run ends), five seconds at most, and says
    /// what failed.
    public func finish() {
        inFlight.wait(until: { $0 == 0 }, timeout: 5) { _ in }
        sayFailures()
    }

    private func sayFailures() {
        unsaid.update { lines in
            defer { lines = [] }
            return lines
        }.forEach(say)
    }
}
