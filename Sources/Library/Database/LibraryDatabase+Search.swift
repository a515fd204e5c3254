import Foundation
import GRDB
import PlayerCore

/// The search index's writes. It is contentless (`LibrarySchema.searchTable`): it holds the
/// words and their places, not the text, so a song's words are taken out by saying them again,
/// exactly as they went in. Both are made by one function from the song's row as SQLite gives
/// it back (`searchColumns`, read with the write that made the row), never from the song in
/// memory, which its row may not hold exactly (a list's empty value is not kept).
extension LibraryDatabase {
    /// The columns every row given to `SearchWords` holds, in this order: its album's row
    /// first (the writes settle its year), its folder's, then its id and what its words are
    /// made from (of its path, its name: its folder's words are the folder's, `FolderRows`).
    static let searchColumns = "albumid, dirid, id, name, title, artists, albumartists, album, genres, composers, compilation"

    /// Writes the words of rows that hold `searchColumns` (their places found at the first).
    struct SearchWords {
        private var layout: LibrarySong.RowLayout?

        /// Puts the words of `row` in the index.
        mutating func index(_ row: Row, in db: Database) throws {
            try write(row, sql: """
                INSERT INTO song_search (rowid, title, artist, albumartist, album, genre, composer, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, in: db)
        }

        /// Takes the words of `row`, as the index was given them, out of it.
        mutating func unindex(_ row: Row, in db: Database) throws {
            try write(row, sql: """
                INSERT INTO song_search (song_search, rowid, title, artist, albumartist, album, genre, composer, path)
                VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)
                """, in: db)
        }

        private mutating func write(_ row: Row, sql: String, in db: Database) throws {
            let found = layout ?? LibrarySong.RowLayout(row)
            layout = found
            var arguments: StatementArguments = [row["id"] as Int64]
            arguments += LibrarySong(row: row, layout: found).searchArguments(name: Array(row["name"] as Data))
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
        }
    }

    /// `query`'s condition on `song` now (`LibraryQuery.condition`): each of its terms that
    /// some folder's words hold is found in a song's words or in its folder's; the others (all
    /// of them, mostly: a tag's words) in one search of the songs' words, as before folders had
    /// words of their own. (A phrase is found within a folder's path or within a name, not
    /// across the "/" between them.)
    static func condition(_ query: LibraryQuery, in db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let probe = try db.cachedStatement(sql: "SELECT 1 FROM dir_search WHERE dir_search MATCH ? LIMIT 1")
        var found = Set<String>()
        for term in query.terms {
            guard let folders = term.folderMatch, !found.contains(folders) else { continue }
            if try Bool.fetchOne(probe, arguments: [folders]) != nil { found.insert(folders) }
        }
        return query.condition(now: Int64(time(nil))) { term in term.folderMatch.map(found.contains) ?? false }
    }

    /// What the index's words were made by: this function's version, SQLite's (its
    /// tokenizer), and what the folding makes of a sample of every plane of Unicode (the Swift
    /// runtime's tables). A word taken out must be made as it was put in: when any of these
    /// changes, the index is made again from the rows (`checkWords`), where it would have kept
    /// a song's old words, found by searches, for ever.
    static func wordsVersion(_ db: Database) throws -> String {
        "2 sqlite \(try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?") fold \(foldFingerprint)"
    }

    /// FNV-1a of the folding of a scalar in every 127 up to U+2FFFF, and of the Unicode
    /// version each is from (nothing for one the runtime does not know): a runtime with other
    /// tables shows in both. About 0.1 ms, at each opening.
    static let foldFingerprint: String = {
        var sample = String.UnicodeScalarView()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for value in stride(from: 0x20, to: 0x30000, by: 127) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            sample.append(scalar)
            let age = scalar.properties.age
            mix(UInt8(clamping: age?.major ?? 0))
            mix(UInt8(clamping: age?.minor ?? 0))
        }
        SearchFold.fold(String(sample)).forEach(mix)
        return String(hash, radix: 16)
    }()

    /// Makes the index again from the rows if its words were made otherwise (`wordsVersion`),
    /// and notes how they are made now.
    static func checkWords(_ db: Database) throws {
        let now = try wordsVersion(db)
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS library_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        guard try wordsMade(db) != now else { return }
        try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('delete-all')")
        try db.execute(sql: "INSERT INTO dir_search (dir_search) VALUES ('delete-all')")
        try indexAll(in: db)
        try db.execute(sql: "INSERT OR REPLACE INTO library_meta (name, value) VALUES ('words', ?)", arguments: [now])
    }

    /// How the index's words were made, as noted (`nil`: not noted, or no note yet).
    static func wordsMade(_ db: Database) throws -> String? {
        guard try db.tableExists("library_meta") else { return nil }
        return try String.fetchOne(db, sql: "SELECT value FROM library_meta WHERE name = 'words'")
    }

    /// Makes the index again from every row, the songs' and the folders' (an index just made,
    /// empty).
    static func indexAll(in db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(searchColumns) FROM song")
        var words = SearchWords()
        while let row = try rows.next() { try words.index(row, in: db) }
        let folders = try Row.fetchCursor(db, sql: "SELECT id, path FROM dir")
        while let folder = try folders.next() { try FolderRows.indexWords(of: folder[0], path: folder[1], in: db) }
    }
}
