import Foundation
import Glibc
import Testing

/// A small HTTP server of the tests' own (Tests/Tools/radio_server.py) on 127.0.0.1: a song over
/// http, with and without ICY metadata, a live stream that drops, and the faults Icecast never
/// makes. Stopped when released.
final class RadioServer {
    let port: Int
    private let scheme: String
    private let process = Process()

    /// `tls`: a certificate and its key: the server speaks https.
    init(song: String, titles: [String], tls: (certificate: String, key: String)? = nil) throws {
        let folder = try Harness.temporaryFolder()
        let list = folder.appendingPathComponent("titles.txt")
        try (titles.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Harness.root.appendingPathComponent("Tests/Tools/radio_server.py").path, song, list.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        if let tls {
            process.environment = ProcessInfo.processInfo.environment.merging(["RADIO_TLS_CERT": tls.certificate, "RADIO_TLS_KEY": tls.key]) { $1 }
        }
        self.scheme = tls == nil ? "http" : "https"
        try process.run()
        // The port, on a line of its own, once it listens.
        var line = ""
        while !line.contains("\n") {
            let data = out.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw RemotePlayer.Failure(message: "the radio server said no port: \(line)")
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the server may inherit SIGTERM blocked from the test process.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(path)" }

    /// How many times each path was asked for so far.
    func connections() throws -> String {
        try LocalHTTP.get(url("connections")).body
    }
}

/// Internet streams as a user meets them: a song over http plays exactly as its file does (the
/// ICY metadata taken out to the byte), titles are said, every fault is one line naming the URL
/// and why, and a stream that drops is reconnected by itself.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct InternetStreamTests {
    static let titles = ["Artist One - First", "Artist Two - Second ☃", "\u{1B}]0;pwned\u{07}\u{1B}[2JEvil"]

    private func song(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("song.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 6 sine 440 gain -6 | lame --silent -b 128 - \"$0\"", path])
        return path
    }

    @Test func aSongOverHttpIsWrittenAsItsFileIs() throws {
        let folder = try Harness.temporaryFolder()
        let song = try song(in: folder)
        let server = try RadioServer(song: song, titles: Self.titles)
        let local = folder.appendingPathComponent("local.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        // bigmeta says icy-metaint: 4294967296: past any bound, taken as no metadata at all.
        for path in ["song.mp3", "icy.mp3", "bigmeta"] {
            let out = folder.appendingPathComponent("\(path).wav").path
            let run = try Harness.run(Harness.binary, ["-w", out, server.url(path)])
            #expect(run.status == 0, "\(path): \(run.stderr)")
            #expect(try Harness.pcm(ofWAV: out) == Harness.pcm(ofWAV: local), "\(path): the same samples as the file's")
        }
    }

    /// A radio is joined anywhere in a frame: libmpg123 looks ahead at the next header before
    /// it believes the first (without, noise was once taken for a 48 kHz mono frame).
    @Test(arguments: [1, 37, 200, 417, 1001, 4099])
    func aStreamJoinedMidFrameFindsItsFrames(from: Int) throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("cut.mp3?from=\(from)")])
        #expect(run.status == 0 && !run.stderr.contains("damaged"), "\(run.stderr)")
        let format = try StreamTests.format(ofWAV: out)
        #expect(format.rate == 44100 && format.channels == 2, "from byte \(from): \(format)")
        #expect(try Harness.pcm(ofWAV: out).count > 4 * 44100 * 5, "from byte \(from): nearly all of it")
    }

    /// Every format a file plays in plays over http, by its first bytes (the server calls them
    /// all audio/mpeg): the same samples as the file's.
    @Test(arguments: [
        ("song.ogg", "oggenc -Q \"$1\" -o \"$0\""), ("song.opus", "opusenc --quiet \"$1\" \"$0\""),
        ("song.flac", "flac -s -f \"$1\" -o \"$0\""), ("song.oga", "flac -s -f --ogg \"$1\" -o \"$0\""),
        ("song.aac", "ffmpeg -v quiet -y -i \"$1\" -c:a aac -f adts \"$0\""),
    ])
    func eachFormatPlaysOverHttpAsItsFileDoes(name: String, encode: String) throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "4", "sine", "330", "gain", "-6"])
        let song = folder.appendingPathComponent(name).path
        try Harness.run("/bin/sh", ["-c", encode, song, wav])
        let server = try RadioServer(song: song, titles: Self.titles)
        let local = folder.appendingPathComponent("local.wav").path, remote = folder.appendingPathComponent("remote.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let run = try Harness.run(Harness.binary, ["-w", remote, server.url("song.mp3")])
        #expect(run.status == 0, "\(name): \(run.stderr)")
        let samples = try Harness.pcm(ofWAV: remote), file = try Harness.pcm(ofWAV: local)
        #expect(samples.count > 4 * 44100 * 3 && samples == file, "\(name): the file's samples")
    }

    @Test func theStationAndEachTitleAreSaidAndEscapes() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let run = try Harness.run(Harness.binary, ["-w", folder.appendingPathComponent("out.wav").path, server.url("icy.mp3")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.contains("Station: Test Radio (Tests, 128 kbit/s)"), "\(run.stderrLines)")
        // Six seconds at 128 kbit/s hold 11 blocks of 8,192 bytes: titles in turn, each said as
        // its audio is written (none came before the first audio: the name is the station's).
        #expect(!run.stderr.contains("\u{1B}"), "no escape reaches the terminal raw: \(run.stderr.debugDescription)")
        #expect(run.stderrLines.first == "Playing 1/1: Test Radio", "\(run.stderrLines)")
        let titles = run.stderrLines.filter { $0.hasPrefix("Title: ") }
        #expect(titles.count == 11 && titles.prefix(3) == ["Title: Artist One - First", "Title: Artist Two - Second ☃",
                                                            "Title: \\e]0;pwned\\x07\\e[2JEvil"], "\(titles)")
    }

    @Test func aRemoteFrontEndHearsTheStationAndTheTitlesAsFromMpg123() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let player = try RemotePlayer(["-o", "null"], environment: [:])
        player.send("LOAD \(server.url("live.mp3?pace=1"))")
        try player.waitFor("@I ICY-NAME: Live Radio")
        try player.waitFor("@P 2")
        try player.waitFor("@I ICY-META: StreamTitle='Artist Two - Second ☃';")
        try player.waitFor("@I ICY-META: StreamTitle='", prefix: true)
        let lines = player.received.filter { $0.hasPrefix("@I ICY-META") }
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") }, "\(lines)")
        #expect(player.quit() == 0)
    }

    @Test(arguments: [
        ("404", "the server answered 404"),
        ("loop", "more than 5 redirects"),
        ("to-file", "it redirects to file:///etc/passwd, and only http and https are followed"),
        ("headers", "the server's headers run past 64 KiB"),
    ])
    func aStreamThatCannotBeOpenedIsOneLineAndTheListGoesOn(path: String, reason: String) throws {
        let folder = try Harness.temporaryFolder()
        let song = try song(in: folder)
        let server = try RadioServer(song: song, titles: Self.titles)
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url(path), song])
        #expect(run.status == 1)
        let said = run.stderrLines.filter { $0.hasPrefix("tplayer:") }
        #expect(said == ["tplayer: \(server.url(path)): \(reason)"], "\(run.stderrLines)")
        #expect(try Harness.pcm(ofWAV: out).count > 1_000_000, "the song after it played")
    }

    @Test func aStreamThatDropsIsReconnectedAndPlaysOn() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        // The connection closes after 150,000 bytes (about 9 s of audio), every time.
        let url = server.url("live.mp3?drop=150000&pace=0.2")
        player.send("LOAD \(url)")
        try player.waitFor("@P 2")
        try player.waitFor("\(url): the server closed the stream; reconnecting (1 of 10)")
        try player.waitFor("\(url): reconnected")
        #expect(!player.received.contains("@P 0"), "the stream never ended")
        #expect(player.quit() == 0)
    }

    /// https is verified: a self-signed certificate is refused, with the reason, and the list
    /// goes on.
    @Test func aCertificateThatDoesNotVerifyIsRefused() throws {
        let folder = try Harness.temporaryFolder()
        let song = try song(in: folder)
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        try Harness.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                             "-days", "1", "-subj", "/CN=127.0.0.1"])
        let server = try RadioServer(song: song, titles: Self.titles, tls: (certificate, key))
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("song.mp3"), song])
        #expect(run.status == 1)
        let said = run.stderrLines.filter { $0.hasPrefix("tplayer:") }
        #expect(said.count == 1 && said[0].hasPrefix("tplayer: \(server.url("song.mp3")): its TLS certificate cannot be verified ("),
                "\(run.stderrLines)")
        #expect(try Harness.pcm(ofWAV: out).count > 1_000_000, "the song after it played")
    }

    /// `--check` of a stream listens to it for a few seconds (a live one never ends) and says
    /// what it is, its station and its title; one that cannot be opened is a problem.
    @Test func checkListensToAStreamAndSaysWhatItIs() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let run = try Harness.run(Harness.binary, ["--check", server.url("live.mp3"), server.url("404")])
        #expect(run.status == 65)
        let said = run.stdout.split(separator: "\n").map(String.init)
        #expect(said.count == 1 && said[0].hasPrefix("\(server.url("live.mp3")): ok, MP3 at 128 kbit/s, 44100 Hz stereo; "
                                                       + "station Live Radio; title "), "\(said)")
        #expect(run.stderrLines == ["\(server.url("404")): the server answered 404"], "\(run.stderrLines)")
    }

    /// A seek in a live stream is refused, said, and the stream plays on (it ended it, saying
    /// "cannot seek in this file").
    @Test func aLiveStreamCannotSeekAndPlaysOn() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        let url = server.url("live.mp3")
        player.send("LOAD \(url)")
        try player.waitFor("@P 2")
        player.send("JUMP +10")
        try player.waitFor("tplayer: \(url): a live stream cannot seek")
        player.send("SAMPLE")
        try player.waitFor("@SAMPLE ", prefix: true)
        #expect(!player.received.contains("@P 0"), "it plays on")
        #expect(player.quit() == 0)
    }

    /// A file over http cut short is asked for again from where it was cut when its server takes
    /// byte ranges: the file's samples, whole. With a server that takes none, it is not asked for
    /// again from its start (it would play twice): it ends there, damaged, said.
    @Test func aFileOverHttpCutShortGoesOnFromThereOrEndsThere() throws {
        let folder = try Harness.temporaryFolder()
        let song = try song(in: folder)
        let server = try RadioServer(song: song, titles: Self.titles)
        let local = folder.appendingPathComponent("local.wav").path, resumed = folder.appendingPathComponent("resumed.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let ranged = try Harness.run(Harness.binary, ["-w", resumed, server.url("song.mp3?drop=40000")])
        #expect(ranged.status == 0, "\(ranged.stderr)")
        #expect(try Harness.pcm(ofWAV: resumed) == Harness.pcm(ofWAV: local), "whole, as the file")
        let before = try requests(server)
        #expect(before >= 3, "cut at 40,000 bytes, the 96,000 take three answers or more")

        let url = server.url("song.mp3?drop=40000&noranges=1")
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, url])
        #expect(run.status == 1)
        #expect(run.stderrLines.contains {
            $0.hasPrefix("tplayer: \(url): damaged at ") && $0.hasSuffix(": the server closed the connection before the end it stated")
        }, "\(run.stderrLines)")
        let seconds = Double(try Harness.pcm(ofWAV: out).count) / (4 * 44100)
        #expect(seconds > 1.5 && seconds < 3, "40,000 bytes of 128 kbit/s, once: \(seconds) s")
        #expect(try requests(server) == before + 1, "asked for once")
    }

    /// How many times the server was asked for song.mp3.
    private func requests(_ server: RadioServer) throws -> Int {
        Int(try server.connections().split(separator: "'/song.mp3': ").last?.prefix { $0.isNumber } ?? "") ?? 0
    }

    /// The next entry of a list, a stream, is not connected to while a live one plays (it was,
    /// to be ready for a gapless change that a live stream never makes).
    @Test func theNextStreamIsNotOpenedAheadOfTime() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["-o", "null", server.url("live.mp3"), server.url("icy.mp3")]
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(3_000_000)
        let asked = try server.connections()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
        #expect(asked.contains("'/live.mp3': 1") && !asked.contains("icy.mp3"), "\(asked)")
    }

    /// A server that stops sending (the connection open, nothing on it) is given 10 s, then
    /// connected to again.
    @Test func aStalledStreamIsConnectedToAgain() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        let url = server.url("stall")
        player.send("LOAD \(url)")
        try player.waitFor("@P 2")
        try player.waitFor("\(url): nothing came for 10 s; reconnecting (1 of 10)", timeout: 30)
        try player.waitFor("\(url): reconnected", timeout: 10)
        #expect(!player.received.contains("@P 0"), "the stream never ended")
        #expect(player.quit() == 0)
    }

    @Test func aServerThatTricklesNeverHoldsTheEnd() throws {
        let folder = try Harness.temporaryFolder()
        let server = try RadioServer(song: try song(in: folder), titles: Self.titles)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["-w", folder.appendingPathComponent("out.wav").path, server.url("trickle")]
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(1_500_000)
        let asked = Date()
        process.terminate()
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
        let took = Date().timeIntervalSince(asked)
        #expect(took < 2, "SIGTERM ended it in \(took) s")
        #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus != 0)
    }
}

/// A real Icecast 2 server, ffmpeg its source: tplayer plays it, says each title the admin API
/// sets, and when the server is killed and started again 2 s later, plays on without leaving
/// the entry (`@P` stays 2), where `mpg123 -R` ends the stream.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct IcecastTests {
    @Test func aRadioIsPlayedItsTitlesSaidAndARestartLivedThrough() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 20 sine 440 gain -6 | lame --silent -b 128 - \"$0\"", song])
        let radio = try IcecastServer(song: song)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        player.send("LOAD \(radio.url)")
        try player.waitFor("@I ICY-NAME: Test FM", timeout: 20)
        try player.waitFor("@P 2")
        // Side by side, the reference front-ends drive: mpg123 -R on the same stream.
        let mpg123 = Process(), mpg123In = Pipe(), mpg123Out = folder.appendingPathComponent("mpg123.txt")
        FileManager.default.createFile(atPath: mpg123Out.path, contents: nil)
        mpg123.executableURL = URL(fileURLWithPath: "/usr/bin/mpg123")
        mpg123.arguments = ["-R", "-o", "dummy"]
        mpg123.standardInput = mpg123In
        mpg123.standardOutput = try FileHandle(forWritingTo: mpg123Out)
        mpg123.standardError = FileHandle.nullDevice
        try mpg123.run()
        defer {
            kill(mpg123.processIdentifier, SIGKILL)
            mpg123.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
        mpg123In.fileHandleForWriting.write(Data("LOAD \(radio.url)\n".utf8))
        try radio.setTitle("Artist - First Title")
        try player.waitFor("@I ICY-META: StreamTitle='Artist - First Title';", timeout: 20)
        radio.stop()
        usleep(2_000_000)
        try radio.start()
        try player.waitFor("\(radio.url): reconnected", timeout: 20)
        try radio.setTitle("Artist - After The Restart")
        try player.waitFor("@I ICY-META: StreamTitle='Artist - After The Restart';", timeout: 20)
        let lines = player.received
        #expect(!lines.contains("@P 0"), "the stream never ended: \(lines.filter { !$0.hasPrefix("@F") })")
        #expect(lines.contains { $0.hasPrefix("\(radio.url): ") && $0.contains("reconnecting (1 of 10)") })
        #expect(player.quit() == 0)
        // mpg123 played it, and ended it at the restart.
        let reference = try String(contentsOf: mpg123Out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("@F") }
        #expect(reference.contains("@P 2") && reference.last(where: { $0.hasPrefix("@P") }) == "@P 0",
                "mpg123 -R ends the stream at the restart: \(reference)")
    }
}

extension IcecastTests {
    /// The station and the title are the song's name on the status line (a real terminal) and
    /// its title over MPRIS (the real client, playerctl).
    @Test func theTitleIsOnTheStatusLineAndOverMpris() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 20 sine 440 gain -6 | lame --silent -b 128 - \"$0\"", song])
        let radio = try IcecastServer(song: song)
        try radio.setTitle("Artist - On Air")
        let socket = "tplayer-radio-\(getpid())"
        let script = """
            tmux -L \(socket) new-session -d -x 100 -y 8 \\
              "XDG_STATE_HOME='\(folder.path)/state' XDG_CONFIG_HOME='\(folder.path)/config' '\(Harness.binary)' -o null '\(radio.url)'"
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -qx tplayer && break; sleep 0.1; done
            for i in $(seq 100); do playerctl -p tplayer metadata title 2>/dev/null | grep -q 'On Air' && break; sleep 0.1; done
            echo "title $(playerctl -p tplayer metadata title)"
            echo "url $(playerctl -p tplayer metadata xesam:url)"
            echo "screen $(tmux -L \(socket) capture-pane -p | grep -v '^ *$' | tail -1)"
            tmux -L \(socket) send-keys -t 0 i; sleep 0.5
            tmux -L \(socket) capture-pane -p | sed 's/^/info /'
            tmux -L \(socket) send-keys -t 0 v; sleep 0.5
            tmux -L \(socket) capture-pane -p | sed 's/^/list /'
            tmux -L \(socket) send-keys -t 0 Escape q; sleep 0.5; tmux -L \(socket) kill-server 2>/dev/null
            true
            """
        let result = try Harness.dbusSession(script)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("title Test FM — Artist - On Air"), "\(lines) \(result.stderr)")
        #expect(lines.contains("url \(radio.url)"), "\(lines)")
        // A live stream: the time listened, no length and no bar.
        #expect(lines.contains { $0.hasPrefix("screen Playing  0:0") && $0.contains("  1/1  vol 100%  Test FM — Artist - On Air") && !$0.contains("[") },
                "\(lines)")
        // `i`: the station and what is on air; the list view: the stream named as on the status line.
        #expect(lines.contains { $0.hasPrefix("info Station  Test FM") } && lines.contains { $0.hasPrefix("info On air   Artist - On Air") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("list ") && $0.contains("1  Test FM — Artist - On Air") }, "\(lines)")
    }
}
