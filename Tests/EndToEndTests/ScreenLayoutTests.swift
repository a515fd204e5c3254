import Foundation
import Testing

/// The screen's rough edges, in a real terminal (tmux): panels that fit a short window, that go
/// away whole after a resize, Tab's choices in columns, Ctrl-C at the prompt, the keys hint.
@Suite(.timeLimit(.minutes(10))) struct ScreenLayoutTests {
    /// At 12 rows the help scrolled its first keys off the top: now it is laid out in columns,
    /// every key on screen with the status line.
    @Test func theHelpFitsTwelveRows() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], width: 100, height: 12)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("h")
        try pane.waitForLine { $0 == "Keys (the list view's and the library view's own: h there):" }
        let screen = try pane.screen()
        for key in ["space     play / pause", "→         5 s forward", "0 … 9     jump", "m         mute", "i         the song",
                    "l         load", "h ?       show these keys", "q         quit"] {
            #expect(screen.contains(key), "\(key)")
        }
        // The status line stays below the help (waited for: the panel and the status line are
        // drawn apart, and a busy machine's capture could fall between them).
        _ = try pane.waitForStatus { _ in true }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// Narrowed while the details were shown, the terminal wrapped their lines onto more rows
    /// and the next key took away too few: lines of `i` stayed on screen.
    @Test func theDetailsGoWholeAfterAResize() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0], Harness.songs[1]], width: 120)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        // Twice: shown wide, narrowed, then a key (a pause, then a play) takes the panel away.
        for (wide, narrow, key, state) in [(120, 40, "s", "Paused "), (100, 30, "p", "Playing ")] {
            try pane.resize(width: wide)
            try pane.send("i")
            try pane.waitForLine { $0.hasPrefix("Title    Morning Arpeggio") }
            try pane.waitForLine { $0.hasPrefix("Stream   MPEG 1 layer III, 128 kbit/s CBR, 44100 Hz, joint stereo") }
            try pane.resize(width: narrow)
            try pane.waitForLine { $0.hasPrefix("Stream   MPEG 1 layer III") && $0.hasSuffix("…") }
            try pane.send(key)
            try pane.waitForStatus { $0.hasPrefix(state) }
            let lines = try pane.lines().filter { !$0.isEmpty }
            #expect(lines.count == 1, "only the status line is left at \(narrow) columns: \(lines)")
        }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// Tab's choices are listed in columns, as a shell lists them, and go with the next key
    /// (they stayed above the status line, all on one cut line).
    @Test func tabListsItsChoicesInColumnsUntilTheNextKey() throws {
        let folder = try Harness.temporaryFolder()
        let names = (1...18).map { "track \($0 < 10 ? "0" : "")\($0).mp3" }
        for name in names {
            try FileManager.default.copyItem(atPath: Harness.songs[2], toPath: folder.appendingPathComponent(name).path)
        }
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], width: 80)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("l")
        try pane.waitForLine { $0 == "Load: _" }
        try pane.type(folder.path + "/t")
        try pane.send("Tab")
        try pane.waitForLine { $0 == "Load: \(folder.path)/track _" }
        let screen = try pane.screen()
        for name in names { #expect(screen.contains(name), "\(name)") }
        let rows = try pane.lines().filter { $0.hasPrefix("track ") }
        #expect(rows.count < 18 && rows.allSatisfy { $0.count <= 79 }, "\(rows)")
        try pane.send("Escape")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        #expect(!(try pane.screen()).contains("track 01.mp3"), "the choices went with the prompt")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// Ctrl-C at the `l` prompt cancels the prompt, as a shell does (it quit the player, 130);
    /// without a prompt it quits. Run from an interactive shell, as a person does: a plain `sh`
    /// running it would itself end on the first Ctrl-C once tplayer exits.
    @Test func ctrlCAtThePromptCancelsItAndTheSongGoesOn() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], shell: true)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("l")
        try pane.type("half typed")
        try pane.waitForLine { $0 == "Load: half typed_" }
        try pane.send("C-c")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        #expect(!(try pane.screen()).contains("Load:"))
        try pane.send("s")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("C-c")
        #expect(try pane.waitForExit() == 130)
        #expect(try pane.sttyUnchanged())
    }

    /// An interactive run says where the keys are until the first key.
    @Test func theStatusLineSaysHKeysUntilTheFirstKey() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], width: 120)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.hasSuffix("  h: keys") }
        try pane.send("s")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        #expect(!(try pane.screen()).contains("h: keys"))
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }
}
