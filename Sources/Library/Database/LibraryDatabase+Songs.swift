import Foundation
import GRDB
import PlayerCore

extension LibraryDatabase {
    /// How a file was when the library last read it.
    public struct Known: Equatable, Sendable {
        public let size: Int64
        public let modified: Int64
    }

    /// Every song the library holds, in the order of their paths' bytes.
    public func allSongs() -> Result<[LibrarySong], LibraryError> {
        read { db in LibrarySong.songs(try Row.fetchAll(db, sql: "SELECT * FROM song ORDER BY path")) }
    }

    /// The files the library holds under `folder`, with their size and time as read, in the
    /// order of their paths' bytes: up to `limit` of them, from the one after `after` (a page of
    /// the path index: a rescan of a million files holds a page, not the million).
    /// Each with its row's id.
    public func knownFiles(under folder: Path, after: Path?, limit: Int) -> Result<[(path: Path, known: Known, id: Int64)], LibraryError> {
        read { db in
            let (low, high) = Self.range(under: folder)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT path, size, modified, tagversion, id FROM song WHERE path > ? AND path < ? ORDER BY path LIMIT ?
                """, arguments: [Data(after?.bytes ?? low), Data(high), Int64(clamping: limit)])
            var known: [(Path, Known, Int64)] = []
            while let row = try rows.next() {
                let bytes: Data = row[0]
                // A song read by an older tplayer, without the tags read now, is as if changed.
                let current = (row[3] as Int) >= LibrarySong.tagVersion
                known.append((Path(bytes: Array(bytes)), Known(size: row[1], modified: current ? row[2] : -1), row[4]))
            }
            return known
        }
    }

    /// The greatest row id: rows after it came after this was asked.
    public func lastRow() -> Result<Int64, LibraryError> {
        read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM song") ?? 0 }
    }

    /// The files the library holds under `folder`, in the order of their paths' bytes.
    public func paths(under folder: Path) -> Result<[Path], LibraryError> {
        read { db in
            let (low, high) = Self.range(under: folder)
            return try Data.fetchAll(db, sql: "SELECT path FROM song WHERE path > ? AND path < ? ORDER BY path",
                                     arguments: [Data(low), Data(high)]).map { Path(bytes: Array($0)) }
        }
    }

    /// The files the library holds under `folder` whose size is one of `sizes` (a moved file's
    /// new place is among them), in the order they came into the library (the newest last),
    /// read as a cursor: the whole range is passed over once.
    public func files(under folder: Path, ofSizes sizes: Set<Int64>) -> Result<[Path], LibraryError> {
        read { db in
            let (low, high) = Self.range(under: folder)
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, id FROM song WHERE path > ? AND path < ?",
                                           arguments: [Data(low), Data(high)])
            var found: [(id: Int64, path: Path)] = []
            while let row = try rows.next() {
                guard sizes.contains(row[1]) else { continue }
                let bytes: Data = row[0]
                found.append((row[2], Path(bytes: Array(bytes))))
            }
            return found.sorted { $0.id < $1.id }.map(\.path)
        }
    }

    /// The bounds of the paths under `folder`, both left out: from "FOLDER/" (no file has that
    /// path) up to "FOLDER0" ("0" follows "/").
    static func range(under folder: Path) -> (low: [UInt8], high: [UInt8]) {
        var prefix = folder.bytes
        if prefix.last != UInt8(ascii: "/") { prefix.append(UInt8(ascii: "/")) }
        return (prefix, prefix.dropLast() + [UInt8(ascii: "/") + 1])
    }

    /// The songs at `paths` that the library holds (statistics included).
    /// Asked 500 paths a query (a playlist of 10,000 songs was 10,000 queries), in their order.
    public func songs(at paths: [Path]) -> Result<[LibrarySong], LibraryError> {
        read { db in
            var found: [Path: LibrarySong] = [:]
            var start = paths.startIndex
            while start < paths.endIndex {
                let part = paths[start..<min(start + 500, paths.endIndex)]
                let marks = repeatElement("?", count: part.count).joined(separator: ",")
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM song WHERE path IN (\(marks))",
                                               arguments: StatementArguments(part.map { Data($0.bytes) }))
                while let row = try rows.next() {
                    let song = LibrarySong(row: row)
                    found[song.path] = song
                }
                start = part.endIndex
            }
            return paths.compactMap { found[$0] }
        }
    }

    /// Puts `songs` in, in one transaction: all of them or, on a failure, none. A song already
    /// held keeps its statistics; a new one brings its own.
    public func put(_ songs: [LibrarySong]) -> Result<Void, LibraryError> {
        write { db in
            let columns = LibrarySong.columns + LibrarySong.statistics
            // A new song is added now; one held already keeps when it was.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO song (\(columns.joined(separator: ", ")), added)
                VALUES (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))
                ON CONFLICT (path) DO UPDATE SET \(LibrarySong.columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                RETURNING \(Self.searchColumns)
                """)
            // The row it had, whose words leave the search index, and whose album's year may change.
            let before = try db.cachedStatement(sql: "SELECT \(Self.searchColumns) FROM song WHERE path = ?")
            let now = Int64(time(nil))
            var albums = Albums()
            var unsettled = Set<Int64>()
            var words = SearchWords()
            for given in songs {
                let song = given.asStored
                let held = try Row.fetchOne(before, arguments: [Data(song.path.bytes)])
                let album = try albums.id(of: song.albumKey, year: song.year, in: db)
                var arguments = song.arguments(albumID: album)
                arguments += [song.playCount, song.lastPlayed, song.skipCount, song.rating]
                arguments += [now]
                guard let written = try Row.fetchOne(insert, arguments: arguments) else { continue }
                if let held {
                    try words.unindex(held, in: db)
                    // Its year may have been the album's least, or the song another album's.
                    unsettled.insert(album)
                    if let was = held[0] as Int64? { unsettled.insert(was) }
                }
                try words.index(written, in: db)
            }
            try Self.settle(unsettled, in: db)
        }
    }

    /// An album artist's album, by their keys.
    struct AlbumKey: Hashable {
        let shelf: String
        let album: String
    }

    /// The albums' rows as songs go in: each album's id found or made once a write, its year
    /// lowered as a song of an earlier year comes (a first scan's songs then need nothing
    /// more; a song that changed or left settles its album, `settle`).
    struct Albums {
        private var known: [AlbumKey: (id: Int64, year: Int?)] = [:]

        mutating func id(of key: AlbumKey, year: Int?, in db: Database) throws -> Int64 {
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

    /// The songs and their albums, as one table (`SELECT ... FROM \(songsAndAlbums)`): the
    /// album order and the album artist's key are the album's.
    static let songsAndAlbums = "song JOIN album ON album.id = song.albumid"

    /// The same, for songs read in album order as `query` narrows them. With words to look
    /// for, SQLite takes the matches from the index and puts them in order (as it did before
    /// albums had rows). Without, it is made to walk the albums in order (`album_order`) and
    /// each album's songs (`song_order`): a million songs come as they are read, never all
    /// sorted first, which is what it chose by itself.
    static func songsAndAlbums(inOrderFor query: LibraryQuery) -> String {
        query.searchesWords ? songsAndAlbums : "album CROSS JOIN song ON song.albumid = album.id"
    }

    /// The paths of the songs `query` matches, in album order; at most `limit`.
    public func find(_ query: LibraryQuery, limit: Int = .max) -> Result<[Path], LibraryError> {
        var paths: [Path] = []
        return find(query, limit: limit) { path in
            paths.append(path)
            return true
        }.map { _ in paths }
    }

    /// The songs `query` matches, in album order, each handed to `each` as it is read (`false`
    /// stops): an answer of a million songs holds one at a time (`--find`); how many were handed.
    public func find(_ query: LibraryQuery, limit: Int = .max, each: (Path) -> Bool) -> Result<Int, LibraryError> {
        read { db in
            let condition = query.condition
            var arguments = condition.arguments
            arguments += [Int64(clamping: limit)]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT path FROM \(Self.songsAndAlbums(inOrderFor: query)) WHERE \(condition.sql) ORDER BY \(LibraryQuery.albumOrder) LIMIT ?
                """, arguments: arguments)
            var handed = 0
            while let row = try rows.next() {
                let bytes: Data = row[0]
                handed += 1
                if !each(Path(bytes: Array(bytes))) { break }
            }
            return handed
        }
    }

    /// Songs, albums (an album artist's album of one name) and album artists held.
    public struct Counts: Equatable, Sendable {
        public let songs: Int
        public let albums: Int
        public let artists: Int

        public init(songs: Int, albums: Int, artists: Int) {
            self.songs = songs
            self.albums = albums
            self.artists = artists
        }
    }

    public func counts() -> Result<Counts, LibraryError> {
        read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM song), COUNT(*), COUNT(DISTINCT shelfkey) FROM album
                """)
            return Counts(songs: row?[0] ?? 0, albums: row?[1] ?? 0, artists: row?[2] ?? 0)
        }
    }
}

extension LibraryDatabase {
    /// Takes `gone` out; each song of `carrying` gives its statistics, its history and when it
    /// was added to the path it moved to.
    public func retire(_ gone: [Path], carrying: [(from: LibrarySong, to: Path)]) -> Result<Void, LibraryError> {
        write { db in
            let carry = try db.cachedStatement(sql: """
                UPDATE song SET playcount = ?, lastplayed = ?, skipcount = ?, rating = ?,
                                added = ifnull((SELECT added FROM song WHERE path = ?), added) WHERE path = ?
                """)
            let history = try db.cachedStatement(sql: """
                UPDATE listen SET song = (SELECT id FROM song WHERE path = ?2) WHERE song = (SELECT id FROM song WHERE path = ?1)
                  AND EXISTS (SELECT 1 FROM song WHERE path = ?2)
                """)
            for (from, to) in carrying {
                let (old, new) = (Data(from.path.bytes), Data(to.bytes))
                try carry.execute(arguments: [from.playCount, from.lastPlayed, from.skipCount, from.rating, old, new])
                try history.execute(arguments: [old, new])
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM song WHERE path = ? RETURNING \(Self.searchColumns)")
            var albums = Set<Int64>()
            var words = SearchWords()
            for path in gone {
                if let row = try Row.fetchOne(delete, arguments: [Data(path.bytes)]) {
                    try words.unindex(row, in: db)
                    if let album = row[0] as Int64? { albums.insert(album) }
                }
            }
            try Self.settle(albums, in: db)
        }
    }
}

extension LibraryDatabase {
    /// The folders named to a scan, which the library keeps.
    public func folders() -> Result<[Path], LibraryError> {
        read { db in try Data.fetchAll(db, sql: "SELECT path FROM folder ORDER BY path").map { Path(bytes: Array($0)) } }
    }

    public func add(folders: [Path]) -> Result<Void, LibraryError> {
        write { db in
            for folder in folders { try db.execute(sql: "INSERT OR IGNORE INTO folder (path) VALUES (?)", arguments: [Data(folder.bytes)]) }
        }
    }
}

extension LibraryDatabase {
    /// Counts `listen` for its song, if the library holds it: a play (and when) or a skip, and
    /// a row of its history (when, how much was heard, played or skipped).
    public func record(_ listen: Listen, at time: Int64) -> Result<Void, LibraryError> {
        write { db in
            let path = Data(listen.song.path.bytes)
            switch listen.kind {
            case .played:
                try db.execute(sql: "UPDATE song SET playcount = playcount + 1, lastplayed = ? WHERE path = ?", arguments: [time, path])
            case .skipped:
                try db.execute(sql: "UPDATE song SET skipcount = skipcount + 1 WHERE path = ?", arguments: [path])
            }
            let heard = listen.heard.isFinite ? min(max(listen.heard, 0), 1e9) : 0
            try db.execute(sql: "INSERT INTO listen (song, at, heard, skipped) SELECT id, ?, ?, ? FROM song WHERE path = ?",
                           arguments: [time, heard, listen.kind == .skipped, path])
        }
    }

    /// `path`'s history, oldest first: when each listen was, how much was heard, whether skipped.
    public func history(of path: Path) -> Result<[(at: Int64, heard: Double, skipped: Bool)], LibraryError> {
        read { db in
            try Row.fetchAll(db, sql: """
                SELECT at, heard, skipped FROM listen WHERE song = (SELECT id FROM song WHERE path = ?) ORDER BY at, rowid
                """, arguments: [Data(path.bytes)]).map { (at: $0[0], heard: $0[1], skipped: $0[2]) }
        }
    }
}
