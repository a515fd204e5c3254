import GRDB
import PlayerCore

/// What went wrong with the library's database, in words for one line.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Made by a newer tplayer (a migration this one does not know): left as it is.
    case newer(Path)
    /// The folder or the file cannot be made or opened (read-only, no space, no such folder).
    case cannotOpen(Path, String)
    /// A write failed and was rolled back: why (the disk is full, the folder is read-only).
    case notWritten(String)
    /// A read failed: why.
    case notRead(String)

    public var description: String {
        switch self {
        case .newer(let path):
            "\(path): made by a newer tplayer; this one leaves it as it is (use that tplayer, or move the file away to start a new library)"
        case .cannotOpen(let path, let why): "\(path): cannot open the library: \(why)"
        case .notWritten(let why): "the library could not be written (\(why)): that change was rolled back"
        case .notRead(let why): "cannot read the library: \(why)"
        }
    }

    /// SQLite's reason in words: "the disk is full", not "SQLite error 13".
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_READONLY: return "its folder or file is read-only"
        case .SQLITE_CANTOPEN: return "the file cannot be opened"
        case .SQLITE_IOERR: return "an input/output error"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "the file is damaged (tplayer --scan repairs it)"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "another tplayer kept it busy too long"
        default: return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
    }
}
