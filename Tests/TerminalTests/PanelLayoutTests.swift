import Testing
@testable import Terminal

struct PanelLayoutTests {
    private let keys = (1...19).map { "  key\($0)  what key \($0) does, told at some length" }

    @Test func theHelpIsOneColumnWhenItFitsAndColumnsWhenNot() {
        #expect(PanelLayout.lines(keys, width: 80, rows: 30, packed: false) == keys)
        let short = PanelLayout.lines(keys, width: 100, rows: 10, packed: false)
        #expect(short.count == 10)
        #expect(short.allSatisfy { TextWidth.columns($0) <= 99 })
        #expect(short[0].hasPrefix("  key1  ") && short[0].contains("  key11  "), "filled column by column: \(short[0])")
        #expect(short[9].hasPrefix("  key10  ") && !short[9].contains("key20"))
    }

    @Test func choicesArePackedAsLsPacksNames() {
        let names = (1...18).map { "track \($0).mp3" }
        let lines = PanelLayout.lines(names, width: 80, rows: 20, packed: true)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0] == "track 1.mp3   track 5.mp3   track 9.mp3   track 13.mp3  track 17.mp3")
        #expect(Set(lines.joined(separator: "  ").split(separator: " ", omittingEmptySubsequences: true)).count > 18)
    }

    @Test func whatDoesNotFitIsCountedAndNothingIsWiderThanTheTerminal() {
        let names = (1...500).map { "a long file name number \($0).mp3" }
        let lines = PanelLayout.lines(names, width: 60, rows: 5, packed: true)
        #expect(lines.count == 5)
        #expect(lines.last == "… and \(500 - 4 * 1) more")
        #expect(lines.allSatisfy { TextWidth.columns($0) <= 59 })
        let wide = PanelLayout.lines(["日本語のタイトル.mp3", "🎵.mp3"], width: 12, rows: 3, packed: true)
        #expect(wide.allSatisfy { TextWidth.columns($0) <= 11 })
        #expect(PanelLayout.lines([], width: 80, rows: 5, packed: true).isEmpty)
    }
}
