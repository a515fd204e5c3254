import Foundation
import Glibc
import Testing

/// MPD's own clients on `tplayer --mpd`, as their users run them: ncmpcpp 0.9 in a terminal,
/// python-mpd's idle, mpDris2 with playerctl.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdClientsTests {
    /// What `status` says of `key`, asked of `port`.
    static func status(_ port: UInt16, _ key: String) throws -> String? {
        try MpdWire.Client(port: port).send("status").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    /// Asks `status` until `key` says `value` (10 s at most); what it said last.
    @discardableResult
    static func await(_ port: UInt16, _ key: String, _ value: String) throws -> String? {
        var said: String?
        for _ in 0..<200 {
            said = try status(port, key)
            if said == value { break }
            usleep(50_000)
        }
        return said
    }

    /// mpc's `search`, `list`, `listall`, `stats`-free commands and `idleloop` say the same of
    /// tplayer as of MPD over the same songs.
    @Test func mpcSearchesAndWaitsAsItDoesWithMPD() throws {
        let pair = try MpdServerTests.Pair()
        let ports = [pair.mpd.port, pair.player.port]
        for command in [["search", "title", "Song 2"], ["search", "any", "other"], ["find", "artist", "Artist"],
                        ["-f", "%file% %title% %performer%", "search", "album", "Album"], ["list", "album"], ["listall", "Other"],
                        ["lsplaylists"], ["add", "Artist/Album"], ["-f", "%position% %title%", "playlist"]] {
            let (theirs, ours) = try (MpdServiceTests.mpc(ports[0], command), MpdServiceTests.mpc(ports[1], command))
            #expect(ours.stdout == theirs.stdout && ours.status == theirs.status && ours.stderr == theirs.stderr,
                    "mpc \(command): MPD \(theirs.stdout) \(theirs.stderr), tplayer \(ours.stdout) \(ours.stderr)")
        }
        // idleloop: each change said as it happens, the same on both.
        let loops = try ports.map { port -> (Process, Pipe) in
            let process = Process(), out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mpc")
            process.arguments = ["--host", "127.0.0.1", "--port", "\(port)", "idleloop", "options", "playlist"]
            process.standardOutput = out
            try process.run()
            return (process, out)
        }
        usleep(300_000)
        for port in ports {
            _ = try MpdServiceTests.mpc(port, "random", "on")
            usleep(200_000)
            _ = try MpdServiceTests.mpc(port, "del", "1")
        }
        usleep(300_000)
        let said = loops.map { process, out in
            kill(process.processIdentifier, SIGKILL)  // the test runner leaves SIGTERM ignored in what it starts
            process.waitUntilExit(within: BoundedWait.defaultSeconds)
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(said[1] == said[0] && said[0] == "options\nplaylist\n", "MPD \(said[0]), tplayer \(said[1])")
    }

    @Test func ncmpcppShowsTheLibraryAndItsKeysAct() throws {
        let (_, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment, arguments: ["--trace"])
        #expect(try MpdWire.Client(port: player.port).send("add Artist/Album") == ["OK"])
        let home = try Harness.temporaryFolder()
        let pane = try Pane(arguments: ["-h", "127.0.0.1", "-p", "\(player.port)"], environment: ["HOME": home.path],
                            width: 120, height: 30, executable: "/usr/bin/ncmpcpp")
        // The playlist screen.
        try pane.waitForLine { $0.hasPrefix("Playlist (3 items") }
        try pane.waitForLine { $0.contains("Song 2") && $0.contains("Album") && $0.contains("0:03") }
        // The browser, the media library, the search engine.
        try pane.send("2")
        try pane.waitForLine { $0.hasPrefix("[Artist]") }
        try pane.waitForLine { $0.hasPrefix("[Other]") }
        try pane.send("4")
        try pane.waitForLine { $0.hasPrefix("Media library") }
        try pane.waitForLine { $0.hasPrefix("Someone Else") }
        try pane.send("3")
        try pane.waitForLine { $0.hasPrefix("Search engine") }
        // Play the second song, pause, the next, the volume down.
        try pane.send("1")
        try pane.waitForLine { $0.hasPrefix("Playlist (3 items") }
        try pane.send("Down")
        try pane.send("Enter")
        #expect(try Self.await(player.port, "song", "1") == "1")
        #expect(try Self.await(player.port, "state", "play") == "play")
        try pane.send("p")
        let paused = try Self.await(player.port, "state", "pause")
        let said = try MpdWire.Client(port: player.port).send("status"), screen = try pane.screen()
        #expect(paused == "pause", "\(said) \(screen)")
        try pane.send(">")
        #expect(try Self.await(player.port, "song", "2") == "2", "\(player.stderr) \((try? pane.screen()) ?? "")")
        try pane.send("-")
        #expect(try Self.await(player.port, "volume", "98") == "98")
        try pane.waitForLine { $0.contains("Volume: 98%") }
        // What another client does shows on its screen too.
        #expect(try MpdWire.Client(port: player.port).send("setvol 40") == ["OK"])
        try pane.waitForLine { $0.contains("Volume: 40%") }
        try pane.send("q")
    }

    @Test func pythonMpdWaitsInIdleAndIsWokenByTheChange() throws {
        let (_, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment)
        let script = """
            import mpd, sys
            c = mpd.MPDClient()
            c.connect('127.0.0.1', \(player.port))
            print(c.mpd_version)
            c.add('Artist/Album')
            print(sorted(c.idle('playlist')))
            print('waiting', flush=True)
            print(sorted(c.idle('player', 'mixer')))
            print(c.status()['state'], c.currentsong()['title'])
            print(len(c.playlistinfo()), c.find('artist', 'Someone Else')[0]['title'], c.count('artist', 'Artist')['songs'])
            """
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Once it is to wait, another client plays: the change wakes it (or, come before its
        // idle, is told at once, as MPD tells what changed since the last).
        var said = ""
        let reader = output.fileHandleForReading
        while !said.contains("waiting\n") {
            let data = reader.availableData
            if data.isEmpty { break }
            said += String(decoding: data, as: UTF8.self)
        }
        #expect(try MpdWire.Client(port: player.port).send("play 1") == ["OK"])
        said += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(said)")
        guard lines.count == 6 else { return }
        #expect(lines[0] == "0.23.5" && lines[1] == "['playlist']" && lines[2] == "waiting")
        #expect(lines[3] == "['player']")
        #expect(lines[4].hasSuffix(" Song 2") && ["play", "pause"].contains(lines[4].split(separator: " ")[0]), "\(lines[4])")
        #expect(lines[5] == "3 Other Song 3")
    }

    @Test func mpdris2AndPlayerctlDriveItThroughMPRIS() throws {
        let (_, environment) = try MpdServerTests.library()
        let player = try ServedPlayer(environment: environment)
        #expect(try MpdWire.Client(port: player.port).send("add Artist/Album") == ["OK"])
        let port = player.port
        let script = """
            mpDris2 --host=127.0.0.1 --port=\(port) 2>/dev/null &
            for i in $(seq 100); do playerctl -l 2>/dev/null | grep -q '^mpd$' && break; sleep 0.1; done
            playerctl -p mpd status
            mpc -p \(port) play 2 >/dev/null
            for i in $(seq 50); do [ "$(playerctl -p mpd status)" = Playing ] && break; sleep 0.1; done
            playerctl -p mpd status
            playerctl -p mpd metadata --format '{{artist}} - {{title}} ({{album}})'
            playerctl -p mpd pause
            for i in $(seq 50); do mpc -p \(port) status | grep -q paused && break; sleep 0.1; done
            mpc -p \(port) status | sed -n 2p | cut -c1-14
            playerctl -p mpd next
            for i in $(seq 50); do [ "$(mpc -p \(port) current)" = "Artist - Song 3" ] && break; sleep 0.1; done
            mpc -p \(port) current
            playerctl -p mpd volume 0.5
            for i in $(seq 50); do mpc -p \(port) volume | grep -q 50 && break; sleep 0.1; done
            mpc -p \(port) volume
            kill $! 2>/dev/null
            """
        let result = try Harness.dbusSession(script)
        #expect(result.stdout.split(separator: "\n").map(String.init)
                == ["Stopped", "Playing", "Artist - Song 2 (Album)", "[paused]  #2/3", "Artist - Song 3", "volume: 50%"],
                "\(result.stdout) \(result.stderr)")
    }
}
