import Foundation
import PlayerCore
import Testing
@testable import Terminal

struct KeyMapTests {
    @Test(arguments: [
        (Key.character(" "), Command.toggle), (.character("p"), .play), (.character("s"), .stop),
        (.right, .seek(.by(.seconds(5)))), (.left, .seek(.by(.seconds(-5)))),
        (.up, .seek(.by(.seconds(60)))), (.down, .seek(.by(.seconds(-60)))),
        (.character("0"), .seek(.fraction(permyriad: 0))), (.character("7"), .seek(.fraction(permyriad: 7000))),
        (.character("g"), .seek(.to(.zero))), (.character("n"), .next), (.character("b"), .previous),
        (.character("+"), .changeVolume(by: 5)), (.character("="), .changeVolume(by: 5)),
        (.character("-"), .changeVolume(by: -5)), (.character("m"), .toggleMute), (.character("i"), .info),
        (.character("r"), .toggleRepeat), (.character("z"), .toggleShuffle), (.character("l"), .promptLoad),
        (.character("h"), .help), (.character("?"), .help), (.character("q"), .quit),
        (.tab, .listView), (.character("v"), .listView),
    ])
    func keysMapToTheirCommands(key: Key, command: Command) {
        #expect(KeyMap.command(for: key) == command)
    }

    @Test func aKeyThatMeansNothingHasNoCommand() {
        #expect(KeyMap.command(for: .character("x")) == nil)
        #expect(KeyMap.command(for: .character("x")) == nil && KeyMap.command(for: .pageUp) == nil)
    }

    @Test func theHelpListsEveryBindingAndTheReadmeShowsTheSameTable() throws {
        let lines = KeyMap.helpLines
        #expect(lines.count == 30 + 1 + 11 + 1 + 14, "the ten digits share a line; the list view's and the library view's keys follow under their headings")
        #expect(lines.contains("  space     play / pause"))
        #expect(lines.contains { $0.hasPrefix("  / ") && $0.contains("search") })
        #expect(lines.contains { $0.hasPrefix("  → ") && $0.contains("5 s forward") })
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(KeyMap.markdownTable), "README.md must show the key map's table")
        let manual = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/tplayer.1"), encoding: .utf8)
        #expect(manual.contains(KeyMap.manualList), "the manual page's KEYS must be the key map's list")
    }

    /// Every hint and help line comes from the keys in force: with cmus's, the list view's title
    /// names D (remove) and P p (move), and the help says which keys go back (it said "n d J K"
    /// where d did nothing, and "Tab, v or Esc goes back" while v paused).
    @Test func theHintsAndTheHelpFollowTheKeysInForce() {
        #expect(KeyBindings.standard.listHint == "↑↓ Enter / n d K J e l w, Tab back, h keys")
        #expect(KeyBindings.cmus.listHint == "↑↓ Enter / n D P p e l w, Tab back, h keys")
        let backLine = { (keys: KeyBindings) in keys.rows(Steps()).first { $0.help.hasPrefix("the list view") }?.help }
        #expect(backLine(.standard) == "the list view, full screen (Tab, v or Esc goes back)")
        #expect(backLine(.cmus) == "the list view, full screen (Tab, 2, 3 or Esc goes back)")
        var noAdd = KeyBindings.standard
        noAdd.unbind(.character("l"))
        #expect(noAdd.emptyListHint == "The list is empty.")
        #expect(KeyBindings.standard.emptyListHint == "The list is empty: l loads a song, folder or playlist.")
    }
}
