import GRDB

/// The library's albums, each a row of `album`: an album artist's album by their keys (each
/// folded as the search folds and its numbers padded, `LibrarySong.sortKey`), at the earliest
/// year of its songs, which name it by `albumid`. A write's songs find or make their albums'
/// rows through one of these: each album's id found or made once, its year lowered as a song
/// of an earlier year comes (a first scan's songs then need nothing more; a song that changed
/// or left settles its album, `settle`).
struct AlbumRows {
    /// An album artist's album, by their keys.
    struct Key: Hashable {
        let shelf: String
        let album: String
    }

    private var known: [Key: (id: Int64, year: Int?)] = [:]

    mutating func id(of key: Key, year: Int?, in db: Database) throws -> Int64 {
        if known[key] == nil, let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, firstyear FROM album WHERE shelfkey = ? AND albumkey = ?"),
                                                        arguments: [key.shelf, key.album]) {
            known[key] = (row[0], row[1])
        }
        guard let album = known[key] else {
            try db.cachedStatement(sql: "INSERT INTO album (shelfkey, albumkey, firstyear) VALUES (?, ?, ?)")
                .execute(arguments: [key.shelf, key.album, year])
            known[key] = (db.lastInsertedRowID, year)
            return db.lastInsertedRowID
        }
        if let year, album.year.map({ year < $0 }) ?? true {
            try db.cachedStatement(sql: "UPDATE album SET firstyear = ? WHERE id = ?").execute(arguments: [year, album.id])
            known[key] = (album.id, year)
        }
        return album.id
    }

    /// Gives each of `albums` the earliest year of its songs, and takes out those with none.
    static func settle(_ albums: Set<Int64>, in db: Database) throws {
        let year = try db.cachedStatement(sql: """
            UPDATE album SET firstyear = (SELECT min(year) FROM song WHERE albumid = ?1)
            WHERE id = ?1 AND firstyear IS NOT (SELECT min(year) FROM song WHERE albumid = ?1)
            """)
        let empty = try db.cachedStatement(sql: "DELETE FROM album WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM song WHERE albumid = ?1)")
        for album in albums {
            try year.execute(arguments: [album])
            try empty.execute(arguments: [album])
        }
    }
}
