import PlayerCore
import Testing
@testable import Terminal

/// The library view's playlists layout (`t` twice): the named playlists by name, one open with
/// its songs, each key's command, and the rows following the folder as it changes.
struct LibraryViewPlaylistsTests {
    private func shelf() -> ShelfInMemory {
        let shelf = ShelfInMemory(artists: 3)
        shelf.playlistSongs = ["Road trip": ["/m/a.flac", "/m/b.flac", "/m/c.flac"], "Calm": ["/m/d.flac"], "Empty": []]
        return shelf
    }

    private func playlistsView(_ shelf: ShelfInMemory) -> LibraryView {
        var view = LibraryView()
        view.refresh(shelf)
        _ = view.handle(.character("t"), isOpenKey: false, shelf, rows: 10)
        _ = view.handle(.character("t"), isOpenKey: false, shelf, rows: 10)
        return view
    }

    private func names(_ view: inout LibraryView, _ shelf: ShelfInMemory) -> [String] {
        _ = view.settle(shelf, rows: 10)
        return view.items(from: 0, count: 100, shelf).map { String(repeating: "  ", count: $0.level) + $0.item.name }
    }

    private func press(_ view: inout LibraryView, _ shelf: ShelfInMemory, _ keys: Key...) -> LibraryView.Outcome? {
        var outcome: LibraryView.Outcome?
        for key in keys { outcome = view.handle(key, isOpenKey: false, shelf, rows: 10) }
        return outcome
    }

    @Test func tCyclesTheTreeTheSortedSongsAndThePlaylists() {
        let shelf = shelf()
        var view = LibraryView()
        view.refresh(shelf)
        #expect(view.layout == .tree)
        _ = press(&view, shelf, .character("t"))
        #expect(view.layout == .sorted)
        _ = press(&view, shelf, .character("t"))
        #expect(view.layout == .playlists && names(&view, shelf) == ["Calm", "Empty", "Road trip"])
        _ = press(&view, shelf, .character("t"))
        #expect(view.layout == .tree && names(&view, shelf) == ["Artist 0", "Artist 1", "Artist 2"])
    }

    @Test func enterOpensAPlaylistAndPlaysItFromASong() {
        let shelf = shelf()
        var view = playlistsView(shelf)
        _ = press(&view, shelf, .down, .down, .enter)
        #expect(names(&view, shelf) == ["Calm", "Empty", "Road trip", "  a.flac", "  b.flac", "  c.flac"])
        #expect(press(&view, shelf, .down, .down, .enter) == .command(.playSongs(["/m/b.flac", "/m/c.flac"])))
        // ← closes it, the cursor on it; Enter on another opens that one instead.
        _ = press(&view, shelf, .left)
        #expect(view.cursor == 2 && names(&view, shelf).count == 3)
        _ = press(&view, shelf, .enter, .home, .enter)
        #expect(names(&view, shelf) == ["Calm", "  d.flac", "Empty", "Road trip"])
        _ = press(&view, shelf, .enter)
        #expect(names(&view, shelf) == ["Calm", "Empty", "Road trip"])
    }

    @Test func aEAndPTakeThePlaylistOrTheSongUnderTheCursor() {
        let shelf = shelf()
        var view = playlistsView(shelf)
        let all: [Path] = ["/m/a.flac", "/m/b.flac", "/m/c.flac"]
        _ = press(&view, shelf, .end)
        #expect(press(&view, shelf, .character("a")) == .command(.appendSongs(all)))
        #expect(press(&view, shelf, .character("e")) == .command(.queueSongs(all)))
        // P on a playlist opens it as `:playlist open` does (a smart one is filled and kept).
        #expect(press(&view, shelf, .character("P")) == .command(.playlist(.open("Road trip"))))
        _ = press(&view, shelf, .enter, .down)
        #expect(press(&view, shelf, .character("e")) == .command(.queueSongs(["/m/a.flac"])))
        #expect(press(&view, shelf, .character("P")) == .command(.replaceWithSongs(["/m/a.flac"])))
        // An empty playlist gives nothing, and says so.
        _ = press(&view, shelf, .home, .down)
        #expect(press(&view, shelf, .character("a")) == .redraw && view.message == "playlist Empty is empty")
    }

    @Test func wSavesTheListRRenamesAndDDeletesOnceYConfirms() {
        let shelf = shelf()
        var view = playlistsView(shelf)
        _ = press(&view, shelf, .character("w"))
        #expect(view.typing != nil)
        for character in " Sunday " { _ = press(&view, shelf, .character(character)) }
        #expect(press(&view, shelf, .enter) == .command(.playlist(.save("Sunday"))) && view.typing == nil)
        // r offers the name to edit.
        _ = press(&view, shelf, .end, .character("r"))
        #expect(view.typing?.text == "Road trip")
        _ = press(&view, shelf, .backspace, .backspace, .backspace, .backspace)
        for character in "home" { _ = press(&view, shelf, .character(character)) }
        #expect(press(&view, shelf, .enter) == .command(.playlist(.rename("Road trip", to: "Road home"))))
        // The same name, or nothing, renames nothing; Esc leaves it.
        _ = press(&view, shelf, .character("r"))
        #expect(press(&view, shelf, .enter) == .redraw)
        _ = press(&view, shelf, .character("r"))
        #expect(press(&view, shelf, .escape) == .redraw && view.typing == nil)
        // D asks; only y deletes.
        #expect(press(&view, shelf, .character("D")) == .redraw && view.message == "delete? y deletes playlist Road trip, any other key keeps it")
        #expect(press(&view, shelf, .character("n")) == .redraw && view.message == "kept playlist Road trip")
        _ = press(&view, shelf, .character("D"))
        #expect(press(&view, shelf, .character("y")) == .command(.playlist(.delete("Road trip"))))
    }

    /// D on a song says what it deletes; a message come meanwhile withdraws the question; ←
    /// outside the open playlist leaves it open; the cursor follows a playlist saved only until
    /// the next key; a name offered for r and given back unchanged renames nothing.
    @Test func eachKeySaysWhatItDoesWhereItCannot() {
        let shelf = shelf()
        shelf.playlistSongs[" Mix"] = ["/m/outside/x.flac"]
        shelf.playlistSongs["Evil\u{1B}]2;x"] = ["/m/a.flac"]
        var view = playlistsView(shelf)
        #expect(names(&view, shelf) == [" Mix", "Calm", "Empty", "Evil\u{1B}]2;x", "Road trip"])
        _ = press(&view, shelf, .character("r"))
        #expect(view.typing?.text == " Mix")
        #expect(press(&view, shelf, .enter) == .redraw, "given back as offered: nothing to rename")
        _ = press(&view, shelf, .enter, .down)
        #expect(press(&view, shelf, .character("D")) == .redraw && view.message == "D deletes a playlist: put the cursor on one")
        #expect(press(&view, shelf, .character("3")) == .redraw && view.message == "only the library's songs are rated: this file is not in it")
        #expect(shelf.rated.isEmpty)
        // ← from a row outside the open playlist leaves it open.
        _ = press(&view, shelf, .end, .left)
        #expect(names(&view, shelf).count == 6 && view.cursor == 5)
        _ = press(&view, shelf, .home, .down, .left)
        #expect(names(&view, shelf).count == 5 && view.cursor == 0)
        // A file with a name tplayer refuses is not opened, renamed or deleted.
        _ = press(&view, shelf, .down, .down, .down)
        #expect(press(&view, shelf, .enter) == .redraw && view.message == "a playlist name cannot hold control characters: rename the file")
        #expect(press(&view, shelf, .character("D")) == .redraw && view.message?.hasSuffix("rename the file") == true)
        #expect(names(&view, shelf).count == 5)
        // The question D asks goes with a message that comes before its answer.
        _ = press(&view, shelf, .end, .character("D"))
        view.hold("Saved the list (3 songs) as playlist Sunday")
        #expect(view.message == "Saved the list (3 songs) as playlist Sunday (kept playlist Road trip: D asks again)")
        #expect(press(&view, shelf, .character("y")) == nil, "y is not taken as the answer")
        // w: the cursor goes to the new playlist once it is there, not after the next key.
        _ = press(&view, shelf, .character("w"), .character("Z"), .enter)
        shelf.playlistSongs["Z"] = []
        #expect(names(&view, shelf).last == "Z" && view.cursor == 5)
        _ = press(&view, shelf, .character("w"), .character("A"), .enter, .home)
        shelf.playlistSongs["A"] = []
        _ = names(&view, shelf)
        #expect(view.cursor == 0 && view.playlistRows.row(0)?.item.name == " Mix")
    }

    @Test func theRowsFollowTheFolderAndTheFilterNarrowsByName() {
        let shelf = shelf()
        var view = playlistsView(shelf)
        _ = press(&view, shelf, .end, .enter)
        let reads = shelf.playlistReads
        #expect(names(&view, shelf).count == 6 && shelf.playlistReads == reads, "unchanged: not read again")
        // Changed (a song added by an MPD client): its songs are read again.
        shelf.playlistSongs["Road trip"]?.append("/m/e.flac")
        shelf.playlistVersions["Road trip"] = 1
        #expect(names(&view, shelf).suffix(2) == ["  c.flac", "  e.flac"])
        // Deleted: gone, and closed.
        shelf.playlistSongs["Road trip"] = nil
        #expect(names(&view, shelf) == ["Calm", "Empty"])
        _ = press(&view, shelf, .character("/"), .character("c"), .character("A"))
        #expect(names(&view, shelf) == ["Calm"])
        // A rating is a song's.
        _ = press(&view, shelf, .enter, .home)
        #expect(press(&view, shelf, .character("3")) == .redraw && view.message == "a rating is a song's: put the cursor on one")
        _ = press(&view, shelf, .enter, .down, .character("4"))
        #expect(shelf.rated.last?.0 == "/m/d.flac" && shelf.rated.last?.1 == 4)
        #expect(view.items(from: 1, count: 1, shelf).first?.item.rating == 4)
    }

    @Test func theTitleNamesThePlaylistsAndTheirKeys() {
        let shelf = shelf()
        var view = playlistsView(shelf)
        let lines = view.lines(shelf, width: 100, height: 8, bottom: StyledLine("status"))
        #expect(lines[0].text.hasPrefix(" tplayer library: 3 playlists  ↑↓ Enter ← a e P w r D / t, Esc back"), "\(lines[0].text)")
        #expect(lines[1].text.hasPrefix("> Calm") && lines[1].text.hasSuffix("1 songs"), "\(lines[1].text)")
        shelf.playlistSongs = [:]
        let empty = view.lines(shelf, width: 100, height: 8, bottom: StyledLine("status"))
        #expect(empty[1].text.hasPrefix("  No playlists yet: w saves the list as one"), "\(empty[1].text)")
    }
}
