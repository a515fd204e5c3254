import CMpg123

/// A libmpg123 error code, named: the cases tplayer acts on by name, the rest kept by code.
/// `description` is the library's own message (`mpg123_plain_strerror`).
enum Mpg123Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// MPG123_ERR: a generic failure; the handle's `mpg123_strerror` says more.
    case generic
    /// MPG123_DONE: the stream ended (where a frame was expected: no MPEG audio at all).
    case done
    case outOfMemory
    case readerFailed
    case badFile
    case outOfSync
    /// No valid MPEG data within the resync limit: the stream is damaged here.
    case resyncFailed
    case noSeek
    case lseekFailed
    case indexFailed
    case other(Int32)

    init(code: Int32) {
        switch code {
        case MPG123_ERR.rawValue: self = .generic
        case MPG123_DONE.rawValue: self = .done
        case Int32(MPG123_OUT_OF_MEM.rawValue): self = .outOfMemory
        case Int32(MPG123_ERR_READER.rawValue): self = .readerFailed
        case Int32(MPG123_BAD_FILE.rawValue): self = .badFile
        case Int32(MPG123_OUT_OF_SYNC.rawValue): self = .outOfSync
        case Int32(MPG123_RESYNC_FAIL.rawValue): self = .resyncFailed
        case Int32(MPG123_NO_SEEK.rawValue): self = .noSeek
        case Int32(MPG123_LSEEK_FAILED.rawValue): self = .lseekFailed
        case Int32(MPG123_INDEX_FAIL.rawValue): self = .indexFailed
        default: self = .other(code)
        }
    }

    var code: Int32 {
        switch self {
        case .generic: MPG123_ERR.rawValue
        case .done: MPG123_DONE.rawValue
        case .outOfMemory: Int32(MPG123_OUT_OF_MEM.rawValue)
        case .readerFailed: Int32(MPG123_ERR_READER.rawValue)
        case .badFile: Int32(MPG123_BAD_FILE.rawValue)
        case .outOfSync: Int32(MPG123_OUT_OF_SYNC.rawValue)
        case .resyncFailed: Int32(MPG123_RESYNC_FAIL.rawValue)
        case .noSeek: Int32(MPG123_NO_SEEK.rawValue)
        case .lseekFailed: Int32(MPG123_LSEEK_FAILED.rawValue)
        case .indexFailed: Int32(MPG123_INDEX_FAIL.rawValue)
        case .other(let code): code
        }
    }

    /// libmpg123's own message for the code.
    var description: String {
        guard let text = mpg123_plain_strerror(code) else { return "libmpg123 error \(code)" }
        return String(cString: text)
    }
}
