import Glibc

/// A failed system call: its `errno`, shown with the C library's own message.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The current `errno`.
    public static var current: SystemError { SystemError(code: errno) }

    /// `strerror`'s text, e.g. "Permission denied", "Read-only file system".
    public var description: String { String(cString: strerror(code)) }

    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
}
