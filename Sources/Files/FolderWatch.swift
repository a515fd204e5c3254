import Glibc
import PlayerCore

/// The kernel's word on changes in folders (inotify), as the library's watcher hears it: which
/// folder each change was in, and its name there.
public final class FolderWatch {
    /// Readable when changes wait to be read (`poll` it beside other descriptors).
    public let descriptor: Int32

    /// A change in a watched folder.
    public struct Change: Equatable, Sendable {
        /// The watch of the folder it was in (`add`'s).
        public var watch: Int32
        /// The name in that folder it was about (empty for the folder itself).
        public var name: Path
        /// A folder was made or moved in there.
        public var isNewFolder: Bool
        /// The folder is no longer watched (it went, or its watch was taken away).
        public var ended: Bool
    }

    /// What is heard of each folder: files made, deleted, moved in or out, written and closed;
    /// the folder itself deleted.
    static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_ONLYDIR)

    /// `nil` when the system gives no watch (its limit of instances is reached).
    public init?() {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// Watches `folder` (not the folders under it): its watch, met again for a folder already
    /// watched (a link back up), or why it cannot be (`ENOSPC`: the system's limit of watched
    /// folders is reached).
    public func add(_ folder: Path) -> Result<Int32, SystemError> {
        let added = folder.withCString { inotify_add_watch(descriptor, $0, Self.mask) }
        return added >= 0 ? .success(added) : .failure(.current)
    }

    /// The changes waiting, read into `buffer`; none when none wait.
    public func take(into buffer: inout [UInt8]) -> [Change] {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        return Self.changes(in: buffer[0..<count])
    }

    /// The events in `bytes`, as the kernel writes them (a header, then a name padded with NULs);
    /// an event cut short ends them.
    static func changes(in bytes: ArraySlice<UInt8>) -> [Change] {
        var changes: [Change] = []
        var at = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while at + header <= bytes.endIndex {
            let event = bytes[at..<(at + header)].withUnsafeBytes { $0.loadUnaligned(as: inotify_event.self) }
            let nameLength = Int(event.len)
            guard at + header + nameLength <= bytes.endIndex else { break }
            let name = Path(bytes: bytes[(at + header)..<(at + header + nameLength)].prefix { $0 != 0 })
            at += header + nameLength
            changes.append(Change(watch: event.wd, name: name,
                                  isNewFolder: event.mask & UInt32(IN_ISDIR) != 0 && event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                                  ended: event.mask & UInt32(IN_IGNORED) != 0))
        }
        return changes
    }
}
