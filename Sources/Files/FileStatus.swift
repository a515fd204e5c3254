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

    public init(kind: Kind, size: Int64, id: ID) {
        self.kind = kind
        self.size = size
        self.id = id
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
    }
}
