import Glibc
import PlayerCore

/// What `stat` says about a file: its kind, size and identity.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case regular = "regular file"
        case directory = "folder"
        case fifo = "named pipe (FIFO)"
        case socket
        case characterDevice = "character device"
        case blockDevice = "block device"
        case symbolicLink = "symbolic link"
        case other = "special file"
    }

    /// A file's identity: two paths name the same file exactly when their IDs are equal (hard
    /// links, symbolic links, `./x` and `x` alike).
    public struct ID: Hashable, Sendable {
        public let device: UInt64
        public let inode: UInt64

        public init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }
    }

    public let kind: Kind
    public let size: Int64
    public let id: ID
    /// When its content last changed, in nanoseconds since 1970 (`st_mtim`): with the size, what
    /// tells the library a file it indexed is the same.
    public let modified: Int64

    public init(kind: Kind, size: Int64, id: ID, modified: Int64 = 0) {
        self.kind = kind
        self.size = size
        self.id = id
        self.modified = modified
    }

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(info.st_size)
        id = ID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        // Saturating: a file system may hold any time (a year 300,000,000 is no reason to fail).
        let (nanoseconds, overflow) = Int64(info.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, past) = nanoseconds.addingReportingOverflow(Int64(info.st_mtim.tv_nsec))
        modified = overflow || past ? (info.st_mtim.tv_sec < 0 ? .min : .max) : sum
    }
}
