import CLinux
import Glibc
import PlayerCore

/// Every file-system call tplayer makes, in one place, on byte paths (`Path`).
///
/// Only regular files are ever read: a named pipe, a device or a socket given where a playlist,
/// a script or a song belongs is refused at once, because opening or reading one can block
/// forever (a FIFO with no writer) or never end (`/dev/zero`).
public enum FileSystem {
    /// What `path` is (following symbolic links).
    public static func status(of path: Path) -> Result<FileStatus, SystemError> {
        guard !path.hasNUL else { return .failure(.noSuchFileOrDirectory) }
        var info = stat()
        let result = path.withCString { stat($0, &info) }
        return result == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// What the open descriptor `fd` is (standard output, for `-w -`).
    /// What is at `path` itself: a symbolic link is not followed.
    public static func linkStatus(of path: Path) -> Result<FileStatus, SystemError> {
        guard !path.hasNUL else { return .failure(.noSuchFileOrDirectory) }
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    public static func status(ofDescriptor fd: Int32) -> Result<FileStatus, SystemError> {
        var info = stat()
        return fstat(fd, &info) == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// The first `count` bytes of the regular file at `path` (fewer when it is shorter), to tell
    /// what it holds; `nil` when it is no regular file or cannot be read. Unlike every other
    /// read, it is not noted in `OpenedFiles`: it is how `-w` looks at a file before writing it.
    public static func peek(_ path: Path, count: Int) -> [UInt8]? {
        guard !path.hasNUL else { return nil }
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard case .success(let info) = status(ofDescriptor: fd), info.kind == .regular else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, count - got) }
            if read < 0 && SystemError.current == .interrupted { continue }
            guard read > 0 else { break }
            got += read
        }
        return Array(bytes[0..<got])
    }

    /// Whether the file system `path` is on is mounted read-only.
    public static func isReadOnlyMount(_ path: Path) -> Bool {
        guard !path.hasNUL else { return false }
        var info = statvfs()
        return path.withCString { statvfs($0, &info) } == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether `path` is a folder (or a symbolic link to one).
    public static func isDirectory(_ path: Path) -> Bool {
        if case .success(let info) = status(of: path) { return info.kind == .directory }
        return false
    }

    /// Renames `path` to `new` (over a file there, as `rename` does).
    public static func rename(_ path: Path, to new: Path) -> Result<Void, SystemError> {
        path.withCString { old in new.withCString { Glibc.rename(old, $0) } } == 0 ? .success(()) : .failure(.current)
    }

    /// Whether anything exists at `path` (a dangling symbolic link counts: it can be written through).
    public static func exists(_ path: Path) -> Bool {
        guard !path.hasNUL else { return false }
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0
    }

    /// `path` with every symbolic link, `.` and `..` resolved; `nil` when it cannot be.
    public static func canonicalPath(_ path: Path) -> Path? {
        guard !path.hasNUL, let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return Path(cString: resolved)
    }

    /// Whether `path` is a folder of the system's own, never music: /dev, or a folder on a
    /// kernel file system (/proc, /sys and the like, wherever mounted). Walking one can be
    /// endless (/proc/self/root) and reading in it can block.
    public static func isSystemFolder(_ path: Path) -> Bool {
        guard !path.hasNUL else { return false }
        if kernelFileSystems.contains(Int64(path.withCString(tp_filesystem_type))) { return true }
        guard let real = canonicalPath(path) else { return false }
        return real == Path("/dev") || real.bytes.starts(with: Array("/dev/".utf8))
    }

    /// proc, sysfs, devpts, cgroup (1 and 2), debugfs, securityfs, tracefs, bpf, pstore,
    /// configfs, fusectl, mqueue, binfmt_misc: `statfs`'s magic numbers.
    private static let kernelFileSystems: Set<Int64> = [
        0x9FA0, 0x6265_6572, 0x1CD1, 0x27E0EB, 0x6367_7270, 0x6462_6720, 0x7363_6673, 0x7472_6163,
        0xCAFE_4A11, 0x6165_676C, 0x6265_6570, 0x6573_5543, 0x1980_0202, 0x4249_4E4D,
    ]

    /// An entry of a folder.
    public struct DirectoryItem: Sendable {
        public let name: Path
        /// The entry is a folder, or a symbolic link to one.
        public let isDirectory: Bool
        /// `stat` failed on the entry (e.g. its full path is too long): why.
        public let problem: SystemError?
    }

    /// The entries of a folder, names as bytes; names starting with a dot only when asked for.
    /// `isCancelled` is asked as the listing goes: true ends it (`ECANCELED`).
    public static func list(_ path: Path, includingHidden: Bool = false,
                            isCancelled: () -> Bool = { false }) -> Result<[DirectoryItem], SystemError> {
        guard !path.hasNUL else { return .failure(.noSuchFileOrDirectory) }
        guard let directory = path.withCString({ opendir($0) }) else { return .failure(.current) }
        defer { closedir(directory) }
        var items: [DirectoryItem] = []
        while let entry = readdir(directory) {
            if items.count % 256 == 255 {
                if isCancelled() { return .failure(.canceled) }
                // A folder too large for the memory `ulimit -v` leaves: said, not a crash (asked
                // every 1,024 names: a listing grows by doubling, and the first doubling past
                // what is left would end the process).
                if items.count % 1024 == 255, MemoryLimit.isNearlyExhausted { return .failure(.noMemory) }
            }
            let name = Path(bytes: entryName(entry))
            if name.bytes.first == UInt8(ascii: "."), !includingHidden || name == "." || name == ".." { continue }
            let type = Int32(entry.pointee.d_type)
            var isDirectory = type == DT_DIR
            var problem: SystemError?
            if type == DT_LNK || type == DT_UNKNOWN {
                switch status(of: path.appending(name)) {
                case .success(let info): isDirectory = info.kind == .directory
                case .failure(let error): problem = error.isMissing ? nil : error  // a dangling link is no song
                }
            }
            items.append(DirectoryItem(name: name, isDirectory: isDirectory, problem: problem))
        }
        return .success(items)
    }

    /// The name of a directory entry, read where it lies, up to its NUL: a dirent is only as
    /// long as its name, so copying the whole 256-byte `d_name` reads past the end of the
    /// folder's buffer (AddressSanitizer found it).
    static func entryName(_ entry: UnsafePointer<dirent>) -> UnsafeRawBufferPointer {
        let field = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return UnsafeRawBufferPointer(start: field, count: strlen(field.assumingMemoryBound(to: CChar.self)))
    }

    /// Why a regular file cannot be read.
    public enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        case system(SystemError)
        case notRegular(FileStatus.Kind)
        /// Larger than the caller's limit (checked before reading, and again while reading).
        case tooLarge(limit: Int)
        /// The file `-w` is writing (`OpenedFiles`): reading it while it grows would never end.
        case isOutput
        /// A file appended to holds something else than it should (`append(_:to:header:)`).
        case holdsOther(String)

        public var description: String {
            switch self {
            case .system(let error): error.reason
            case .notRegular(.directory): "is a folder"
            case .notRegular(let kind): "not a regular file (it is a \(kind.rawValue))"
            case .tooLarge(let limit): "larger than \(Self.megabytes(limit))"
            case .isOutput: "that is the file -w is writing"
            case .holdsOther(let what): "it holds something else than \(what)"
            }
        }

        private static func megabytes(_ bytes: Int) -> String {
            bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
        }
    }

    /// Opens `path` for reading, refusing anything but a regular file before a byte is read.
    ///
    /// The open is non-blocking, so a named pipe with no writer cannot hang it; the kind is
    /// checked on the open descriptor (`fstat`), so the file cannot be swapped after the check.
    public static func openRegularFile(_ path: Path) -> Result<OpenFile, ReadError> {
        guard !path.hasNUL else { return .failure(.system(.noSuchFileOrDirectory)) }
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return .failure(.system(.current)) }
        let file = OpenFile(fd: fd)
        switch file.status() {
        case .failure(let error): return .failure(.system(error))
        case .success(let info) where info.kind != .regular: return .failure(.notRegular(info.kind))
        case .success(let info):
            guard OpenedFiles.shared.noteRead(info.id, path: path) else { return .failure(.isOutput) }
        }
        // Regular files ignore O_NONBLOCK, but whoever reads the descriptor next expects a
        // blocking one.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(file)
    }

    /// The whole regular file at `path`, refusing one over `limit` bytes before reading it.
    public static func readAll(_ path: Path, limit: Int) -> Result<[UInt8], ReadError> {
        var bytes: [UInt8] = []
        return read(path, limit: limit) { chunk in
            bytes += chunk
            return true
        }.map { bytes }
    }

    /// Reads the regular file at `path` in chunks of up to 64 KB, handing each to `body`, which
    /// returns false to stop early. A file over `limit` bytes is refused before anything is read.
    public static func read(_ path: Path, limit: Int,
                            _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Result<Void, ReadError> {
        let file: OpenFile
        switch openRegularFile(path) {
        case .success(let opened): file = opened
        case .failure(let error): return .failure(error)
        }
        if case .success(let info) = file.status(), info.size > limit { return .failure(.tooLarge(limit: limit)) }
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { chunk.deallocate() }
        var total = 0
        while true {
            let count = Glibc.read(file.descriptor, chunk.baseAddress, chunk.count)
            if count < 0 && SystemError.current == .interrupted { continue }
            guard count >= 0 else { return .failure(.system(.current)) }
            if count == 0 { return .success(()) }
            total += count
            // The file may grow while it is read: the limit holds all the same.
            guard total <= limit else { return .failure(.tooLarge(limit: limit)) }
            guard body(UnsafeBufferPointer(rebasing: chunk[0..<count])) else { return .success(()) }
        }
    }

    /// The working folder (`/` if it cannot be named: removed, or beyond PATH_MAX).
    public static func currentFolder() -> Path {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return Path("/") }
        return buffer.withUnsafeBufferPointer { Path(cString: $0.baseAddress!) }
    }
}
