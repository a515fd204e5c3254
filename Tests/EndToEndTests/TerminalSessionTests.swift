import Foundation
import Glibc
import Testing

/// tplayer in a real terminal: tmux runs it, `send-keys` types, `capture-pane` reads the screen.
@Suite(.serialized) struct TerminalSessionTests {
    /// One tmux server of its own, running a shell script that records `stty -a` around tplayer.
    final class Pane {
        let socket = "tplayer-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let folder: URL

        init(arguments: [String], environment: [String: String] = [:]) throws {
            folder = try Harness.temporaryFolder()
            let quoted = ([Harness.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let exports = environment.map { "export \($0.key)='\($0.value)'" }.joined(separator: "\n")
            let script = """
                \(exports)
                stty -a > '\(folder.path)/stty.before'
                \(quoted)
                echo $? > '\(folder.path)/status'
                stty -a > '\(folder.path)/stty.after'
                sleep 60
                """
            try script.write(to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
            try Harness.run("/usr/bin/tmux", ["-L", socket, "new-session", "-d", "-x", "100", "-y", "20",
                                              "sh '\(folder.path)/run.sh'"], detached: true)
        }

        deinit { _ = try? Harness.run("/usr/bin/tmux", ["-L", socket, "kill-server"], detached: true) }

        @discardableResult
        func tmux(_ arguments: String...) throws -> String {
            try Harness.run("/usr/bin/tmux", ["-L", socket] + arguments).stdout
        }

        func screen() throws -> String { try tmux("capture-pane", "-p") }

        func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

        private func tmux(_ arguments: [String]) throws {
            try Harness.run("/usr/bin/tmux", ["-L", socket] + arguments)
        }

        /// Waits until the screen shows a line matching `predicate`; fails after `seconds`.
        func waitForLine(_ seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let line = try screen().split(separator: "\n").map(String.init).first(where: predicate) { return line }
                usleep(50_000)
            }
            throw HarnessError.timedOut("screen never showed the line; it shows:\n\(try screen())")
        }

        /// The exit status tplayer left, once it has exited.
        func waitForExit(_ seconds: Double = 10) throws -> Int32 {
            let path = folder.appendingPathComponent("status").path
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: path, encoding: .utf8),
                   let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    usleep(100_000)  // let the script record stty.after
                    return status
                }
                usleep(50_000)
            }
            throw HarnessError.timedOut("tplayer did not exit")
        }

        func sttyUnchanged() throws -> Bool {
            let before = try String(contentsOf: folder.appendingPathComponent("stty.before"), encoding: .utf8)
            let after = try String(contentsOf: folder.appendingPathComponent("stty.after"), encoding: .utf8)
            return !before.isEmpty && before == after
        }

        /// tplayer's process id, found as the pane shell's child.
        func playerPID() throws -> pid_t {
            let shell = try tmux("display-message", "-p", "#{pane_pid}").trimmingCharacters(in: .whitespacesAndNewlines)
            let children = try Harness.run("/usr/bin/pgrep", ["-P", shell]).stdout
            return try #require(children.split(separator: "\n").compactMap { pid_t($0) }.first)
        }
    }

    @Test func spaceStopsAndPlaysAndQQuitsAndTheTerminalIsAsBefore() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]])
        let playing = try pane.waitForLine { $0.hasPrefix("Play ") }
        #expect(playing.contains("tplayer demo band – Night Drive"))
        #expect(playing.contains("/ 0:10 ["))
        try pane.send("Space")
        _ = try pane.waitForLine { $0.hasPrefix("Stop ") }
        // Stopped: the position holds still.
        let held = try pane.waitForLine { $0.hasPrefix("Stop ") }
        usleep(1_200_000)
        #expect(try pane.waitForLine { $0.hasPrefix("Stop ") } == held)
        try pane.send("Space")
        _ = try pane.waitForLine { $0.hasPrefix("Play ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
        #expect(!(try pane.screen()).contains("Play "), "the status line is cleared on exit")
    }

    @Test func sigtermMidSongRestoresTheTerminal() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]])
        _ = try pane.waitForLine { $0.hasPrefix("Play ") }
        kill(try pane.playerPID(), SIGTERM)
        #expect(try pane.waitForExit() == 128 + SIGTERM)
        #expect(try pane.sttyUnchanged())
    }

    @Test func theLoadPromptPlaysTheTypedPathAndEscCancels() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]])
        _ = try pane.waitForLine { $0.contains("Morning Arpeggio") }
        try pane.send("l")
        try pane.send("-l", "nothing")
        _ = try pane.waitForLine { $0 == "Load: nothing_" }
        try pane.send("Escape")
        _ = try pane.waitForLine { $0.hasPrefix("Play ") && $0.contains("Morning Arpeggio") }
        try pane.send("l")
        try pane.send("-l", Harness.songs[2])
        try pane.send("Enter")
        _ = try pane.waitForLine { $0.hasPrefix("Play ") && $0.contains("Tiny Waltz") }
        try pane.send("h")
        _ = try pane.waitForLine { $0.contains("space  play / stop") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func nextMovesOnAndTheLastSongEndingExits() throws {
        let folder = try Harness.temporaryFolder()
        let short = try Harness.makeSong(seconds: 1, in: folder)
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0], short])
        _ = try pane.waitForLine { $0.contains("1/2") }
        try pane.send("n")
        _ = try pane.waitForLine { $0.contains("2/2") && $0.contains("short.mp3") }
        #expect(try pane.waitForExit() == 0, "tplayer exits when the last song ends")
        #expect(try pane.sttyUnchanged())
    }

    @Test func repeatAndShuffleKeysShowInTheStatusLineAndKeepOpenStaysAtTheEnd() throws {
        let pane = try Pane(arguments: ["-o", "null", "--keep-open"] + Harness.songs)
        _ = try pane.waitForLine { $0.hasPrefix("Play ") && $0.contains(" 1/3 ") }
        try pane.send("r")
        _ = try pane.waitForLine { $0.contains(" 1/3 [repeat] ") }
        try pane.send("z")
        // Shuffle keeps the song playing; it stays 1 of the (new) order.
        _ = try pane.waitForLine { $0.contains(" 1/3 [repeat shuffle] tplayer demo band – Morning") }
        try pane.send("r")
        try pane.send("z")
        _ = try pane.waitForLine { $0.contains(" 1/3 tplayer demo band – Morning") }
        try pane.send("n")
        try pane.send("n")
        _ = try pane.waitForLine { $0.contains(" 3/3 ") && $0.contains("Tiny Waltz") }
        try pane.send("n")  // past the end with --keep-open: stop on the last song, rewound
        let held = try pane.waitForLine { $0.hasPrefix("Stop ") && $0.contains(" 3/3 ") }
        #expect(held.contains("0:00 / 0:10"))
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func aKeyTakesOverFromAScript() throws {
        let folder = try Harness.temporaryFolder()
        let script = folder.appendingPathComponent("long.tps")
        try Data("add \(Harness.songs[0])\nadd \(Harness.songs[1])\nplay\nwait 1m\nquit\n".utf8).write(to: script)
        let pane = try Pane(arguments: ["-o", "null", "--script", script.path])
        _ = try pane.waitForLine { $0.hasPrefix("Play ") && $0.contains("Morning Arpeggio") }
        try pane.send("n")
        _ = try pane.waitForLine { $0.contains("the script stops before line 5; the keys have control") }
        _ = try pane.waitForLine { $0.hasPrefix("Play ") && $0.contains("Night Drive") }
        try pane.send("Space")
        _ = try pane.waitForLine { $0.hasPrefix("Stop ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func tagsThatTryToTakeOverTheTerminalAreShownInstead() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        let song = folder.appendingPathComponent("evil.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "3", "sine", "440"])
        // The title retitles the window (OSC 2) and clears the screen (ED 2) if sent raw.
        try Harness.run("/usr/bin/lame", ["--quiet", "--add-id3v2", "--tt", "\u{1B}]2;pwned\u{07}\u{1B}[2Jevil",
                                          "--ta", "band\u{9B}7m", wav, song])
        let pane = try Pane(arguments: ["-o", "null", song])
        let line = try pane.waitForLine { $0.hasPrefix("Play ") }
        #expect(line.contains("band\\u{9b}7m – \\e]2;pwned\\x07\\e[2J"))
        let title = try pane.tmux("display-message", "-p", "#{pane_title}")
        #expect(!title.contains("pwned"), "the window title is untouched")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }
}
