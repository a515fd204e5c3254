import PlayerCore

/// What the library view shows and does, from the library (the player's wiring gives it: the
/// terminal knows no database). Each call reads a screenful or less; a filter is the query
/// language's (`tplayer --find`'s).
public protocol LibraryBrowser: AnyObject {
    /// Why `filter` cannot be read, in one line; `nil` when it can.
    func problem(filter: String) -> String?
    func artists(filter: String, offset: Int, limit: Int) -> [LibraryItem]
    /// The first `limit` artists and how many there are, read at once.
    func firstArtists(filter: String, limit: Int) -> (items: [LibraryItem], total: Int)
    func albums(of artist: LibraryItem, filter: String) -> [LibraryItem]
    func songs(of album: LibraryItem, filter: String) -> [LibraryItem]
    func songCount(filter: String) -> Int
    func songs(filter: String, offset: Int, limit: Int) -> [LibraryItem]
    /// The songs an artist or album stands for (a song: itself), in album order.
    func paths(of item: LibraryItem, filter: String) -> [Path]
    func rate(_ song: LibraryItem, stars: Int)
    /// The sorted view's order, as the settings write it.
    var sort: String { get }
    /// Sorts the sorted view by `text` (`albumartist -date title`); why not, in one line.
    func setSort(_ text: String) -> String?
}

/// A row of the library view: an album artist, one of their albums, or a song.
public struct LibraryItem: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case artist, album, song
    }

    public var kind: Kind
    /// What the row names (untrusted text, shown through `TerminalText`).
    public var name: String
    /// Its right-hand column: a count of songs, a song's length and rating.
    public var detail: String
    /// The album artist's key; the album's for an album or a song.
    public var artistKey: String
    public var albumKey: String?
    public var year: Int?
    /// A song's file.
    public var path: Path?
    /// A song's rating, 0 to 5 stars: shown before `detail`.
    public var rating: Int

    public init(kind: Kind, name: String, detail: String, artistKey: String, albumKey: String? = nil, year: Int? = nil,
                path: Path? = nil, rating: Int = 0) {
        self.rating = min(max(rating, 0), 5)
        self.kind = kind
        self.name = name
        self.detail = detail
        self.artistKey = artistKey
        self.albumKey = albumKey
        self.year = year
        self.path = path
    }
}
