import Foundation
import Glibc
import Testing

/// What a server does to hold the player (issue 50): HLS playlists that name themselves or each
/// other, a playlist whose body ends when the connection closes, a server that accepts and never
/// answers, one that sends a byte a second. Each is said in one line and left, promptly; no
/// command waits on it. Every run is bounded here (killed past a generous limit), so that a hang
/// fails the test instead of holding the suite.
@Suite(.serialized, .timeLimit(.minutes(10)))
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

    /// An HLS playlist that names itself (as its segment, or as its variant), and two that name
    /// each other (a master's variant naming the master), are said once as a cycle and left: the
    /// list goes on. A master naming itself, and two naming each other, were followed without
    /// end (28,845 requests in 40 s, memory growing); one naming itself as its segment was said
    /// as a stream whose segments cannot be read.
    @Test(arguments: [("self.m3u8", ["self.m3u8", "self.m3u8"]), ("master.m3u8", ["master.m3u8", "master.m3u8"]),
                      ("ping.m3u8", ["ping.m3u8", "pong.m3u8", "ping.m3u8"])])
    func anHLSPlaylistThatNamesItselfIsACycleSaidOnce(path: String, chain: [String]) throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let (run, seconds, killed) = try bounded(["-o", "null", server.url(path), server.url("song.mp3")], limit: 40)
        #expect(!killed, "\(path): it ended by itself (\(seconds) s)")
        let cycle = chain.map(server.url).joined(separator: " -> ")
        let said = run.stderrLines.filter { $0.hasPrefix("tplayer:") }
        #expect(said == ["tplayer: \(server.url(path)): playlist cycle: \(cycle); not followed"], "\(path): \(run.stderr)")
        #expect(run.stderr.contains("Playing 2/2"), "\(path): the list goes on: \(run.stderr)")
        let connections = try server.connections()
        for name in Set(chain) {
            let count = try asked(server, name)
            #expect(count <= 3, "\(path): \(name) asked for \(count) times: \(connections)")
        }
        let check = try bounded(["--check", server.url(path)], limit: 40)
        #expect(!check.killed && check.run.status == 65, "\(path): --check ends (\(check.seconds) s): \(check.run.stderr)")
        #expect(check.run.stderrLines == ["\(server.url(path)): playlist cycle: \(cycle); not followed"], "\(check.run.stderrLines)")
    }

    /// A live HLS playlist whose durations are 0 (its target, its segment) is read again no
    /// sooner than a second after it was last read: FFmpeg would reload it at once, six times
    /// in a row, then give it up. Its first two reads (the look at what it is, then FFmpeg's)
    /// come together.
    @Test func aLivePlaylistIsReadAgainAtMostOnceASecond() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "gain", "-6"])
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", wav, "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "2",
                                           folder.appendingPathComponent("radio.m3u8").path])
        try "#EXTM3U\n#EXT-X-TARGETDURATION:0\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:0,\nradio0.ts\n"
            .write(to: folder.appendingPathComponent("zero.m3u8"), atomically: true, encoding: .utf8)
        let (run, seconds, killed) = try bounded(["-o", "null", server.url("files/zero.m3u8")], limit: 60)
        #expect(!killed, "\(run.stderr)")
        let reads = try asked(server, "files/zero.m3u8"), connections = try server.connections()
        #expect(reads >= 4, "it was reloaded: \(connections)")
        #expect(seconds >= Double(reads - 2) * 0.9, "\(reads) reads in \(seconds) s")
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

    /// The same at the keys: while a stream's server accepts and never answers, a volume key, `n`,
    /// `b` back to it, a song loaded with `l` and `q` each act while it still has not answered
    /// (8 s allowed, for a busy machine: the network waits 20 s for an answer, 10 to connect and
    /// 10 for the first byte). Measured on a null output: each shows on screen within 0.15 s.
    @Test func aServerThatNeverAnswersHoldsNoKey() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let song = try Harness.makeSong(seconds: 30, in: folder, name: "long.mp3")
        let pane = try Pane(arguments: ["-o", "null", server.url("silent.mp3"), song])
        try pane.waitForStatus { $0.hasPrefix("Loading ") && $0.contains("silent.mp3") }
        try pane.send("-")
        try pane.send("n")
        try pane.waitForStatus(8) { $0.hasPrefix("Playing ") && $0.contains("long.mp3") && $0.contains("vol 95%") }
        try pane.send("b")
        try pane.waitForStatus(8) { $0.hasPrefix("Loading ") && $0.contains("silent.mp3") }
        try pane.send("l")
        try pane.type(song + "\n")
        try pane.waitForStatus(8) { $0.hasPrefix("Playing ") && $0.contains("long.mp3") }
        try pane.send("b")
        try pane.waitForStatus(8) { $0.hasPrefix("Loading ") && $0.contains("silent.mp3") }
        try pane.send("q")
        #expect(try pane.waitForExit(8) == 0)
        let connections = try server.connections()
        #expect(try asked(server, "silent.mp3") >= 2, "asked each time it was opened, and held: \(connections)")
    }

    /// A song played over http is known as a stream from its source on (`SongInfo.isStream`, set as
    /// it opens, never found again from its path): the details name its URL, not a file.
    @Test func aSongOverHttpIsShownAsAStream() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let url = server.url("song.mp3")
        let pane = try Pane(arguments: ["-o", "null", url], width: 150)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("i")
        try pane.waitForLine { $0.hasPrefix("URL      \(url)") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
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
