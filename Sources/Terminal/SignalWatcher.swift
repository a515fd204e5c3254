import Files
import Glibc

/// Turns the signals a player must answer into readable bytes on a pipe, so the main loop's
/// `poll` sees them like keys. The handler only writes one byte: async-signal-safe.
public final class SignalWatcher {
    /// The signals watched: the three that end the player, window resizes, and suspend.
    public static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// The pipe's write end, for the handler; written once, before any handler is installed.
    nonisolated(unsafe) private static var writeFD: Int32 = -1
    private let pipe: SelfPipe
    public var readFD: Int32 { pipe.readFD }

    /// Fails when the process has no descriptors left for the pipe: a signal could then not
    /// be answered, so the player must not start.
    public init() throws(SystemError) {
        pipe = try SelfPipe()
        Self.writeFD = pipe.writeFD
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started us with these blocked (a blocked mask is inherited): we
        // answer them, so they must get through.
        var mask = sigset_t()
        sigemptyset(&mask)
        Self.watched.forEach { sigaddset(&mask, $0) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        for number in Self.watched {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // The interrupted code may be about to read errno: leave it as it was.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalWatcher.writeFD, &byte, 1)
                errno = saved
            }
            action.sa_flags = Int32(SA_RESTART)
            // No handler interrupts another: signals arriving together (while stopped, say) are
            // then written in the order the kernel delivers them, so the first one stays first.
            action.sa_mask = mask
            sigaction(number, &action, nil)
        }
    }

    /// The signals received since the last call, oldest first.
    public func take() -> [Int32] {
        pipe.drain().map { Int32($0) }
    }

    /// Stops this process as Ctrl-Z would (the SIGTSTP handler replaced the default action).
    public static func suspendSelf() {
        kill(getpid(), SIGSTOP)
    }
}
