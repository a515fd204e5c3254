import Foundation
import GRDB
import PlayerCore

/// The library's folders, each a row of `dir` (its path, with a "/" at its end: `SongPlace`)
/// that its songs name by `dirid`, and each folder's words once, for all its songs, in
/// `dir_search` by the folder's id (each song's index held its folders' words: half of it). A
/// song's path is found by its folder's words or its name's (`LibraryDatabase.condition(_:in:)`).
/// A write's songs find or make their folders' rows through one of these, each folder once.
struct FolderRows {
    private var known: [[UInt8]: Int64] = [:]

    /// The id of `folder`'s row, made (with its words) when there is none.
    mutating func id(of folder: [UInt8], in db: Database) throws -> Int64 {
        if let id = known[folder] { return id }
        if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM dir WHERE path = ?"), arguments: [Data(folder)]) {
            known[folder] = id
            return id
        }
        try db.cachedStatement(sql: "INSERT INTO dir (path) VALUES (?)").execute(arguments: [Data(folder)])
        let id = db.lastInsertedRowID
        try Self.indexWords(of: id, path: Data(folder), in: db)
        known[folder] = id
        return id
    }

    /// Takes out each of `folders` that holds no song, and its words.
    static func settle(_ folders: Set<Int64>, in db: Database) throws {
        let empty = try db.cachedStatement(sql: """
            DELETE FROM dir WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM song WHERE dirid = ?1) RETURNING path
            """)
        for folder in folders {
            if let path = try Data.fetchOne(empty, arguments: [folder]) { try unindexWords(of: folder, path: path, in: db) }
        }
    }

    /// Puts the words of the folder `folder` at `path` in `dir_search`.
    static func indexWords(of folder: Int64, path: Data, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO dir_search (rowid, path) VALUES (?, ?)")
            .execute(arguments: [folder, LibrarySong.folded(path: Path(bytes: path))])
    }

    /// Takes them out, said again as they went in (the index is contentless).
    private static func unindexWords(of folder: Int64, path: Data, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO dir_search (dir_search, rowid, path) VALUES ('delete', ?, ?)")
            .execute(arguments: [folder, LibrarySong.folded(path: Path(bytes: path))])
    }
}
