import Foundation
import GRDB
import GRDBSQLite
import PlayerCore

/// The library read a song at a time, for a reader that keeps only what it needs of each
/// (MPD's catalog), and read back by the rows' ids.
extension LibraryDatabase {
    /// Each song under `folder`, in the library's order of paths (`SongPlace`), from one
    /// snapshot, seen in place as SQLite holds it (`SongRow`): what is held is one row,
    /// however many songs there are.
    public func eachRow(under folder: Path, _ visit: (SongRow) -> Void) -> Result<Void, LibraryError> {
        read { db in
            let (low, high) = SongPlace.range(under: folder)
            let statement = try db.cachedStatement(sql: """
                SELECT \(SongRow.columns) FROM \(Self.songsAndFolders)
                WHERE dir.path >= ? AND dir.path < ? ORDER BY dir.path, song.name
                """)
            try statement.setArguments([low, high])
            try Self.step(statement.sqliteStatement, db, visit)
        }
    }

    /// Steps `statement` (bound) to its end, `visit` seeing each row; leaves it reset, as
    /// GRDB leaves a statement it keeps.
    private static func step(_ statement: SQLiteStatement, _ db: Database, _ visit: (SongRow) -> Void) throws {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            visit(SongRow(statement: statement))
        }
    }

    /// The queries of `eachRow`, by how many ids each takes.
    private static let rowsByID: [Int: String] = Dictionary(uniqueKeysWithValues: (4...9).map { power in
        let size = 1 << power
        return (size, """
            SELECT \(SongRow.columns) FROM song CROSS JOIN dir ON dir.id = song.dirid
            WHERE song.id IN (\(repeatElement("?", count: size).joined(separator: ",")))
            """)
    })

    /// The rows of `ids` that the library still holds, each seen in place as SQLite holds it
    /// (`SongRow`): nothing of a row is copied unless `visit` copies it. One read, a query for
    /// each 512; in no set order.
    public func eachRow(ids: some Collection<Int64>, _ visit: (SongRow) -> Void) -> Result<Void, LibraryError> {
        read { db in
            let ids = Array(ids)
            for start in stride(from: 0, to: ids.count, by: 512) {
                let part = ids[start..<min(start + 512, ids.count)]
                // A query for 16, 32, … 512 ids, made once and kept (a part is made up to one
                // of them with its last id again).
                var size = 16
                while size < part.count { size *= 2 }
                let statement = try db.cachedStatement(sql: Self.rowsByID[size] ?? "").sqliteStatement
                // Bound and stepped here, and left reset, as GRDB leaves a statement it keeps:
                // 512 numbers bound as they are (through GRDB's arguments, each was boxed).
                sqlite3_reset(statement)
                for place in 0..<size {
                    sqlite3_bind_int64(statement, Int32(place + 1), part[part.startIndex + min(place, part.count - 1)])
                }
                try Self.step(statement, db, visit)
            }
        }
    }
}

/// A song's row as SQLite holds it, seen in place while it is visited (`eachRow`): its values
/// as bytes or numbers, never kept past the visit. Several values in one column lie apart by
/// `separator`; each other tag is its name, `pairMark`, its value.
public struct SongRow {
    public enum Field: Int32, CaseIterable, Sendable {
        case id, folder, name, modified, rate, bits, channels, seconds, title, artists, albumArtists, album, track, date, genres, composers,
             disc, others

        var column: String {
            switch self {
            case .id: "song.id"
            case .folder: "dir.path"
            case .name: "song.name"
            case .albumArtists: "albumartists"
            default: "\(self)"
            }
        }
    }

    /// The fields' columns, in their order, as a query selects them.
    static let columns = Field.allCases.map(\.column).joined(separator: ", ")

    public static let separator: UInt8 = 0x1F
    public static let pairMark: UInt8 = 0x1E

    fileprivate let statement: SQLiteStatement

    /// The value's bytes (a number's as SQLite writes it); `nil` when it has none.
    public func bytes(_ field: Field) -> UnsafeBufferPointer<UInt8>? {
        // No text for NULL (SQLite gives none).
        guard let text = sqlite3_column_text(statement, field.rawValue) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, field.rawValue)))
    }

    /// A whole number (a real one only when it is whole); `nil` when it is none.
    public func integer(_ field: Field) -> Int64? {
        switch sqlite3_column_type(statement, field.rawValue) {
        case SQLITE_INTEGER: sqlite3_column_int64(statement, field.rawValue)
        case SQLITE_FLOAT: Int64(exactly: sqlite3_column_double(statement, field.rawValue).rounded(.towardZero))
        default: nil
        }
    }

    /// A number; `nil` when it is none.
    public func real(_ field: Field) -> Double? {
        switch sqlite3_column_type(statement, field.rawValue) {
        case SQLITE_INTEGER, SQLITE_FLOAT: sqlite3_column_double(statement, field.rawValue)
        default: nil
        }
    }
}
