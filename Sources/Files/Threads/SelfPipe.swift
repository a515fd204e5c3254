import Glibc

/// A non-blocking pipe a thread or a signal handler writes one byte to, to wake a `poll` loop.
///
/// Creating one fails (it throws) when the process is out of descriptors: a wake-up that
/// cannot be delivered would leave the player waiting forever.
public final class SelfPipe: @unchecked Sendable {
    // `@unchecked Sendable`: the two descriptors never change after `init`, and `write` and
    // `read` on a pipe are safe from any thread (and `write` from a signal handler).
    public let readFD: Int32
    public let writeFD: Int32

    public init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .current }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes the read end readable. A full pipe already is, so a failed write loses nothing.
    public func wake(_ byte: UInt8 = 1) {
        var byte = byte
        _ = write(writeFD, &byte, 1)
    }

    /// Every byte written since the last call, oldest first.
    public func drain() -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readFD, &buffer, buffer.count)
            if count < 0 && SystemError.current == .interrupted { continue }
            guard count > 0 else { return received }
            received += buffer[0..<count]
        }
    }
}
