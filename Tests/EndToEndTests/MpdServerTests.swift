import Foundation
import Glibc
import Testing

/// tplayer's MPD server held to MPD 0.23 itself: the same commands sent to a real `mpd` and to
/// `tplayer --mpd` over the same music folder, on fresh servers, the replies compared line by
/// line. What differs by design is left out of the comparison and listed in the README: the
/// volume (MPD's null output has no mixer, tplayer's volume is its own), how far a song has
/// played and its bit rate at that moment, the list's version number, and the order of a song's
/// tags (MPD prints them in the file's order, tplayer in MPD's table's).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdServerTests {
    /// A music folder (two albums, FLAC and MP3, tagged), scanned into a library of the test's
    /// own; the environment that finds it.
    static func library() throws -> (music: URL, environment: [String: String]) {
        let folder = try Harness.temporaryFolder()
        let script = """
            mkdir -p data config state Music/Artist/Album Music/Other
            sox -q -n -b 16 -r 44100 -c 2 tone.wav synth 3 sine 440 vol 0.3
            for n in 1 2 3; do
              flac -s -T TITLE="Song $n" -T ARTIST=Artist -T ALBUM=Album -T DATE=2001 -T TRACKNUMBER=$n -T GENRE=Rock tone.wav -o Music/Artist/Album/0$n.flac
            done
            lame --quiet --tt "Other Song" --ta "Someone Else" --tl "Other Album" --ty 1999 --tn 4 tone.wav Music/Other/other.mp3
            rm tone.wav
            """
        let made = try Harness.run("/bin/sh", ["-ec", script], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                           "XDG_RUNTIME_DIR": folder.path, "XDG_MUSIC_DIR": folder.appendingPathComponent("Music").path]
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        return (folder.appendingPathComponent("Music"), environment)
    }

    /// A reply as compared: the lines that differ by design left out, each song's lines sorted.
    /// An MP3's length and format are left out too: MPD's decoder (libmad) gives 24 bits and
    /// keeps the encoder's padding (3.030 s), tplayer's is gapless (3.000 s) and floating point.
    static func normalized(_ lines: [String]) -> [String] {
        let dropped = ["volume:", "elapsed:", "time:", "bitrate:", "playlist:"]
        var records: [[String]] = [[]]
        for line in lines where !dropped.contains(where: { line.hasPrefix($0) }) {
            if line.hasPrefix("file:") { records.append([]) }
            if records[records.count - 1].first?.hasSuffix(".mp3") == true, line.hasPrefix("duration:") || line.hasPrefix("Format:") {
                continue
            }
            records[records.count - 1].append(line)
        }
        return records.flatMap { $0.sorted() }
    }

    /// Waits until both servers' `status` says `state: STATE`.
    static func await(_ state: String, _ clients: MpdWire.Client...) throws {
        for client in clients {
            for _ in 0..<100 where !(try client.send("status")).contains("state: \(state)") { usleep(20_000) }
        }
    }

    @Test func theSameCommandsGetTheSameRepliesAsFromMPD() throws {
        let (music, environment) = try Self.library()
        let mpd = try ReferenceServer(music: music)
        let player = try ServedPlayer(environment: environment)
        let theirs = try MpdWire.Client(port: mpd.port), ours = try MpdWire.Client(port: player.port)
        #expect(ours.greeting == theirs.greeting)
        var compared = 0
        func same(_ commands: String...) throws {
            for command in commands {
                let (expected, got) = (try theirs.send(command), try ours.send(command))
                #expect(Self.normalized(got) == Self.normalized(expected), "\(command): MPD said \(expected), tplayer \(got)")
                compared += 1
            }
        }
        try same("status", "currentsong", "playlistinfo", "add Artist/Album", "playlistinfo", "playlistinfo 1", "playlistinfo 3",
                 "playlistinfo 5", "playlistinfo 1:", "playlistinfo 2:9", "playlistinfo 2:1", "playlistinfo x", "playlistid 2",
                 "playlistid 99", "playlist", "status")
        try same("play 1")
        try Self.await("play", theirs, ours)
        try same("status", "currentsong", "add Artist/Album/01.flac 0", "addid Artist/Album/02.flac", "addid Other/other.mp3 1",
                 "playlist", "plchangesposid 0", "delete 9", "delete 0:2", "move 0 2", "playlist", "deleteid 99", "moveid 99 0",
                 "swap 0 9", "status")
        try same("seek 0 1")
        try Self.await("play", theirs, ours)
        try same("seekcur +1", "seekcur -0.5", "seekcur x", "seek 9 1", "seek 0 -1", "single 2", "repeat 2", "random 1", "random 0",
                 "repeat 1", "single oneshot", "single 0", "repeat 0", "status", "pause", "status", "pause 0", "status", "stop", "status",
                 "play 99", "playid 99", "add Artist/Album +0", "add Artist/Album/01.flac -0", "playlist", "move 1:3 0", "playlist",
                 "swap 0 4", "playlist", "swapid 1 2", "playlist", "moveid 3 0", "playlist", "clear", "status", "playlistinfo")
        try same("add nothing/here", "add ../etc", "add Artist/../Artist", "addid Artist", "add Artist/Album/01.flac 9", "add Other",
                 "tagtypes", "tagtypes clear", "tagtypes", "playlistinfo", "tagtypes enable Artist title", "playlistinfo",
                 "tagtypes disable title", "playlistinfo", "tagtypes all", "tagtypes enable Nope", "tagtypes nope", "tagtypes enable",
                 "tagtypes clear x", "playlistinfo")
        try same("listpartitions", "partition default", "partition other", "listmounts", "ping", "subscribe a", "subscribe a",
                 "subscribe b!", "channels", "sendmessage a hello", "sendmessage c hello", "readmessages", "readmessages",
                 "unsubscribe a", "unsubscribe a", "channels", "notcommands", "idle nothing", "replay_gain_status",
                 "replay_gain_mode album", "replay_gain_status", "replay_gain_mode x", "consume 0", "crossfade 0", "password x",
                 "binarylimit 10", "binarylimit 100")
        #expect(compared > 100)
    }

    @Test func idleWakesOneClientWhenAnotherChangesThePlayer() throws {
        let (_, environment) = try Self.library()
        let player = try ServedPlayer(environment: environment)
        let waiting = try MpdWire.Client(port: player.port), acting = try MpdWire.Client(port: player.port)
        // Changes since the connection are told at once.
        _ = try acting.send("add Artist/Album")
        #expect(try waiting.send("idle playlist") == ["changed: playlist", "OK"])
        waiting.write("idle mixer options")
        #expect(try acting.send("random 1") == ["OK"])
        #expect(try waiting.reply() == ["changed: options", "OK"])
        waiting.write("idle")
        #expect(try acting.send("play 0") == ["OK"])
        let woken = try waiting.reply()
        #expect(woken.contains("changed: player") && woken.last == "OK", "\(woken)")
        // `noidle` ends a wait with nothing changed.
        waiting.write("idle stored_playlist")
        #expect(try waiting.send("noidle") == ["OK"])
        #expect(try waiting.send("ping") == ["OK"])
        // Messages wake those subscribed.
        #expect(try waiting.send("subscribe news") == ["OK"])
        waiting.write("idle message")
        #expect(try acting.send("sendmessage news hello") == ["OK"])
        #expect(try waiting.reply() == ["changed: message", "OK"])
        #expect(try waiting.send("readmessages") == ["channel: news", "message: hello", "OK"])
        // Anything but noidle while idle closes the connection, as MPD does.
        waiting.write("idle")
        #expect(try waiting.send("status") == ["<closed>"])
    }
}
