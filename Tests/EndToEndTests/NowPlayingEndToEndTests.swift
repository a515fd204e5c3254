import Foundation
import Glibc
import Testing

/// The now-playing view in a real terminal (tmux), as a person uses it: the cover drawn in block
/// symbols, the lyrics following the song through a seek and a pause, a spectrum, every size,
/// and the terminal as it was on every way out.
@Suite(.serialized, .timeLimit(.minutes(10))) struct NowPlayingEndToEndTests {
    /// Colours on (this machine runs the tests with NO_COLOR), in 24 bits.
    static let colours = ["NO_COLOR": Pane.unset, "COLORTERM": "truecolor"]
    static let lrc = "[ti:Song]\n[00:01.00]one\n[00:05.00]<00:05.00>five <00:05.50>and <00:06.00>a half\n[00:12.00]twelve\n"
        + "[00:20.00]二十秒の歌詞\n[00:30.00]thirty \u{1B}]0;pwned\u{07}\n"

    /// A 40-second FLAC, with its `.lrc` and a cover beside it unless told otherwise.
    static func album(lrc: String? = Self.lrc, cover: Bool = true, flac: [String] = []) throws -> URL {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "40", "sine", "200:2000", "gain", "-6"])
        try Harness.run("/usr/bin/flac", ["-s", "-f"] + flac + [wav, "-o", folder.appendingPathComponent("song.flac").path])
        if let lrc { try lrc.write(to: folder.appendingPathComponent("song.lrc"), atomically: true, encoding: .utf8) }
        if cover { try picture(folder.appendingPathComponent("cover.jpg").path) }
        return folder
    }

    /// ffmpeg's test picture: colour bars and a gradient, which block symbols draw in many colours.
    static func picture(_ path: String) throws {
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x320", "-frames:v", "1", path])
    }

    static let blocks = Set("▀▄█▌▐▖▗▘▝▚▞▙▟▛▜▁▂▃▅▆▇▉▊▋▍▎▏▔▕")

    /// The rows whose first `columns` cells hold block symbols, and whether those cells are coloured.
    static func coverRows(_ pane: Pane, columns: Int) throws -> (rows: Int, coloured: Bool) {
        let plain = try pane.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let styled = try pane.tmux("capture-pane", "-p", "-e").split(separator: "\n", omittingEmptySubsequences: false)
        var rows = 0, coloured = true
        for (index, line) in plain.enumerated() where line.prefix(columns).contains(where: { blocks.contains($0) }) {
            rows += 1
            coloured = coloured && index < styled.count && styled[index].contains("8;2;")
        }
        return (rows, coloured)
    }

    /// The lyric line shown highlighted (reverse video, or the enhanced form's lit words).
    static func highlighted(_ pane: Pane, among lines: [String]) throws -> String? {
        let plain = try pane.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let styled = try pane.tmux("capture-pane", "-p", "-e").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.first { text in
            guard let row = plain.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == text }), row < styled.count else { return false }
            return styled[row].contains("\u{1B}[7m") || styled[row].contains("\u{1B}[33m")
        }
    }

    static let sung = ["one", "five and a half", "twelve", "二十秒の歌詞"]

    /// Waits until `text` is the line highlighted; fails after `seconds`.
    static func waitForSung(_ pane: Pane, _ text: String, _ seconds: Double = 15, among lines: [String] = sung) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try highlighted(pane, among: lines) == text { return }
            usleep(50_000)
        }
        Issue.record("\(text) never highlighted; the screen:\n\(try pane.screen())")
        throw HarnessError.timedOut(text)
    }

    @Test func theLyricsFollowTheSongThroughASeekAndAPauseBesideTheCover() throws {
        let folder = try Self.album()
        let pane = try Pane(arguments: ["-o", "null", folder.appendingPathComponent("song.flac").path], environment: Self.colours,
                            width: 80, height: 24)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        try Self.waitForView(pane)
        // The fields beside the cover, and the cover: 18 × 9 cells of coloured block symbols.
        try pane.waitForLine { $0.contains("FLAC") && $0.contains("44100 Hz") }
        let deadline = Date().addingTimeInterval(10)
        while try Self.coverRows(pane, columns: 18).rows < 9, Date() < deadline { usleep(50_000) }
        let cover = try Self.coverRows(pane, columns: 18)
        let shown = try pane.screen()
        #expect(cover.rows == 9 && cover.coloured, "\(shown)")

        // Sung on the song's time: "one" from 1 s, the words of "five and a half" from 5 s.
        let early = try pane.waitForStatus { (Pane.elapsed($0) ?? 0) >= 1 }
        if (Pane.elapsed(early) ?? 99) < 4 { #expect(try Self.highlighted(pane, among: Self.sung) == "one") }
        try Self.waitForSung(pane, "five and a half")
        #expect(try #require(Pane.elapsed(try pane.waitForStatus { $0.hasPrefix("Playing ") })) >= 5)
        try Self.waitForSung(pane, "twelve")
        #expect(try #require(Pane.elapsed(try pane.waitForStatus { $0.hasPrefix("Playing ") })) >= 12)

        // A seek back 5 s: "five and a half" again, at once.
        try pane.send("Left")
        try pane.waitForStatus { (Pane.elapsed($0) ?? 99) < 12 }
        try Self.waitForSung(pane, "five and a half", 2)
        // Paused: the line and the time hold.
        try pane.send("Space")
        let held = try pane.waitForStatus { $0.hasPrefix("Paused ") }
        usleep(1_500_000)
        #expect(try pane.waitForStatus { $0.hasPrefix("Paused ") } == held)
        #expect(try Self.highlighted(pane, among: Self.sung) == "five and a half")
        try pane.send("Space")

        // 50 %: 20 s, a line of CJK, centred by its columns: 12 of 79, 33 before it.
        try pane.send("5")
        try Self.waitForSung(pane, "二十秒の歌詞")
        let wide = try #require(try pane.lines().first { $0.contains("二十秒の歌詞") })
        #expect(wide.prefix { $0 == " " }.count == 33, "\(wide)")
        // What a tag sends is shown, not obeyed.
        try pane.waitForLine { $0.contains("thirty \\e]0;pwned\\x07") }

        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.tmux("display", "-p", "#{alternate_on}").hasPrefix("0"))
        #expect(try pane.sttyUnchanged())
    }

    @Test func theCoverFillsItsBoxAtEachSizeAndAfterAResize() throws {
        let folder = try Self.album(lrc: nil)
        let pane = try Pane(arguments: ["-o", "null", folder.appendingPathComponent("song.flac").path], environment: Self.colours,
                            width: 200, height: 60)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        try pane.waitForLine { $0.contains("no lyrics: a .lrc beside the song") }
        func waitForCover(_ columns: Int, rows: Int) throws {
            let deadline = Date().addingTimeInterval(10)
            while try Self.coverRows(pane, columns: columns).rows != rows, Date() < deadline { usleep(50_000) }
            let cover = try Self.coverRows(pane, columns: columns)
            let shown = try pane.screen()
            #expect(cover.rows == rows && cover.coloured, "\(shown)")
        }
        // 200 × 60: a box of 46 × 23.
        try waitForCover(46, rows: 23)
        try pane.tmux("resize-window", "-x", "80", "-y", "24")
        try waitForCover(18, rows: 9)
        #expect(try pane.lines().allSatisfy { ListViewEndToEndTests.columns($0) <= 80 })
        // Too narrow for a cover: it gives way, the rest stays.
        try pane.tmux("resize-window", "-x", "40", "-y", "24")
        try pane.waitForLine { $0.hasPrefix("song.flac") }
        #expect(try Self.coverRows(pane, columns: 40).rows == 0)
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func aSongsOwnPictureAndLyricsTagAreShownWithNothingBesideIt() throws {
        let folder = try Harness.temporaryFolder()
        let picture = folder.appendingPathComponent("picture.png").path
        try Self.picture(picture)
        let song = try Self.album(lrc: nil, cover: false, flac: ["--picture=\(picture)", "-T", "LYRICS=[00:00.50]from the tag\n[00:30.00]later"])
        try FileManager.default.removeItem(atPath: picture)
        let pane = try Pane(arguments: ["-o", "null", song.appendingPathComponent("song.flac").path], environment: Self.colours,
                            width: 80, height: 24)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        let deadline = Date().addingTimeInterval(10)
        while try Self.coverRows(pane, columns: 18).rows < 9, Date() < deadline { usleep(50_000) }
        let shown = try pane.screen()
        #expect(try Self.coverRows(pane, columns: 18).rows == 9, "\(shown)")
        try Self.waitForSung(pane, "from the tag", among: ["from the tag"])
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// What a new user saw wrong: the "Next:" list named the songs by file name though they have
    /// titles (their tags are read off the main loop now, as the list view's rows are); `i` said
    /// `Track 4` for a FLAC and `2/12` for an MP3 (both say `N of M` now).
    @Test func theNextSongsAreNamedByTheirTagsAndTracksAreSaidAlike() throws {
        let folder = try Harness.temporaryFolder()
        let made = try Harness.run("/bin/sh", ["-ec", """
            sox -n -b 16 -r 44100 -c 2 tone.wav synth 30 sine 440 vol 0.3
            flac -s -T TITLE=Hyperballad -T ARTIST=Björk -T TRACKNUMBER=4 -T TRACKTOTAL=11 tone.wav -o a.flac
            lame --quiet --tt Isobel --ta Björk --tn 2/12 tone.wav b.mp3
            lame --quiet --tt "Possibly Maybe" --ta Björk tone.wav c.mp3
            """], in: folder)
        try #require(made.status == 0, "\(made.stderr)")
        let pane = try Pane(arguments: ["-o", "null"] + ["a.flac", "b.mp3", "c.mp3"].map { folder.appendingPathComponent($0).path },
                            width: 100, height: 30)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("i")
        try pane.waitForLine { $0 == "Track    4 of 11" }
        try pane.send("o")
        try pane.waitForLine { $0.contains("Björk – Isobel") }
        try pane.waitForLine { $0.contains("Björk – Possibly Maybe") }
        try pane.send("o")
        try pane.send("n")
        try pane.waitForStatus { $0.contains("Isobel") }
        try pane.send("i")
        try pane.waitForLine { $0 == "Track    2 of 12" }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// NO_COLOR: the cover in the symbols' shapes alone, no colour in it; the line sung marked by
    /// glyphs.
    @Test func withoutColoursTheCoverIsDrawnInShapes() throws {
        let folder = try Self.album()
        let pane = try Pane(arguments: ["-o", "null", folder.appendingPathComponent("song.flac").path], environment: ["NO_COLOR": "1"],
                            width: 80, height: 24)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        try Self.waitForView(pane)
        let deadline = Date().addingTimeInterval(10)
        while try Self.coverRows(pane, columns: 18).rows < 9, Date() < deadline { usleep(50_000) }
        let styled = try pane.tmux("capture-pane", "-p", "-e").split(separator: "\n", omittingEmptySubsequences: false)
        let shown = try pane.screen()
        #expect(try Self.coverRows(pane, columns: 18).rows == 9, "\(shown)")
        // The cover's rows (and the fields beside them) hold no sequence at all.
        #expect(styled.prefix(9).allSatisfy { !$0.contains("\u{1B}[") }, "no colour: \(styled.prefix(9))")
        try pane.waitForLine { $0.trimmingCharacters(in: .whitespaces) == "▶ one ◀" }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func theTerminalComesBackOnCtrlZAndCtrlC() throws {
        let folder = try Self.album()
        let config = folder.appendingPathComponent("config")
        // `view = now-playing`: open from the start.
        try "view = now-playing\n".write(to: config, atomically: true, encoding: .utf8)
        let song = folder.appendingPathComponent("song.flac").path
        let pane = try Pane(arguments: ["--config", config.path, "-o", "null", song], environment: Self.colours, width: 80, height: 24,
                            shell: true)
        try Self.waitForView(pane)
        // tplayer, in the shell's subshell: the one process naming the song.
        let player = try #require(try Harness.run("/usr/bin/pgrep", ["-f", "tplayer.*\(song)"]).stdout
            .split(separator: "\n").compactMap { pid_t($0) }.first)
        try pane.send("C-z")
        // Stopped, the normal screen back. (The shell's "Stopped" line is not looked for: the
        // subshell the pane runs it in stops at once, and the shell may print it on the view's
        // screen before tplayer leaves it.)
        let deadline = Date().addingTimeInterval(10)
        func state() -> String {
            ((try? String(contentsOfFile: "/proc/\(player)/stat", encoding: .utf8)) ?? "").split(separator: ")").last?
                .split(separator: " ").first.map(String.init) ?? ""
        }
        while Date() < deadline, try state() != "T" || !pane.tmux("display", "-p", "#{alternate_on}").hasPrefix("0") { usleep(50_000) }
        #expect(state() == "T")
        #expect(try pane.tmux("display", "-p", "#{alternate_on}").hasPrefix("0"))
        try pane.type("fg\n")
        try Self.waitForView(pane)
        try pane.send("C-c")
        #expect(try pane.waitForExit() == 130)
        #expect(try pane.tmux("display", "-p", "#{alternate_on}").hasPrefix("0"))
        #expect(try pane.sttyUnchanged())
    }

    /// Waits until the view is open: the alternate screen, showing the song's title. (The shell's
    /// echo of the command line, wrapped at 80 columns, can end a row in `song.flac` too, on the
    /// normal screen.)
    static func waitForView(_ pane: Pane) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try pane.tmux("display", "-p", "#{alternate_on}").hasPrefix("1"),
               try pane.lines().contains(where: { $0.hasSuffix("song.flac") && !Pane.isStatus($0) }) { return }
            usleep(50_000)
        }
        throw HarnessError.timedOut("the view never opened; the pane shows:\n\(try pane.screen())")
    }

    /// SIGTERM with the view open (not in a sanitizer's build, whose test runner starts the pane
    /// with the signal held).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func theTerminalComesBackOnSIGTERM() throws {
        let folder = try Self.album()
        let config = folder.appendingPathComponent("config")
        try "view = now-playing\n".write(to: config, atomically: true, encoding: .utf8)
        let song = folder.appendingPathComponent("song.flac").path
        let other = try Pane(arguments: ["--config", config.path, "-o", "null", song], environment: Self.colours, width: 80, height: 24)
        try Self.waitForView(other)
        #expect(kill(try other.playerPID(), SIGTERM) == 0)
        #expect(try other.waitForExit() == 143)
        #expect(try other.tmux("display", "-p", "#{alternate_on}").hasPrefix("0"))
        #expect(try other.sttyUnchanged())
    }

    @Test func hostileLyricsAndCoversAreSaidAndNeverStallAKey() throws {
        let folder = try Self.album(lrc: nil, cover: false)
        // 64 MB of lyrics, and a cover that is a named pipe no one writes.
        let huge = folder.appendingPathComponent("song.lrc").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        #expect(mkfifo(folder.appendingPathComponent("cover.jpg").path, 0o644) == 0)
        let pane = try Pane(arguments: ["-o", "null", folder.appendingPathComponent("song.flac").path], environment: Self.colours,
                            width: 200, height: 60)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        try pane.waitForLine { $0.contains("song.lrc: larger than 1 MB; tplayer reads lyrics of up to 1 MB") }
        try pane.waitForText("(FIFO))")
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func theSpectrumMovesWithTheMusicAndHoldsWhenPaused() throws {
        let folder = try Self.album(lrc: nil, cover: false)
        let config = folder.appendingPathComponent("config")
        try "spectrum = 24\n".write(to: config, atomically: true, encoding: .utf8)
        let pane = try Pane(arguments: ["--config", config.path, "-o", "null", folder.appendingPathComponent("song.flac").path],
                            environment: Self.colours, width: 80, height: 24)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("o")
        // Three rows of bars above the status line; the sweep's pitch rises, so they change.
        func bars() throws -> [String] { Array(try pane.screen().split(separator: "\n", omittingEmptySubsequences: false).dropLast().suffix(4).prefix(3).map(String.init)) }
        try pane.waitForLine { $0.contains("█") || $0.contains("▇") || $0.contains("▆") }
        let first = try bars()
        var moved = false
        for _ in 0..<40 where !moved {
            usleep(100_000)
            moved = try bars() != first
        }
        #expect(moved, "\(first)")
        try pane.send("Space")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        usleep(300_000)
        let paused = try bars()
        usleep(700_000)
        #expect(try bars() == paused, "held while paused")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }
}
