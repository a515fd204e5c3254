import Foundation
import Glibc
import Testing

/// What a server does to hold the player (issue 50): a playlist whose body ends when the
/// connection closes, a server that accepts and never answers, one that sends a byte a second.
/// Each is said in one line and left, promptly; no command waits on it. Every run is bounded here
/// (killed past a generous limit), so that a hang fails the test instead of holding the suite.
@Suite(.serialized)
struct HostileServerTests {
    private func server(_ folder: URL) throws -> (RadioServer, song: String) {
        let song = folder.appendingPathComponent("song.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 3 sine 440 gain -6 | lame --silent -b 128 - \"$0\"", song])
        return (try RadioServer(song: song, titles: ["Artist - Title"]), song)
    }

    /// `tplayer ARGUMENTS`, killed after `limit` seconds: its result, how long it took, and
    /// whether it had to be killed.
    private func bounded(_ arguments: [String], limit: Double) throws -> (run: Harness.Result, seconds: Double, killed: Bool) {
        let started = Date()
        let killed = Flag()
        let run = try Harness.run(Harness.binary, arguments) { process in
            let pid = process.processIdentifier
            Thread.detachNewThread {
                let deadline = Date(timeIntervalSinceNow: limit)
                while process.isRunning, Date() < deadline { usleep(50_000) }
                if process.isRunning {
                    killed.raise()
                    kill(pid, SIGKILL)
                }
            }
        }
        return (run, Date().timeIntervalSince(started), killed.isRaised)
    }

    /// How many times the server was asked for `name`.
    private func asked(_ server: RadioServer, _ name: String) throws -> Int {
        Int(try server.connections().split(separator: "'/\(name)': ").dropFirst().first?.prefix { $0.isNumber } ?? "") ?? 0
    }

    /// A `.pls` over HTTP/1.0 with no Content-Length: its body ends when the server closes the
    /// connection, and that is its whole body. It was taken for a live stream cut short and
    /// asked for again and again (`--check` never returned).
    @Test func aPlaylistEndedByTheConnectionsCloseIsWhole() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let url = server.url("closing.pls")
        let (run, seconds, killed) = try bounded(["--check", url], limit: 40)
        #expect(!killed, "it ended by itself (\(seconds) s)")
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.stdout.split(separator: "\n").map(String.init)
        #expect(said.first == "\(url): ok, a playlist of 1 stream", "\(said)")
        #expect(said.count == 2 && said[1].hasPrefix("\(server.url("song.mp3")): ok, MP3 at 128 kbit/s"), "\(said)")
        let connections = try server.connections()
        #expect(try asked(server, "closing.pls") == 1, "asked for once: \(connections)")
        let played = try bounded(["-o", "null", url], limit: 40)
        #expect(!played.killed && played.run.status == 0, "\(played.run.stderr)")
    }

    /// A server that accepts the connection and never answers holds no command: with `-R`, a
    /// local song loaded after it plays at once, `STATE` is answered at once and `QUIT` quits at
    /// once (they waited 5 to 10 s, the network's timeouts).
    @Test func aServerThatNeverAnswersHoldsNoCommand() throws {
        let folder = try Harness.temporaryFolder()
        let (server, song) = try server(folder)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        try player.waitFor("@R MPG123 (ThOr) v10")
        player.send("LOAD \(server.url("silent.mp3"))")
        usleep(300_000)  // connected, its answer awaited
        var asked = Date()
        player.send("LOAD \(song)")
        try player.waitFor("@P 2", timeout: 30)
        let loaded = Date().timeIntervalSince(asked)
        #expect(loaded < 2, "the local song plays at once: \(loaded) s")
        player.send("LOAD \(server.url("silent.mp3"))")
        usleep(300_000)
        asked = Date()
        player.send("STATE")
        try player.waitFor("@STATE }", timeout: 30)
        let answered = Date().timeIntervalSince(asked)
        #expect(answered < 2, "STATE is answered at once: \(answered) s")
        asked = Date()
        #expect(player.quit() == 0)
        let quit = Date().timeIntervalSince(asked)
        #expect(quit < 2, "QUIT quits at once: \(quit) s")
        #expect(!player.received.contains { $0.hasPrefix("E Error opening stream") && $0.contains(song) }, "\(player.received.filter { !$0.hasPrefix("@F") })")
    }

    /// `--check` of a stream that sends a byte a second ends within its bound (15 s for each
    /// URL, the connection with it), saying the server was too slow, in one line. It never
    /// ended.
    @Test func checkOfAStreamThatTricklesEndsSayingItIsTooSlow() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let url = server.url("trickle")
        let (run, seconds, killed) = try bounded(["--check", url, server.url("song.mp3")], limit: 60)
        #expect(!killed && seconds < 30, "it ends within its 15 s: \(seconds) s")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderrLines[0].hasPrefix("\(url): the server is too slow: "), "\(run.stderrLines)")
        #expect(run.stdout.contains("\(server.url("song.mp3")): ok, MP3"), "the next URL is checked: \(run.stdout)")
    }
}

/// Raised by the watchdog's thread, read by the test's.
private final class Flag: @unchecked Sendable {
    // `@unchecked Sendable`: touched only under `lock`.
    private let lock = NSLock()
    private var raised = false

    func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}
