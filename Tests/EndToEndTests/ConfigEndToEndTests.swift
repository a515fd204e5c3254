import Foundation
import Glibc
import Testing

/// The configuration file in a real terminal: a rebound key does what the file says, the
/// settings take effect, and a file with a typo, a missing file or a FIFO never stops the player.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConfigEndToEndTests {
    static func configFolder(_ text: String) throws -> URL {
        let folder = try Harness.temporaryFolder()
        let config = folder.appendingPathComponent("tplayer")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try text.write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aReboundKeyDoesWhatTheFileSaysAndATypoIsOneLocatedLine() throws {
        let folder = try Self.configFolder("""
            # mine
            volume = 40
            volume-step = 10
            bind x next
            bind F quit
            volum = 3
            unbind h
            unbind ?
            bind H help
            colours = off
            """)
        let long = try Harness.makeSong(seconds: 60, in: folder, name: "minute.mp3")
        let pane = try Pane(arguments: ["-o", "null", long, Harness.songs[1]],
                            environment: ["XDG_CONFIG_HOME": folder.path, "NO_COLOR": Pane.unset])
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/2") && $0.contains("vol 40%") && $0.hasSuffix("H: keys") }
        try pane.waitForText("/tplayer/config:6:1: unknown setting \"volum\"; did you mean \"volume\"?")
        #expect(!(try pane.tmux("capture-pane", "-p", "-e")).contains("\u{1B}[3"), "colours = off: no colours")
        try pane.send("x")
        try pane.waitForStatus { $0.contains("2/2") }
        try pane.send("+")
        try pane.waitForStatus { $0.contains("vol 50%") }
        try pane.send("H")
        try pane.waitForLine { $0.contains("n x N     next in the list") }
        try pane.waitForLine { $0.contains("q F       quit") }
        try pane.waitForLine { $0.contains("volume up 10 %") }
        try pane.waitForLine { $0.contains("H         show these keys") }
        try pane.send("F")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// Ctrl-letters, function keys, Alt-letters and modified arrows, as tmux sends them, do
    /// what the file binds them to (the settings refused `ctrl-n` and `F5` as unknown keys, and
    /// the terminal's Ctrl-Right was read as a plain →).
    @Test func ctrlAltFunctionAndModifiedKeysCanBeBound() throws {
        let folder = try Self.configFolder("""
            bind ctrl-n next
            bind ^B previous
            bind f5 mute
            bind alt-x volume-down
            bind ctrl-right seek-forward-long
            """)
        let songs = try (1...3).map { try Harness.makeSong(seconds: 120, in: folder, name: "song-\($0).mp3") }
        let pane = try Pane(arguments: ["-o", "null"] + songs, environment: ["XDG_CONFIG_HOME": folder.path])
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/3") }
        try pane.send("C-n")
        try pane.waitForStatus { $0.contains("2/3") }
        try pane.send("C-b")
        try pane.waitForStatus { $0.contains("1/3") }
        try pane.send("F5")
        try pane.waitForStatus { $0.contains("muted") }
        try pane.send("F5")
        try pane.send("M-x")
        try pane.waitForStatus { $0.contains("vol 95%") }
        try pane.send("C-Right")
        try pane.waitForStatus { (Pane.elapsed($0) ?? 0) >= 60 }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func theMpvKeysAndNoConfig() throws {
        let folder = try Self.configFolder("keys = mpv\n")
        let long = try Harness.makeSong(seconds: 60, in: folder, name: "minute.mp3")
        let pane = try Pane(arguments: ["-o", "null", long, Harness.songs[1]],
                            environment: ["XDG_CONFIG_HOME": folder.path, "NO_COLOR": Pane.unset])
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/2") }
        #expect(try pane.tmux("capture-pane", "-p", "-e").contains("\u{1B}[3"), "colours by default, where the terminal has them")
        try pane.send(">")
        try pane.waitForStatus { $0.contains("2/2") }
        try pane.send("9")
        try pane.waitForStatus { $0.contains("vol 95%") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)

        let plain = try Pane(arguments: ["--no-config", "-o", "null", long, Harness.songs[1]],
                             environment: ["XDG_CONFIG_HOME": folder.path])
        try plain.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/2") }
        try plain.send("9")
        try plain.waitForStatus { $0.contains("vol 100%") && (Pane.elapsed($0) ?? 0) >= 50 }
        try plain.send("q")
        #expect(try plain.waitForExit() == 0)
    }

    /// `resume = off`: a bare `tplayer` in a terminal does not pick up the saved session (it
    /// asks for an input, as with none saved); `--resume` still does.
    @Test func resumeOffLeavesTheSavedSessionAlone() throws {
        let folder = try Self.configFolder("resume = off\n")
        let environment = ["XDG_CONFIG_HOME": folder.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let first = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: environment)
        try first.waitForStatus { $0.hasPrefix("Playing ") }
        try first.send("q")
        #expect(try first.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state/tplayer/last-session").path))
        let bare = try Pane(arguments: [], environment: environment)
        try bare.waitForText("no INPUT given")
        #expect(try bare.waitForExit() == 64)
        let resumed = try Pane(arguments: ["-o", "null", "--resume"], environment: environment)
        try resumed.waitForStatus { $0.hasPrefix("Playing ") || $0.hasPrefix("Paused ") }
        try resumed.send("q")
        #expect(try resumed.waitForExit() == 0)
    }

    /// `--config` naming nothing, or a FIFO: one line, and the song plays with tplayer's own settings.
    @Test func aMissingOrFIFOConfigIsSaidAndThePlayerPlaysOn() throws {
        let folder = try Harness.temporaryFolder()
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, said) in [(folder.appendingPathComponent("gone").path, "no such file"), (fifo, "not a regular file")] {
            let result = try Harness.tplayer("--config", path, "-o", "null", Harness.songs[0])
            #expect(result.status == 0)
            #expect(result.stderr.contains("tplayer: --config \(path): \(said)") && result.stderr.contains("playing with tplayer's own settings"),
                    "\(result.stderr)")
        }
        let both = try Harness.tplayer("--config", fifo, "--no-config", Harness.songs[0])
        #expect(both.status == 64 && both.stderr.contains("--config and --no-config say different things"))
    }
}
