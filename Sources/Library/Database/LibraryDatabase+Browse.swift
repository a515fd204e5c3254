import Foundation
import GRDB
import PlayerCore

/// What the library view pages through: album artists, an artist's albums, an album's songs,
/// or every song in album order, each narrowed by a query and read a screenful at a time.
extension LibraryDatabase {
    public struct Artist: Equatable, Sendable {
        public let name: String
        /// The folded name the tree is ordered and grouped by.
        public let key: String
        public let songs: Int
    }

    public struct Album: Equatable, Sendable {
        public let name: String
        public let key: String
        public let year: Int?
        public let songs: Int

        public init(name: String, key: String, year: Int?, songs: Int) {
            self.name = name
            self.key = key
            self.year = year
            self.songs = songs
        }
    }

    /// Album artists `offset..<offset + limit` of those `query` matches, in order.
    public func artists(_ query: LibraryQuery, offset: Int, limit: Int) -> Result<[Artist], LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments = condition.arguments
            arguments += [max(limit, 0), max(offset, 0)]
            return try Row.fetchAll(db, sql: """
                SELECT shelf, shelfkey, COUNT(*) FROM \(Self.songsAndAlbums) WHERE \(condition.sql)
                GROUP BY shelfkey ORDER BY shelfkey LIMIT ? OFFSET ?
                """, arguments: arguments).map { Artist(name: $0[0], key: $0[1], songs: $0[2]) }
        }
    }

    /// The first `limit` album artists of those `query` matches, and how many it matches: one
    /// pass over the matches (counting apart took as long again, for a filter that keeps all).
    public func artistsCounted(_ query: LibraryQuery, limit: Int) -> Result<(artists: [Artist], total: Int), LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments = condition.arguments
            arguments += [max(limit, 1)]
            let rows = try Row.fetchAll(db, sql: """
                SELECT shelf, shelfkey, COUNT(*), COUNT(*) OVER () FROM \(Self.songsAndAlbums) WHERE \(condition.sql)
                GROUP BY shelfkey ORDER BY shelfkey LIMIT ?
                """, arguments: arguments)
            return (rows.prefix(max(limit, 0)).map { Artist(name: $0[0], key: $0[1], songs: $0[2]) }, rows.first?[3] ?? 0)
        }
    }

    /// The albums of the album artist `artist` (a key) that `query` matches, by year: each one
    /// group, at its earliest year.
    public func albums(of artist: String, _ query: LibraryQuery) -> Result<[Album], LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments: StatementArguments = [artist]
            arguments += condition.arguments
            return try Row.fetchAll(db, sql: """
                SELECT song.album, albumkey, firstyear, COUNT(*) FROM \(Self.songsAndAlbums) WHERE shelfkey = ? AND \(condition.sql)
                GROUP BY albumkey ORDER BY firstyear, albumkey LIMIT 10000
                """, arguments: arguments).map { Album(name: $0[0] ?? "", key: $0[1], year: $0[2], songs: $0[3]) }
        }
    }

    /// The songs of `album` by `artist` (keys) that `query` matches, by disc and track.
    public func songs(of artist: String, album: Album, _ query: LibraryQuery) -> Result<[LibrarySong], LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments: StatementArguments = [artist, album.key]
            arguments += condition.arguments
            return LibrarySong.songs(try Row.fetchAll(db, sql: """
                SELECT \(Self.songColumns) FROM \(Self.songsAlbumsAndFolders) WHERE shelfkey = ? AND albumkey = ? AND \(condition.sql)
                ORDER BY \(LibraryQuery.albumOrder) LIMIT 10000
                """, arguments: arguments))
        }
    }

    /// Every song `query` matches, in `order`: `offset..<offset + limit` of them.
    public func songs(_ query: LibraryQuery, order: LibrarySort = .albumOrder, offset: Int, limit: Int) -> Result<[LibrarySong], LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments = condition.arguments
            arguments += [max(limit, 0), max(offset, 0)]
            let (songs, sorted) = order == .albumOrder ? (Self.songsAndAlbums(inOrderFor: query), LibraryQuery.albumOrder)
                                                       : (Self.songsAlbumsAndFolders, order.sql)
            return LibrarySong.songs(try Row.fetchAll(db, sql: """
                SELECT \(Self.songColumns) FROM \(songs) WHERE \(condition.sql) ORDER BY \(sorted) LIMIT ? OFFSET ?
                """, arguments: arguments))
        }
    }

    public func songCount(_ query: LibraryQuery) -> Result<Int, LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM song WHERE \(condition.sql)", arguments: condition.arguments) ?? 0
        }
    }

    /// The paths of the songs by `artist` (a key) that `query` matches, in album order.
    public func paths(of artist: String, _ query: LibraryQuery) -> Result<[Path], LibraryError> {
        read { db in
            let condition = try Self.condition(query, in: db)
            var arguments: StatementArguments = [artist]
            arguments += condition.arguments
            return try Row.fetchAll(db, sql: """
                SELECT dir.path, song.name FROM \(Self.songsAlbumsAndFolders) WHERE shelfkey = ? AND \(condition.sql)
                ORDER BY \(LibraryQuery.albumOrder)
                """, arguments: arguments).map { SongPlace(folder: $0[0], name: $0[1]).path }
        }
    }

    /// Sets the rating (0 to 5 stars) of the song at `path`.
    public func rate(_ path: Path, stars: Int) -> Result<Void, LibraryError> {
        write { db in
            var arguments: StatementArguments = [min(max(stars, 0), 5)]
            arguments += StatementArguments(SongPlace(path).arguments)
            try db.execute(sql: "UPDATE song SET rating = ? WHERE \(SongPlace.row())", arguments: arguments)
        }
    }
}
