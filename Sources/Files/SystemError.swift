import Glibc

/// A failed system call: its `errno`, shown with the C library's own message. The values a
/// caller tells apart have names (as swift-system's `Errno` names them), so no caller compares
/// raw numbers.
public struct SystemError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The current `errno`.
    public static var current: SystemError { SystemError(code: errno) }

    public static let noSuchFileOrDirectory = SystemError(code: ENOENT)
    public static let notDirectory = SystemError(code: ENOTDIR)
    public static let isDirectory = SystemError(code: EISDIR)
    public static let fileExists = SystemError(code: EEXIST)
    public static let permissionDenied = SystemError(code: EACCES)
    public static let invalidArgument = SystemError(code: EINVAL)
    public static let interrupted = SystemError(code: EINTR)
    public static let ioError = SystemError(code: EIO)
    public static let noMemory = SystemError(code: ENOMEM)
    public static let resourceTemporarilyUnavailable = SystemError(code: EAGAIN)
    public static let canceled = SystemError(code: ECANCELED)
    public static let noSuchProcess = SystemError(code: ESRCH)
    public static let notConnected = SystemError(code: ENOTCONN)

    /// `strerror`'s text, e.g. "Permission denied", "Read-only file system".
    public var description: String { String(cString: strerror(code)) }

    public var isMissing: Bool { self == .noSuchFileOrDirectory || self == .notDirectory }
}

extension SystemError {
    /// The reason as one lowercase phrase for messages: `no such file`, `permission denied`,
    /// `file name too long`, `too many open files`, `read-only file system`.
    public var reason: String {
        switch self {
        case .noSuchFileOrDirectory, .notDirectory: return "no such file"
        // Memory a limit keeps from the process (a thread's stack, a folder's listing): which one.
        case .noMemory where MemoryLimit.limit != nil: return "not enough memory (\(MemoryLimit.description))"
        case .resourceTemporarilyUnavailable where MemoryLimit.isNearlyExhausted: return "not enough memory (\(MemoryLimit.description))"
        default:
            let text = description
            guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? true else { return text }
            return first.lowercased() + text.dropFirst()
        }
    }
}
