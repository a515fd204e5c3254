import Files
import Library
import PlayerCore
import Terminal

/// The library view's window on the library: each call a query of a screenful or less, on the
/// main loop (each takes milliseconds at 100,000 songs; `make bench` measures a key).
public final class LibraryShelf: LibraryBrowser {
    private let database: LibraryDatabase
    /// The last filter read, and what it reads as.
    private var parsed: (text: String, query: Result<LibraryQuery, LibraryQuery.ParseError>) = ("", .success(LibraryQuery()))

    private var order: LibrarySort
    /// The named playlists (`nil`: no folder for them), and each one's row as its file last was.
    private let store: NamedPlaylists?
    private var playlistRows: [String: LibraryItem] = [:]

    public init(database: LibraryDatabase, order: LibrarySort, playlists: NamedPlaylists? = nil) {
        self.database = database
        self.order = order
        self.store = playlists
    }

    public var sort: String { order.description }

    public func setSort(_ text: String) -> String? {
        switch LibrarySort.parse(text) {
        case .success(let sort):
            order = sort
            return nil
        case .failure(let error): return error.description
        }
    }

    private func query(_ filter: String) -> LibraryQuery {
        if parsed.text != filter { parsed = (filter, LibraryQuery.parse(filter)) }
        return (try? parsed.query.get()) ?? LibraryQuery()
    }

    public func problem(filter: String) -> String? {
        _ = query(filter)
        if case .failure(let error) = parsed.query { return error.description }
        return nil
    }

    public func artists(filter: String, offset: Int, limit: Int) -> [LibraryItem] {
        ((try? database.artists(query(filter), offset: offset, limit: limit).get()) ?? []).map(Self.item)
    }

    public func firstArtists(filter: String, limit: Int) -> (items: [LibraryItem], total: Int) {
        guard let (artists, total) = try? database.artistsCounted(query(filter), limit: limit).get() else { return ([], 0) }
        return (artists.map(Self.item), total)
    }

    /// An album artist as a row: its name, and how many songs it has.
    private static func item(_ artist: LibraryDatabase.Artist) -> LibraryItem {
        LibraryItem(kind: .artist, name: artist.name, detail: count(artist.songs), artistKey: artist.key)
    }

    public func albums(of artist: LibraryItem, filter: String) -> [LibraryItem] {
        let albums = (try? database.albums(of: artist.artistKey, query(filter)).get()) ?? []
        return albums.map { album in
            let name = (album.year.map { "\($0)  " } ?? "") + (album.name.isEmpty ? "Unknown Album" : album.name)
            return LibraryItem(kind: .album, name: name, detail: Self.count(album.songs), artistKey: artist.artistKey,
                               albumKey: album.key, year: album.year)
        }
    }

    public func songs(of album: LibraryItem, filter: String) -> [LibraryItem] {
        guard let key = album.albumKey else { return [] }
        let shelfAlbum = LibraryDatabase.Album(name: "", key: key, year: album.year, songs: 0)
        let songs = (try? database.songs(of: album.artistKey, album: shelfAlbum, query(filter)).get()) ?? []
        return songs.map { item($0, sorted: false) }
    }

    public func counter(filter: String, tree: Bool, rows: Int) -> (@Sendable () -> LibraryCounted)? {
        let database = database, query = query(filter)
        return {
            if tree {
                guard let (artists, total) = try? database.artistsCounted(query, limit: rows).get() else { return LibraryCounted(items: [], total: 0) }
                return LibraryCounted(items: artists.map(Self.item), total: total)
            }
            return LibraryCounted(items: nil, total: (try? database.songCount(query).get()) ?? 0)
        }
    }

    public func songCount(filter: String) -> Int {
        (try? database.songCount(query(filter)).get()) ?? 0
    }

    public func songs(filter: String, offset: Int, limit: Int) -> [LibraryItem] {
        ((try? database.songs(query(filter), order: order, offset: offset, limit: limit).get()) ?? []).map { item($0, sorted: true) }
    }

    public func paths(of item: LibraryItem, filter: String) -> [Path] {
        switch item.kind {
        case .song: return item.path.map { [$0] } ?? []
        case .album: return songs(of: item, filter: filter).compactMap(\.path)
        case .artist: return (try? database.paths(of: item.artistKey, query(filter)).get()) ?? []
        case .playlist: return playlistPaths(item)
        }
    }

    /// The songs of a playlist shown when it is opened: its first 10,000 (each a row read
    /// from the library on the main loop); `a`, `e` and `P` take them all.
    static let shownSongs = 10_000

    /// A playlist's songs, the first `limit`; a smart one's, the library's songs its query matches now.
    private func playlistPaths(_ playlist: LibraryItem, limit: Int = Entry.listLimit) -> [Path] {
        guard let store, case .success(let found) = store.read(playlist.name) else { return [] }
        guard let query = found.query, case .success(let parsed) = LibraryQuery.parse(query) else { return Array(found.songs.prefix(limit)) }
        return (try? database.find(parsed, limit: limit).get()) ?? []
    }

    /// Each playlist's row: its name, how many songs, a smart one's query; a file is read again
    /// only when its size or time changed (the view looks twice a second).
    public func playlists() -> [LibraryItem] {
        guard let store else { return [] }
        var rows: [String: LibraryItem] = [:]
        let items = store.listed().map { listed in
            let version = [listed.status.size, listed.status.modified, Int64(bitPattern: listed.status.id.inode)]
            if let known = playlistRows[listed.name], known.version == version {
                rows[listed.name] = known
                return known
            }
            var row = LibraryItem(kind: .playlist, name: listed.name, detail: "", artistKey: "")
            row.version = version
            switch store.read(listed.name) {
            case .success(let found): row.detail = Self.count(found.songs.count) + (found.query.map { "  smart: " + $0 } ?? "")
            // Put there by another program: a name tplayer never makes (a control character).
            case .failure(.badName(let why)):
                row.detail = "name refused: rename the file"
                row.refused = "\(why): rename the file; tplayer does not open it"
            case .failure: row.detail = "cannot be read"
            }
            rows[listed.name] = row
            return row
        }
        playlistRows = rows
        return items
    }

    /// A playlist's songs: as the library knows them (`Artist – Title (Album)`, plays, length,
    /// rating), else by file name; a smart one's, the library's songs its query matches now.
    public func songs(ofPlaylist playlist: LibraryItem) -> [LibraryItem] {
        let paths = Array(playlistPaths(playlist, limit: Self.shownSongs))
        let known = Dictionary(((try? database.songs(at: paths).get()) ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return paths.map { path in
            known[path].map { item($0, sorted: true) }
                ?? LibraryItem(kind: .song, name: "\(path.lastComponent)", detail: "", artistKey: "", path: path)
        }
    }

    public func rate(_ song: LibraryItem, stars: Int) {
        if let path = song.path { _ = database.rate(path, stars: stars) }
    }

    /// A song as a row: `03. Title` in the tree, `Artist – Title (Album, 1997)` sorted; its
    /// plays, length and rating on the right.
    private func item(_ song: LibrarySong, sorted: Bool) -> LibraryItem {
        let title = song.title ?? "\(song.path.lastComponent)"
        let name: String
        if sorted {
            let album = song.album.map { " (\($0)\(song.year.map { ", \($0)" } ?? ""))" } ?? ""
            // An untagged song is its name alone (it was ` – name.flac`, an empty artist and a dash).
            name = (song.artists.isEmpty ? "" : song.artists.joined(separator: "; ") + " – ") + title + album
        } else {
            name = (song.track.map { ($0 < 10 ? "0" : "") + "\($0). " } ?? "") + title
        }
        let length = song.seconds.map { TimeFormat.clock($0) } ?? ""
        let plays = song.playCount == 0 ? "" : "\(song.playCount) \(song.playCount == 1 ? "play" : "plays")" + (length.isEmpty ? "" : "  ")
        return LibraryItem(kind: .song, name: name, detail: plays + length, artistKey: LibrarySong.sortKey(song.shelf),
                           albumKey: LibrarySong.sortKey(song.album ?? ""), year: song.year, path: song.path, rating: song.rating)
    }

    private static func count(_ songs: Int) -> String {
        "\(songs) \(songs == 1 ? "song" : "songs")"
    }
}
