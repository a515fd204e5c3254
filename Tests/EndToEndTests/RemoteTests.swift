import Foundation
import Testing

/// `tplayer -R`: mpg123's remote protocol, answered line for line as `mpg123 -R` answers it,
/// through the player's state machine.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemoteTests {
    /// Runs `commands` (shell lines: `echo` and `sleep`) into `program`'s stdin.
    static func drive(_ program: String, _ commands: [String], in folder: URL? = nil) throws -> Harness.Result {
        let script = "(" + commands.joined(separator: "; ") + ") | " + program
        return try Harness.run("/bin/sh", ["-c", script], in: folder)
    }

    static func send(_ lines: String...) -> [String] {
        lines.map { "printf '%s\\n' '\($0)'" }
    }

    /// A sequence that does not depend on time (the song is loaded paused): mpg123 -R -o dummy
    /// and tplayer -R -o null answer it with the same lines.
    @Test func theSameCommandsGetTheSameRepliesAsMpg123() throws {
        let song = Harness.songs[1]
        let commands = Self.send(
            "SILENCE", "LP \(song)", "STATE", "SAMPLE", "TAG", "J 100", "SAMPLE", "J +10", "J -1s", "J 2s", "SAMPLE",
            "K 44100", "K +1000", "K -500", "SAMPLE", "V 50", "v 20", "MUTE", "UNMUTE", "FOO", "FOO bar", "  P", "p ", "J",
            "  V   50 ", "SAMPLE x", "MUTE 1", "EQ 1 2 0.5", "EQ 3 0 2", "EQ 0 1 1", "EQ 1 40 1", "EQ 2 5 abc", "SEQ 1 1 1",
            "SHOWEQ", "RVA album", "RVA foo", "RVA radio", "SCAN", "PITCH abc", "PITCH 0.1", "PITCH -1", "PITCH 0",
            "EQFILE /nonexistent/eq.txt",
            "LOAD /nonexistent/file.mp3", "SAMPLE", "J 5", "K 5", "SCAN", "PITCH 0.2", "LOADPAUSED \(song)", "S", "S", "P",
            "LP file://\(song)", "SAMPLE", "LP FILE://\(song)", "S",
            "LL -1 \(Harness.root.path)/Resources/demo.m3u", "LL 1 /nonexistent/list.m3u", "LL x", "HELP", "Q")
        let reference = try Self.drive("/usr/bin/mpg123 -R -o dummy", commands)
        let ours = try Self.drive("\(Harness.binary) -R -o null", commands)
        #expect(ours.status == 0)
        let theirs = reference.stdout.split(separator: "\n").map(String.init)
        let mine = ours.stdout.split(separator: "\n").map(String.init)
        // HELP is mpg123's text, with tplayer's own lines before its end.
        let help = { (lines: [String]) in lines.filter { !$0.hasPrefix("@H tplayer: ") } }
        #expect(help(mine) == help(theirs), "\(zip(help(mine), help(theirs)).filter { $0 != $1 })")
        #expect(mine.count > theirs.count && mine.contains { $0.hasPrefix("@H tplayer: PITCH") })
        #expect(help(mine).count > 100)
        #expect(mine.contains("@H }") && mine.contains("@H LOAD/L <trackname>: load and start playing resource <trackname>"))
        #expect(ours.stderr == "tplayer: /nonexistent/file.mp3: no such file\ntplayer: /nonexistent/list.m3u: no such file\n")
    }

    /// `@I` and `TAG` for songs Picard's way of tagging wrote (mutagen, ID3v2.3 and ID3v2.4, several
    /// values in a frame, TXXX and COMM): the same lines as mpg123's. (Only the first of several
    /// values was sent, and a TXXX's head ended in a colon mpg123 does not send.)
    @Test func tagsAsPicardWritesThemGetTheSameRepliesAsMpg123() throws {
        let folder = try Harness.temporaryFolder()
        try TaggedCopies.write(from: try Harness.makeSong(seconds: 1, in: folder), into: folder)
        let names = ["v23-1995-03-13", "v24-1995-03", "several"]
        let commands = Self.send("SILENCE") + names.flatMap { Self.send("LP \(folder.path)/\($0).mp3", "TAG") } + Self.send("Q")
        let reference = try Self.drive("/usr/bin/mpg123 -R -o dummy", commands)
        let ours = try Self.drive("\(Harness.binary) -R -o null", commands)
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = reference.stdout.split(separator: "\n").map(String.init)
        let mine = ours.stdout.split(separator: "\n").map(String.init)
        #expect(mine == theirs, "\(zip(mine, theirs).filter { $0 != $1 })")
        #expect(mine.contains("@I ID3v2.artist:Nellee Hooper") && mine.contains("@T =Marius de Vries"))
    }

    /// `LOAD` of a CUE sheet or a playlist: said to be a list, and how to play it (it was
    /// "no MPEG audio or other format found in it").
    @Test func loadingAListSaysItIsOne() throws {
        let folder = try Harness.temporaryFolder()
        try Data("\u{FEFF}rem GENRE Jazz\nFILE \"a.flac\" WAVE\n".utf8).write(to: folder.appendingPathComponent("x.cue"))
        try Data("#EXTM3U\na.mp3\n".utf8).write(to: folder.appendingPathComponent("y.m3u"))
        let result = try Self.drive("\(Harness.binary) -R -o null", Self.send("SILENCE", "LOAD x.cue", "LOAD y.m3u", "Q"), in: folder)
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            "tplayer: x.cue: a CUE sheet, not a song: play it as a list (name it as an input, or LOADLIST it with -R)",
            "tplayer: y.m3u: an M3U playlist, not a song: play it as a list (name it as an input, or LOADLIST it with -R)",
        ])
    }

    /// A jump or a seek far past the end (the numbers a randomised front-end sends) lands on the
    /// end; it crashed tplayer with SIGILL (frames × samples × flicks overflowed).
    @Test func absurdJumpsAndSeeksLandOnTheEnd() throws {
        let commands = Self.send("SILENCE", "LP \(Harness.songs[1])", "J 500399958598", "SAMPLE", "J +500399958598",
                                 "J 1099511627776", "J -1099511627776", "SAMPLE", "K 1099511627776", "K +1099511627776",
                                 "SAMPLE", "Q")
        let result = try Self.drive("\(Harness.binary) -R -o null", commands)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("@I") }
        #expect(lines.filter { $0.hasPrefix("@J") || $0.hasPrefix("@K") || $0.hasPrefix("@SAMPLE") } == [
            "@J 383", "@SAMPLE 441000 441000", "@J 383", "@J 383", "@J 0", "@SAMPLE 0 441000",
            "@K 441000", "@K 441000", "@SAMPLE 441000 441000",
        ])
    }

    /// While playing: `@P` for each change, `@S` once, `@F` lines that count up frame by frame,
    /// and the end of the song as `@P 3` then `@P 0` (what mpyg321 takes for "music ended").
    @Test func playingReportsProgressPausesAndTheEnd() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 2, in: folder)
        let commands = Self.send("LOAD \(song)") + ["sleep 0.6"] + Self.send("PAUSE") + ["sleep 0.2"]
            + Self.send("SAMPLE") + ["sleep 0.3"] + Self.send("SAMPLE", "PAUSE") + ["sleep 2.2"] + Self.send("SAMPLE", "Q")
        let result = try Self.drive("\(Harness.binary) -R -o null --trace", commands)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let states = lines.filter { $0.hasPrefix("@P ") }
        #expect(states == ["@P 2", "@P 1", "@P 2", "@P 3", "@P 0"], "\(lines.filter { !$0.hasPrefix("@F") })")
        #expect(lines.filter { $0.hasPrefix("@S ") } == ["@S 1.0 3 44100 Joint-Stereo 2 417 2 0 0 0 128 0 0"])
        let progress = lines.filter { $0.hasPrefix("@F ") }.map { $0.split(separator: " ").dropFirst().map { Double($0)! } }
        #expect(progress.count > 20)
        // Frames count up, frames + left is the song's length, seconds follow the frames.
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0[0] <= $1[0] })
        // One line per frame, as mpg123 sends them: none repeated, none left out (a timed
        // line repeated a frame and skipped the next).
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $1[0] == $0[0] + 1 }, "\(progress.map { Int($0[0]) })")
        let total = progress[0][0] + progress[0][1]
        #expect(progress.allSatisfy { $0[0] + $0[1] == total && abs($0[2] - $0[0] * 1152 / 44100) < 0.006 })
        // Paused, the position holds: the SAMPLE after the pause equals the one in it.
        let samples = lines.filter { $0.hasPrefix("@SAMPLE ") }
        #expect(samples.count == 2 && samples[0] == samples[1], "\(samples)")
        #expect(samples.first?.hasSuffix(" 88200") == true)
        // After the end the track is closed, as in mpg123.
        #expect(lines.last == "@E No stream opened. (code 24)")
        // The trace shows each command going through the state machine.
        #expect(result.stderr.contains("remote: PAUSE\nPlay -> Stop (stop)"))
        #expect(result.stderr.contains("remote: PAUSE\nStop -> Play (play)"))
        #expect(result.stderr.contains("Play -> Prepare (ended)"))
    }

    /// Junk never stops the player: a line over 2,048 bytes, binary bytes, an unknown command
    /// and mpg123 commands tplayer does not have each get one `@E` line, and the next works.
    @Test func junkLinesGetOneErrorEachAndThePlayerGoesOn() throws {
        let folder = try Harness.temporaryFolder()
        let junk = folder.appendingPathComponent("junk.txt")
        var bytes = Data("SILENCE\n".utf8)
        bytes += Data(repeating: UInt8(ascii: "A"), count: 5000) + Data("\n".utf8)
        bytes += Data([0x4C, 0x20, 0x01, 0x02, 0xFF, 0x1B, 0x5B, 0x0A])
        bytes += Data("EQ 1 2 3\nPITCH 0.1\nRVA mix\nSCAN\nWHAT\nLP \(Harness.songs[0])\nSAMPLE\nQ\n".utf8)
        try bytes.write(to: junk)
        let result = try Harness.run("/bin/sh", ["-c", "\(Harness.binary) -R -o null < \(junk.path)"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("@E ") }
        #expect(errors.count == 4, "\(errors)")
        #expect(errors[0].contains("too long"))
        #expect(errors[1].contains("binary"))
        // mpg123's equaliser, pitch and RVA commands are answered as mpg123 answers them.
        #expect(errors[2] == "@E No track loaded!", "SCAN with no track")
        #expect(lines.contains("@1 : 2 : 3.000000") && lines.contains("@PITCH 0.000000") && lines.contains("@RVA mix"))
        #expect(lines.last?.hasPrefix("@SAMPLE 0 ") == true)
    }

    /// `--fifo`: commands through a named pipe that tplayer creates (and removes); writers may
    /// come and go. A path that is a regular file is refused, and left as it was.
    @Test func commandsComeThroughANamedPipe() throws {
        let folder = try Harness.temporaryFolder()
        let fifo = folder.appendingPathComponent("control").path
        let script = """
            \(Harness.binary) -R -o null --fifo \(fifo) & pid=$!
            for i in 1 2 3 4 5 6 7 8 9 10; do [ -p \(fifo) ] && break; sleep 0.1; done
            echo SILENCE > \(fifo); sleep 0.2
            echo "LP \(Harness.songs[0])" > \(fifo); sleep 0.3
            echo SAMPLE > \(fifo); sleep 0.2
            echo Q > \(fifo); wait $pid; echo "exit $?"
            """
        let result = try Harness.run("/bin/sh", ["-c", script])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("@silence") && lines.contains("@P 1") && lines.contains { $0.hasPrefix("@SAMPLE 0 ") })
        #expect(lines.last == "exit 0")
        #expect(!FileManager.default.fileExists(atPath: fifo))

        let file = folder.appendingPathComponent("notes.txt")
        try Data("keep me\n".utf8).write(to: file)
        let refused = try Harness.tplayer(["-R", "-o", "null", "--fifo", file.path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("exists and is not a named pipe"))
        #expect(try Data(contentsOf: file) == Data("keep me\n".utf8))
    }

    /// The virtual environment `make test` installs the front-ends into (a test installs nothing
    /// from PyPI itself).
    static let frontends = Harness.root.appendingPathComponent(".build/frontends-venv")
    static var mpyg321Installed: Bool {
        (try? Harness.run(frontends.appendingPathComponent("bin/python").path, ["-c", "import mpyg321"]).status) == 0
    }

    /// A real front-end, unchanged: the `mpyg321` package from PyPI, in its own virtual
    /// environment, finds "mpg123" on its PATH (a two-line wrapper that runs `tplayer -R`) and
    /// loads, pauses, resumes, seeks, sets the volume and gets its end-of-song callback.
    @Test(.enabled(if: mpyg321Installed, "mpyg321 is not in .build/frontends-venv: make test installs it"))
    func mpyg321DrivesTplayerUnchanged() throws {
        let python = Self.frontends.appendingPathComponent("bin/python").path
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 3, in: folder)
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let trace = folder.appendingPathComponent("trace.txt").path
        let wrapper = bin.appendingPathComponent("mpg123")
        try Data("""
            #!/bin/sh
            [ "$1" = --version ] && { echo "mpg123 1.31.2 (this is tplayer -R)"; exit 0; }
            exec \(Harness.binary) -R -o null --trace "$@" 2>>\(trace)
            """.utf8).write(to: wrapper)
        chmod(wrapper.path, 0o755)
        let result = try Harness.run(python, [Harness.root.appendingPathComponent("Tests/Frontends/mpyg321_drive.py").path, song],
                                     environment: ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["paused", "resumed", "music ended"],
                "\(result.stdout)\n\(result.stderr)")
        let log = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        for step in ["remote: LOAD \(song)", "Loading -> Play (opened, play asked)", "remote: PAUSE\nPlay -> Stop (stop)",
                     "remote: PAUSE\nStop -> Play (play)", "remote: JUMP +40", "Play -> Play (seek", "remote: VOLUME 50",
                     "Play -> Prepare (ended)", "remote: QUIT"] {
            #expect(log.contains(step), "\(step) not in:\n\(log)")
        }
    }
}

/// `PITCH` on a real sound server: the stream is reopened at the song's rate times 1 + pitch,
/// and set back; reopening it again and again never hangs (letting go of the old stream under
/// the engine's lock deadlocked with libpulse's thread).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemotePitchTests {
    @Test func pitchPlaysAtAnotherRateOnTheServer() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let commands = RemoteTests.send("SILENCE", "LOAD \(Harness.songs[1])") + ["sleep 0.5"]
            + RemoteTests.send("PITCH 0.5") + ["sleep 1", "echo pitched >&2", "pactl list sink-inputs | grep 'Sample Specification' >&2"]
            + RemoteTests.send("PITCH 0.1", "PITCH 0.2", "PITCH -0.2", "PITCH 0.3", "PITCH 0") + ["sleep 1"]
            + ["echo back >&2", "pactl list sink-inputs | grep 'Sample Specification' >&2"] + RemoteTests.send("SAMPLE", "Q")
        let script = "(" + commands.joined(separator: "; ") + ") | timeout 30 \(Harness.binary) -R -o pulse"
        let result = try Harness.run("/bin/sh", ["-c", script], environment: server.environment)
        #expect(result.status == 0, "it ended by itself, never hung: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("@PITCH") } == ["@PITCH 0.500000", "@PITCH 0.100000", "@PITCH 0.200000",
                                                           "@PITCH -0.200000", "@PITCH 0.300000", "@PITCH 0.000000"])
        // The server's streams: the test's own keeper at 44.1 kHz, and tplayer's.
        let parts = result.stderr.components(separatedBy: "back\n")
        try #require(parts.count == 2, "\(result.stderr)")
        #expect(parts[0].contains("s16le 2ch 66150Hz"), "44.1 kHz × 1.5: \(parts[0])")
        #expect(!parts[1].contains("66150Hz") && parts[1].contains("s16le 2ch 44100Hz"), "\(parts[1])")
        #expect(lines.contains { $0.hasPrefix("@SAMPLE ") })
    }
}

/// Front-ends start "mpg123 -R" with mpg123's own options: tplayer takes them (it exited 64,
/// and the client died with it), honours `-a` (the sink played on), and says what it leaves out.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemoteOptionsTests {
    @Test func mpg123sOptionsNeverEndTheRun() throws {
        let commands = RemoteTests.send("SILENCE", "LP \(Harness.songs[0])", "SAMPLE", "Q")
        let program = "\(Harness.binary) -R --aggressive -b 1024 -v -s -k 3 -f 16384 -g 50 -C -@ x.m3u --stereo --utf8 -o dummy ''"
        let result = try RemoteTests.drive(program, commands)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").last == "@SAMPLE 0 396900")
        let notes = result.stderrLines
        #expect(notes.count == 9 && notes.allSatisfy { $0.hasPrefix("tplayer: -R: ") && $0.hasSuffix("; ignored") }, "\(notes)")
    }

    @Test func dashAChoosesTheSinkAndAnUnknownOneIsTheDefault() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        try Harness.run("/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=second"], environment: server.environment)
        let sinks = try Harness.run("/usr/bin/pactl", ["list", "short", "sinks"], environment: server.environment).stdout
        let second = try #require(sinks.split(separator: "\n").first { $0.contains("\tsecond\t") }?.split(separator: "\t").first)
        for (device, onSecond) in [("second", true), ("nosuch", false)] {
            let commands = RemoteTests.send("SILENCE", "LOAD \(Harness.songs[1])") + ["sleep 1",
                "pactl list short sink-inputs | grep -v keep-running >&2"] + RemoteTests.send("Q")
            let script = "(" + commands.joined(separator: "; ") + ") | timeout 20 \(Harness.binary) -R -a \(device)"
            let result = try Harness.run("/bin/sh", ["-c", script], environment: server.environment)
            #expect(result.status == 0)
            let streams = result.stderr.split(separator: "\n").filter { $0.contains("protocol-native") }
            let sinksUsed = streams.compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
            #expect(sinksUsed.contains(String(second)) == onSecond, "-a \(device): \(result.stderr)")
        }
    }
}

/// `LOAD` plays exactly one stream, as in mpg123: a playlist given to it is not walked and
/// leaves nothing behind (after `LP list.m3u`, a failed `LP` started one of its entries).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemoteOneStreamTests {
    @Test func aPlaylistLoadedIsOneStreamAndAFailedLoadStaysStopped() throws {
        let list = "\(Harness.root.path)/Resources/demo.m3u"
        let commands = RemoteTests.send("SILENCE", "LP \(list)", "STOP", "LP /nonexistent/song.mp3") + ["sleep 1.5"]
            + RemoteTests.send("LOAD \(list)") + ["sleep 1.5"] + RemoteTests.send("Q")
        let result = try RemoteTests.drive("\(Harness.binary) -R -o null", commands)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.contains("@P 2") && !lines.contains { $0.hasPrefix("@I ") || $0.hasPrefix("@F ") }, "nothing plays: \(lines)")
        #expect(lines.filter { $0.hasPrefix("@E Error opening stream: ") }.count == 3)
    }
}

/// `LOADLIST` numbers every entry as mpg123 does: a URL entry keeps its place (it was left out,
/// so `LL 3` played entry 4), a `file://` entry is listed as the list wrote it, and an entry
/// that cannot be played is said when it is chosen.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemoteListTests {
    @Test func everyEntryKeepsItsNumber() throws {
        let folder = try Harness.temporaryFolder()
        for (index, song) in Harness.songs.enumerated() {
            try FileManager.default.copyItem(atPath: song, toPath: folder.appendingPathComponent("\(index + 1).mp3").path)
        }
        let list = folder.appendingPathComponent("list.m3u")
        try "#EXTM3U\n1.mp3\nhttp://example.invalid/radio.mp3\nfile://\(folder.path)/2.mp3\n3.mp3\n".write(to: list, atomically: true, encoding: .utf8)
        let commands = RemoteTests.send("SILENCE", "LL -1 \(list.path)", "LL 4 \(list.path)", "STOP", "LL 3 \(list.path)", "STOP")
            + ["sleep 1"] + RemoteTests.send("Q")
        let reference = try RemoteTests.drive("/usr/bin/mpg123 -R -o dummy", commands)
        let ours = try RemoteTests.drive("\(Harness.binary) -R -o null", commands)
        #expect(ours.status == 0)
        // `@S` comes when the first frame plays: before or after STOP, a matter of timing.
        let lines = { (result: Harness.Result) in
            result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("@S ") && !$0.hasPrefix("@F ") }
        }
        #expect(lines(ours) == lines(reference))
        #expect(lines(ours).contains("@I LISTENTRY 2: http://example.invalid/radio.mp3"))
        #expect(lines(ours).contains("@I LISTENTRY 3: file://\(folder.path)/2.mp3"))
        let chosen = try RemoteTests.drive("\(Harness.binary) -R -o null",
                                           RemoteTests.send("SILENCE", "LL 2 \(list.path)") + ["sleep 1"] + RemoteTests.send("Q"))
        #expect(chosen.stdout.split(separator: "\n").suffix(2) == ["@E Error opening stream: http://example.invalid/radio.mp3", "@P 0"])
    }
}
