import Foundation
import Glibc
import Testing

/// The list view in a real terminal (tmux), as a person uses it: open it, search, play an entry,
/// take out the song playing, move an entry, resize the window, go back; and 100,000 entries.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ListViewEndToEndTests {
    /// Columns as a terminal draws these lines: CJK and emoji two, everything else here one.
    static func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { sum, scalar in
            let wide = (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
                || (0x1F300...0x1FAFF).contains(scalar.value)
            return sum + (wide ? 2 : 1)
        }
    }

    @Test func searchPlayDeleteThePlayingEntryMoveResizeAndGoBack() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try ["01-Alpha.mp3", "02-Beyoncé Halo.mp3", "03-日本語のタイトル日本語のタイトル.mp3", "04-Delta.mp3"]
            .map { try Harness.makeSong(seconds: 30, in: folder, name: $0) }
        // From an interactive shell, as a person runs it: Ctrl-C reaches the whole job, and a
        // plain `sh` running it would end on it.
        let pane = try Pane(arguments: ["-o", "null"] + songs, width: 100, height: 12, shell: true)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/4") }
        try pane.send("Tab")
        try pane.waitForLine { $0.contains("4 in the list") }
        try pane.waitForLine { $0.hasPrefix(">▶1  01-Alpha.mp3") }

        // `/` searches as it is typed, whatever the case and the accents.
        try pane.type("/BEYONCE")
        try pane.waitForLine { $0.hasPrefix("> 2  02-Beyoncé Halo.mp3") }
        // Ctrl-C at the search prompt cancels the search, not the player.
        try pane.send("C-c")
        try pane.waitForLine { $0.hasPrefix(">▶1  01-Alpha.mp3") }
        try pane.type("/BEYONCE")
        try pane.waitForLine { $0.hasPrefix("> 2  02-Beyoncé Halo.mp3") }
        try pane.send("Enter")
        try pane.send("Enter")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("2/4") && $0.contains("Beyoncé") }
        try pane.waitForLine { $0.hasPrefix(">▶2") }

        // Taking out the song playing: the next one plays, and the list closes up.
        try pane.send("d")
        try pane.waitForLine { $0.contains("3 in the list") }
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("2/3") && $0.contains("日本語") }
        #expect(!(try pane.screen()).contains("Beyoncé"))

        // K moves the entry under the cursor up; the song playing stays playing, its place follows.
        try pane.send("K")
        try pane.waitForLine { $0.hasPrefix(">▶1  03-日本語") }
        try pane.waitForLine { $0.hasPrefix("  2  01-Alpha.mp3") }
        try pane.waitForStatus { $0.contains("1/3") }

        // Arrows move the cursor here; they do not seek.
        let before = try #require(Pane.elapsed(try pane.waitForStatus { $0.hasPrefix("Playing ") }))
        try pane.send("Down")
        try pane.waitForLine { $0.hasPrefix("> 2  01-Alpha.mp3") }
        #expect(try #require(Pane.elapsed(try pane.waitForStatus { $0.hasPrefix("Playing ") })) < before + 5)

        // `h` in the view shows its own keys first; any key goes back to the list.
        try pane.send("h")
        try pane.waitForLine { $0.hasPrefix("Keys in the list view") }
        // Packed in six columns at 100 × 12: each cut to fit.
        try pane.waitForLine { $0.contains("/         sear") }
        try pane.send("Escape")
        try pane.waitForLine { $0.contains("3 in the list") }

        // At 40 columns every row is cut to fit, the wide title with …
        try pane.resize(width: 40)
        try pane.waitForLine { $0.hasPrefix(" ▶1  03-日本語") && $0.contains("…") }
        for line in try pane.lines() { #expect(Self.columns(line) <= 39, "\(line)") }

        try pane.send("Tab")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        usleep(300_000)
        #expect(!(try pane.screen()).contains("in the list"), "the normal screen is back")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
        #expect(!(try pane.screen()).contains("Playing "))
    }

    /// Keys that come together with the one that opens the view (a paste, a fast typist) all
    /// count: Tab ↓ sent at once lands one past the song playing, and Tab Home Enter plays the
    /// first entry (the view opened on an empty list, the cursor on entry 1, and the keys were lost).
    /// `e` queues the entry under the cursor: it is marked with its place in the queue, the
    /// status line counts it, and it plays when the song playing ends; `R` and `C` show too.
    @Test func queuedEntriesAreMarkedAndPlayNext() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try ["01-Alpha.mp3", "02-Bravo.mp3", "03-Charlie.mp3", "04-Delta.mp3"]
            .map { try Harness.makeSong(seconds: 2, in: folder, name: $0) }
        let pane = try Pane(arguments: ["-o", "null"] + songs, width: 100, height: 12)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/4") }
        try pane.send("Tab")
        try pane.waitForLine { $0.hasPrefix(">▶1  01-Alpha.mp3") }
        try pane.send("End")
        try pane.send("e")
        try pane.waitForLine { $0.hasPrefix("> 4  (1) 04-Delta.mp3") }
        try pane.send("Up")
        try pane.send("e")
        try pane.waitForLine { $0.hasPrefix("> 3  (2) 03-Charlie.mp3") }
        try pane.waitForStatus { $0.contains("[2 queued]") }
        try pane.send("e")
        try pane.waitForLine { $0.hasPrefix("> 3  03-Charlie.mp3") }
        try pane.send("R")
        try pane.send("C")
        try pane.waitForStatus { $0.contains("[repeat one 1 queued stop after]") }
        try pane.send("R")
        try pane.send("C")
        try pane.waitForStatus { $0.contains("4/4") && !$0.contains("stop after") }
        try pane.waitForLine { $0.contains("▶4  04-Delta.mp3") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func keysThatComeWithTheOneThatOpensTheViewAllCount() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try (1...5).map { try Harness.makeSong(seconds: 30, in: folder, name: "song-\($0).mp3") }
        let pane = try Pane(arguments: ["-o", "null"] + songs, width: 100, height: 12)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/5") }
        try pane.send("n")
        try pane.send("n")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("3/5") }
        try pane.type("\t\u{1B}[B")
        try pane.waitForLine { $0.hasPrefix("> 4  song-4.mp3") }
        try pane.send("Tab")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("3/5") }
        try pane.type("\t\u{1B}[H\r")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/5") && $0.contains("song-1") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// `l` adds after the cursor; `w` saves the list as a new M3U8 that plays back the same
    /// list, and never over a file that is there.
    @Test func addAfterTheCursorAndSaveTheListNeverOverAFile() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try ["a.mp3", "b.mp3", "c.mp3"].map { try Harness.makeSong(seconds: 30, in: folder, name: $0) }
        try Data("mine\n".utf8).write(to: folder.appendingPathComponent("taken.m3u8"))
        let pane = try Pane(arguments: ["-o", "null", songs[0], songs[1]], width: 100, height: 12)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/2") }
        try pane.send("Tab")
        try pane.waitForLine { $0.contains("2 in the list") }
        try pane.send("l")
        try pane.waitForLine { $0.hasPrefix("Add after 1: ") }
        try pane.type(songs[2])
        try pane.send("Enter")
        try pane.waitForLine { $0.contains("3 in the list") }
        try pane.waitForLine { $0.hasPrefix("  2  c.mp3") }
        try pane.send("w")
        try pane.type(folder.appendingPathComponent("saved").path)
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("Saved the list (3 entries) to ") }
        let saved = try String(contentsOf: folder.appendingPathComponent("saved.m3u8"), encoding: .utf8)
        #expect(saved == "#EXTM3U\n" + [songs[0], songs[2], songs[1]].map { $0 + "\n" }.joined())
        try pane.send("w")
        try pane.type(folder.appendingPathComponent("taken.m3u8").path)
        try pane.send("Enter")
        try pane.waitForLine { $0.contains("taken.m3u8: a file is there") }
        #expect(try String(contentsOf: folder.appendingPathComponent("taken.m3u8"), encoding: .utf8) == "mine\n")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
        // The saved list plays back as the same list.
        let check = try Harness.tplayer("--check", folder.appendingPathComponent("saved.m3u8").path)
        #expect(check.status == 0 && check.stdout.contains("ok, 3 songs"), "\(check.stdout)\(check.stderr)")
    }

    /// Songs not yet played show their tags and length, read from their headers off the main
    /// loop, and their albums are searched.
    @Test func theRowsShowTagsAndLengthsOfSongsNotYetPlayed() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "75", "sine", "440"])
        var songs: [String] = []
        for (index, (artist, title, album)) in [("Björk", "Jóga", "Homogenic"), ("Sigur Rós", "Hoppípolla", "Takk"),
                                                 ("坂本龍一", "戦場のメリークリスマス", "Coda")].enumerated() {
            let song = folder.appendingPathComponent("\(index).mp3").path
            try Harness.run("/usr/bin/lame", ["--quiet", "--add-id3v2", "--ta", artist, "--tt", title, "--tl", album, wav, song])
            songs.append(song)
        }
        let pane = try Pane(arguments: ["-o", "null"] + songs, width: 100, height: 10)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("n")
        try pane.waitForStatus { $0.contains("2/3") }
        // The view opens with its cursor on the song playing.
        try pane.send("Tab")
        try pane.waitForLine { $0.hasPrefix(">▶2  Sigur Rós – Hoppípolla") }
        try pane.waitForLine { $0.hasPrefix("  1  Björk – Jóga") && $0.contains("Homogenic") && $0.hasSuffix("1:15") }
        try pane.waitForLine { $0.hasPrefix("  3  坂本龍一 – 戦場のメリークリスマス") && $0.contains("Coda") }
        try pane.type("/homogenic")
        try pane.waitForLine { $0.hasPrefix("> 1  Björk") }
        try pane.send("Escape")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func aHundredThousandEntriesScrollSearchAndPlay() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 30, in: folder)
        var m3u = "#EXTM3U\n"
        for index in 1...100_000 { m3u += "#EXTINF:30,Track \(index)\n\(song)\n" }
        let list = folder.appendingPathComponent("big.m3u").path
        try m3u.write(toFile: list, atomically: true, encoding: .utf8)
        let pane = try Pane(arguments: ["-o", "null", list], width: 100, height: 20)
        try pane.waitForStatus(30) { $0.hasPrefix("Playing ") && $0.contains("1/100000") }
        try pane.send("Tab")
        try pane.waitForLine { $0.contains("100000 in the list") }
        try pane.send("End")
        try pane.waitForLine { $0.hasPrefix("> 100000  Track 100000") }
        try pane.send("PageUp")
        try pane.waitForLine { $0.hasPrefix(">  99983  Track 99983") }
        try pane.type("/track 54321")
        try pane.waitForLine(20) { $0.hasPrefix(">  54321  Track 54321") }
        try pane.send("Enter")
        try pane.send("Enter")
        try pane.waitForStatus { $0.contains("54321/100000") && $0.contains("Track 54321") }
        try pane.send("d")
        try pane.waitForLine { $0.contains("99999 in the list") }
        try pane.waitForStatus { $0.contains("54321/99999") && $0.contains("Track 54322") }
        // The list (its bytes and 28 bytes an entry) and every entry's search text (its bytes
        // and 16): 44 MB at the most here in a debug build, 38 MB in a release one (cmus: 60 MB
        // after :pl-import). A sanitizer's own memory is not the player's.
        let status = try String(contentsOfFile: "/proc/\(try pane.playerPID())/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        if ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil {
            #expect(peak > 0 && peak < 64 << 10, "the list view's peak: \(peak) KB")
        }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }
}
