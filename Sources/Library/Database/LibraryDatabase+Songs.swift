import Foundation
import GRDB
import PlayerCore

extension LibraryDatabase {
    /// How a file was when the library last read it.
    public struct Known: Equatable, Sendable {
        public let size: Int64
        public let modified: Int64
    }

    /// A song's columns with its folder's path (`dirpath`), as `LibrarySong(row:)` reads
    /// them, from `song` joined to `dir` (`songsAndFolders`, or a join naming both).
    static let songColumns = "song.*, dir.path AS dirpath"

    /// The songs, each with its folder's row, walked in the library's order of paths
    /// (`SongPlace`) by `ORDER BY dir.path, song.name`: the folders in order (`dir`'s unique
    /// index), each folder's songs by name (`song`'s), never all sorted first.
    static let songsAndFolders = "dir CROSS JOIN song ON song.dirid = dir.id"

    /// The files the library holds under `folder`, with their size and time as read, in the
    /// library's order of paths (`SongPlace`, a scan's): up to `limit` of them, from the one
    /// after `after` (a page: a rescan of a million files holds a page, not the million).
    /// Each with its row's id.
    public func knownFiles(under folder: Path, after: SongPlace?, limit: Int)
        -> Result<[(place: SongPlace, known: Known, id: Int64)], LibraryError> {
        read { db in
            let (low, high) = SongPlace.range(under: folder)
            var known: [(SongPlace, Known, Int64)] = []
            // A folder's songs come together: its path is read once for them.
            var last: (path: Data, bytes: [UInt8]) = (Data(), [])
            func take(_ sql: String, _ arguments: StatementArguments) throws {
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    // A song read by an older tplayer, without the tags read now, is as if changed.
                    let current = (row[4] as Int) >= LibrarySong.tagVersion
                    try row.withUnsafeData(atIndex: 0) { folder in
                        let folder = folder ?? Data()
                        if folder != last.path { last = (Data(folder), Array(folder)) }
                    }
                    known.append((SongPlace(folder: last.bytes, name: row[1]), Known(size: row[2], modified: current ? row[3] : -1), row[5]))
                }
            }
            let columns = "dir.path, song.name, size, modified, tagversion, song.id"
            var next = low
            // The rest of `after`'s folder, then the folders after it.
            if let place = after, place.folder.starts(with: low) {
                try take("""
                    SELECT \(columns) FROM \(Self.songsAndFolders) WHERE dir.path = ? AND song.name > ? ORDER BY song.name LIMIT ?
                    """, [Data(place.folder), Data(place.name), Int64(clamping: limit)])
                next = Data(place.folder + [0])
            }
            if known.count < limit {
                try take("""
                    SELECT \(columns) FROM \(Self.songsAndFolders) WHERE dir.path >= ? AND dir.path < ?
                    ORDER BY dir.path, song.name LIMIT ?
                    """, [next, high, Int64(clamping: limit - known.count)])
            }
            return known
        }
    }

    /// The greatest row id: rows after it came after this was asked.
    public func lastRow() -> Result<Int64, LibraryError> {
        read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM song") ?? 0 }
    }

    /// The files the library holds under `folder`, in the library's order of paths (MPD's:
    /// a folder's songs, then its folders'). A CUE sheet is the folder of its tracks
    /// (`x.cue/track0002`, held in the sheet's folder), as MPD lists it.
    public func paths(under folder: Path) -> Result<[Path], LibraryError> {
        read { db in
            if CueSheet.isSheet(folder) {
                let sheet = SongPlace(folder.appending(Path("track01")))
                let (low, high) = SongPlace.range(under: Path(bytes: sheet.name.dropLast("track01".utf8.count)))
                let tracks = try Row.fetchAll(db, sql: """
                    SELECT dir.path, song.name FROM \(Self.songsAndFolders) WHERE dir.path = ? AND song.name >= ? AND song.name < ?
                    ORDER BY song.name
                    """, arguments: [Data(sheet.folder), low, high]).map { SongPlace(folder: $0[0], name: $0[1]).path }
                if !tracks.isEmpty { return tracks }
            }
            let (low, high) = SongPlace.range(under: folder)
            return try Row.fetchAll(db, sql: """
                SELECT dir.path, song.name FROM \(Self.songsAndFolders) WHERE dir.path >= ? AND dir.path < ? ORDER BY dir.path, song.name
                """, arguments: [low, high]).map { SongPlace(folder: $0[0], name: $0[1]).path }
        }
    }

    /// The files the library holds under `folder` whose size is one of `sizes` (a moved file's
    /// new place is among them), in the order they came into the library (the newest last),
    /// read as a cursor: the whole range is passed over once.
    public func files(under folder: Path, ofSizes sizes: Set<Int64>) -> Result<[Path], LibraryError> {
        read { db in
            let (low, high) = SongPlace.range(under: folder)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT dir.path, song.name, size, song.id FROM \(Self.songsAndFolders) WHERE dir.path >= ? AND dir.path < ?
                """, arguments: [low, high])
            var found: [(id: Int64, path: Path)] = []
            while let row = try rows.next() {
                guard sizes.contains(row[2]) else { continue }
                found.append((row[3], SongPlace(folder: row[0], name: row[1]).path))
            }
            return found.sorted { $0.id < $1.id }.map(\.path)
        }
    }

    /// The songs at `paths` that the library holds (statistics included), in their order: one
    /// read, a prepared lookup each.
    public func songs(at paths: [Path]) -> Result<[LibrarySong], LibraryError> {
        read { db in
            let lookup = try db.cachedStatement(sql: """
                SELECT \(Self.songColumns) FROM \(Self.songsAndFolders) WHERE dir.path = ? AND song.name = ?
                """)
            var layout: LibrarySong.RowLayout?
            var found: [LibrarySong] = []
            for path in paths {
                guard let row = try Row.fetchOne(lookup, arguments: StatementArguments(SongPlace(path).arguments)) else { continue }
                let read = layout ?? LibrarySong.RowLayout(row)
                layout = read
                found.append(LibrarySong(row: row, layout: read))
            }
            return found
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
                ON CONFLICT (dirid, name) DO UPDATE SET \(LibrarySong.columns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                RETURNING \(Self.searchColumns)
                """)
            // The row it had, whose words leave the search index, and whose album's year may change.
            let before = try db.cachedStatement(sql: "SELECT \(Self.searchColumns) FROM song WHERE dirid = ? AND name = ?")
            let now = Int64(time(nil))
            var folders = FolderRows()
            var albums = AlbumRows()
            var unsettled = Set<Int64>()
            var words = SearchWords()
            for given in songs {
                let song = given.asStored
                let place = SongPlace(song.path)
                let folder = try folders.id(of: place.folder, in: db)
                let held = try Row.fetchOne(before, arguments: [folder, Data(place.name)])
                let album = try albums.id(of: song.albumKey, year: song.year, in: db)
                var arguments = song.arguments(folderID: folder, albumID: album)
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
            try AlbumRows.settle(unsettled, in: db)
        }
    }

    /// The songs and their albums, as one table (`SELECT ... FROM \(songsAndAlbums)`): the
    /// album order and the album artist's key are the album's.
    static let songsAndAlbums = "song JOIN album ON album.id = song.albumid"

    /// The same with each song's folder (its path: `songColumns`, and the album order's last
    /// key).
    static let songsAlbumsAndFolders = "\(songsAndAlbums) CROSS JOIN dir ON dir.id = song.dirid"

    /// The same, for songs read in album order as `query` narrows them. With words to look
    /// for, SQLite takes the matches from the index and puts them in order (as it did before
    /// albums had rows). Without, it is made to walk the albums in order (`album_order`) and
    /// each album's songs (`song_order`): a million songs come as they are read, never all
    /// sorted first, which is what it chose by itself.
    static func songsAndAlbums(inOrderFor query: LibraryQuery) -> String {
        query.searchesWords ? songsAlbumsAndFolders : "album CROSS JOIN song ON song.albumid = album.id CROSS JOIN dir ON dir.id = song.dirid"
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
            let condition = try Self.condition(query, in: db)
            var arguments = condition.arguments
            arguments += [Int64(clamping: limit)]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT song.dirid, dir.path, song.name FROM \(Self.songsAndAlbums(inOrderFor: query)) WHERE \(condition.sql)
                ORDER BY \(LibraryQuery.albumOrder) LIMIT ?
                """, arguments: arguments)
            var handed = 0
            // An album's songs are of a few folders: each one's path is read once for them (of
            // the last 1,024 folders met).
            var folders: [Int64: [UInt8]] = [:]
            while let row = try rows.next() {
                handed += 1
                let id: Int64 = row[0]
                var path: [UInt8]
                if let known = folders[id] {
                    path = known
                } else {
                    if folders.count >= 1024 { folders.removeAll(keepingCapacity: true) }
                    path = try row.withUnsafeData(atIndex: 1) { ($0 ?? Data()).withUnsafeBytes { Array($0) } }
                    folders[id] = path
                }
                try row.withUnsafeData(atIndex: 2) { name in (name ?? Data()).withUnsafeBytes { path.append(contentsOf: $0) } }
                if !each(Path(bytes: path)) { break }
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
    /// The row id of the song at `path`, if the library holds it.
    static func songID(at path: Path, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM song WHERE \(SongPlace.row())"),
                           arguments: StatementArguments(SongPlace(path).arguments))
    }

    /// Takes `gone` out; each song of `carrying` gives its statistics, its history and when it
    /// was added to the path it moved to.
    public func retire(_ gone: [Path], carrying: [(from: LibrarySong, to: Path)]) -> Result<Void, LibraryError> {
        write { db in
            let carry = try db.cachedStatement(sql: """
                UPDATE song SET playcount = ?, lastplayed = ?, skipcount = ?, rating = ?,
                                added = ifnull((SELECT added FROM song WHERE id = ?), added) WHERE id = ?
                """)
            let history = try db.cachedStatement(sql: "UPDATE listen SET song = ? WHERE song = ?")
            for (from, to) in carrying {
                guard let new = try Self.songID(at: to, in: db) else { continue }
                let old = try Self.songID(at: from.path, in: db)
                try carry.execute(arguments: [from.playCount, from.lastPlayed, from.skipCount, from.rating, old, new])
                if let old { try history.execute(arguments: [new, old]) }
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM song WHERE \(SongPlace.row()) RETURNING \(Self.searchColumns)")
            var albums = Set<Int64>()
            var folders = Set<Int64>()
            var words = SearchWords()
            for path in gone {
                if let row = try Row.fetchOne(delete, arguments: StatementArguments(SongPlace(path).arguments)) {
                    try words.unindex(row, in: db)
                    if let album = row[0] as Int64? { albums.insert(album) }
                    folders.insert(row[1])
                }
            }
            try AlbumRows.settle(albums, in: db)
            try FolderRows.settle(folders, in: db)
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
            guard let song = try Self.songID(at: listen.song.path, in: db) else { return }
            switch listen.kind {
            case .played:
                try db.execute(sql: "UPDATE song SET playcount = playcount + 1, lastplayed = ? WHERE id = ?", arguments: [time, song])
            case .skipped:
                try db.execute(sql: "UPDATE song SET skipcount = skipcount + 1 WHERE id = ?", arguments: [song])
            }
            let heard = listen.heard.isFinite ? min(max(listen.heard, 0), 1e9) : 0
            try db.execute(sql: "INSERT INTO listen (song, at, heard, skipped) VALUES (?, ?, ?, ?)",
                           arguments: [song, time, heard, listen.kind == .skipped])
        }
    }

    /// `path`'s history, oldest first: when each listen was, how much was heard, whether skipped.
    public func history(of path: Path) -> Result<[(at: Int64, heard: Double, skipped: Bool)], LibraryError> {
        read { db in
            try Row.fetchAll(db, sql: """
                SELECT at, heard, skipped FROM listen WHERE song = (SELECT id FROM song WHERE \(SongPlace.row())) ORDER BY at, rowid
                """, arguments: StatementArguments(SongPlace(path).arguments)).map { (at: $0[0], heard: $0[1], skipped: $0[2]) }
        }
    }
}
