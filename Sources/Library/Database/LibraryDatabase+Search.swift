import GRDB

/// The search index's writes. It is contentless (`LibrarySchema.searchTable`): it holds the
/// words and their places, not the text, so a song's words are taken out by saying them again,
/// exactly as they went in. Both are made by one function from the song's row as SQLite gives
/// it back (`searchColumns`, read with the write that made the row), never from the song in
/// memory, which its row may not hold exactly (a list's empty value is not kept).
extension LibraryDatabase {
    /// The columns every row given to `SearchWords` holds, in this order: its album's row
    /// first (the writes settle its year), then its id and what its words are made from.
    static let searchColumns = "albumid, id, path, title, artists, albumartists, album, genres, composers, compilation"

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
            arguments += LibrarySong(row: row, layout: found).searchArguments
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
        }
    }

    /// Makes the index again from every row (an index just made, empty).
    static func indexAll(in db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(searchColumns) FROM song")
        var words = SearchWords()
        while let row = try rows.next() { try words.index(row, in: db) }
    }
}
