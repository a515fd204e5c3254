import Glibc
import PlayerCore

/// Where audio is handed to another program on this machine: the named pipe a server reads
/// (snapserver's `pipe` source, as MPD's fifo output feeds it). Held open at both ends, as MPD
/// holds it: with a reader of its own the pipe opens whether or not the server reads it yet,
/// the server never sees it end between songs, and what nobody reads can be taken out again
/// (`discard`) rather than fill it. Non-blocking: a full pipe is said, never waited on.
public final class OutboundPipe {
    public let descriptor: Int32
    private let reader: Int32
    private var closed = false

    private init(descriptor: Int32, reader: Int32) {
        self.descriptor = descriptor
        self.reader = reader
    }

    deinit { close() }

    /// Why the pipe cannot be written.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Something that is not a named pipe is at the path (a user's file): never written.
        case notAPipe
        case cannotCreate(SystemError)
        case system(SystemError)

        public var description: String {
            switch self {
            case .notAPipe: "is not a named pipe: tplayer writes only into the pipe a server reads (never into a file); name that pipe"
            case .cannotCreate(let error): "cannot make the named pipe: \(error.reason)"
            case .system(let error): error.reason
            }
        }
    }

    /// Opens the named pipe at `path` at both ends, making it (as snapserver and MPD make it)
    /// when nothing is there. What is opened is checked, not what was named: anything else at
    /// the path is left alone, unopened, and a path that turns into something else between
    /// the look and the open is closed unwritten.
    public static func open(_ path: Path) -> Result<OutboundPipe, Failure> {
        guard !path.hasNUL else { return .failure(.system(.invalidArgument)) }
        var info = stat()
        if path.withCString({ stat($0, &info) }) != 0 {
            guard SystemError.current == .noSuchFileOrDirectory else { return .failure(.system(.current)) }
            guard path.withCString({ mkfifo($0, 0o666) }) == 0 || SystemError.current == .fileExists else {
                return .failure(.cannotCreate(.current))
            }
        } else if info.st_mode & S_IFMT != S_IFIFO {
            return .failure(.notAPipe)
        }
        let reader = path.withCString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard reader >= 0 else { return .failure(.system(.current)) }
        guard fstat(reader, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            Glibc.close(reader)
            return .failure(.notAPipe)
        }
        let writer = path.withCString { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard writer >= 0 else {
            let error = SystemError.current
            Glibc.close(reader)
            return .failure(.system(error))
        }
        let pipe = OutboundPipe(descriptor: writer, reader: reader)
        guard fstat(writer, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return .failure(.notAPipe) }
        return .success(pipe)
    }

    /// Writes what the pipe has room for now of `bytes`: how many it took (0: full), or `nil`
    /// when it failed.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            let count = Glibc.write(descriptor, base, bytes.count)
            if count >= 0 { return count }
            switch SystemError.current {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return 0
            default: return nil
            }
        }
    }

    /// Linux's F_SETPIPE_SZ and F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7, + 8), which Glibc's
    /// module leaves out.
    private static let setPipeSize: Int32 = 1031
    private static let getPipeSize: Int32 = 1032

    /// Asks for a pipe of up to 1 MiB (what Linux grants a user), so that what is written ahead
    /// fits at any rate; returns the pipe's size, as it is.
    @discardableResult
    public func widen() -> Int {
        _ = fcntl(descriptor, Self.setPipeSize, Int32(1 << 20))
        return Int(max(fcntl(descriptor, Self.getPipeSize), 4096))
    }

    /// Bytes written and not yet read.
    public var unread: Int? {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : nil
    }

    /// Takes out, unread, the oldest of what the pipe holds down to `keeping` bytes, in whole
    /// `unit`s (frames): what nobody read, so that the pipe never fills. How many bytes it took
    /// (fewer than asked when the server read some meanwhile: those it has).
    @discardableResult
    public func discard(keeping: Int, unit: Int) -> Int {
        guard let unread, unread > keeping, unit > 0 else { return 0 }
        var left = (unread - keeping) / unit * unit
        var taken = 0
        var scratch = [UInt8](repeating: 0, count: 65536 / unit * unit)
        while left > 0 {
            let count = Glibc.read(reader, &scratch, min(left, scratch.count))
            if count <= 0 { break }
            left -= count
            taken += count
        }
        return taken
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
        Glibc.close(reader)
    }
}

/// Waiting, with a limit, for one descriptor to be ready.
public extension Waiting {
    /// Whether `descriptor` can be written to within `milliseconds` (false too when it failed).
    static func writable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        ready(descriptor, events: Int16(POLLOUT), within: milliseconds)
    }

    /// Whether `descriptor` can be read from within `milliseconds` (true when it closed: the
    /// read says so).
    static func readable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        ready(descriptor, events: Int16(POLLIN), within: milliseconds)
    }

    private static func ready(_ descriptor: Int32, events: Int16, within milliseconds: Int32) -> Bool {
        var ready = [pollfd(fd: descriptor, events: events, revents: 0)]
        let deadline = Monotonic.milliseconds() + Int64(max(milliseconds, 0))
        while true {
            let left = Int32(clamping: max(deadline - Monotonic.milliseconds(), 0))
            let count = poll(&ready, milliseconds: left)
            if count > 0 { return ready[0].revents & (events | Int16(POLLHUP) | Int16(POLLERR)) != 0 }
            if count == 0 || errno != EINTR { return false }
        }
    }
}

public extension StreamSocket {
    /// Connects to `address` within `milliseconds`: a connection to write and read without
    /// blocking, or the reason there is none (`refused` when nothing listens there: a server
    /// that may yet start).
    static func connect(to address: SocketAddress, within milliseconds: Int32) -> Result<StreamSocket, ConnectFailure> {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.system(.current)) }
        let connection = StreamSocket(descriptor: descriptor, isLocal: address.isLocal)
        if case .unix(let path) = address, path.bytes.count >= 108 || path.hasNUL { return .failure(.system(.invalidArgument)) }
        let started = address.withName { Glibc.connect(descriptor, $0, $1) }
        if started != 0 {
            let error = SystemError.current
            guard error == SystemError(code: EINPROGRESS) || error == .interrupted else { return .failure(.init(error)) }
            guard Waiting.writable(descriptor, within: milliseconds) else { return .failure(.timedOut) }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return .failure(.system(.current)) }
            if code != 0 { return .failure(.init(SystemError(code: code))) }
        }
        return .success(connection)
    }

    /// Why a connection could not be made.
    enum ConnectFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing listens there (yet).
        case refused
        case timedOut
        case system(SystemError)

        init(_ error: SystemError) {
            self = error == SystemError(code: ECONNREFUSED) || error.isMissing ? .refused : .system(error)
        }

        public var description: String {
            switch self {
            case .refused: "nothing listens there"
            case .timedOut: "no answer"
            case .system(let error): error.reason
            }
        }
    }

    /// Keeps what the system holds unsent for this connection to about `bytes` (at least the
    /// system's least), so that a peer that stops reading is seen within that much.
    func limitSendBuffer(toBytes bytes: Int) {
        var size = Int32(clamping: max(bytes, 4096))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Bytes written and not yet sent (or not yet acknowledged).
    var unsent: Int? {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(TIOCOUTQ), &count) == 0 ? Int(count) : nil
    }
}
