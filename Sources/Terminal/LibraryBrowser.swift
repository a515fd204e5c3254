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
    /// What a filter leaves, counted on another thread: the first `rows` artists and how many
    /// there are (`tree`), or how many songs; `nil` when this browser counts on the main loop
    /// only (the view then asks `firstArtists` and `songCount` itself).
    func counter(filter: String, tree: Bool, rows: Int) -> (@Sendable () -> LibraryCounted)?
    /// The named playlists as `.playlist` rows, by name (each call looks again: a playlist
    /// saved, renamed or deleted since, by this run, an MPD client or another player, shows).
    func playlists() -> [LibraryItem]
    /// A playlist's songs as rows, in its order (a smart one's: the library's songs its query
    /// matches now).
    func songs(ofPlaylist playlist: LibraryItem) -> [LibraryItem]
}

extension LibraryBrowser {
    public func counter(filter: String, tree: Bool, rows: Int) -> (@Sendable () -> LibraryCounted)? { nil }
    public func playlists() -> [LibraryItem] { [] }
    public func songs(ofPlaylist playlist: LibraryItem) -> [LibraryItem] { [] }
}

/// What a filter leaves, counted off the main loop (`LibraryBrowser.counter`).
public struct LibraryCounted: Sendable {
    public var items: [LibraryItem]?
    public var total: Int

    public init(items: [LibraryItem]?, total: Int) {
        self.items = items
        self.total = total
    }
}

/// A count the library view asks for, to run off the main loop: `run` it on a helper thread
/// and hand its result to the screen (`showLibraryCount`), which drops it if the filter has
/// changed since.
public struct LibraryCountRequest: Sendable {
    public let generation: Int
    public let run: @Sendable () -> LibraryCounted
}

/// A count done, for the view that asked (`generation`).
public struct LibraryCountResult: Sendable {
    public let generation: Int
    public let counted: LibraryCounted

    public init(generation: Int, counted: LibraryCounted) {
        self.generation = generation
        self.counted = counted
    }
}

/// A row of the library view: an album artist, one of their albums, a song, or a named playlist.
public struct LibraryItem: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case artist, album, song, playlist
    }

    public var kind: Kind
    /// What the row names (untrusted text, shown through `TerminalText`).
    public var name: String
    /// Its right-hand column: a count of songs, a song's length and rating.
    public var detail: String
    /// The album artist's key; the album's for an album or a song (`nil` for a song the library
    /// does not hold: a playlist's file it has not read).
    public var artistKey: String
    public var albumKey: String?
    public var year: Int?
    /// A song's file.
    public var path: Path?
    /// A song's rating, 0 to 5 stars: shown before `detail`.
    public var rating: Int
    /// A playlist's file as it was read (its size and time): its songs shown are read again
    /// when it changes.
    public var version: [Int64] = []
    /// Why a playlist cannot be opened (a file put in the folder by another program, with a name
    /// tplayer refuses); `nil` when it can.
    public var refused: String?

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
