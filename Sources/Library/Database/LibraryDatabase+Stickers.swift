import Foundation
import GRDB
import PlayerCore

/// MPD's stickers: names and values clients keep on songs. The library's own statistics (rating,
/// plays, last played, skips) are the song's columns; any other name is kept in `sticker`.
extension LibraryDatabase {
    /// The free stickers of the song at `path`, by name.
    public func stickers(of path: Path) -> Result<[String: String], LibraryError> {
        read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name, value FROM sticker WHERE path = ?", arguments: [Data(path.bytes)])
            return Dictionary(rows.map { ($0["name"] as String, $0["value"] as String) }, uniquingKeysWith: { $1 })
        }
    }

    /// Sets sticker `name` of the song at `path` to `value`; `nil` takes it away (true when it
    /// was there).
    @discardableResult
    public func setSticker(_ name: String, to value: String?, of path: Path) -> Result<Bool, LibraryError> {
        write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO sticker (path, name, value) VALUES (?, ?, ?)",
                               arguments: [Data(path.bytes), name, value])
                return true
            }
            try db.execute(sql: "DELETE FROM sticker WHERE path = ? AND name = ?", arguments: [Data(path.bytes), name])
            return db.changesCount > 0
        }
    }

    /// Takes every free sticker of the song at `path` away; true when there was one.
    public func removeStickers(of path: Path) -> Result<Bool, LibraryError> {
        write { db in
            try db.execute(sql: "DELETE FROM sticker WHERE path = ?", arguments: [Data(path.bytes)])
            return db.changesCount > 0
        }
    }

    /// Every song with free sticker `name`, and its value.
    public func songs(withSticker name: String) -> Result<[(path: Path, value: String)], LibraryError> {
        read { db in
            try Row.fetchAll(db, sql: "SELECT path, value FROM sticker WHERE name = ?", arguments: [name]).map { row in
                (Path(bytes: Array(row["path"] as Data)), row["value"] as String)
            }
        }
    }

    /// Sets the statistics MPD's clients keep as stickers: plays, when last played (seconds
    /// since 1970, `nil`: never), skips; each left as it is when `nil`… but `lastPlayed`, whose
    /// `.some(nil)` clears it.
    public func setStatistics(of path: Path, plays: Int? = nil, lastPlayed: Int64?? = nil, skips: Int? = nil) -> Result<Void, LibraryError> {
        write { db in
            guard let song = try Self.songID(at: path, in: db) else { return }
            if let plays { try db.execute(sql: "UPDATE song SET playcount = ? WHERE id = ?", arguments: [max(plays, 0), song]) }
            if let skips { try db.execute(sql: "UPDATE song SET skipcount = ? WHERE id = ?", arguments: [max(skips, 0), song]) }
            if let lastPlayed { try db.execute(sql: "UPDATE song SET lastplayed = ? WHERE id = ?", arguments: [lastPlayed, song]) }
        }
    }
}
