import Foundation
import Glibc
import Testing

/// What a server sends besides a plain stream: playlists of streams (by type, content or name),
/// HLS, a web page, noise, audio its first bytes do not name (AAC joined mid-frame), a format
/// that changes partway. Each plays as its file would, or is one line naming the URL and why.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ServedListTests {
    private func mp3(_ path: String, seconds: Int, rate: Int = 44100, channels: Int = 2, hertz: Int = 440) throws {
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r \(rate) -c \(channels) -b 16 -t wav - synth \(seconds) sine \(hertz) gain -6 "
                                        + "| lame --silent -b 128 - \"$0\"", path])
    }

    private func server(_ folder: URL) throws -> (RadioServer, song: String) {
        let song = folder.appendingPathComponent("song.mp3").path
        try mp3(song, seconds: 3)
        return (try RadioServer(song: song, titles: ["Artist - Title"]), song)
    }

    /// A radio's `.pls` plays its streams in its place: a relative entry resolved against the
    /// playlist's URL, an absolute one as it is, and `file:///etc/passwd` never opened, said at its line.
    @Test func aPlaylistServedOverHttpPlaysItsStreams() throws {
        let folder = try Harness.temporaryFolder()
        let (server, song) = try server(folder)
        let local = folder.appendingPathComponent("local.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("radio.pls")])
        #expect(run.stderr.contains("\(server.url("radio.pls")):5: a playlist from the network names streams, not files on this machine: "
                                    + "file:///etc/passwd; not played"), "\(run.stderr)")
        #expect(!run.stderr.contains("root:"), "the file is never read")
        let file = try Harness.pcm(ofWAV: local)
        #expect(try Harness.pcm(ofWAV: out) == file + file, "song.mp3 (relative), then icy.mp3 (absolute): the file's samples, twice")
        #expect(try server.connections().contains("'/song.mp3': 1"))
    }

    /// Told by its type with no `#EXTM3U` (an entry that is a path on the same server), and by its
    /// name when the server calls it text.
    @Test(arguments: ["listen", "text.m3u"])
    func aPlaylistIsToldByItsTypeOrItsName(path: String) throws {
        let folder = try Harness.temporaryFolder()
        let (server, song) = try server(folder)
        let local = folder.appendingPathComponent("local.wav").path, out = folder.appendingPathComponent("out.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let run = try Harness.run(Harness.binary, ["-w", out, server.url(path)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Harness.pcm(ofWAV: out) == Harness.pcm(ofWAV: local))
    }

    /// What cannot be played is one line naming the URL and why, and the list goes on.
    @Test func whatAServerSendsThatIsNoStreamIsOneLineEach() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let cases = [
            ("self.m3u", "\(server.url("self.m3u")):2: playlist cycle: \(server.url("self.m3u")) -> \(server.url("self.m3u")); not followed"),
            ("one.m3u", "playlist cycle: \(server.url("one.m3u")) -> \(server.url("two.m3u")) -> \(server.url("one.m3u")); not followed"),
            ("hls.m3u8", "\(server.url("hls.m3u8")): the server answered 404"),
            ("hls-file.m3u8", "\(server.url("hls-file.m3u8")): an HLS stream whose segments cannot be read (Invalid data found when processing input); only http and https segments play"),
            ("huge.pls", "\(server.url("huge.pls")): a playlist (by its type, audio/x-scpls) longer than 1 MiB; is it really one?"),
            ("page", "\(server.url("page")): the server sent text/html, not audio: is it a web page rather than the stream's own URL?"),
            ("garbage", "\(server.url("garbage")): not an audio format tplayer plays"),
        ]
        for (path, line) in cases {
            let started = Date()
            let run = try Harness.run(Harness.binary, ["-o", "null", server.url(path), server.url("song.mp3")])
            #expect(run.status == 1, "\(path): \(run.stderr)")
            #expect(run.stderr.contains(line), "\(path): \(run.stderr)")
            #expect(run.stderrLines.filter { $0.hasPrefix("tplayer:") }.count == 1, "\(path): one line: \(run.stderr)")
            #expect(run.stderr.contains("Playing 2/2") || run.stderr.contains("song.mp3"), "\(path): the list goes on: \(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 30, "\(path): no wait")
        }
    }

    /// AAC joined mid-frame has no first bytes to know it by: the server's `audio/aac` says what
    /// it is (libmpg123 once took it for MPEG frames and played half a second of noise).
    @Test(arguments: [1, 100, 1500])
    func aacJoinedMidFrameIsToldByItsType(from: Int) throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path, song = folder.appendingPathComponent("song.aac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "4", "sine", "330", "gain", "-6"])
        try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-i", wav, "-c:a", "aac", "-f", "adts", song])
        let server = try RadioServer(song: song, titles: ["A - B"])
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("typed?type=audio/aac&from=\(from)")])
        #expect(run.status == 0 && !run.stderr.contains("damaged"), "\(run.stderr)")
        let format = try StreamTests.format(ofWAV: out)
        #expect(format.rate == 44100 && format.channels == 2)
        #expect(try Harness.pcm(ofWAV: out).count > 4 * 44100 * 37 / 10, "nearly all of its 4 s")
    }

    /// A stream whose format changes partway (44.1 kHz stereo, then 22.05 kHz mono) plays on
    /// as its file does.
    @Test func aStreamThatChangesFormatPlaysAsItsFileDoes() throws {
        let folder = try Harness.temporaryFolder()
        let first = folder.appendingPathComponent("a.mp3").path, second = folder.appendingPathComponent("b.mp3").path
        try mp3(first, seconds: 3)
        try mp3(second, seconds: 2, rate: 22050, channels: 1, hertz: 660)
        let song = folder.appendingPathComponent("both.mp3").path
        try (Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second))).write(to: URL(fileURLWithPath: song))
        let server = try RadioServer(song: song, titles: ["A - B"])
        let local = folder.appendingPathComponent("local.wav").path, out = folder.appendingPathComponent("out.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("song.mp3")])
        #expect(run.status == 0, "\(run.stderr)")
        let samples = try Harness.pcm(ofWAV: out), file = try Harness.pcm(ofWAV: local)
        #expect(samples.count > 4 * 44100 * 49 / 10 && samples == file, "both parts, as the file plays them")
    }

    /// An Ogg radio (Vorbis or Opus) sends each song as the next link of a chained stream: its
    /// comments are the new title, said as an ICY title is.
    @Test(arguments: [("ogg", "oggenc -Q -t \"$2\" -a \"$3\" \"$1\" -o \"$0\""),
                      ("opus", "opusenc --quiet --title \"$2\" --artist \"$3\" \"$1\" \"$0\"")])
    func anOggStreamsNextLinkIsItsNextTitle(kind: String, encode: String) throws {
        let folder = try Harness.temporaryFolder()
        var chain = Data()
        for (index, (rate, channels)) in [(44100, 2), (48000, 1)].enumerated() {
            let wav = folder.appendingPathComponent("\(index).wav").path, song = folder.appendingPathComponent("\(index).\(kind)").path
            try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav, "synth", "2", "sine", "440", "gain", "-6"])
            try Harness.run("/bin/sh", ["-c", encode, song, wav, "Song \(index + 1)", "Band \(index + 1)"])
            chain += try Data(contentsOf: URL(fileURLWithPath: song))
        }
        let song = folder.appendingPathComponent("chain.\(kind)").path
        try chain.write(to: URL(fileURLWithPath: song))
        let server = try RadioServer(song: song, titles: ["A - B"])
        let run = try Harness.run(Harness.binary, ["-o", "null", server.url("song.mp3")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Playing 1/1: Band 1 – Song 1") && run.stderr.contains("Title: Band 2 - Song 2"), "\(kind): \(run.stderr)")
    }

    /// A title is said when the audio it comes before is heard, not when it arrives: a 6 s song
    /// over http arrives at once, a title cut in every 16,000 bytes (1 s of it at 128 kbit/s);
    /// played in real time (`-o null`), the kth is said k seconds in, never before (it was once
    /// all of them in the first tenth of a second). Late is allowed: a busy machine is late.
    @Test func aTitleIsSaidWhenItsAudioIsHeard() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try mp3(song, seconds: 6)
        let server = try RadioServer(song: song, titles: ["One - A", "Two - B", "Three - C"])
        // Each line of stderr with the seconds since the run started.
        let stamp = "import subprocess,sys,time\nt=time.monotonic()\np=subprocess.Popen(sys.argv[1:],stderr=subprocess.PIPE,text=True)\n"
            + "for l in p.stderr: print('%.3f %s' % (time.monotonic()-t, l.rstrip()))\nsys.exit(p.wait())"
        let run = try Harness.run("/usr/bin/python3", ["-c", stamp, Harness.binary, "-o", "null", server.url("icy.mp3?metaint=16000")])
        #expect(run.status == 0, "\(run.stdout)")
        let titles = run.stdout.split(separator: "\n").filter { $0.contains(" Title: ") }
        let times = titles.compactMap { Double($0.prefix { $0 != " " }) }
        #expect(titles.count >= 5 && titles.first?.hasSuffix("Title: One - A") == true, "a title every second: \(run.stdout)")
        for (index, time) in times.enumerated() {
            #expect(time >= Double(index + 1) - 0.3, "title \(index + 1) is said as its audio plays: \(run.stdout)")
        }
    }

    /// A file over http whose server takes byte ranges seeks by asking for the bytes from
    /// there: a 2.8 MB song (past the 2 MiB buffer) started at 0:50 is the samples the file
    /// gives from there, and a seek back to its start while it plays asks again. A server that
    /// takes no ranges: a seek while it plays is one line, and it plays on.
    @Test func aFileOverHttpSeeksByRangeRequests() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("big.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 70 sine 440 gain -6 | lame --silent -b 320 - \"$0\"", song])
        let server = try RadioServer(song: song, titles: ["A - B"])
        let local = folder.appendingPathComponent("local.wav").path, remote = folder.appendingPathComponent("remote.wav").path
        try Harness.run(Harness.binary, ["-w", local, "--start", "50", song])
        let run = try Harness.run(Harness.binary, ["-w", remote, "--start", "50", server.url("song.mp3")])
        #expect(run.status == 0, "\(run.stderr)")
        let samples = try Harness.pcm(ofWAV: remote), file = try Harness.pcm(ofWAV: local)
        #expect(samples.count > 4 * 44100 * 19 && samples == file, "the file's samples from 0:50")
        let asked = try server.connections()
        let requests = Int(asked.split(separator: "'/song.mp3': ").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(requests >= 3, "the start, its last bytes (ID3v1), then from where the decoder asked: \(asked)")

        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        player.send("LOAD \(server.url("song.mp3"))")
        try player.waitFor("@P 2")
        player.send("JUMP +60s")
        try player.waitFor("@J 2", prefix: true)
        player.send("JUMP 0")
        try player.waitFor("@J 0")
        player.send("LOAD \(server.url("song.mp3?noranges=1"))")
        try player.waitFor("@P 2")
        player.send("JUMP +60s")
        try player.waitFor("tplayer: \(server.url("song.mp3?noranges=1")): its server takes no byte ranges, so it cannot seek")
        #expect(player.quit() == 0)
    }

    /// Pausing a live stream says what it does; resumed while the buffer holds what came
    /// meanwhile, it goes on from where it paused: no title said while paused (none is heard),
    /// then the next in turn, none skipped.
    @Test func aLiveStreamPausedGoesOnFromWhereItPaused() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try mp3(song, seconds: 6)
        let titles = ["One - A", "Two - B", "Three - C"]
        let server = try RadioServer(song: song, titles: titles)
        let player = try RemotePlayer(["-o", "null"], environment: [:], mergingErrors: true)
        let url = server.url("live.mp3")
        player.send("LOAD \(url)")
        try player.waitFor("@P 2")
        try player.waitFor("@I ICY-META: StreamTitle='One - A';")
        player.send("PAUSE")
        try player.waitFor("tplayer: \(url): paused: a live stream resumes from here while its 2 MiB buffer lasts (about 2 minutes at "
                           + "128 kbit/s), then from the broadcast as it is then")
        try player.waitFor("@P 1")
        let said = player.received.filter { $0.hasPrefix("@I ICY-META") }.count
        Thread.sleep(forTimeInterval: 3)
        #expect(player.received.filter { $0.hasPrefix("@I ICY-META") }.count == said, "nothing is heard while paused")
        player.send("PAUSE")
        try player.waitFor("@P 2")
        try player.waitFor("@I ICY-META: StreamTitle='", prefix: true)
        let after = player.received.filter { $0.hasPrefix("@I ICY-META") }
        #expect(after.count == said + 1 && after.last == "@I ICY-META: StreamTitle='\(titles[said % 3])';", "the next in turn: \(after)")
        #expect(player.quit() == 0)
        #expect(!player.received.contains { $0.contains("reconnect") || $0 == "@P 0" }, "\(player.received.filter { !$0.hasPrefix("@F") })")
    }

    /// A live stream recorded with `-w` is bounded by a script's `wait` (exactly that much audio),
    /// and Ctrl-C leaves a WAV whose header states what it holds.
    @Test func aRecordingOfAStreamLastsAsLongAsTheScriptWaitsOrUntilCtrlC() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let script = folder.appendingPathComponent("record.tps")
        try "add \(server.url("live.mp3"))\nplay\nwait 8s\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, "--script", script.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Harness.pcm(ofWAV: out).count == 8 * 44100 * 4, "8 s exactly")

        let interrupted = folder.appendingPathComponent("interrupted.wav").path
        let stopped = try Harness.run(Harness.binary, ["-w", interrupted, server.url("live.mp3?pace=1")]) { process in
            Thread.sleep(forTimeInterval: 2)
            kill(process.processIdentifier, SIGINT)
        }
        #expect(stopped.status == 130, "\(stopped.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: interrupted))
        let stated = Int(Harness.littleEndian32(bytes, 40))
        #expect(stated > 0 && stated == bytes.count - 44, "the header states the audio written: \(stated) of \(bytes.count - 44)")
    }

    /// Over MPRIS each title is one PropertiesChanged, its Metadata's title the station and
    /// the title, said as it is heard.
    @Test func eachTitleIsOnePropertiesChangedOverMpris() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try mp3(song, seconds: 6)
        let server = try RadioServer(song: song, titles: ["One - A", "Two - B", "Three - C"])
        let monitor = folder.appendingPathComponent("monitor.txt").path
        let said = try MprisSpecTests.run([server.url("icy.mp3?metaint=40000")], in: folder, """
            dbus-monitor "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'" > '\(monitor)' 2>/dev/null & watch=$!
            sleep 7
            kill $watch
            echo "titles $(grep -o 'Test Radio — [A-Za-z]* - [A-C]' '\(monitor)' | tr '\n' '|')"
            echo "changes $(grep -c 'xesam:title' '\(monitor)')"
            """)
        // Titles at 2.5 s and 5 s of audio (40,000 bytes each at 128 kbit/s); the run ends at 6 s.
        #expect(said.value("titles") == "Test Radio — One - A|Test Radio — Two - B|", "\(said.all)")
        #expect(said.value("changes") == "2", "one each: \(said.all)")
    }

    /// `reconnect = 0` in the settings: a stream that drops ends there, said, not tried again.
    @Test func reconnectZeroEndsAStreamWhereItDrops() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let config = folder.appendingPathComponent("config")
        try "reconnect = 0\n".write(to: config, atomically: true, encoding: .utf8)
        let url = server.url("live.mp3?drop=60000")
        let run = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", url])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(url): damaged at ") && run.stderr.contains(": the server closed the stream (reconnect = 0: not tried again)"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("reconnecting"), "\(run.stderr)")
    }

    /// An HLS stream (AAC in MPEG-TS segments) is what FFmpeg's own player makes of it, every
    /// URL opened by tplayer's network side; a live one (no `#EXT-X-ENDLIST`), waiting for its
    /// next segment, quits at once.
    @Test func anHLSStreamPlaysAsFFmpegPlaysIt() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "6", "sine", "440", "gain", "-6"])
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", wav, "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "2",
                                           "-hls_playlist_type", "vod", folder.appendingPathComponent("radio.m3u8").path])
        let server = try RadioServer(song: wav, titles: ["A - B"])
        let out = folder.appendingPathComponent("out.wav").path, reference = folder.appendingPathComponent("reference.raw").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("files/radio.m3u8")])
        #expect(run.status == 0, "\(run.stderr)")
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", server.url("files/radio.m3u8"), "-f", "s16le", "-y", reference])
        let samples = try Harness.pcm(ofWAV: out), expected = try Data(contentsOf: URL(fileURLWithPath: reference))
        #expect(samples.count > 4 * 44100 * 59 / 10 && samples == expected, "ffmpeg's samples: \(samples.count) and \(expected.count) bytes")

        // Segments that are parts of one file (#EXT-X-BYTERANGE): one line, not the whole file per segment.
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", wav, "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                                           "-hls_flags", "single_file", folder.appendingPathComponent("single.m3u8").path])
        let ranged = try Harness.run(Harness.binary, ["-o", "null", server.url("files/single.m3u8")])
        #expect(ranged.status == 1 && ranged.stderr.contains("segments are parts of a file (#EXT-X-BYTERANGE)"), "\(ranged.stderr)")

        let live = try String(contentsOfFile: folder.appendingPathComponent("radio.m3u8").path, encoding: .utf8)
            .replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "").replacingOccurrences(of: "VOD", with: "EVENT")
        try live.write(to: folder.appendingPathComponent("live.m3u8"), atomically: true, encoding: .utf8)
        let player = try RemotePlayer(["-o", "null"], environment: [:])
        player.send("LOAD \(server.url("files/live.m3u8"))")
        try player.waitFor("@P 2")
        Thread.sleep(forTimeInterval: 7)  // its 6 s played: it waits for the next segment
        let asked = Date()
        #expect(player.quit() == 0)
        #expect(Date().timeIntervalSince(asked) < 3, "q is not held by the wait")
    }

    /// The network buffer in front of the decoder: a radio (a 64 KiB burst, then real time)
    /// that sends nothing for 2 s is never heard to stop; for 6 s, more than it holds, it is
    /// (the trace says so: the check can fail).
    @Test func aStallOfTwoSecondsIsNeverHeard() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        for (stall, heard) in [(2, false), (6, true)] {
            let script = folder.appendingPathComponent("paced-\(stall).tps")
            try "add \(server.url("paced.mp3?stall=\(stall)&at=2"))\nplay\nwait 9s\nquit\n".write(to: script, atomically: true, encoding: .utf8)
            let run = try Harness.run(Harness.binary, ["-o", "null", "--trace", "--script", script.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("engine: waiting for the decoder") == heard, "a stall of \(stall) s: \(run.stderr)")
        }
    }

    /// `--check` of a served playlist lists its streams and listens to each.
    @Test func checkOfAServedPlaylistListensToEachStream() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let run = try Harness.run(Harness.binary, ["--check", server.url("radio.pls")])
        #expect(run.stdout.contains("\(server.url("radio.pls")): ok, a playlist of 2 streams"), "\(run.stdout)")
        #expect(run.stdout.contains("\(server.url("song.mp3")): ok, MP3 at 128 kbit/s, 44100 Hz stereo"), "\(run.stdout)")
        #expect(run.stdout.contains("\(server.url("icy.mp3")): ok, MP3") && run.stdout.contains("station Test Radio"), "\(run.stdout)")
        #expect(run.stderr.contains("radio.pls:5:7: a playlist from the network names streams"), "\(run.stderr)")
        #expect(run.status != 0, "a problem was found")
    }
}
