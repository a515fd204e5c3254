import PlayerCore
import Testing
@testable import Terminal

/// The list view's keys and rows: the cursor, the search, the edits it asks the session for,
/// and rows that fit the width whatever the titles hold.
struct ListViewTests {
    static func list(_ names: [String], current: Int? = nil, failures: [Int: String] = [:]) -> ListSnapshot {
        ListSnapshot(entries: EntryList(names.map { Entry(path: Path("/music/\($0).mp3")) }), current: current, failures: failures)
    }

    /// Types `text` at the view, a key at a time, and draws it, as the console does once the
    /// keys that came together are in.
    static func type(_ text: String, into view: inout ListView, _ list: ListSnapshot) -> [ListView.Outcome?] {
        defer { _ = view.lines(list, width: 80, height: 12, bottom: "") }
        return text.map { view.handle(.character($0), in: list, rows: 10) }
    }

    /// Where the cursor is once the view is drawn.
    static func drawnCursor(_ view: inout ListView, _ list: ListSnapshot) -> Int {
        _ = view.lines(list, width: 80, height: 12, bottom: "")
        return view.cursor
    }

    @Test func theCursorStartsOnTheSongPlayingAndStaysInTheList() {
        let list = Self.list(["a", "b", "c", "d", "e"], current: 2)
        var view = ListView(list: list)
        #expect(view.cursor == 2)
        _ = view.handle(.up, in: list, rows: 3)
        _ = view.handle(.up, in: list, rows: 3)
        _ = view.handle(.up, in: list, rows: 3)
        #expect(view.cursor == 0)
        _ = view.handle(.pageDown, in: list, rows: 3)
        #expect(view.cursor == 2, "a page is the rows shown but one")
        _ = view.handle(.end, in: list, rows: 3)
        _ = view.handle(.down, in: list, rows: 3)
        #expect(view.cursor == 4)
        _ = view.handle(.home, in: list, rows: 3)
        #expect(view.cursor == 0)
        #expect(view.handle(.right, in: list, rows: 3) == nil, "→ still seeks: not the view's key")
        #expect(view.handle(.character(" "), in: list, rows: 3) == nil)
    }

    @Test func enterDeleteAndMovesAreCommandsForTheSession() {
        let list = Self.list(["a", "b", "c"], current: 0)
        var view = ListView(list: list)
        _ = view.handle(.down, in: list, rows: 10)
        #expect(view.handle(.enter, in: list, rows: 10) == .command(.playEntry(1)))
        #expect(view.handle(.character("d"), in: list, rows: 10) == .command(.removeEntry(1)))
        #expect(view.handle(.delete, in: list, rows: 10) == .command(.removeEntry(1)))
        #expect(view.handle(.character("J"), in: list, rows: 10) == .command(.moveEntry(1, by: 1)))
        #expect(view.cursor == 2, "the cursor goes with the entry it moved")
        #expect(view.handle(.character("J"), in: list, rows: 10) == .redraw, "the last entry goes no lower")
        #expect(view.handle(.character("K"), in: list, rows: 10) == .command(.moveEntry(2, by: -1)))
        #expect(view.handle(.tab, in: list, rows: 10) == .close)
        #expect(view.handle(.escape, in: list, rows: 10) == .close)
    }

    @Test func theSearchFindsAsYouTypeInAnyCaseAndAccentAndGoesRound() {
        let list = Self.list(["01 Sigur Rós - Hoppípolla", "02 Beyoncé - Halo", "03 Björk - Jóga", "04 Beyonce - Again"])
        var view = ListView(list: list)
        _ = view.handle(.character("/"), in: list, rows: 10)
        #expect(view.isSearching)
        _ = Self.type("BEYON", into: &view, list)
        #expect(view.cursor == 1, "the first match from the cursor, as it is typed")
        _ = view.handle(.enter, in: list, rows: 10)
        #expect(!view.isSearching && view.cursor == 1)
        _ = view.handle(.character("n"), in: list, rows: 10)
        #expect(view.cursor == 3)
        _ = view.handle(.character("n"), in: list, rows: 10)
        #expect(view.cursor == 1, "round the end of the list")
        _ = view.handle(.character("N"), in: list, rows: 10)
        #expect(view.cursor == 3)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("bjork jog", into: &view, list)
        #expect(view.cursor == 3, "no match for the whole of it: the cursor stays where the search began")
        _ = view.handle(.backspace, in: list, rows: 10)
        _ = view.handle(.backspace, in: list, rows: 10)
        _ = view.handle(.backspace, in: list, rows: 10)
        _ = view.handle(.backspace, in: list, rows: 10)
        #expect(Self.drawnCursor(&view, list) == 2, "ö is found by o")
        _ = view.handle(.escape, in: list, rows: 10)
        #expect(view.cursor == 3, "Esc goes back to where the search began")
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("hoppipolla", into: &view, list)
        #expect(view.cursor == 0)
        _ = view.handle(.enter, in: list, rows: 10)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("zzz", into: &view, list)
        #expect(view.handle(.enter, in: list, rows: 10) == .say("/zzz: not found"))
    }

    /// Of keys that come together (a paste), the search is made for the text they leave, once:
    /// each key searched the whole list, so a long paste into a long list held every key.
    @Test func aPastedSearchIsSearchedOnce() {
        let list = Self.list((0..<1_000).map { "song \($0)" } + ["the needle"])
        var view = ListView(list: list)
        _ = view.handle(.character("/"), in: list, rows: 10)
        for character in "needle" { _ = view.handle(.character(character), in: list, rows: 10) }
        #expect(view.cursor == 0, "not searched while the keys come")
        #expect(Self.drawnCursor(&view, list) == 1_000)
        for character in String(repeating: "x", count: 3_000) { _ = view.handle(.character(character), in: list, rows: 10) }
        #expect(Self.drawnCursor(&view, list) == 0, "no match: back where the search began")
        _ = view.handle(.escape, in: list, rows: 10)
        _ = view.handle(.character("/"), in: list, rows: 10)
        for character in "needle" { _ = view.handle(.character(character), in: list, rows: 10) }
        #expect(view.handle(.enter, in: list, rows: 10) == .redraw)
        #expect(view.cursor == 1_000, "Enter keeps the match of what was typed, drawn or not")
    }

    @Test func aSearchReadsTheListAsItIsAfterAnEdit() {
        var list = Self.list(["a", "b"])
        var view = ListView(list: list)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("c", into: &view, list)
        _ = view.handle(.escape, in: list, rows: 10)
        list = ListSnapshot(entries: list.entries + [Entry(path: "/music/c.mp3")], edits: 1)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("c.mp3", into: &view, list)
        #expect(view.cursor == 2)
    }

    @Test func tagsReadAfterASearchAreSearchedToo() {
        var list = Self.list(["a", "b", "c"])
        var view = ListView(list: list)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("nocturne", into: &view, list)
        _ = view.handle(.escape, in: list, rows: 10)
        #expect(view.cursor == 0)
        list.known[list.entries[2].source] = SongFacts(tags: SongInfo.Tags(title: "x", artist: "y", album: "Nocturnes"), seconds: 60)
        _ = view.handle(.character("/"), in: list, rows: 10)
        _ = Self.type("nocturne", into: &view, list)
        #expect(view.cursor == 2, "the album read since is found")
    }

    @Test(arguments: [40, 60, 100, 160])
    func rowsFitTheWidthWithWideTitlesAndMarkThePlayingAndFailedOnes(width: Int) {
        var list = Self.list(["日本語のタイトル日本語のタイトル日本語のタイトル日本語のタイトル", "🎵🎸🥁🎹🎵🎸🥁🎹🎵🎸🥁🎹🎵🎸🥁🎹🎵🎸🥁🎹🎵🎸🥁🎹", "plain"],
                             current: 1, failures: [2: "no such file"])
        list.known[list.entries[1].source] = SongFacts(tags: SongInfo.Tags(title: "Emoji", artist: "Band", album: "Album"), seconds: 125)
        var view = ListView(list: list)
        let lines = view.lines(list, width: width, height: 8, bottom: "status")
        #expect(lines.count == 8 && lines.last?.text == "status")
        for line in lines { #expect(line.columns <= width - 1, "\(line.text)") }
        #expect(lines[1].text.hasPrefix("  1  日本") && (lines[1].text.contains("…") || width > 120))
        #expect(lines[2].text.hasPrefix(">▶2  Band – Emoji") && lines[2].text.hasSuffix("2:05"))
        #expect(lines[3].text.hasPrefix(" ✗3  plain"))
        if width >= 100 {
            #expect(lines[2].text.contains("Album") && lines[3].text.contains("can't play: no such file"))
        }
    }

    @Test func theRowsScrollToKeepTheCursorInView() {
        let list = Self.list((1...100).map { "song \($0)" })
        var view = ListView(list: list)
        _ = view.handle(.end, in: list, rows: 5)
        let lines = view.lines(list, width: 80, height: 7, bottom: "")
        #expect(lines[1].text.contains(" 96  song 96") && lines[5].text.hasPrefix(">") && lines[5].text.contains("100  song 100"))
    }

    @Test func tagsAndControlsInNamesAreShownNotObeyed() {
        let list = Self.list(["evil\u{1B}[2J\u{07}name"])
        var view = ListView(list: list)
        let line = view.lines(list, width: 80, height: 4, bottom: "")[1]
        #expect(!line.text.contains("\u{1B}") && !line.text.contains("\u{07}"))
    }
}

struct SearchFoldTests {
    @Test func foldsCaseAndAccentsOfLatinLettersAndKeepsOtherScripts() {
        #expect(SearchFold.fold("Sigur Rós – HOPPÍPOLLA") == Array("sigur ros – hoppipolla".utf8))
        #expect(SearchFold.fold("Straße Æon Øre Łódź") == Array("strasse aeon ore lodz".utf8))
        #expect(SearchFold.fold("e\u{301}te\u{301}") == Array("ete".utf8), "combining accents typed apart")
        #expect(SearchFold.fold("日本語 ΑΒΓ") == Array("日本語 αβγ".utf8))
        #expect(SearchFold.contains(SearchFold.fold("Beyoncé – Halo")[...], SearchFold.fold("CE – HA")))
        #expect(!SearchFold.contains(SearchFold.fold("abc")[...], SearchFold.fold("abcd")))
    }
}
