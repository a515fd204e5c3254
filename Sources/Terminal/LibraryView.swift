import PlayerCore

/// The library view: a tree of album artists → albums (by year) → songs (by disc and track), or
/// every song in album order, or the named playlists (`LibraryView+Playlists`), narrowed by a
/// filter typed live. It holds what is on screen and the one artist open (its albums, and one
/// album's songs): everything else is read from the library as the cursor moves, a screenful
/// at a time.
///
/// Its keys: ↑ ↓ PgUp PgDn Home End move; Enter opens or closes an artist or an album, and on a
/// song plays its album from it (put after the song playing: the list goes on after it); ←
/// closes; `a` adds what is under the cursor to the end of the list, `e` queues it to play
/// next, `P` makes it the list and plays it; `/` filters as it is typed (Enter keeps it, Esc clears it); `t` the tree, the
/// sorted songs or the playlists, `o` the songs' order; `0`–`5` rate a song; Esc (or the key that opened it) goes back.
public struct LibraryView {
    public enum Layout: Equatable, Sendable {
        case tree, sorted, playlists
    }

    /// What the prompt on the bottom line is for.
    enum Typing: Equatable {
        case filter, sort, save
        case rename(String)
    }

    public private(set) var layout = Layout.tree
    public private(set) var filter = ""
    /// What is wrong with `filter`, as the library said when it was set.
    private var filterProblem: String?
    /// Counts each filter and layout anew (`refresh`): a count that comes back for an older
    /// one is dropped.
    private(set) var generation = 0
    /// The count asked for off the main loop and not yet taken (`takeCountRequest`), and the
    /// generation it is for.
    private var countRequest: LibraryCountRequest?
    private var asked: Int?
    /// The first screen a count brought, for the next drawing.
    private var counted: [(item: LibraryItem, level: Int)]?
    /// The rows last drawn and where: drawn again as they are (the status line's tick draws
    /// the view twice a second) until a key or a new count changes what is shown.
    var drawnRows: (generation: Int, top: Int, rows: Int, items: [(item: LibraryItem, level: Int)])?
    /// The longest filter typed, in characters: the library reads queries of up to 1,024 bytes
    /// (`LibraryQuery.longest`), and a paste of 100 KB is not read again on every key.
    static let longestFilter = 1024
    static let cutFilter = "a filter is cut at \(longestFilter) characters, the longest query the library reads"
    /// The filter being typed, or the sorted view's order (`o`).
    private(set) var typing: PromptLine?
    private var typingFor = Typing.filter
    /// The filters and orders kept before, oldest first: ↑ recalls them at their prompt.
    private var filtersKept: [String] = []
    private var sortsGiven: [String] = []
    public internal(set) var cursor = 0
    var top = 0
    /// How many artists (tree) or songs (sorted) the filter leaves; `nil` until the first
    /// screen of a new filter is read, which counts them in the same pass (tree) or beside it.
    private var total: Int? = 0
    /// The artist open in the tree (its index among the artists), its albums and the songs of
    /// the album open, in the order they are shown.
    private var open: (index: Int, artist: LibraryItem, children: [(item: LibraryItem, level: Int)])?
    /// Said on the title line until the next key.
    var message: String?
    /// The playlists layout's rows.
    var playlistRows = PlaylistRows()
    /// The playlist `D` asked to delete, until the next key says whether to.
    var deleting: String?
    /// The playlist saved or renamed: the cursor goes to it when it is there.
    var following: String?

    public init() {}

    public enum Outcome: Equatable {
        case redraw
        case command(Command)
        case close
        /// `u`: the library brought up to date (a scan of its folders, off the main loop).
        case scan
    }

    /// Counts again what the filter leaves (a new filter, the library changed), when it is next
    /// drawn (`settle`): the keys that came together are read first.
    public mutating func refresh(_ browser: LibraryBrowser) {
        total = nil
        generation &+= 1
        counted = nil
        filterProblem = nil
        open = nil
        cursor = 0
        top = 0
    }

    /// Counts what the filter leaves, if it is not counted yet: in the tree with its first
    /// screen of `rows`, which it returns (a filter that keeps 100,000 songs is one pass, not two).
    /// A filter the library cannot read leaves nothing, and says why.
    /// `waiting`: a browser that counts off the main loop is asked to (`takeCountRequest`),
    /// and the view is drawn without rows until the count comes (`apply`); the keys typed
    /// meanwhile are answered at once. A key that moves in the rows waits for it instead.
    mutating func settle(_ browser: LibraryBrowser, rows: Int, waiting: Bool = false) -> [(item: LibraryItem, level: Int)]? {
        // The playlists are few, and looked at again each time (a folder's listing).
        if layout == .playlists {
            // The cursor stays on what it was on, wherever that is now.
            let under = playlistRows.row(cursor)
            playlistRows.read(browser, filter: filter)
            total = playlistRows.count
            if let under, let row = playlistRows.row(of: under.playlist.name, place: under.place) { cursor = row }
            cursor = min(cursor, max(playlistRows.count - 1, 0))
            // Or on the playlist just saved or renamed, once it is there.
            if let name = following, let row = playlistRows.row(of: name, place: nil) {
                cursor = row
                following = nil
            }
            return nil
        }
        if let first = counted, total != nil {
            counted = nil
            return first.count >= min(rows, total ?? 0) ? Array(first.prefix(rows)) : nil
        }
        guard total == nil else { return nil }
        filterProblem = browser.problem(filter: filter)
        if let problem = filterProblem {
            message = problem
            total = 0
            return nil
        }
        if waiting, let run = browser.counter(filter: filter, tree: layout == .tree, rows: rows) {
            if asked != generation {
                asked = generation
                countRequest = LibraryCountRequest(generation: generation, run: run)
            }
            return nil
        }
        if layout == .tree {
            let first = browser.firstArtists(filter: filter, limit: rows)
            total = first.total
            return first.items.map { ($0, 0) }
        }
        total = browser.songCount(filter: filter)
        return nil
    }

    /// The count to run off the main loop, once.
    mutating func takeCountRequest() -> LibraryCountRequest? {
        defer { countRequest = nil }
        return countRequest
    }

    /// A count come back: taken if it is for the filter and layout shown now.
    mutating func apply(_ result: LibraryCountResult) -> Bool {
        guard result.generation == generation, total == nil else { return false }
        total = result.counted.total
        counted = result.counted.items.map { $0.map { ($0, 0) } }
        return true
    }

    /// Whether a count is under way (the title says so).
    var isCounting: Bool { total == nil && asked == generation }

    /// Rows in all, the open artist's included.
    var count: Int { layout == .playlists ? playlistRows.count : (total ?? 0) + (open?.children.count ?? 0) }

    /// The item in row `row`.
    func item(at row: Int, _ browser: LibraryBrowser) -> (item: LibraryItem, level: Int)? {
        items(from: row, count: 1, browser).first
    }

    /// Rows `from..<from + count`, each with its depth in the tree.
    func items(from: Int, count wanted: Int, _ browser: LibraryBrowser) -> [(item: LibraryItem, level: Int)] {
        let end = min(from + wanted, count)
        guard from < end else { return [] }
        if layout == .playlists { return playlistRows.items(from: from, to: end) }
        if layout == .sorted {
            return browser.songs(filter: filter, offset: from, limit: end - from).map { ($0, 0) }
        }
        let opened = open
        let children = opened?.children.count ?? 0
        let split = opened.map { $0.index + 1 } ?? Int.max  // rows before it are artists as they are
        // The artists on screen: one read for the rows before the open artist's children, one after.
        func artists(_ lower: Int, _ upper: Int, shift: Int) -> [(item: LibraryItem, level: Int)] {
            guard lower < upper else { return [] }
            return browser.artists(filter: filter, offset: lower - shift, limit: upper - lower).map { ($0, 0) }
        }
        var result = artists(from, min(end, split), shift: 0)
        if let opened {
            let lower = max(from, split), upper = min(end, split + children)
            if lower < upper { result += opened.children[(lower - split)..<(upper - split)] }
            result += artists(max(from, split + children), end, shift: children)
        }
        return result
    }

    /// What `key` does in the view; `nil`: it means what it means everywhere (space pauses).
    public mutating func handle(_ key: Key, isOpenKey: Bool, _ browser: LibraryBrowser, rows: Int) -> Outcome? {
        message = nil
        drawnRows = nil
        if typing != nil { return type(key, browser) }
        if let name = deleting { return confirmDelete(key, name) }
        // The cursor follows a playlist saved or renamed until the next key.
        following = nil
        // Keys that came with the filter's are read before it is drawn: it is counted first.
        _ = settle(browser, rows: rows)
        if layout == .playlists, let outcome = handlePlaylists(key, browser) { return outcome }
        let page = max(rows - 1, 1)
        switch key {
        case .up: move(to: cursor - 1)
        case .down: move(to: cursor + 1)
        case .pageUp: move(to: cursor - page)
        case .pageDown: move(to: cursor + page)
        case .home: move(to: 0)
        case .end: move(to: count - 1)
        case .enter: return enter(browser)
        case .left: collapse()
        case .character("/"): startTyping(PromptLine(label: "filter: ", history: filtersKept, limit: Self.longestFilter), for: .filter)
        case .character("o"):
            // Empty, as every prompt is (what is typed is the order, not added to the one in
            // force); the order in force is ↑ away, after those given before.
            startTyping(PromptLine(label: "sort by: ", history: sortsGiven.filter { $0 != browser.sort } + [browser.sort]), for: .sort)
            message = "now \(browser.sort) (↑ to edit it)"
        case .character("u"): return .scan
        case .character("t"):
            layout = switch layout {
            case .tree: .sorted
            case .sorted: .playlists
            case .playlists: .tree
            }
            refresh(browser)
        case .character("a"), .character("e"), .character("P"):
            guard let (item, _) = item(at: cursor, browser) else { return .redraw }
            let paths = browser.paths(of: item, filter: filter)
            guard !paths.isEmpty else { return .redraw }
            return Self.take(paths, by: key)
        case .character(let digit) where ("0"..."5").contains(digit):
            guard let (item, _) = item(at: cursor, browser), item.kind == .song, let stars = digit.wholeNumberValue else {
                message = "a rating is a song's: put the cursor on one"
                return .redraw
            }
            browser.rate(item, stars: stars)
            // The row shows the new rating: the album open is read again.
            if var opened = open, let place = opened.children.firstIndex(where: { $0.item == item }) {
                let fresh = browser.songs(of: album(of: item), filter: filter).first { $0.path == item.path }
                opened.children[place].item = fresh ?? item
                open = opened
            }
            message = stars == 0 ? "rating cleared" : "rated " + String(repeating: "★", count: stars)
        case .escape:
            // A kept filter is cleared first; Esc again closes the view.
            guard filter.isEmpty else {
                filter = ""
                refresh(browser)
                message = "filter cleared"
                return .redraw
            }
            return .close
        default:
            return isOpenKey ? .close : nil
        }
        return .redraw
    }

    /// `a` adds `paths` to the end of the list, `e` queues them, `P` makes them the list.
    static func take(_ paths: [Path], by key: Key) -> Outcome {
        switch key {
        case .character("a"): .command(.appendSongs(paths))
        case .character("e"): .command(.queueSongs(paths))
        default: .command(.replaceWithSongs(paths))
        }
    }

    private mutating func move(to row: Int) {
        cursor = min(max(row, 0), max(count - 1, 0))
    }

    /// Enter: an artist or an album opens (or closes); a song plays, its album from it.
    private mutating func enter(_ browser: LibraryBrowser) -> Outcome {
        guard let (item, _) = item(at: cursor, browser) else { return .redraw }
        switch item.kind {
        case .artist:
            if open?.artist == item { collapse() } else { openArtist(item, at: cursor, browser) }
        case .album:
            toggle(item, browser)
        case .playlist:
            break  // the playlists layout's own (`handlePlaylists`)
        case .song:
            let songs = browser.songs(of: album(of: item), filter: filter)
            let from = songs.firstIndex { $0.path == item.path } ?? 0
            let paths = songs[from...].compactMap(\.path)
            return paths.isEmpty ? .redraw : .command(.playSongs(paths))
        }
        return .redraw
    }

    private func album(of song: LibraryItem) -> LibraryItem {
        LibraryItem(kind: .album, name: "", detail: "", artistKey: song.artistKey, albumKey: song.albumKey, year: song.year)
    }

    private mutating func openArtist(_ artist: LibraryItem, at row: Int, _ browser: LibraryBrowser) {
        // The row it is on, among the artists (a row past an open one counts its children).
        var index = row
        if let opened = open, row > opened.index { index -= opened.children.count }
        open = (index, artist, browser.albums(of: artist, filter: filter).map { ($0, 1) })
        cursor = index
    }

    /// An album's songs shown under it, or taken away; one album open at a time.
    private mutating func toggle(_ album: LibraryItem, _ browser: LibraryBrowser) {
        guard var opened = open else { return }
        let wasOpen = opened.children.contains { $0.level == 2 && $0.item.albumKey == album.albumKey && $0.item.year == album.year }
        opened.children.removeAll { $0.level == 2 }
        guard let place = opened.children.firstIndex(where: { $0.item == album }) else { return }
        if !wasOpen {
            opened.children.insert(contentsOf: browser.songs(of: album, filter: filter).map { ($0, 2) }, at: place + 1)
        }
        open = opened
        cursor = opened.index + 1 + place
    }

    /// ←: the artist under the cursor, or the one the cursor is in, closes.
    private mutating func collapse() {
        guard let opened = open, cursor >= opened.index, cursor <= opened.index + opened.children.count else { return }
        open = nil
        cursor = opened.index
    }

    mutating func startTyping(_ line: PromptLine, for typed: Typing) {
        typing = line
        typingFor = typed
    }

    /// A key while the filter is typed: it applies at once; Enter keeps it, Esc clears it.
    /// A sort's or a playlist's name applies when given.
    private mutating func type(_ key: Key, _ browser: LibraryBrowser) -> Outcome {
        guard var line = typing else { return .redraw }
        if typingFor != .filter {
            switch line.apply(key) {
            case .editing, .complete:
                typing = line
            case .submitted(let text) where typingFor != .sort:
                typing = nil
                return playlistCommand(text, for: typingFor)
            case .submitted(let text):
                typing = nil
                message = browser.setSort(text) ?? "sorted by \(browser.sort)"
                if !text.isEmpty { sortsGiven = Array((sortsGiven.filter { $0 != text } + [text]).suffix(50)) }
                layout = .sorted
                let said = message
                refresh(browser)
                message = said
            case .cancelled:
                typing = nil
            }
            return .redraw
        }
        let revision = line.revision
        switch line.apply(key) {
        case .editing, .complete:
            typing = line
            // Nothing typed (a cursor's move, a key past the longest filter): nothing to read.
            if line.revision == revision {
                message = filterProblem ?? (line.overflowed ? Self.cutFilter : nil)
                return .redraw
            }
        case .submitted(let text):
            typing = nil
            if !text.isEmpty { filtersKept = Array((filtersKept.filter { $0 != text } + [text]).suffix(50)) }
            return .redraw
        case .cancelled:
            typing = nil
            line = PromptLine(label: "")
        }
        filter = line.text
        refresh(browser)
        if line.overflowed, message == nil { message = Self.cutFilter }
        return .redraw
    }
}
