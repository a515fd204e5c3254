import Foundation
import Glibc
import Testing

/// `tplayer --mpd` as its users run it: driven by mpc, refused at start where it would listen
/// beyond this machine without a password, its passwords and their permissions, and as a
/// service that keeps its list across restarts.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdServiceTests {
    /// `mpc ARGUMENTS` against `port`: its status, output and errors.
    static func mpc(_ port: UInt16, _ arguments: String...) throws -> Harness.Result {
        try mpc(port, arguments)
    }

    static func mpc(_ port: UInt16, _ arguments: [String]) throws -> Harness.Result {
        try Harness.run("/usr/bin/mpc", ["--host", "127.0.0.1", "--port", "\(port)"] + arguments)
    }

    @Test func mpcDrivesItAsItDrivesMPD() throws {
        let (_, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment)
        let added = try Self.mpc(player.port, "add", "Artist/Album")
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")  // no "MPD 0.21 required"
        let listed = try Self.mpc(player.port, "-f", "%position% %artist% - %title% (%album%, %date%)", "playlist")
        #expect(listed.stdout == "1 Artist - Song 1 (Album, 2001)\n2 Artist - Song 2 (Album, 2001)\n3 Artist - Song 3 (Album, 2001)\n")
        #expect(try Self.mpc(player.port, "play", "2").status == 0)
        var status = ""
        for _ in 0..<100 {
            status = try Self.mpc(player.port, "status").stdout
            if status.contains("[playing] #2/3") { break }
            usleep(20_000)
        }
        #expect(status.hasPrefix("Artist - Song 2\n[playing] #2/3"), "\(status)")
        #expect(try Self.mpc(player.port, "volume", "40").stdout.contains("volume: 40%"))
        #expect(try Self.mpc(player.port, "pause").stdout.contains("[paused]  #2/3"))
        #expect(try Self.mpc(player.port, "next").stdout.contains("#3/3"))
        #expect(try Self.mpc(player.port, "current").stdout == "Artist - Song 3\n")
        #expect(try Self.mpc(player.port, "random", "on").stdout.contains("random: on"))
        let wrong = try Self.mpc(player.port, "play", "9")
        #expect(wrong.status != 0 && wrong.stderr.contains("Bad song index"), "\(wrong.stderr)")
    }

    @Test func anAddressBeyondThisMachineNeedsAPassword() throws {
        let (_, environment) = try MpdServerTests.library()
        let refused = try Harness.tplayer(["--mpd=0.0.0.0:6601", "-o", "null"], environment: environment)
        #expect(refused.status == 64)
        #expect(refused.stderrLines == ["tplayer: --mpd 0.0.0.0:6601: a server beyond this machine needs a password: add "
                                        + "mpd-password = SECRET to the settings (~/.config/tplayer/config), or serve on 127.0.0.1"])
        let nonsense = try Harness.tplayer(["--mpd=example.org:66", "-o", "null"], environment: environment)
        #expect(nonsense.status == 64 && nonsense.stderrLines.count == 1, "\(nonsense.stderr)")
        #expect(nonsense.stderr.hasPrefix("tplayer: --mpd example.org:66: example.org is not an address"), "\(nonsense.stderr)")
        // A port another server holds: said, and the run ends.
        let mpd = try ReferenceServer()
        let taken = try Harness.tplayer(["--mpd=127.0.0.1:\(mpd.port)", "-o", "null"], environment: environment)
        #expect(taken.status == 1)
        #expect(taken.stderrLines == ["tplayer: --mpd 127.0.0.1:\(mpd.port): the address is in use (another server listens there)"])
    }

    @Test func passwordsGiveTheirPermissionsAndNoMore() throws {
        let (_, environment) = try MpdServerTests.library()
        let config = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("tplayer")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mpd-password = listen@read\nmpd-password = s3cret\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let player = try ServedPlayer(environment: environment)
        let client = try MpdWire.Client(port: player.port)
        #expect(try client.send("status") == ["ACK [4@0] {status} you don't have permission for \"status\""])
        #expect(try client.send("ping") == ["OK"])
        #expect(try client.send("password wrong") == ["ACK [3@0] {password} incorrect password"])
        #expect(try client.send("password listen") == ["OK"])
        #expect(try client.send("status").last == "OK")
        #expect(try client.send("add Artist/Album") == ["ACK [4@0] {add} you don't have permission for \"add\""])
        #expect(try client.send("notcommands").contains("command: add"))
        #expect(try client.send("password s3cret") == ["OK"])
        #expect(try client.send("add Artist/Album") == ["OK"])
        #expect(try client.send("notcommands") == ["OK"])
    }

    @Test func asAServiceItEndsOnKillAndPicksUpItsListAgain() throws {
        let (_, environment) = try MpdServerTests.library()
        let first = try ServedPlayer(environment: environment)
        _ = try Self.mpc(first.port, "add", "Artist/Album")
        _ = try Self.mpc(first.port, "play", "2")
        _ = try Self.mpc(first.port, "repeat", "on")
        _ = try Self.mpc(first.port, "consume", "on")
        let client = try MpdWire.Client(port: first.port)
        #expect(try client.send("prio 7 2") == ["OK"])
        // MPD says nothing to kill: the connection closes and the server ends.
        #expect(try client.send("kill") == ["<closed>"])
        first.process.waitUntilExit(within: BoundedWait.defaultSeconds)
        #expect(first.process.exitStatus == 0, "\(first.stderr)")
        let second = try ServedPlayer(environment: environment)
        let listed = try Self.mpc(second.port, "-f", "%title%", "playlist")
        #expect(listed.stdout == "Song 1\nSong 2\nSong 3\n", "\(listed.stdout) \(second.stderr)")
        let status = try Self.mpc(second.port, "status").stdout
        #expect(status.contains("#2/3") && status.contains("repeat: on") && status.contains("consume: on"), "\(status)")
        #expect(try MpdWire.Client(port: second.port).send("playlistinfo 2").contains("Prio: 7"), "its priority kept")
        // SIGTERM ends it as kill does.
        _ = try Self.mpc(second.port, "clear")
        second.process.terminate()
        second.process.waitUntilExit(within: BoundedWait.defaultSeconds)
        #expect([0, 128 + SIGTERM].contains(second.process.exitStatus), "an exit, not the signal's own end")
        // Saved with an empty list, it starts again, empty, for its clients to fill.
        let third = try ServedPlayer(environment: environment)
        #expect(try Self.mpc(third.port, "playlist").stdout.isEmpty, "\(third.stderr)")
    }

    /// `stats`' `playtime` counts the time music played, and stands still while paused.
    @Test func statsCountsTheTimeMusicPlayed() throws {
        let (_, environment) = try MpdServerTests.library(seconds: 30)
        let player = try ServedPlayer(environment: environment)
        let client = try MpdWire.Client(port: player.port)
        func playtime() throws -> Int? {
            try client.send("stats").first { $0.hasPrefix("playtime: ") }.flatMap { Int($0.dropFirst(10)) }
        }
        #expect(try client.send("add Artist/Album") == ["OK"])
        #expect(try playtime() == 0)
        #expect(try client.send("play 0") == ["OK"])
        for _ in 0..<100 where !(try client.send("status")).contains("state: play") { usleep(20_000) }
        usleep(2_500_000)
        #expect(try client.send("pause 1") == ["OK"])
        let played = try #require(try playtime())
        #expect(played >= 2, "\(played) s after 2.5 s of playing")
        usleep(1_200_000)
        #expect(try playtime() == played, "paused, it stands still")
    }

    @Test func hostileClientsAreCutOffAndEveryOtherIsStillAnswered() throws {
        let (folder, environment) = try MpdServerTests.library()
        let config = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("tplayer")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mpd-max-connections = 5\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let player = try ServedPlayer(environment: environment, arguments: [folder.appendingPathComponent("Artist/Album").path])
        let good = try MpdWire.Client(port: player.port)
        // A line longer than 8 KiB, garbage that no client sends, and an HTTP request: closed.
        let long = try MpdWire.Client(port: player.port)
        long.write(String(repeating: "x", count: 10_000))
        #expect(try long.reply() == ["<closed>"])
        let garbage = try MpdWire.Client(port: player.port)
        garbage.write("\u{01}\u{02}binary")
        #expect(try garbage.reply() == ["<closed>"])
        let http = try MpdWire.Client(port: player.port)
        http.write("GET / HTTP/1.1")
        #expect(try http.reply() == ["<closed>"])
        // A client that asks and never reads: the others are answered meanwhile.
        let hog = try MpdWire.Client(port: player.port)
        for _ in 0..<200 { hog.write(Array(repeating: "playlistinfo", count: 100).joined(separator: "\n")) }
        #expect(try good.send("status").contains("playlistlength: 3"))
        // Past the most connections (5, with good and hog): taken and closed without a word.
        let more = try (0..<3).map { _ in try MpdWire.Client(port: player.port) }
        #expect(more.map(\.greeting).filter { $0 == "OK MPD 0.23.5" }.count == 3)
        let refused = try MpdWire.Client(port: player.port)
        #expect(refused.greeting.isEmpty)
        #expect(try good.send("ping") == ["OK"])
        #expect(player.process.isRunning)
    }

    @Test func aGigabyteLineAndALineAByteAtATimeNeverHoldTheOthersUp() throws {
        let (_, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment)
        let good = try MpdWire.Client(port: player.port)
        // A line of a gigabyte: closed at MPD's 8 KiB, long before the gigabyte is sent.
        let flood = try MpdWire.Client(port: player.port)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var sent = 0, refusedAt: Int?
        while sent < 1 << 30 {
            let wrote = chunk.withUnsafeBytes { Glibc.send(flood.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard wrote > 0 else {
                refusedAt = sent
                break
            }
            sent += wrote
        }
        #expect(refusedAt != nil && refusedAt! < 64 << 20, "the server took \(sent) bytes of one line")
        // A client that sends its line a byte at a time: the others are answered meanwhile.
        let slow = try MpdWire.Client(port: player.port)
        for byte in "status\n" {
            slow.write(String(byte).trimmingCharacters(in: .newlines), newline: byte == "\n")
            #expect(try good.send("ping") == ["OK"])
            usleep(byte == "\n" ? 0 : 300_000)
        }
        #expect(try slow.reply().last == "OK")
        // A command list past MPD's 2 MiB: closed there, as MPD closes it.
        let list = try MpdWire.Client(port: player.port)
        list.write("command_list_begin")
        let line = "ping " + String(repeating: "x", count: 1000)
        for _ in 0..<2200 { list.write(line) }
        list.write("command_list_end")
        // Closed (a reset, as the rest it sent was never read), not left waiting.
        var answer: [String] = []
        do { answer = try list.reply() } catch { answer = ["\(error)"] }
        #expect(answer == ["<closed>"] || answer.first?.hasSuffix("(errno \(ECONNRESET))") == true, "\(answer)")
        #expect(try good.send("ping") == ["OK"])
        // Through it all, the player's memory at its highest stayed far below what was sent.
        let peak = try Self.peakMegabytes(player.process.processIdentifier)
        #expect(peak < 120, "peak RSS \(peak) MB")
    }

    /// The highest resident memory of process `pid` so far (VmHWM), in MB.
    static func peakMegabytes(_ pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    @Test func updateScansInTheBackgroundAndSaysSoWhenItEnds() throws {
        let (music, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment)
        let client = try MpdWire.Client(port: player.port), waiting = try MpdWire.Client(port: player.port)
        #expect(try client.send("count") == ["ACK [2@0] {count} too few arguments for \"count\""])
        #expect(try client.send("list album") == ["Album: Album", "Album: Other Album", "OK"])
        let made = try Harness.run("/bin/sh", ["-ec", "mkdir New && sox -q -n -b 16 -r 44100 -c 2 -t wav - synth 1 sine 220 | "
                                                 + "flac -s -T ALBUM=Fresh -T TITLE=New - -o New/new.flac"], in: music)
        #expect(made.status == 0, "\(made.stderr)")
        _ = try waiting.send("ping")
        waiting.write("idle database")
        #expect(try client.send("update") == ["updating_db: 1", "OK"])
        #expect(try waiting.reply() == ["changed: database", "OK"])
        #expect(try client.send("list album") == ["Album: Album", "Album: Fresh", "Album: Other Album", "OK"])
        #expect(try client.send("lsinfo New").contains("file: New/new.flac"))
        #expect(!(try client.send("status")).contains { $0.hasPrefix("updating_db") })
    }

    @Test func stickersAreKeptAsMPDKeepsThemAndTheLibrarysOwnAreItsStatistics() throws {
        let pair = try MpdServerTests.Pair()
        let same = pair.same
        try same("sticker list song Artist/Album/01.flac", "sticker get song Artist/Album/01.flac mood",
                 "sticker set song Artist/Album/01.flac mood calm", "sticker set song Artist/Album/02.flac mood wild",
                 "sticker set song Other/other.mp3 mood calm", "sticker get song Artist/Album/01.flac mood",
                 "sticker list song Artist/Album/01.flac", "sticker find song Artist mood", "sticker find song \"\" mood",
                 "sticker find song Artist mood = calm", "sticker find song \"\" mood > d", "sticker find song \"\" mood < d",
                 "sticker find song \"\" mood ~ d", "sticker delete song Artist/Album/01.flac mood",
                 "sticker delete song Artist/Album/01.flac mood", "sticker delete song Artist/Album/02.flac",
                 "sticker delete song Artist/Album/02.flac", "sticker get song nothing.flac mood", "sticker set album x y z",
                 "sticker bogus song x", "sticker get song Artist/Album/01.flac",
                 "sticker set song Artist/Album/01.flac \"a b\" \"c=d\"", "sticker list song Artist/Album/01.flac")
        #expect(pair.compared == 23)
        // The library's own: a rating of 0 to 10 is tplayer's stars, two a star; plays and skips.
        let client = pair.ours
        let waiting = try MpdWire.Client(port: pair.player.port)
        waiting.write("idle sticker")
        #expect(try client.send("sticker set song Artist/Album/03.flac rating 7") == ["OK"])
        #expect(try waiting.reply() == ["changed: sticker", "OK"])
        #expect(try client.send("sticker get song Artist/Album/03.flac rating") == ["sticker: rating=8", "OK"])
        #expect(try client.send("sticker set song Artist/Album/03.flac playCount 12") == ["OK"])
        #expect(try client.send("sticker set song Artist/Album/03.flac rating high")
                == ["ACK [2@0] {sticker} rating is tplayer's own: a whole number from 0 to 10"])
        #expect(try client.send("sticker find song Artist playCount") == ["file: Artist/Album/03.flac", "sticker: playCount=12", "OK"])
        let found = try Harness.tplayer(["--find", "rating:4"], environment: pair.environment)
        #expect(found.stdout.hasSuffix("Artist/Album/03.flac\n"), "\(found.stdout) \(found.stderr)")
        #expect(try client.send("sticker delete song Artist/Album/03.flac rating") == ["OK"])
        #expect(try client.send("sticker list song Artist/Album/03.flac") == ["sticker: playCount=12", "OK"])
    }

    @Test func aReplyLargerThanMPDsBufferIsMadeAsTheClientReadsIt() throws {
        let (music, environment) = try MpdServerTests.library()
        // A list of 100,000 entries (one song again and again): its playlistinfo is 14 MB.
        let song = music.appendingPathComponent("Artist/Album/01.flac").path
        let list = music.deletingLastPathComponent().appendingPathComponent("long.m3u")
        try String(repeating: song + "\n", count: 100_000).write(to: list, atomically: true, encoding: .utf8)
        let player = try ServedPlayer(environment: environment, arguments: [list.path])
        let reader = try MpdWire.Client(port: player.port, timeout: 60), other = try MpdWire.Client(port: player.port)
        for _ in 0..<200 where try other.send("status").contains("playlistlength: 100000") == false { usleep(50_000) }
        reader.write("playlistinfo")
        // Another client is answered while the reply is made.
        #expect(try other.send("ping") == ["OK"])
        let lines = try reader.reply()
        #expect(lines.last == "OK" && lines.filter { $0.hasPrefix("Pos: ") }.count == 100_000, "\(lines.suffix(3))")
        #expect(lines[lines.count - 2] == "Id: 100000")
        #expect(try reader.send("ping") == ["OK"])
    }

    @Test func aUnixSocketAndIPv6ServeTooAndTheSocketIsRemovedAtTheEnd() throws {
        let (music, environment) = try MpdServerTests.library()
        let socket = music.deletingLastPathComponent().appendingPathComponent("mpd.socket").path
        let port6 = try MpdWire.freePort()
        let player = try ServedPlayer(environment: environment, arguments: ["--mpd=\(socket)", "--mpd=[::1]:\(port6)"])
        let added = try Harness.run("/usr/bin/mpc", ["--host", socket, "add", "Artist/Album"])
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        let listed = try Harness.run("/usr/bin/mpc", ["--host", socket, "-f", "%title%", "playlist"])
        #expect(listed.stdout == "Song 1\nSong 2\nSong 3\n", "\(listed.stdout)")
        // IPv6's loopback, as loopback: no password asked.
        let overIPv6 = try Harness.run("/usr/bin/mpc", ["--host", "::1", "--port", "\(port6)", "-f", "%title%", "playlist"])
        #expect(overIPv6.status == 0 && overIPv6.stdout == "Song 1\nSong 2\nSong 3\n", "\(overIPv6.stdout) \(overIPv6.stderr)")
        // And the TCP address beside it sees the same list.
        #expect(try MpdWire.Client(port: player.port).send("status").contains("playlistlength: 3"))
        player.process.terminate()
        player.process.waitUntilExit(within: BoundedWait.defaultSeconds)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket it made is removed")
        // A file of the user's at the path is never replaced: the run is refused, the file kept.
        try "mine".write(toFile: socket, atomically: true, encoding: .utf8)
        let refused = try Harness.tplayer(["--mpd=\(socket)", "-o", "null", "--no-mpris"], environment: environment)
        #expect(refused.status == 1 && refused.stderrLines == ["tplayer: --mpd \(socket): something other than a socket is there; name a new path"],
                "\(refused.stderr)")
        #expect(try String(contentsOfFile: socket, encoding: .utf8) == "mine")
    }
}
