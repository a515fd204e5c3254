import CLinux
import Glibc
import PlayerCore

/// What tplayer writes: the file `-w` names (checked by what is opened, never by its name),
/// the saved session (whole or not at all), and the folders for it.
extension FileSystem {
    /// Why the file `-w` names cannot be opened.
    public enum OutputFileError: Error, Equatable, Sendable {
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
    public static func openOutput(_ path: Path, overwrite: Bool) -> Result<OpenFile, OutputFileError> {
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

    /// Appends `bytes` to the regular file at `path` (made when missing, `header` first), in one
    /// write: a log's line. What is there is never changed; a FIFO or a device is refused
    /// (`notRegular`), opened without blocking and checked before anything is written. A file
    /// that is not empty must start as a log of its kind (`startingWith`: its header's first
    /// line), checked on the file opened: a song, a database, a settings file named by mistake
    /// is left as it was (`holdsOther`, naming `kind`).
    public static func append(_ bytes: [UInt8], to path: Path, header: [UInt8] = [], startingWith first: [UInt8] = [],
                              kind: String = "") -> Result<Void, ReadError> {
        guard !path.hasNUL else { return .failure(.system(.invalidArgument)) }
        let fd = path.withCString { open($0, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o644) }
        guard fd >= 0 else {
            let error = SystemError.current
            // A FIFO with no reader refuses a non-blocking open (ENXIO): said as what it is.
            if case .success(let status) = status(of: path), status.kind != .regular { return .failure(.notRegular(status.kind)) }
            return .failure(.system(error))
        }
        let file = OpenFile(fd: fd)
        guard case .success(let status) = file.status() else { return .failure(.system(.current)) }
        guard status.kind == .regular else { return .failure(.notRegular(status.kind)) }
        if status.size > 0, !first.isEmpty {
            var start = [UInt8](repeating: 0, count: first.count)
            let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            guard count == first.count, start == first else { return .failure(.holdsOther(kind)) }
        }
        let all = (status.size == 0 ? header : []) + bytes
        var written = 0
        while written < all.count {
            let count = all[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, SystemError.current == .interrupted { continue }
            guard count > 0 else { return .failure(.system(.current)) }
            written += count
        }
        return .success(())
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
        /// No file could be made in this folder to write into.
        case cannotCreate(in: Path, SystemError)
        /// Writing, flushing or renaming it failed (nothing tplayer made is left).
        case cannotWrite(SystemError)
        /// What is there (or what the link there leads to) is not a regular file: a device, a
        /// named pipe, a socket or a folder, which a rename would replace: it is left alone.
        case notAFile(Path, FileStatus.Kind)
    }

    /// Replaces the file at `path` with `bytes` whole or not at all: they are written to a new
    /// file beside it (with `permissions`), flushed to the disk, and renamed over it, and the
    /// folder is flushed so that the rename is on the disk too. A crash, a kill or a full disk
    /// midway leaves the old file as it was.
    ///
    /// A symbolic link at `path` is written through: the file it names (made, when it is
    /// missing) is the one replaced, beside it, and the link stays as it is. Only a regular file
    /// (or nothing) is replaced: a device, a named pipe or a socket there, or at the end of the
    /// link, is left alone (`notAFile`).
    public static func replace(_ named: Path, with bytes: [UInt8], permissions: mode_t) -> ReplaceFailure? {
        let path: Path
        switch linkTarget(of: named) {
        case .success(let target): path = target
        case .failure(let error): return .cannotWrite(error)
        }
        var info = stat()
        if !path.hasNUL, path.withCString({ lstat($0, &info) }) == 0 {
            let status = FileStatus(info)
            guard status.kind == .regular else { return .notAFile(path, status.kind) }
        }
        return writeBeside(path, bytes, permissions: permissions, replacing: true)
    }

    /// Removes the regular file at `path` (a link, a folder or anything else there is left).
    public static func removeFile(_ path: Path) -> SystemError? {
        var info = stat()
        guard !path.hasNUL, path.withCString({ lstat($0, &info) }) == 0 else { return .current }
        guard info.st_mode & S_IFMT == S_IFREG else { return .invalidArgument }
        return path.withCString { unlink($0) } == 0 ? nil : .current
    }

    /// Makes a new file at `path` holding `bytes`, whole or not at all, and never over a file
    /// that is there: the bytes go to a new file beside it, flushed to the disk, which is then
    /// linked in as `path` (`link` fails when anything is there, even a dangling link, where a
    /// rename would replace it).
    public static func publish(_ path: Path, bytes: [UInt8], permissions: mode_t) -> SystemError? {
        guard !path.hasNUL else { return .invalidArgument }
        switch writeBeside(path, bytes, permissions: permissions, replacing: false) {
        case .cannotCreate(_, let error)?, .cannotWrite(let error)?: return error
        case .notAFile?: return .fileExists
        case nil: return nil
        }
    }

    /// Writes `bytes` to a new file in `path`'s folder, flushes it to the disk, puts it in place
    /// (`replacing`: renamed over `path`; else linked in, never over anything), and flushes the
    /// folder so that the new name is on the disk too.
    ///
    /// The new file has no name while it is written (`O_TMPFILE`), so a crash or a kill midway
    /// leaves nothing behind; where the file system has no such files (or `unnamed` is false) it
    /// is a hidden `.tplayer-PID-N.tmp`, made with `O_EXCL`. Only what this call made is ever
    /// removed: a file of that name that was there already is someone's, and is left alone.
    static func writeBeside(_ path: Path, _ bytes: [UInt8], permissions: mode_t, replacing: Bool,
                            unnamed: Bool = true) -> ReplaceFailure? {
        let folder = path.directory.isEmpty ? Path(".") : path.directory
        if unnamed {
            let fd = folder.withCString { tp_open_unnamed($0, UInt32(permissions)) }
            if fd >= 0 {
                let file = OpenFile(fd: fd)
                if let failure = bytes.withUnsafeBytes({ file.write($0) }) ?? file.sync() { return .cannotWrite(failure) }
                if !replacing {
                    if path.withCString({ tp_link_unnamed(fd, $0) }) == 0 { return syncFolder(folder, closing: file) }
                    // ENOENT: no /proc to name the file by (its folder is there: it was made in it).
                    guard SystemError.current == .noSuchFileOrDirectory else { return .cannotWrite(.current) }
                } else {
                    switch nameTemporary(in: folder, { name in name.withCString { tp_link_unnamed(fd, $0) } == 0 ? nil : .current }) {
                    case .success(let temporary): return install(temporary, at: path, folder: folder, replacing: true, closing: file)
                    case .failure(let error) where error != .noSuchFileOrDirectory: return .cannotWrite(error)
                    case .failure: break
                    }
                }
            } else if ![SystemError(code: EOPNOTSUPP), .isDirectory, .invalidArgument].contains(SystemError.current) {
                return .cannotCreate(in: folder, .current)
            }
        }
        var made: OpenFile?
        let named = nameTemporary(in: folder) { name in
            switch create(name, overwrite: false, permissions: permissions) {
            case .success(let file): made = file; return nil
            case .failure(let error): return error
            }
        }
        guard case .success(let temporary) = named, let file = made else {
            if case .failure(let error) = named { return .cannotCreate(in: folder, error) }
            return .cannotCreate(in: folder, .ioError)
        }
        if let failure = bytes.withUnsafeBytes({ file.write($0) }) ?? file.sync() {
            _ = temporary.withCString { unlink($0) }
            return .cannotWrite(failure)
        }
        return install(temporary, at: path, folder: folder, replacing: replacing, closing: file)
    }

    /// Takes away the temporary files tplayer's own saves left in `folder` (a folder of its own,
    /// the saved session's) when killed between naming one and putting it in place: each
    /// `.tplayer-PID-N.tmp`, a regular file of this user's, whose process is gone.
    public static func removeStaleTemporaries(in folder: Path) {
        guard case .success(let items) = list(folder, includingHidden: true) else { return }
        for item in items where !item.isDirectory {
            let name = String(decoding: item.name.bytes, as: UTF8.self)
            let parts = name.split(separator: "-")
            guard name.hasPrefix(".tplayer-"), name.hasSuffix(".tmp"), parts.count == 3, let pid = Int32(parts[1]), pid > 0,
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = folder.appending(item.name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else { continue }
            _ = path.withCString { unlink($0) }
        }
    }

    /// Makes a hidden name in `folder` with `make` (which fails with EEXIST when the name is
    /// taken: then the next is tried), short enough whatever name the file will have.
    private static func nameTemporary(in folder: Path, _ make: (Path) -> SystemError?) -> Result<Path, SystemError> {
        for attempt in 0..<100 {
            let name = folder.appending(Path(".tplayer-\(getpid())-\(attempt).tmp"))
            guard let error = make(name) else { return .success(name) }
            guard error == .fileExists else { return .failure(error) }
        }
        return .failure(.fileExists)
    }

    /// Puts the written `temporary` (made by this process) in place as `path`, removes it when
    /// it is still there, and flushes the folder.
    private static func install(_ temporary: Path, at path: Path, folder: Path, replacing: Bool, closing file: OpenFile) -> ReplaceFailure? {
        var failure = file.close()
        if failure == nil, temporary.withCString({ from in path.withCString { replacing ? Glibc.rename(from, $0) : link(from, $0) } }) != 0 {
            failure = .current
        }
        // After a rename it is gone already; after a link, or a failure, it goes now.
        _ = temporary.withCString { unlink($0) }
        if let failure { return .cannotWrite(failure) }
        return syncFolder(folder, closing: nil)
    }

    /// Flushes `folder`, so that a new name in it is on the disk too.
    private static func syncFolder(_ folder: Path, closing file: OpenFile?) -> ReplaceFailure? {
        if let file, let failure = file.close() { return .cannotWrite(failure) }
        let directory = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
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

    /// The controlling terminal (`/dev/tty`), opened for writing; `nil` without one.
    public static func openControllingTerminal() -> OpenFile? {
        let fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? OpenFile(fd: fd) : nil
    }
}
