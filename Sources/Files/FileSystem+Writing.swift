import Glibc
import PlayerCore

/// What tplayer writes: the file `-w` names (checked by what is opened, never by its name),
/// the saved session (whole or not at all), and the folders for it.
extension FileSystem {
    /// Why the file `-w` names cannot be opened.
    public enum OutputError: Error, Equatable, Sendable {
        /// There is a file there, and overwriting was not asked for.
        case exists
        case isDirectory
        /// It is a file the run reads, or a descriptor of tplayer's own (`OpenedFiles`).
        case refused(OpenedFiles.OutputRefusal)
        case system(SystemError)
    }

    /// Opens the file `-w` writes, or standard output for `-`, checking what was really opened
    /// before a byte of it changes: an existing file is opened without truncating it, compared
    /// with everything the run reads and with tplayer's own descriptors (`OpenedFiles`), and only
    /// then emptied. Without `overwrite` only a new file is created (atomically: `O_EXCL`).
    public static func openOutput(_ path: Path, overwrite: Bool) -> Result<OpenFile, OutputError> {
        let file: OpenFile
        var existed = true
        if path == Path("-") {
            let fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else { return .failure(.system(.current)) }
            file = OpenFile(fd: fd)
        } else {
            guard !path.hasNUL else { return .failure(.system(.invalidArgument)) }
            let flags = O_WRONLY | O_CLOEXEC | O_NOCTTY
            var fd = path.withCString { open($0, flags | O_CREAT | O_EXCL, 0o666) }
            if fd >= 0 {
                existed = false
            } else if SystemError.current == .fileExists {
                guard overwrite else { return .failure(.exists) }
                fd = path.withCString { open($0, flags) }
                // A dangling symbolic link: the file it names is made.
                if fd < 0 && SystemError.current == .noSuchFileOrDirectory { fd = path.withCString { open($0, flags | O_CREAT, 0o666) } }
            }
            guard fd >= 0 else { return .failure(SystemError.current == .isDirectory ? .isDirectory : .system(.current)) }
            file = OpenFile(fd: fd)
        }
        if let refusal = OpenedFiles.shared.claimOutput(file, existed: existed) { return .failure(.refused(refusal)) }
        if existed, path != Path("-"), case .success(let info) = file.status(), info.kind == .regular,
           let error = file.truncate(to: 0) {
            OpenedFiles.shared.releaseOutput(file)
            return .failure(.system(error))
        }
        return .success(file)
    }

    /// A file created for writing at `path`, or standard output for `-`. An existing file is
    /// refused (`EEXIST`, atomically: `O_EXCL`) unless `overwrite`, when it is truncated. A new
    /// file gets `permissions` (less the umask).
    public static func create(_ path: Path, overwrite: Bool, permissions: mode_t = 0o666) -> Result<OpenFile, SystemError> {
        if path == Path("-") {
            let fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
            return fd >= 0 ? .success(OpenFile(fd: fd)) : .failure(.current)
        }
        guard !path.hasNUL else { return .failure(.invalidArgument) }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | (overwrite ? O_TRUNC : O_EXCL)
        let fd = path.withCString { open($0, flags, permissions) }
        return fd >= 0 ? .success(OpenFile(fd: fd)) : .failure(.current)
    }

    /// `mkdir -p`: `folder` and every missing folder above it, each made with `permissions`.
    public static func makeFolders(_ folder: Path, permissions: mode_t) -> SystemError? {
        if isDirectory(folder) { return nil }
        guard !folder.hasNUL else { return .invalidArgument }
        let parent = folder.directory
        if parent != folder, !parent.isEmpty, let error = makeFolders(parent, permissions: permissions) { return error }
        if folder.withCString({ mkdir($0, permissions) }) != 0 && SystemError.current != .fileExists { return .current }
        return nil
    }

    /// Takes an exclusive `flock(2)` on the file at `path` (made with `permissions` when it is
    /// missing) without waiting: the file, open, for as long as the lock is to be held (the
    /// kernel lets go when it is closed, however the process ends); `nil` when another process
    /// holds the lock.
    public static func lockExclusively(_ path: Path, permissions: mode_t) -> Result<OpenFile?, SystemError> {
        guard !path.hasNUL else { return .failure(.invalidArgument) }
        // Not blocking: a named pipe put in its place is opened (read and write) at once, never waited on.
        let fd = path.withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, permissions) }
        guard fd >= 0 else { return .failure(.current) }
        let file = OpenFile(fd: fd)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if SystemError.current == .interrupted { continue }
            return SystemError.current.code == EWOULDBLOCK ? .success(nil) : .failure(.current)
        }
        return .success(file)
    }

    /// Why `replace` left the file as it was.
    public enum ReplaceFailure: Error, Equatable, Sendable {
        /// The temporary file beside it could not be made.
        case cannotCreate(temporary: Path, SystemError)
        /// Writing, flushing or renaming it failed (the temporary file is removed).
        case cannotWrite(SystemError)
    }

    /// Replaces the file at `path` with `bytes` whole or not at all: they are written to a
    /// temporary file beside it (`NAME.PID.tmp`, with `permissions`), flushed to the disk, and
    /// renamed over it, and the folder is flushed so that the rename is on the disk too. A crash,
    /// a kill or a full disk midway leaves the old file as it was; the temporary files of such
    /// replacements (whose process is gone) are removed first.
    ///
    /// A symbolic link at `path` is written through: the file it names (made, when it is
    /// missing) is the one replaced, beside it, and the link stays as it is.
    public static func replace(_ named: Path, with bytes: [UInt8], permissions: mode_t) -> ReplaceFailure? {
        let path: Path
        switch linkTarget(of: named) {
        case .success(let target): path = target
        case .failure(let error): return .cannotWrite(error)
        }
        return writeBeside(path, bytes, permissions: permissions) { rename($0, $1) }
    }

    /// Makes a new file at `path` holding `bytes`, whole or not at all, and never over a file
    /// that is there: the bytes go to a temporary file beside it (`NAME.PID.tmp`), flushed to
    /// the disk, which is then linked in as `path` (`link` fails when anything is there, even a
    /// dangling link, where a rename would replace it) and unlinked.
    public static func publish(_ path: Path, bytes: [UInt8], permissions: mode_t) -> SystemError? {
        guard !path.hasNUL else { return .invalidArgument }
        switch writeBeside(path, bytes, permissions: permissions, install: { link($0, $1) }) {
        case .cannotCreate(_, let error)?, .cannotWrite(let error)?: return error
        case nil: return nil
        }
    }

    /// Writes `bytes` to a temporary file beside `path` (`NAME.PID.tmp`, with `permissions`;
    /// the leftovers of such files whose process is gone removed first), flushes it to the disk,
    /// puts it in place with `install` (from, to: `rename` replaces, `link` never does), and
    /// flushes the folder so that the new name is on the disk too. No temporary file stays.
    private static func writeBeside(_ path: Path, _ bytes: [UInt8], permissions: mode_t,
                                    install: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32) -> ReplaceFailure? {
        removeLeftovers(of: path)
        let temporary = Path(bytes: path.bytes + Array(".\(getpid()).tmp".utf8))
        let file: OpenFile
        switch create(temporary, overwrite: false, permissions: permissions) {
        case .success(let created): file = created
        case .failure(let error): return .cannotCreate(temporary: temporary, error)
        }
        var failure = bytes.withUnsafeBytes { file.write($0) } ?? file.sync()
        if let closing = file.close(), failure == nil { failure = closing }
        if failure == nil, temporary.withCString({ from in path.withCString { install(from, $0) } }) != 0 {
            failure = .current
        }
        // After a rename it is gone already; after a link, or a failure, it goes now.
        _ = temporary.withCString { unlink($0) }
        if let failure { return .cannotWrite(failure) }
        let directory = path.directory.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if directory >= 0 {
            fsync(directory)
            Glibc.close(directory)
        }
        return nil
    }

    /// `path` with the symbolic links at its end followed (at most 40): the file that is there,
    /// or that a new file there would be.
    static func linkTarget(of path: Path) -> Result<Path, SystemError> {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<40 {
            var info = stat()
            guard !current.hasNUL, current.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK else {
                return .success(current)
            }
            let count = current.withCString { readlink($0, &buffer, buffer.count) }
            guard count >= 0 else { return .failure(.current) }
            guard count < buffer.count else { return .failure(SystemError(code: ENAMETOOLONG)) }
            current = Path(bytes: buffer[..<count].map { UInt8(bitPattern: $0) }).resolved(against: current.directory)
        }
        return .failure(SystemError(code: ELOOP))
    }

    /// Removes `NAME.PID.tmp` beside `path` where process PID is gone.
    private static func removeLeftovers(of path: Path) {
        guard case .success(let items) = list(path.directory, includingHidden: true) else { return }
        let prefix = path.lastComponent.bytes + [UInt8(ascii: ".")]
        for item in items {
            let name = item.name.bytes
            guard name.count > prefix.count + 4, name.starts(with: prefix), name.suffix(4) == Array(".tmp".utf8),
                  let pid = Int32(String(decoding: name[prefix.count..<(name.count - 4)], as: UTF8.self)),
                  kill(pid, 0) != 0, SystemError.current == .noSuchProcess else { continue }
            _ = path.directory.appending(item.name).withCString { unlink($0) }
        }
    }

    /// The controlling terminal (`/dev/tty`), opened for writing; `nil` without one.
    public static func openControllingTerminal() -> OpenFile? {
        let fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? OpenFile(fd: fd) : nil
    }
}
