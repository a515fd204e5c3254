import PlayerCore
import Testing
@testable import Terminal

/// A library in memory: `artists` album artists of three albums of three songs each; a filter
/// keeps the artists whose name contains it.
final class ShelfInMemory: LibraryBrowser {
    let names: [String]
    var rated: [(Path, Int)] = []
    var reads = 0
    /// Whether it counts off the main loop (`counter`), as the player's library does.
    var counting = false

    init(artists: Int) {
        names = (0..<artists).map { "Artist \($0)" }
    }

    private func kept(_ filter: String) -> [String] {
        filter.isEmpty ? names : names.filter { $0.contains(filter) }
    }

    func problem(filter: String) -> String? { filter == "year:x" ? "year:x: give a number" : nil }
    func artists(filter: String, offset: Int, limit: Int) -> [LibraryItem] {
        reads += 1
        let kept = kept(filter)
        precondition(offset >= 0 && limit >= 0, "a read of a negative range")
        return kept[min(offset, kept.count)..<min(offset + limit, kept.count)].map {
            LibraryItem(kind: .artist, name: $0, detail: "9 songs", artistKey: $0)
        }
    }
    func firstArtists(filter: String, limit: Int) -> (items: [LibraryItem], total: Int) {
        (artists(filter: filter, offset: 0, limit: limit), kept(filter).count)
    }
    func albums(of artist: LibraryItem, filter: String) -> [LibraryItem] {
        (1...3).map { LibraryItem(kind: .album, name: "Album \($0)", detail: "3 songs", artistKey: artist.artistKey, albumKey: "\($0)", year: 1990 + $0) }
    }
    func songs(of album: LibraryItem, filter: String) -> [LibraryItem] {
        (1...3).map {
            LibraryItem(kind: .song, name: "Song \($0)", detail: "", artistKey: album.artistKey, albumKey: album.albumKey, year: album.year,
                        path: Path("/m/\(album.artistKey)/\(album.albumKey ?? "")/\($0).flac"))
        }
    }
    func songCount(filter: String) -> Int { kept(filter).count * 9 }
    func counter(filter: String, tree: Bool, rows: Int) -> (@Sendable () -> LibraryCounted)? {
        guard counting else { return nil }
        let kept = kept(filter)
        return {
            LibraryCounted(items: tree ? kept.prefix(rows).map { LibraryItem(kind: .artist, name: $0, detail: "9 songs", artistKey: $0) } : nil,
                           total: tree ? kept.count : kept.count * 9)
        }
    }
    func songs(filter: String, offset: Int, limit: Int) -> [LibraryItem] { [] }
    func paths(of item: LibraryItem, filter: String) -> [Path] {
        if item.kind == .playlist { return playlistSongs[item.name] ?? [] }
        return item.path.map { [$0] } ?? (item.kind == .album ? songs(of: item, filter: filter).compactMap(\.path) : [])
    }
    func rate(_ song: LibraryItem, stars: Int) { song.path.map { rated.append(($0, stars)) } }
    /// The named playlists, by name: each one's songs; a version to bump when one is changed.
    var playlistSongs: [String: [Path]] = [:]
    var playlistVersions: [String: Int64] = [:]
    var playlistReads = 0
    func playlists() -> [LibraryItem] {
        playlistSongs.keys.sorted().map { name in
            var item = LibraryItem(kind: .playlist, name: name, detail: "\(playlistSongs[name]?.count ?? 0) songs", artistKey: "")
            item.version = [playlistVersions[name] ?? 0]
            if name.contains("\u{1B}") { item.refused = "a playlist name cannot hold control characters: rename the file" }
            return item
        }
    }
    func songs(ofPlaylist playlist: LibraryItem) -> [LibraryItem] {
        playlistReads += 1
        // A file whose path says "outside" is one the library does not hold: no album key.
        return (playlistSongs[playlist.name] ?? []).map {
            LibraryItem(kind: .song, name: "\($0.lastComponent)", detail: "", artistKey: "", albumKey: "\($0)".contains("outside") ? nil : "A", path: $0)
        }
    }
    var sort = "albumartist date album disc track"
    func setSort(_ text: String) -> String? {
        if text.contains("nonsense") { return "nonsense: no such field" }
        sort = text
        return nil
    }
}

struct LibraryViewTests {
    private func names(_ view: LibraryView, _ shelf: ShelfInMemory, rows: Int = 100) -> [String] {
        view.items(from: 0, count: rows, shelf).map { String(repeating: "  ", count: $0.level) + $0.item.name }
    }

    @Test func anArtistOpensToItsAlbumsAndAnAlbumToItsSongs() {
        let shelf = ShelfInMemory(artists: 3)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.settle(shelf, rows: 10)
        #expect(names(view, shelf) == ["Artist 0", "Artist 1", "Artist 2"])
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(names(view, shelf) == ["Artist 0", "Artist 1", "  Album 1", "    Song 1", "    Song 2", "    Song 3", "  Album 2",
                                       "  Album 3", "Artist 2"])
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        #expect(view.handle(.enter, isOpenKey: false, shelf, rows: 10)
            == .command(.playSongs(["/m/Artist 1/1/1.flac", "/m/Artist 1/1/2.flac", "/m/Artist 1/1/3.flac"])))
        _ = view.handle(.left, isOpenKey: false, shelf, rows: 10)
        #expect(names(view, shelf) == ["Artist 0", "Artist 1", "Artist 2"] && view.cursor == 1)
    }

    /// Every window of rows around an open artist reads only ranges that exist (a window that
    /// began past the open artist's songs crashed on a backward range).
    @Test func everyWindowAroundAnOpenArtistIsWhole() {
        let shelf = ShelfInMemory(artists: 40)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.settle(shelf, rows: 10)
        for _ in 0..<5 { _ = view.handle(.down, isOpenKey: false, shelf, rows: 10) }
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        let all = names(view, shelf, rows: 1000)
        #expect(all.count == 40 + 3 + 3)
        for start in 0..<all.count {
            for length in [1, 2, 7, 30] {
                #expect(names(view, shelf, rows: 0).isEmpty)
                #expect(view.items(from: start, count: length, shelf).map { String(repeating: "  ", count: $0.level) + $0.item.name }
                    == Array(all[start..<min(start + length, all.count)]), "rows \(start)..<\(start + length)")
            }
        }
    }

    @Test func theFilterAppliesAsItIsTypedAndEscClearsIt() {
        let shelf = ShelfInMemory(artists: 30)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.settle(shelf, rows: 10)
        _ = view.handle(.character("/"), isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.character("2"), isOpenKey: false, shelf, rows: 10)
        #expect(view.settle(shelf, rows: 10)?.count == 10, "the first screen comes with the count")
        #expect(view.filter == "2" && names(view, shelf).count == 12)  // 2, 12, 20…29
        _ = view.handle(.character("5"), isOpenKey: false, shelf, rows: 10)
        _ = view.settle(shelf, rows: 10)
        #expect(names(view, shelf) == ["Artist 25"])
        _ = view.handle(.escape, isOpenKey: false, shelf, rows: 10)
        _ = view.settle(shelf, rows: 10)
        #expect(view.filter.isEmpty && names(view, shelf).count == 30)
        _ = view.handle(.character("/"), isOpenKey: false, shelf, rows: 10)
        for character in "year:x" { _ = view.handle(.character(character), isOpenKey: false, shelf, rows: 10) }
        _ = view.settle(shelf, rows: 10)
        #expect(view.message == "year:x: give a number" && names(view, shelf).isEmpty)
    }

    @Test func oSetsTheSortedViewsOrderAndSaysWhatIsWrong() {
        let shelf = ShelfInMemory(artists: 2)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.handle(.character("o"), isOpenKey: false, shelf, rows: 10)
        for _ in 0..<40 { _ = view.handle(.backspace, isOpenKey: false, shelf, rows: 10) }
        for character in "-plays title" { _ = view.handle(.character(character), isOpenKey: false, shelf, rows: 10) }
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(shelf.sort == "-plays title" && view.layout == .sorted && view.message == "sorted by -plays title")
        _ = view.handle(.character("o"), isOpenKey: false, shelf, rows: 10)
        for character in " nonsense" { _ = view.handle(.character(character), isOpenKey: false, shelf, rows: 10) }
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(shelf.sort == "-plays title" && view.message == "nonsense: no such field")
    }

    /// The sort prompt starts empty, as every prompt does (what was typed was added to the order
    /// in force: `…trackdate: no such field`); the order in force is ↑ away, and the line edits
    /// as a shell's. A kept filter is ↑ away at the next `/`, and Esc clears a kept filter before
    /// it closes the view (it closed it, and the letters typed next went to the player).
    @Test func promptsStartEmptyRecallAndEditAndEscClearsAKeptFilterFirst() {
        let shelf = ShelfInMemory(artists: 30)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.settle(shelf, rows: 10)
        let type = { (view: inout LibraryView, text: String) in
            for character in text { _ = view.handle(.character(character), isOpenKey: false, shelf, rows: 10) }
        }
        _ = view.handle(.character("o"), isOpenKey: false, shelf, rows: 10)
        #expect(view.message == "now albumartist date album disc track (↑ to edit it)")
        type(&view, "date")
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(shelf.sort == "date" && view.message == "sorted by date")
        _ = view.handle(.character("o"), isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.up, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.control("w"), isOpenKey: false, shelf, rows: 10)
        type(&view, "-plays title")
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(shelf.sort == "-plays title")

        // t: from the sorted songs to the playlists, and on to the tree.
        _ = view.handle(.character("t"), isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.character("t"), isOpenKey: false, shelf, rows: 10)
        #expect(view.layout == .tree)
        _ = view.handle(.character("/"), isOpenKey: false, shelf, rows: 10)
        type(&view, "25")
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        _ = view.settle(shelf, rows: 10)
        #expect(view.filter == "25" && names(view, shelf) == ["Artist 25"])
        #expect(view.handle(.escape, isOpenKey: false, shelf, rows: 10) == .redraw, "the filter goes, the view stays")
        _ = view.settle(shelf, rows: 10)
        #expect(view.filter.isEmpty && names(view, shelf).count == 30)
        _ = view.handle(.character("/"), isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.up, isOpenKey: false, shelf, rows: 10)
        _ = view.settle(shelf, rows: 10)
        #expect(view.filter == "25", "the filter kept before, recalled")
        _ = view.handle(.control("u"), isOpenKey: false, shelf, rows: 10)
        _ = view.settle(shelf, rows: 10)
        #expect(view.filter.isEmpty)
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        #expect(view.handle(.escape, isOpenKey: false, shelf, rows: 10) == .close)
    }

    /// The command line (`:`) reads a script's line and a person's own: `scan`, `add` (to the
    /// library in the library view, as cmus's `:add` there; to the list elsewhere), and says
    /// what it cannot read.
    @Test func theCommandLineReadsAScriptsLineAndScan() {
        let resolve = { (typed: String) in Path("/home/me/" + typed) }
        let read = { (text: String, library: Bool) in TypedCommand.read(text, inLibrary: library, resolve: resolve) }
        #expect(read("volume 50", false) == .command(.volume(50)))
        #expect(read("seek 1:30", false) == .command(.seek(.to(.seconds(90)))))
        #expect(read("REPEAT on", false) == .command(.setRepeat(true)))
        #expect(read("add Music/Post", false) == .command(.add("/home/me/Music/Post", at: Int.max)))
        #expect(read("load x.mp3", false) == .command(.load("/home/me/x.mp3")))
        #expect(read("add Music", true) == .scan("/home/me/Music"))
        #expect(read("scan", false) == .scan(nil) && read("update-cache", true) == .scan(nil))
        #expect(read("scan Music", false) == .scan("/home/me/Music"))
        #expect(read("wait 2s", false) == .problem("wait is for scripts: a command typed here runs now"))
        #expect(read("volume loud", false) == .problem("bad volume 'loud': use 0% to 100%"), "the script's own words")
        guard case .problem(let unknown) = read("frobnicate now", false) else { Issue.record("read"); return }
        #expect(unknown.hasPrefix("frobnicate: no such command; the commands: add load play") && unknown.hasSuffix("scan help"))
        #expect(read("add", true) == .problem("add needs a folder to add to the library: add ~/Music"))
    }

    @Test func aSongIsRatedAndAddedAndQueuedAndOtherKeysMeanWhatTheyMeanEverywhere() {
        let shelf = ShelfInMemory(artists: 2)
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.settle(shelf, rows: 10)
        _ = view.handle(.character("4"), isOpenKey: false, shelf, rows: 10)
        #expect(shelf.rated.isEmpty && view.message?.contains("a song's") == true)
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        #expect(view.handle(.character("a"), isOpenKey: false, shelf, rows: 10)
            == .command(.appendSongs(["/m/Artist 0/1/1.flac", "/m/Artist 0/1/2.flac", "/m/Artist 0/1/3.flac"])))
        _ = view.handle(.enter, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.down, isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.character("5"), isOpenKey: false, shelf, rows: 10)
        #expect(shelf.rated.map(\.1) == [5] && shelf.rated.first?.0 == "/m/Artist 0/1/1.flac")
        #expect(view.handle(.character("e"), isOpenKey: false, shelf, rows: 10) == .command(.queueSongs(["/m/Artist 0/1/1.flac"])))
        #expect(view.handle(.character("P"), isOpenKey: false, shelf, rows: 10) == .command(.replaceWithSongs(["/m/Artist 0/1/1.flac"])))
        #expect(view.handle(.character(" "), isOpenKey: false, shelf, rows: 10) == nil, "space pauses, as everywhere")
        #expect(view.handle(.character("L"), isOpenKey: true, shelf, rows: 10) == .close)
    }

    /// A rating is shown whole: its stars where they fit, `5★` where they do not, never three
    /// stars of five cut at the right edge; the length goes first.
    @Test func aRatingIsNeverCut() {
        let song = LibraryItem(kind: .song, name: "Björk – Hyperballad", detail: "5:21", artistKey: "b", path: "/m/a.flac", rating: 5)
        #expect(LibraryView.detail(song, room: 30) == "★★★★★  5:21")
        #expect(LibraryView.detail(song, room: 8) == "5★  5:21")
        #expect(LibraryView.detail(song, room: 3) == "5★")
        for width in 12...40 {
            let row = LibraryView.row(song, level: 0, width: width, underCursor: false).parts.map(\.text).joined()
            #expect(row.contains("★★★★★") || row.contains("5★"), "width \(width): \(row)")
            #expect(!row.contains("★★★★…") && !row.contains("★★★…"), "width \(width): \(row)")
        }
    }
}
