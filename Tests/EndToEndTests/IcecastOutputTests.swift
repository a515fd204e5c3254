import Foundation
import Glibc
import Testing

/// `-o icecast` against a real Icecast 2 server on 127.0.0.1 (`IcecastServer`, no source of its
/// own): tplayer's broadcast heard by tplayer and by mpv, each song's title with its song; the
/// server killed and started again mid-song; a server that refuses the password or never answers.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct IcecastOutputTests {
    static let secret = IcecastServer.password

    /// A FLAC song of `seconds`: a sine of `frequency` (0: silence) at `rate`, tagged.
    static func song(_ folder: URL, _ name: String, seconds: Double, frequency: Int, rate: Int = 44100,
                     title: String, artist: String? = "Tester") throws -> String {
        let path = folder.appendingPathComponent(name).path
        let sound = frequency > 0 ? "synth \(seconds) sine \(frequency) gain -6" : "trim 0 \(seconds)"
        let tags = ["--tag=TITLE=\(title)"] + (artist.map { ["--tag=ARTIST=\($0)"] } ?? [])
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r \(rate) -c 2 -b 16 -t wav - \(sound) | flac -s -f \"$@\" -o \"$0\" -", path] + tags)
        return path
    }

    /// tplayer broadcasting `songs` (`-o icecast`, the settings at `config`), what it says in
    /// a file.
    final class Broadcast {
        let process = Process()
        let said: URL
        let started = Date()

        init(config: String, songs: [String], folder: URL) throws {
            said = folder.appendingPathComponent("broadcast.txt")
            FileManager.default.createFile(atPath: said.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: Harness.binary)
            process.arguments = ["--config", config, "--no-mpris", "-o", "icecast"] + songs
            process.environment = ProcessInfo.processInfo.environment.merging(Harness.isolated(folder)) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: said)
            try process.run()
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit(within: BoundedWait.defaultSeconds)
            }
        }

        /// Waits for it to end (`timeout` seconds at most); its status and how long it ran.
        func end(timeout: Double) -> (status: Int32, seconds: Double) {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while !process.hasEnded, Date() < deadline { usleep(50_000) }
            if !process.hasEnded { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit(within: BoundedWait.defaultSeconds)
            return (process.exitStatus, Date().timeIntervalSince(started))
        }

        var lines: [String] {
            ((try? String(contentsOf: said, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// mpv listening to `url` twice: once playing in real time (`--ao=null`), each title it is
    /// told written with the audio's time then; once writing what it plays to a file (raw,
    /// 16-bit stereo at 48 kHz: `--ao=pcm`, which runs as fast as the stream comes and is told
    /// a title late or not at all, so titles are not asked of it). Beside them, a listener that
    /// keeps the stream's bytes as they come (Python's urllib), until the source ends.
    final class MpvListener {
        let process = Process()
        let timed = Process()
        let recorder = Process()
        let sound: URL, stream: URL, titles: URL

        init(url: String, folder: URL) throws {
            sound = folder.appendingPathComponent("mpv.raw")
            stream = folder.appendingPathComponent("stream")
            titles = folder.appendingPathComponent("mpv-titles.txt")
            recorder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            recorder.arguments = ["-c", "import sys, urllib.request\nwith urllib.request.urlopen(sys.argv[1], timeout=20) as r, open(sys.argv[2], 'wb') as f:\n"
                                  + "    while (b := r.read(4096)): f.write(b); f.flush()", url, stream.path]
            recorder.standardInput = FileHandle.nullDevice
            recorder.standardError = FileHandle.nullDevice
            try recorder.run()
            let script = folder.appendingPathComponent("titles.lua")
            try """
                mp.observe_property("metadata", "native", function(_, m)
                  if m == nil then return end
                  local t = m["icy-title"] or m["title"] or m["TITLE"] or ""
                  io.stdout:write(string.format("TITLE %s AT %s\\n", t, tostring(mp.get_property_number("audio-pts"))))
                  io.stdout:flush()
                end)
                """.write(to: script, atomically: true, encoding: .utf8)
            FileManager.default.createFile(atPath: titles.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mpv")
            process.arguments = ["--no-config", "--no-video", "--ao=pcm", "--ao-pcm-file=\(sound.path)", "--ao-pcm-waveheader=no",
                                 "--audio-channels=stereo", "--audio-format=s16", "--audio-samplerate=48000", "--really-quiet", url]
            timed.executableURL = process.executableURL
            timed.arguments = ["--no-config", "--no-video", "--ao=null", "--script=\(script.path)", "--really-quiet", url]
            timed.standardOutput = try FileHandle(forWritingTo: titles)
            for listener in [process, timed] {
                listener.standardInput = FileHandle.nullDevice
                listener.standardError = FileHandle.nullDevice
                try listener.run()
            }
        }

        deinit { stop() }

        /// Waits for the stream to end (the source gone, Icecast lets its listeners go), or
        /// `timeout` seconds.
        func stop(after timeout: Double = 0) {
            let deadline = Date(timeIntervalSinceNow: timeout)
            for listener in [process, timed, recorder] {
                while listener.isRunning, Date() < deadline { usleep(50_000) }
                if listener.isRunning {
                    kill(listener.processIdentifier, SIGKILL)
                    listener.waitUntilExit(within: BoundedWait.defaultSeconds)
                }
            }
        }

        /// (title, the audio's time when mpv was told it).
        var told: [(title: String, at: Double?)] {
            ((try? String(contentsOf: titles, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                guard line.hasPrefix("TITLE "), let at = line.range(of: " AT ", options: .backwards) else { return nil }
                return (String(line[line.index(line.startIndex, offsetBy: 6)..<at.lowerBound]), Double(line[at.upperBound...]))
            }
        }
    }

    /// The `@F` time (seconds heard) at which `-R` said each of `titles`.
    static func heardAt(_ titles: [String], in lines: [String]) -> [Double?] {
        titles.map { title in
            guard let said = lines.firstIndex(of: "@I ICY-META: StreamTitle='\(title)';") else { return nil }
            let frame = lines[..<said].last { $0.hasPrefix("@F ") }
            return frame.flatMap { $0.split(separator: " ").dropFirst(3).first.flatMap { Double($0) } }
        }
    }
}

extension IcecastOutputTests {
    /// Silence (2.5 s, "Lead In"), then 4 s at 440 Hz ("First Tone"), then 4 s at 660 Hz made
    /// at 48 kHz ("Second Tone"), broadcast in each format. tplayer (`-R`) and mpv listen from
    /// the lead-in on: both hear both tones; tplayer says each title when its song is heard (the
    /// second 4 s after the first); mpv is told the MP3 stream's titles 4 s apart too, and the
    /// Ogg stream it received holds each song as a link of its own, titled, exactly 4 s long.
    @Test(arguments: ["vorbis", "opus", "mp3"])
    func aBroadcastIsHeardWithItsTitlesByTplayerAndMpv(format: String) throws {
        let folder = try Harness.temporaryFolder()
        let server = try IcecastServer(song: nil)
        let mount = format == "mp3" ? "/live.mp3" : "/live.ogg"
        let url = "http://127.0.0.1:\(server.port)\(mount)"
        let songs = [try Self.song(folder, "lead.flac", seconds: 2.5, frequency: 0, title: "Lead In", artist: nil),
                     try Self.song(folder, "first.flac", seconds: 4, frequency: 440, title: "First Tone"),
                     try Self.song(folder, "second.flac", seconds: 4, frequency: 660, rate: 48000, title: "Second Tone")]
        let config = try Harness.settingsFile(folder, "icecast = http://source:\(Self.secret)@127.0.0.1:\(server.port)\(mount)\nicecast-format = \(format)\n")
        let broadcast = try Broadcast(config: config, songs: songs, folder: folder)
        try server.waitForMount(mount)
        let player = try RemotePlayer(["-o", "null", "--no-mpris"], environment: Harness.isolated(folder), mergingErrors: true)
        player.send("LOAD \(url)")
        let mpv = try MpvListener(url: url, folder: folder)
        let (status, seconds) = broadcast.end(timeout: 30)
        #expect(status == 0 && seconds > 10 && seconds < 16, "\(status) after \(seconds) s: \(broadcast.lines)")
        #expect(broadcast.lines.contains { $0.contains("icecast: broadcasting to http://source@127.0.0.1:\(server.port)\(mount) (\(format):") },
                "\(broadcast.lines)")
        #expect(!broadcast.lines.contains { $0.contains(Self.secret) })

        // tplayer: each title as its song is heard, 4 s apart.
        try player.waitFor("@I ICY-META: StreamTitle='Tester - Second Tone';", timeout: 20)
        let heard = Self.heardAt(["Tester - First Tone", "Tester - Second Tone"], in: player.received)
        _ = player.quit()
        if let first = heard[0], let second = heard[1] {
            #expect(abs(second - first - 4) < 0.3, "said at \(first) and \(second) s")
        } else {
            Issue.record("the titles were not said: \(player.received.filter { !$0.hasPrefix("@F") })")
        }

        // mpv: both tones, in tune.
        mpv.stop(after: 15)
        let sound = try RoomSound(path: mpv.sound.path)
        let rate = Int(RoomSound.rate)
        if let span = sound.span, span.count > 6 * rate {
            let end = span.upperBound - rate / 2
            #expect(abs(sound.pitch(in: (end - 2 * rate)...end) - 660) < 2, "the last tone")
            let before = end - 4 * rate - rate / 2
            #expect(abs(sound.pitch(in: (before - 2 * rate)...before) - 440) < 2, "the first tone")
        } else {
            Issue.record("mpv played \(sound.seconds) s")
        }
        let told = mpv.told
        if format == "mp3" {
            let first = told.first { $0.title == "Tester - First Tone" }?.at, second = told.first { $0.title == "Tester - Second Tone" }?.at
            #expect(first != nil && second != nil && abs((second ?? 0) - (first ?? 0) - 4) < 0.3, "\(told)")
        } else {
            let links = try Harness.run("/usr/bin/python3", [Harness.root.appendingPathComponent("Tests/Scripts/ogg_links.py").path, mpv.stream.path]).stdout
                .split(separator: "\n").map(String.init)
            let codec = format == "opus" ? "opus" : "vorbis"
            #expect(links.contains { $0.hasPrefix("LINK \(codec) title=First Tone seconds=4.0000") }, "\(links)")
            #expect(links.contains { $0.hasPrefix("LINK \(codec) title=Second Tone seconds=4.0000") }, "\(links)")
        }
    }

    /// The server is killed 2 s into a 12 s song and started again 1.5 s later: tplayer plays
    /// on, says each once, and broadcasts to the new server, whose listener hears the song
    /// (with its title: the stream starts again from its headers); the song ends on time.
    @Test func aServerRestartedMidSongIsBroadcastToAgain() throws {
        let folder = try Harness.temporaryFolder()
        let server = try IcecastServer(song: nil)
        let url = "http://127.0.0.1:\(server.port)/live.ogg"
        let song = try Self.song(folder, "long.flac", seconds: 12, frequency: 440, title: "Long Tone")
        let config = try Harness.settingsFile(folder, "icecast = http://source:\(Self.secret)@127.0.0.1:\(server.port)/live.ogg\n")
        let broadcast = try Broadcast(config: config, songs: [song], folder: folder)
        try server.waitForMount("/live.ogg")
        usleep(2_000_000)
        server.stop()
        usleep(1_500_000)
        try server.start()
        try server.waitForMount("/live.ogg")
        let player = try RemotePlayer(["-o", "null", "--no-mpris"], environment: Harness.isolated(folder), mergingErrors: true)
        player.send("LOAD \(url)")
        try player.waitFor("@I ICY-META: StreamTitle='Tester - Long Tone';", timeout: 10)
        try player.waitUntilHeard(seconds: 2, timeout: 10)
        _ = player.quit()
        let (status, seconds) = broadcast.end(timeout: 30)
        let lines = broadcast.lines
        #expect(status == 0 && seconds > 11.5 && seconds < 15, "\(status) after \(seconds) s: \(lines)")
        #expect(lines.filter { $0.contains("icecast http://source@127.0.0.1:\(server.port)/live.ogg: ") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("icecast: broadcasting again to") }.count == 1, "\(lines)")
        #expect(!lines.contains { $0.contains(Self.secret) })
    }

    /// A song of `seconds` broadcast to `url` (the password `password`): it ends in its own
    /// time, having said one line holding `expected` and never the password.
    private func playsOnInItsOwnTime(to url: String, password: String, seconds: Double, said expected: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try Harness.temporaryFolder()
        let config = try Harness.settingsFile(folder, "icecast = \(url)\n")
        let song = try Harness.makeSong(seconds: seconds, in: folder)
        let started = Date()
        let run = try Harness.tplayer(["--config", config, "--no-mpris", "-q", "-o", "icecast", song], environment: Harness.isolated(folder))
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(took > seconds - 0.5 && took < seconds + 3, "played in \(took) s", sourceLocation: sourceLocation)
        #expect(run.stderrLines.count == 1 && run.stderr.contains(expected) && !run.stderr.contains(password), "\(run.stderr)",
                sourceLocation: sourceLocation)
    }

    /// A wrong password: said in one line that does not hold it.
    @Test func aRefusedPasswordIsSaidOnceWithoutIt() throws {
        let server = try IcecastServer(song: nil)
        let wrong = "not-the-password-4711"
        try playsOnInItsOwnTime(to: "http://source:\(wrong)@127.0.0.1:\(server.port)/live.ogg", password: wrong, seconds: 3,
                                said: "refused the source")
    }

    /// A server that accepts and never answers: given up after 5 s, said in one line.
    @Test func aServerThatNeverAnswersHoldsNothingUp() throws {
        let (listener, port) = Harness.listening()
        defer { close(listener) }
        try playsOnInItsOwnTime(to: "http://source:\(Self.secret)@127.0.0.1:\(port)/live.ogg", password: Self.secret, seconds: 7,
                                said: "did not answer within 5 s")
    }

    /// `-o icecast` with nowhere set to broadcast, and settings that cannot be used: one line
    /// each, no password in any.
    @Test func settingsThatCannotBeUsedAreSaidWithoutThePassword() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder)
        let unset = try Harness.tplayer(["--config", try Harness.settingsFile(folder, "\n"), "--no-mpris", "-o", "icecast", song],
                                        environment: Harness.isolated(folder))
        #expect(unset.status == 64 && unset.stderrLines.count == 1 && unset.stderr.contains("icecast = http://source:PASSWORD@"), "\(unset.stderr)")
        let bad = try Harness.settingsFile(folder, """
            icecast = http://source:hush-4711@127.0.0.1:8000
            icecast = ftp://source:hush-4711@127.0.0.1/a.ogg
            icecast = http://source:hush-4711@127.0.0.1:99999/a.ogg
            icecast-format = flac
            """)
        let run = try Harness.tplayer(["--config", bad, "--no-mpris", "-o", "null", "-q", song], environment: Harness.isolated(folder))
        #expect(run.stderrLines.count == 4 && !run.stderr.contains("hush-4711"), "\(run.stderr)")
        #expect(run.stderr.contains("icecast-format") || run.stderr.contains("vorbis, opus or mp3"), "\(run.stderr)")
    }
}
