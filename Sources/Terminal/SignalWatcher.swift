import Glibc

/// Turns the signals a player must answer into readable bytes on a pipe, so the main loop's
/// `poll` sees them like keys. The handler only writes one byte: async-signal-safe.
public final class SignalWatcher {
    /// The signals watched: the three that end the player, window resizes, and suspend.
    public static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    nonisolated(unsafe) private static var writeFD: Int32 = -1
    public let readFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        Self.writeFD = fds[1]
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
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalWatcher.writeFD, &byte, 1)
            }
            action.sa_flags = Int32(SA_RESTART)
            sigaction(number, &action, nil)
        }
    }

    /// The signals received since the last call, oldest first.
    public func take() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 32)
        var received: [Int32] = []
        while true {
            let count = read(readFD, &bytes, bytes.count)
            guard count > 0 else { break }
            received += bytes[0..<count].map { Int32($0) }
        }
        return received
    }

    /// Stops this process as Ctrl-Z would (the SIGTSTP handler replaced the default action).
    public static func suspendSelf() {
        kill(getpid(), SIGSTOP)
    }
}
