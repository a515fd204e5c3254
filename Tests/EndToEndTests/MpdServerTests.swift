import Foundation
import Glibc
import Testing

/// tplayer's MPD server held to MPD 0.23 itself: the same commands sent to a real `mpd` and to
/// `tplayer --mpd` over the same music folder, on fresh servers, the replies compared line by
/// line. What differs by design is left out of the comparison and listed in the README: the
/// volume (MPD's null output has no mixer, tplayer's volume is its own), how far a song has
/// played and its bit rate at that moment, the list's version number, the order of a song's tags
/// (MPD prints them in the file's order, tplayer in MPD's table's), and how long each has run and
/// when its database last changed (`stats`).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdServerTests {
    /// A music folder (two albums, FLAC and MP3, tagged, each song `seconds` long), scanned into a
    /// library of the test's own; the environment that finds it.
    static func library(seconds: Int = 3) throws -> (music: URL, environment: [String: String]) {
        let folder = try Harness.temporaryFolder()
        let script = """
            mkdir -p data config state Music/Artist/Album Music/Other
            sox -q -n -b 16 -r 44100 -c 2 tone.wav synth \(seconds) sine 440 vol 0.3
            for n in 1 2 3; do
              flac -s -T TITLE="Song $n" -T ARTIST=Artist -T ALBUM=Album -T DATE=2001 -T TRACKNUMBER=$n -T GENRE=Rock \\
                -T ARTISTSORT="Artist, The" -T AlbumSort="Album, An" -T ORIGINALDATE=1999-05-0$n -T PERFORMER="Player $n" \\
                -T PERFORMER="Singer" -T LABEL=Label -T DESCRIPTION="Take $n" -T MUSICBRAINZ_TRACKID=00000000-0000-0000-0000-00000000000$n \\
                -T CONDUCTOR=Conductor -T GROUPING=Grouping -T WORK=Work tone.wav -o Music/Artist/Album/0$n.flac
            done
            ffmpeg -loglevel error -f lavfi -i color=red:s=300x300 -frames:v 1 -q:v 2 Music/Artist/Album/cover.jpg
            ffmpeg -loglevel error -f lavfi -i testsrc=s=600x600 -frames:v 1 big.png
            metaflac --import-picture-from=big.png Music/Artist/Album/02.flac
            rm big.png
            lame --quiet --tt "Other Song" --ta "Someone Else" --tl "Other Album" --ty 1999 --tn 4 --tc "A comment" \\
              --tv "TSOP=Else, Someone" --tv "TPUB=Other Label" --tv "TPE3=Maestro" --tv "TIT1=Group" \\
              --tv "TXXX=MusicBrainz Artist Id=11111111-1111-1111-1111-111111111111" tone.wav Music/Other/other.mp3
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
    /// A stored playlist's time is when each server wrote it, and MPD lists them in its
    /// folder's order: those are left out, and the records put in order. The list's version in
    /// `status` is a number of its own on each.
    static func normalized(_ lines: [String]) -> [String] {
        let dropped = ["volume:", "elapsed:", "time:", "bitrate:", "uptime:", "db_update:"]
        let isStatus = lines.contains { $0.hasPrefix("playlistlength: ") }
        var records: [[String]] = [[]]
        for line in lines where !dropped.contains(where: { line.hasPrefix($0) }) && !(isStatus && line.hasPrefix("playlist: ")) {
            if line.hasPrefix("file:") || line.hasPrefix("playlist: ") || line == "OK" || line.hasPrefix("ACK ") { records.append([]) }
            let record = records[records.count - 1]
            if record.first?.hasSuffix(".mp3") == true, line.hasPrefix("duration:") || line.hasPrefix("Format:") { continue }
            if record.first?.hasPrefix("playlist: ") == true, line.hasPrefix("Last-Modified:") { continue }
            records[records.count - 1].append(line)
        }
        let playlists = records.filter { $0.first?.hasPrefix("playlist: ") == true }.sorted { $0[0] < $1[0] }
        return records.filter { $0.first?.hasPrefix("playlist: ") != true }.flatMap { $0.sorted() } + playlists.flatMap { $0 }
    }

    /// A private mpd and `tplayer --mpd` over the same library, fresh, a client of each.
    final class Pair {
        let mpd: ReferenceServer
        let player: ServedPlayer
        let theirs: MpdWire.Client, ours: MpdWire.Client
        let environment: [String: String]
        var compared = 0

        /// Songs of a minute: none ends while the commands are sent, however busy the machine
        /// (with songs of 3 s, MPD went on to the next while tplayer had not yet, or the reverse).
        init() throws {
            let (music, environment) = try MpdServerTests.library(seconds: 60)
            self.environment = environment
            mpd = try ReferenceServer(music: music)
            player = try ServedPlayer(environment: environment)
            (theirs, ours) = (try MpdWire.Client(port: mpd.port), try MpdWire.Client(port: player.port))
        }

        /// Sends each command to both, and holds the replies to each other.
        func same(_ commands: String...) throws {
            for command in commands {
                let (expected, got) = (try theirs.send(command), try ours.send(command))
                #expect(MpdServerTests.normalized(got) == MpdServerTests.normalized(expected), "\(command): MPD said \(expected), tplayer \(got)")
                compared += 1
            }
        }
    }

    /// Waits until both servers' `status` says `state: STATE`.
    static func await(_ state: String, _ clients: MpdWire.Client...) throws {
        for client in clients {
            for _ in 0..<100 where !(try client.send("status")).contains("state: \(state)") { usleep(20_000) }
        }
    }

    @Test func theSameCommandsGetTheSameRepliesAsFromMPD() throws {
        let pair = try Pair()
        let (theirs, ours) = (pair.theirs, pair.ours)
        #expect(ours.greeting == theirs.greeting)
        let same = pair.same
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
        try same("listpartitions", "partition default", "partition other", "listmounts", "listneighbors", "listneighbors x", "outputs",
                 "disableoutput 0", "outputs", "toggleoutput 0", "outputs", "toggleoutput 0", "enableoutput 0", "outputs", "enableoutput 1",
                 "outputset 0 a b", "outputset 0 a-b c", "outputset 0 \"\" c", "outputset 1 a b", "ping", "subscribe a", "subscribe a",
                 "subscribe b!", "channels", "sendmessage a hello", "sendmessage c hello", "readmessages", "readmessages",
                 "unsubscribe a", "unsubscribe a", "channels", "notcommands", "idle nothing", "replay_gain_status",
                 "replay_gain_mode album", "replay_gain_status", "replay_gain_mode x", "consume 0", "crossfade 0", "crossfade 3", "status", "crossfade x", "crossfade -1", "crossfade 0", "status", "password x",
                 "binarylimit 10", "binarylimit 100")
        #expect(pair.compared > 100)
    }

    @Test func theDatabaseAnswersAsMPDsDoes() throws {
        let pair = try Pair()
        let same = pair.same
        try same("stats", "lsinfo", "lsinfo Artist", "lsinfo Artist/Album", "lsinfo Artist/Album/01.flac", "lsinfo nothing", "lsinfo /",
                 "listall", "listall Artist", "listallinfo Other", "listallinfo", "listall nothing", "listall Other/other.mp3")
        try same("find artist Artist", "search artist art", "find any Rock", "find file Other/other.mp3", "find artist",
                 "find artist Artist sort Nope", "find Artist Artist window 1:2", "find title \"Song 2\" title \"Song 3\"",
                 "search album \"\"", "find date 1999", "find nope x")
        try same("find \"(artist == 'Artist')\"", "find \"(artist = 'x')\"", "find \"(nope == 'x')\"", "find \"(artist == x)\"",
                 "find \"(artist == 'x'\"", "find \"((artist == 'x') OR (artist == 'y'))\"", "find \"(artist == 'x') junk\"",
                 "find \"(artist == 'Artist')\" \"(title == 'Song 1')\"", "find \"(albumartist == 'Artist')\"",
                 "find \"(modified-since '2020-01-01')\"", "find \"(modified-since '2099-01-01')\"", "find \"(base 'Artist')\"",
                 "find \"(base 'Art')\"", "find \"(!(artist == 'Artist'))\"", "find \"(title =~ '^Song [12]$')\"",
                 "search \"(title !~ 'song')\"", "find \"(title contains 'ong')\"", "search \"(title contains 'SONG')\"",
                 "find \"(title !contains 'Song')\"", "find \"(AudioFormat == '44100:16:2')\"", "find \"(any contains 'Rock')\"",
                 "find \"(file == 'Other/other.mp3')\"", "find \"((artist == 'Artist') AND (album == 'Album') AND (track == '2'))\"",
                 "find \"(artist == 'x\\'y')\"", "find \" (artist == 'Artist')\"", "find \"(artist != 'Artist')\"")
        try same("count artist Artist", "count group artist", "count artist Artist group album", "count \"(date == '2001')\" group date",
                 "count group nope", "list artist", "list album", "list albumartist", "list date", "list album Artist", "list title Artist",
                 "list album group albumartist", "list album group date group albumartist", "list album group album",
                 "list genre \"(artist == 'Artist')\"", "list file", "list nope", "list title group nope")
        // The tags beyond the usual: sort names, original date, performers, label, comment,
        // conductor, grouping, work, MusicBrainz ids (Vorbis comments and ID3v2 frames).
        try same("find artistsort \"Artist, The\"", "search albumsort an", "list label", "list performer", "list originaldate",
                 "list albumartistsort", "list artistsort group label", "count group conductor", "search comment take", "find comment \"A comment\"",
                 "find \"(MUSICBRAINZ_TRACKID == '00000000-0000-0000-0000-000000000002')\"", "list musicbrainz_artistid",
                 "find grouping Group", "list work", "find \"(originaldate >= '1999-05-02')\"", "find originaldate 1999-05-02",
                 "lsinfo Other/other.mp3")
        // Not the same by finding nothing on both: each kind of tag is there.
        let mine = pair.ours
        #expect(try mine.send("list label") == ["Label: Label", "Label: Other Label", "OK"])
        #expect(try mine.send("find grouping Group").first == "file: Other/other.mp3")
        #expect(try mine.send("list musicbrainz_artistid").contains("MUSICBRAINZ_ARTISTID: 11111111-1111-1111-1111-111111111111"))
        #expect(try mine.send("find originaldate 1999-05-02").first == "file: Artist/Album/02.flac")
        try same("listfiles", "listfiles Artist/Album", "listfiles Other", "listfiles nothing")
        try same("findadd artist Artist", "playlist", "playlistfind artist Artist", "playlistsearch title song",
                 "playlistfind \"(title == 'Song 2')\"", "playlistfind nope x", "playlistsearch any else", "searchadd title \"other song\" position 1", "playlist", "findadd title nothing",
                 "playlist", "searchadd title x position 9")
        #expect(pair.compared > 80)
        // In a command list the large replies are made whole, the same.
        let list = ["command_list_ok_begin", "listall Artist", "listallinfo Other", "find artist Artist", "search title song 3",
                    "listall Other/other.mp3", "command_list_end"].map { Array($0.utf8) }
        let (theirs, ours) = (try MpdWire.exchange(port: pair.mpd.port, list), try MpdWire.exchange(port: pair.player.port, list))
        func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
        #expect(Self.normalized(lines(ours)) == Self.normalized(lines(theirs)), "\(theirs) \(ours)")
    }

    @Test func storedPlaylistsAreKeptAsMPDKeepsThem() throws {
        let pair = try Pair()
        let same = pair.same
        try same("listplaylists", "add Artist/Album", "save mine", "save mine", "save a/b", "listplaylists", "listplaylist mine",
                 "listplaylist nope", "listplaylistinfo mine", "clear", "load mine", "playlist", "load mine 1:2", "load mine 0:1 0",
                 "playlist", "load mine 5:", "load mine 1 9", "load nope")
        try same("playlistadd mine Other/other.mp3", "playlistadd mine Other/other.mp3 0", "playlistadd mine Other/other.mp3 99",
                 "listplaylist mine", "playlistadd new Artist", "listplaylist new", "playlistadd new nothing", "playlistdelete mine 0",
                 "playlistdelete mine 99", "playlistdelete nope 0", "listplaylist mine", "playlistmove mine 0 3", "listplaylist mine",
                 "playlistmove mine 0 9", "playlistclear mine", "listplaylist mine", "playlistclear fresh", "listplaylist fresh")
        try same("rename mine other", "rename nope x", "rename other new", "listplaylists", "rm other", "rm other", "lsinfo",
                 "searchaddpl found title song", "listplaylist found", "rm .hidden", "save .hidden", "listplaylists")
        #expect(pair.compared == 48)
    }

    @Test func picturesAreSentAsMPDSendsThemAChunkAtATime() throws {
        let pair = try Pair()
        var compared = 0
        for line in ["albumart Artist/Album/01.flac 0", "albumart Artist/Album/01.flac 8192", "albumart Artist/Album/01.flac 999999",
                     "albumart Other/other.mp3 0", "albumart nothing.flac 0", "readpicture Artist/Album/02.flac 0",
                     "readpicture Artist/Album/02.flac 8192", "readpicture Artist/Album/01.flac 0", "readpicture Artist/Album/02.flac 9999999",
                     "albumart Artist/Album 0", "albumart Artist/Album/01.flac x", "albumart ../x 0"] {
            let theirs = try MpdWire.exchange(port: pair.mpd.port, [Array(line.utf8)])
            let ours = try MpdWire.exchange(port: pair.player.port, [Array(line.utf8)])
            #expect(ours == theirs, "\(line)")
            compared += 1
        }
        // A smaller chunk when the client asks for one.
        let limited = ["command_list_begin", "binarylimit 64", "readpicture Artist/Album/02.flac 64", "command_list_end"].map { Array($0.utf8) }
        #expect(try MpdWire.exchange(port: pair.player.port, limited) == (try MpdWire.exchange(port: pair.mpd.port, limited)))
        let picture = try MpdWire.exchange(port: pair.player.port, [Array("readpicture Artist/Album/02.flac 0".utf8)])
        #expect(picture.hasPrefix("size: ") && picture.contains("\ntype: image/png\nbinary: 8192\n"), "\(picture.prefix(80))")
        #expect(try MpdWire.exchange(port: pair.player.port, [Array("albumart file:///etc/passwd 0".utf8)]) == "ACK [50@0] {albumart} No file exists\n")
        #expect(compared == 12)
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
