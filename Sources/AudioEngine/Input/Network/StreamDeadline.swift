import Files
import Glibc

/// A bound on the whole time spent on a stream, connection and all: when it passes, its
/// interruption is called (its waits end, its reads say it ended). A server that sends a byte a
/// second never meets the stall timeout (each byte is news); only a total bounds it. `--check`'s.
final class StreamDeadline {
    /// `false` while it runs, `true` once it passed, `nil` once ended before it.
    private let state = Locked<Bool?>(false)
    private var thread: pthread_t?

    /// Starts the clock: `interrupt` is called in `seconds` unless `end` comes first. Without a
    /// thread (none can be started), nothing bounds it.
    init(seconds: Double, interrupt: StreamInterruption) {
        let state = state
        thread = try? HelperThread.start(name: "tplayer-deadline") {
            let passed = state.wait(until: { $0 == nil }, timeout: seconds) { value -> Bool in
                guard value != nil else { return false }
                value = true
                return true
            }
            if passed { interrupt.interrupt() }
        }
    }

    /// Whether it passed (what was interrupted was cut by it).
    var hasPassed: Bool { state.read { $0 == true } }

    /// Stops the clock, if it still runs, and waits for its thread.
    func end() {
        state.update { if $0 == false { $0 = nil } }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    deinit {
        end()
    }
}
