import Glibc
import PlayerCore

/// The named pipe `--fifo PATH` reads commands from: an existing pipe, or one tplayer makes
/// (mode 0600) and removes at the end, but only if what is at the path then is still that very
/// pipe. A user's file is never replaced by a pipe, nor removed in its place.
public final class CommandPipe {
    /// Where commands are read (non-blocking).
    public let descriptor: Int32
    /// Held open for writing, so that a front-end closing its end is not the end.
    private let writer: Int32
    /// The path, when tplayer made the pipe there.
    private let created: Path?
    /// The pipe's identity, to know it again at the end.
    private let id: FileStatus.ID?
    private var closed = false

    /// Why the pipe cannot be used.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Something that is not a named pipe is at the path: left alone.
        case notAPipe
        case cannotCreate(SystemError)
        case cannotOpen(SystemError)
        case system(SystemError)

        /// What to tell the user, after the path.
        public var description: String {
            switch self {
            case .notAPipe: "exists and is not a named pipe; name a new path (tplayer creates the pipe) or an existing pipe"
            case .cannotCreate(let error): "cannot create the named pipe: \(error.reason)"
            case .cannotOpen(let error): "cannot open the named pipe: \(error.reason)"
            case .system(let error): error.reason
            }
        }

        /// A usage error (64) when the path names something else; 1 when the system refused.
        public var status: Int32 { self == .notAPipe ? 64 : 1 }
    }

    private init(descriptor: Int32, writer: Int32, created: Path?) {
        self.descriptor = descriptor
        self.writer = writer
        self.created = created
        id = try? FileSystem.status(ofDescriptor: descriptor).get().id
    }

    deinit { close() }

    /// Opens the pipe at `path`, making it when nothing is there.
    public static func open(_ path: Path) -> Result<CommandPipe, Failure> {
        guard !path.hasNUL else { return .failure(.system(.invalidArgument)) }
        var created: Path?
        var info = stat()
        if path.withCString({ lstat($0, &info) }) == 0 {
            guard info.st_mode & S_IFMT == S_IFIFO else { return .failure(.notAPipe) }
        } else if SystemError.current == .noSuchFileOrDirectory {
            guard path.withCString({ mkfifo($0, 0o600) }) == 0 else { return .failure(.cannotCreate(.current)) }
            created = path
        } else {
            return .failure(.system(.current))
        }
        // O_NOFOLLOW: a pipe swapped for a link since the check is not followed.
        let reader = path.withCString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
        let writer = reader < 0 ? -1 : path.withCString { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
        guard reader >= 0, writer >= 0 else {
            let error = SystemError.current
            if reader >= 0 { Glibc.close(reader) }
            if let created { _ = created.withCString { unlink($0) } }
            return .failure(.cannotOpen(error))
        }
        let pipe = CommandPipe(descriptor: reader, writer: writer, created: created)
        guard case .success(let opened) = FileSystem.status(ofDescriptor: reader), opened.kind == .fifo else {
            return .failure(.notAPipe)  // swapped for something else between the check and the open
        }
        return .success(pipe)
    }

    /// Closes the pipe, and removes it when tplayer made it and it is still there: a file moved
    /// in its place since is left as it is.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(writer)
        Glibc.close(descriptor)
        guard let created, let id else { return }
        var info = stat()
        guard created.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFIFO,
              FileStatus(info).id == id else { return }
        _ = created.withCString { unlink($0) }
    }
}
