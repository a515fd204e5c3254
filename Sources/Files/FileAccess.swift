import Glibc
import PlayerCore

/// The file-system calls that the inputs (files, folders, playlists) and the saved session
/// make, as a seam: `SystemFiles` makes them on the disk (through `FileSystem`), `MemoryFiles`
/// on a tree in memory, so that what is built on them is tested without a disk.
public protocol FileAccess: Sendable {
    /// What `path` is (following symbolic links).
    func status(of path: Path) -> Result<FileStatus, SystemError>
    /// Whether anything exists at `path` (a dangling symbolic link counts).
    func exists(_ path: Path) -> Bool
    /// `path` with every symbolic link, `.` and `..` resolved; `nil` when it cannot be.
    func canonicalPath(_ path: Path) -> Path?
    /// Whether `path` is a folder of the system's own, never music (/dev, /proc, /sys).
    func isSystemFolder(_ path: Path) -> Bool
    /// The entries of a folder; names starting with a dot only when asked for.
    func list(_ path: Path, includingHidden: Bool, isCancelled: () -> Bool) -> Result<[FileSystem.DirectoryItem], SystemError>
    /// Reads the regular file at `path` in chunks (refusing anything else, and a file over
    /// `limit` bytes), handing each to `body`, which returns false to stop early.
    func read(_ path: Path, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Result<Void, FileSystem.ReadError>
    /// The first `count` bytes (fewer when the file is shorter) of the regular file at `path`;
    /// `nil` for anything else or when it cannot be read.
    func peek(_ path: Path, count: Int) -> [UInt8]?
    /// `mkdir -p`.
    func makeFolders(_ folder: Path, permissions: mode_t) -> SystemError?
    /// Replaces the file at `path` with `bytes`, whole or not at all.
    func replace(_ path: Path, with bytes: [UInt8], permissions: mode_t) -> FileSystem.ReplaceFailure?
}

extension FileAccess {
    /// Whether `path` is a folder (or a symbolic link to one).
    public func isDirectory(_ path: Path) -> Bool {
        if case .success(let info) = status(of: path) { return info.kind == .directory }
        return false
    }

    public func list(_ path: Path) -> Result<[FileSystem.DirectoryItem], SystemError> {
        list(path, includingHidden: false, isCancelled: { false })
    }

    /// The whole regular file at `path`, refusing one over `limit` bytes.
    public func readAll(_ path: Path, limit: Int) -> Result<[UInt8], FileSystem.ReadError> {
        var bytes: [UInt8] = []
        return read(path, limit: limit) { chunk in
            bytes += chunk
            return true
        }.map { bytes }
    }
}

/// The disk, through `FileSystem`.
public struct SystemFiles: FileAccess {
    public init() {}

    public func status(of path: Path) -> Result<FileStatus, SystemError> { FileSystem.status(of: path) }
    public func exists(_ path: Path) -> Bool { FileSystem.exists(path) }
    public func canonicalPath(_ path: Path) -> Path? { FileSystem.canonicalPath(path) }
    public func isSystemFolder(_ path: Path) -> Bool { FileSystem.isSystemFolder(path) }

    public func list(_ path: Path, includingHidden: Bool, isCancelled: () -> Bool) -> Result<[FileSystem.DirectoryItem], SystemError> {
        FileSystem.list(path, includingHidden: includingHidden, isCancelled: isCancelled)
    }

    public func read(_ path: Path, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Result<Void, FileSystem.ReadError> {
        FileSystem.read(path, limit: limit, body)
    }

    public func peek(_ path: Path, count: Int) -> [UInt8]? { FileSystem.peek(path, count: count) }

    public func makeFolders(_ folder: Path, permissions: mode_t) -> SystemError? {
        FileSystem.makeFolders(folder, permissions: permissions)
    }

    public func replace(_ path: Path, with bytes: [UInt8], permissions: mode_t) -> FileSystem.ReplaceFailure? {
        FileSystem.replace(path, with: bytes, permissions: permissions)
    }
}

/// A file system in memory: absolute paths to files (their bytes), folders, symbolic links and
/// special files (a named pipe, a device), for tests of what is built on `FileAccess`. Paths
/// are taken as given (no `.` or `..` in them), as the disk's would be after `canonicalPath`.
public final class MemoryFiles: FileAccess, Sendable {
    public enum Node: Equatable, Sendable {
        case file([UInt8])
        case folder
        /// A symbolic link to an absolute path.
        case link(Path)
        /// Anything that is not a regular file or a folder (never read).
        case special(FileStatus.Kind)
    }

    private let lock = Locked([Path: Node]())
    /// What a test sets besides the tree, under a lock of its own (a helper thread reads them).
    private let rules = Locked(Rules())

    private struct Rules {
        var systemFolders: [Path] = ["/dev", "/proc", "/sys"]
        var failures: [Path: SystemError] = [:]
    }

    /// Folders under which every path is the system's own.
    public var systemFolders: [Path] {
        get { rules.read { $0.systemFolders } }
        set { rules.update { $0.systemFolders = newValue } }
    }

    /// Errors to answer for paths, as the disk would (permission denied, too many open files).
    public var failures: [Path: SystemError] {
        get { rules.read { $0.failures } }
        set { rules.update { $0.failures = newValue } }
    }

    /// An empty tree with its root.
    public init() {
        lock.update { $0["/"] = .folder }
    }

    /// Puts `node` at `path`, and the folders above it.
    public func add(_ path: Path, _ node: Node) {
        lock.update { nodes in
            var folder = path.directory
            while folder != Path("/"), !folder.isEmpty, nodes[folder] == nil {
                nodes[folder] = .folder
                folder = folder.directory
            }
            nodes[path] = node
        }
    }

    public func add(_ path: Path, text: String) { add(path, .file(Array(text.utf8))) }

    public func remove(_ path: Path) { lock.update { $0[path] = nil } }

    /// What is at `path`, without following a link.
    public func node(at path: Path) -> Node? { lock.read { $0[path] } }

    /// The bytes of the file at `path`.
    public func contents(_ path: Path) -> [UInt8]? {
        if case .file(let bytes) = resolved(path).flatMap(node(at:)) { return bytes }
        return nil
    }

    /// The names in `path`, in order (`/a/b` is `a`, `b`).
    private static func components(_ path: Path) -> [Path] {
        var names: [Path] = []
        for part in path.bytes.split(separator: UInt8(ascii: "/")) {
            names.append(Path(bytes: Array(part)))
        }
        return names
    }

    /// `path` with every link in it followed, component by component (at most 16 links), `nil`
    /// when one dangles or anything on the way is missing.
    private func resolved(_ path: Path) -> Path? {
        var done: Path = "/"
        var rest: [Path] = Self.components(path)
        var links: Int = 0
        while !rest.isEmpty {
            let name: Path = rest.removeFirst()
            let next: Path = done.appending(name)
            guard let found: Node = node(at: next) else { return nil }
            guard case .link(let target) = found else {
                done = next
                continue
            }
            links += 1
            if links > 16 { return nil }
            let targetNames: [Path] = Self.components(target)
            rest = targetNames + rest
            done = "/"
        }
        return done
    }

    public func status(of path: Path) -> Result<FileStatus, SystemError> {
        if let failure = failures[path] { return .failure(failure) }
        guard let real = resolved(path), let node = node(at: real) else { return .failure(.noSuchFileOrDirectory) }
        let id = FileStatus.ID(device: 1, inode: UInt64(truncatingIfNeeded: real.bytes.hashValue))
        switch node {
        case .file(let bytes): return .success(FileStatus(kind: .regular, size: Int64(bytes.count), id: id))
        case .folder: return .success(FileStatus(kind: .directory, size: 4096, id: id))
        case .special(let kind): return .success(FileStatus(kind: kind, size: 0, id: id))
        case .link: return .failure(.noSuchFileOrDirectory)  // too many links
        }
    }

    public func exists(_ path: Path) -> Bool { node(at: path) != nil }

    public func canonicalPath(_ path: Path) -> Path? { resolved(path) }

    public func isSystemFolder(_ path: Path) -> Bool {
        systemFolders.contains { path == $0 || path.bytes.starts(with: $0.bytes + [UInt8(ascii: "/")]) }
    }

    public func list(_ path: Path, includingHidden: Bool, isCancelled: () -> Bool) -> Result<[FileSystem.DirectoryItem], SystemError> {
        if let failure = failures[path] { return .failure(failure) }
        guard let folder = resolved(path) else { return .failure(.noSuchFileOrDirectory) }
        guard node(at: folder) == .folder else { return .failure(.notDirectory) }
        if isCancelled() { return .failure(.canceled) }
        let children = lock.read { nodes in nodes.keys.filter { $0 != folder && $0.directory == folder } }
        return .success(children.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.compactMap { child in
            let name = child.lastComponent
            if name.bytes.first == UInt8(ascii: "."), !includingHidden { return nil }
            return FileSystem.DirectoryItem(name: name, isDirectory: isDirectory(child), problem: nil)
        })
    }

    public func read(_ path: Path, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Result<Void, FileSystem.ReadError> {
        switch status(of: path) {
        case .failure(let error): return .failure(.system(error))
        case .success(let info) where info.kind != .regular: return .failure(.notRegular(info.kind))
        case .success(let info) where info.size > limit: return .failure(.tooLarge(limit: limit))
        case .success: break
        }
        let bytes = contents(path) ?? []
        var start = 0
        while start < bytes.count {
            let end = min(start + (1 << 16), bytes.count)
            let more = bytes[start..<end].withUnsafeBufferPointer { body($0) }
            guard more else { break }
            start = end
        }
        return .success(())
    }

    public func peek(_ path: Path, count: Int) -> [UInt8]? {
        guard failures[path] == nil, case .success(let info) = status(of: path), info.kind == .regular else { return nil }
        return contents(path).map { Array($0.prefix(count)) }
    }

    public func makeFolders(_ folder: Path, permissions: mode_t) -> SystemError? {
        // As on the disk, a folder that is there is enough, whatever can be done in it.
        if let node = node(at: folder) { return node == .folder ? nil : .fileExists }
        if let failure = failures[folder] { return failure }
        add(folder, .folder)
        return nil
    }

    public func replace(_ path: Path, with bytes: [UInt8], permissions: mode_t) -> FileSystem.ReplaceFailure? {
        // Written through a symbolic link, as on the disk.
        var path = path
        for _ in 0..<16 { if case .link(let target) = node(at: path) { path = target } }
        if case .link = node(at: path) { return .cannotWrite(SystemError(code: ELOOP)) }
        if let failure = failures[path] { return .cannotWrite(failure) }
        switch node(at: path) {
        case .special(let kind)?: return .notAFile(path, kind)
        case .folder?: return .notAFile(path, .directory)
        case .file?, .link?, nil: break
        }
        // A failure for the folder: the new file cannot be made in it (read-only, not the user's).
        if let failure = failures[path.directory] { return .cannotCreate(in: path.directory, failure) }
        guard node(at: path.directory) == .folder else { return .cannotCreate(in: path.directory, .noSuchFileOrDirectory) }
        add(path, .file(bytes))
        return nil
    }
}
