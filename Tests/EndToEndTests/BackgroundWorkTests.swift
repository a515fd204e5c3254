import Foundation
import Glibc
import Testing

/// A folder walk or a Tab listing never holds the keys: it runs on a helper thread of its own
/// ("tplayer-work"), and a key pressed meanwhile is answered while that thread still works.
/// Before, Tab in a folder of 200,000 files held every key for seconds, and `-R`'s `L /` or
/// MPRIS's `OpenUri file:///` walked the whole file system (with /proc) on the main loop.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct BackgroundWorkEndToEndTests {
    /// A folder of 200,000 empty `.mp3` files, made once and kept for later runs (made under
    /// a private name and renamed into place, so parallel runs never see half of it).
    static let bigFolder: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-tests-folder-of-200000-songs").path
        if FileManager.default.fileExists(atPath: path + "/f200000.mp3") { return path }
        _ = try? Harness.run("/bin/sh", ["-c", """
            part=$(mktemp -d '\(path).XXXXXX') && cd "$part" && seq -f 'f%06g.mp3' 200000 | xargs touch \\
              && chmod 755 "$part" && { mv -T "$part" '\(path)' 2>/dev/null || rm -rf "$part"; }
            """])
        return path
    }()

    /// Whether process `pid` has a thread named `name` now.
    static func hasThread(_ pid: pid_t, named name: String) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return false }
        return tasks.contains { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    @Test func tabInAHugeFolderLeavesTheKeysAnswered() throws {
        let folder = Self.bigFolder
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]])
        try pane.waitForStatus { $0.hasPrefix("Playing") }
        let pid = try pane.playerPID()
        try pane.type("l")
        try pane.type(folder + "/f")
        try pane.send("Tab")
        try pane.send("Escape")
        try pane.type("s")
        try pane.waitForStatus(30) { $0.hasPrefix("Paused") }
        #expect(Self.hasThread(pid, named: "tplayer-work"), "the listing was still under way when the key was answered")
        try pane.type("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// mpg123's LOAD plays one stream: a folder is an error at once, never a walk; LOADLIST of
    /// a huge tree holds the lines after it, as in mpg123, but QUIT ends it.
    @Test func remoteLoadOfAFolderIsOneErrorAndQuitEndsAListRead() throws {
        let folder = Self.bigFolder
        let commands = RemoteTests.send("L /", "LL 1 \(folder)") + ["sleep 0.5"] + RemoteTests.send("Q")
        let result = try RemoteTests.drive("'\(Harness.binary)' -R -o null", commands)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map(String.init)
            == ["@R MPG123 (ThOr) v10", "@E Error opening stream: /", "@P 0"])
        #expect(result.stderrLines == ["tplayer: /: is a directory, not a song"])
    }

    @Test func mprisOpenUriOfAHugeFolderLeavesTheBusAnswered() throws {
        let folder = Self.bigFolder
        let state = try Harness.temporaryFolder()
        let socket = "tplayer-openuri-\(getpid())"
        let script = """
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_STATE_HOME='\(state.path)' exec '\(Harness.binary)' -o null '\(Harness.songs[1])' 2>/dev/null"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            pid=$(tmux -L \(socket) display-message -p '#{pane_pid}')
            # OpenUri is answered once the folder is walked; meanwhile the bus is answered.
            dbus-send --print-reply --dest=org.mpris.MediaPlayer2.tplayer /org/mpris/MediaPlayer2 \\
              org.mpris.MediaPlayer2.Player.OpenUri string:file://\(folder) > /dev/null 2>&1 &
            sleep 0.5
            echo "status $(playerctl -p tplayer status)"
            echo "working $(cat /proc/$pid/task/*/comm | grep -c tplayer-work)"
            tmux -L \(socket) send-keys q; sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("status Playing"), "\(result.stdout)")
        #expect(lines.contains("working 1"), "the walk was still under way: \(result.stdout)")
    }

    /// Memory that `ulimit -v` keeps from tplayer is said in one line, whatever runs out first
    /// (a thread's stack, a huge folder's listing): never a crash (it was a SIGABRT). The limits
    /// are set above the address space the binary needs to start at all (its libraries, mapped:
    /// a megabyte more of code moved a fixed 30 MB limit from "cannot start the playback thread"
    /// to a failed allocation before main).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil,
                   "a sanitizer reserves terabytes of address space: the limit is for plain builds"),
          arguments: [4, 32])
    func aTightMemoryLimitIsOneLineNotACrash(megabytesOver: Int) throws {
        let starts = { (kilobytes: Int) in
            (try? Harness.run("/bin/sh", ["-c", "ulimit -v \(kilobytes); exec '\(Harness.binary)' --version"]))?.status == 0
        }
        let base = try #require(stride(from: 16 << 10, through: 256 << 10, by: 1 << 10).first(where: starts))
        let kilobytes = base + megabytesOver << 10
        let result = try Harness.run("/bin/sh", ["-c", "ulimit -v \(kilobytes); exec '\(Harness.binary)' -q -o null '\(Self.bigFolder)'"])
        #expect(result.status == 1, "at \(kilobytes) KB (it starts from \(base) KB)")
        #expect(result.stderrLines.count == 1, "\(result.stderr.prefix(2000))")
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: ") && line.contains("not enough memory") && line.contains("by ulimit -v"), "\(line)")
    }
}
