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

    public init(database: LibraryDatabase, order: LibrarySort) {
        self.database = database
        self.order = order
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
