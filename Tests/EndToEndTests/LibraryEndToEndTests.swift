import Foundation
import Testing

/// `tplayer --scan` and `--find` as a user runs them: the built binary, real songs, the library
/// in a data folder of the test's own.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LibraryEndToEndTests {
    /// A folder with a data folder (XDG_DATA_HOME), a settings folder, and three tagged songs.
    private func setUp() throws -> (folder: URL, environment: [String: String]) {
        let folder = try Harness.temporaryFolder()
        let script = """
            mkdir -p data config Music/Post
            sox -n -b 16 -r 44100 -c 2 tone.wav synth 1 sine 440 vol 0.3
            lame --quiet --tt "Army of Me" --ta "Björk" --tl Post --ty 1995 --tn 1 tone.wav Music/Post/01.mp3
            flac -s -T TITLE=Hyperballad -T ARTIST=Björk -T ALBUM=Post -T DATE=1995 -T TRACKNUMBER=2 tone.wav -o Music/Post/02.flac
            oggenc -Q -t "$(printf 'Evil\\033]2;pwned\\007')" -a "Zeta Waves" -l "Middle Ground" tone.wav -o Music/zeta.ogg
            rm tone.wav
            """
        let made = try Harness.run("/bin/sh", ["-ec", script], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        return (folder, environment)
    }

    @Test func aScanSaysWhatItHoldsAndFindPrintsPathsInAlbumOrder() throws {
        let (folder, environment) = try setUp()
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.hasPrefix("3 songs, 2 albums, 2 artists in "), "\(scan.stdout)")
        #expect(scan.stdout.hasSuffix(" s (3 read)\n"), "\(scan.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/tplayer/library.sqlite").path))

        let music = folder.appendingPathComponent("Music").resolvingSymlinksInPath().path
        let found = try Harness.tplayer(["--find", "BJORK"], environment: environment)
        #expect(found.status == 0 && found.stderr.isEmpty, "\(found.stderr)")
        #expect(found.stdout == "\(music)/Post/01.mp3\n\(music)/Post/02.flac\n")

        // The folder named is kept: a scan with none rescans it, reading nothing unchanged.
        let again = try Harness.tplayer(["--scan"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("(0 read, 3 unchanged)"), "\(again.stdout)\(again.stderr)")
    }

    @Test func findSaysWhenNothingMatchesAndWhenTheQueryCannotBeRead() throws {
        let (folder, environment) = try setUp()
        let empty = try Harness.tplayer(["--find", "bjork"], environment: environment)
        #expect(empty.status == 1 && empty.stderrLines == ["tplayer: the library is empty: tplayer --scan fills it"])
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let none = try Harness.tplayer(["--find", "artist:nobody"], environment: environment)
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderrLines == ["tplayer: no song in the library matches artist:nobody"])
        let bad = try Harness.tplayer(["--find", "year:soon"], environment: environment)
        #expect(bad.status == 64 && bad.stderrLines.count == 1 && bad.stderr.contains("year:soon: give a number or a range"))
    }

    @Test func playFindPlaysTheMatchingSongsInAlbumOrderAfterTheInputs() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer(["-w", out, "--play-find", "album:post"], in: folder, environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
        // Both songs of Post, a second each, whole: MP3 (gapless) then FLAC.
        #expect(try Harness.pcm(ofWAV: out).count == 2 * 44100 * 4, "\(played.stderr)")
        let none = try Harness.tplayer(["-w", out, "--force", "--play-find", "artist:nobody"], in: folder, environment: environment)
        #expect(none.status == 1 && none.stderrLines == ["tplayer: no song in the library matches artist:nobody"])
        let mixed = try Harness.tplayer(["--check", "--play-find", "post", "Music"], in: folder, environment: environment)
        #expect(mixed.status == 64 && mixed.stderr.contains("--play-find plays the library's songs"))
    }

    @Test func songsHeardAreCountedInTheLibraryAndTheListenLog() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let log = folder.appendingPathComponent("scrobbler.log").path
        let settings = folder.appendingPathComponent("settings").path
        try "listen-log = \(log)\n".write(toFile: settings, atomically: true, encoding: .utf8)
        // Written to a file, nothing is heard: nothing counted.
        let out = folder.appendingPathComponent("out.wav").path
        let written = try Harness.tplayer(["--config", settings, "-w", out, "--play-find", "album:post"], in: folder, environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try Harness.tplayer(["--find", "plays:1.."], environment: environment).status == 1)
        #expect(!FileManager.default.fileExists(atPath: log))
        let played = try Harness.tplayer(["--config", settings, "-q", "-o", "null", "--play-find", "album:post"], in: folder,
                                         environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
        let counted = try Harness.tplayer(["--find", "plays:1..1"], environment: environment)
        #expect(counted.stdout.hasSuffix("Post/01.mp3\n\(folder.appendingPathComponent("Music").resolvingSymlinksInPath().path)/Post/02.flac\n"),
                "\(counted.stdout)\(counted.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.prefix(3) == ["#AUDIOSCROBBLER/1.1", "#TZ/UTC", "#CLIENT/tplayer"])
        #expect(lines.dropFirst(3).map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(6).joined(separator: "|") }
            == ["Björk|Post|Army of Me|1|1|L", "Björk|Post|Hyperballad|2|1|L"])
        // A log that is not a file is never written to: one line, and the music plays.
        let fifo = folder.appendingPathComponent("fifo.log").path
        #expect(mkfifo(fifo, 0o644) == 0)
        try "listen-log = \(fifo)\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let refused = try Harness.tplayer(["--config", settings, "-o", "null", "--play-find", "hyperballad"], in: folder,
                                          environment: environment)
        #expect(refused.status == 0 && refused.stderrLines.filter { $0.hasPrefix("tplayer:") }.count == 1
                    && refused.stderr.contains("fifo.log: cannot write the listen log: not a regular file"),
                "\(refused.stderr)")
        // A file that is neither empty nor a listen log is left as it was, whatever it is: a
        // song (its ID3v1 tag at its end), the library's database, the settings, a text file.
        // (A line was appended to each.)
        let song = folder.appendingPathComponent("song.mp3").path
        try FileManager.default.copyItem(atPath: Harness.songs[0], toPath: song)
        let passwd = folder.appendingPathComponent("passwd").path
        try FileManager.default.copyItem(atPath: "/etc/passwd", toPath: passwd)
        let data = try #require(environment["XDG_DATA_HOME"])
        let database = data + "/tplayer/library.sqlite"
        for target in [song, passwd, database, settings] {
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            let config = folder.appendingPathComponent("listen-config").path
            try "listen-log = \(target)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let run = try Harness.tplayer(["--config", config, "-o", "null", "--play-find", "hyperballad"], in: folder,
                                          environment: environment)
            let after = try Data(contentsOf: URL(fileURLWithPath: target))
            // The database counts the play itself: it is looked at for the log's line only.
            if target == database {
                #expect(after.range(of: Data("Hyperballad\t".utf8)) == nil, "a listen line in \(target)")
            } else {
                #expect(after == before, "\(target) was changed")
            }
            #expect(run.status == 0 && run.stderrLines.filter { $0.hasPrefix("tplayer:") }
                        == ["tplayer: \(target): cannot write the listen log: it holds something else than a listen log "
                            + "(#AUDIOSCROBBLER); songs are not logged in this run"], "\(run.stderr)")
        }
    }

    /// The library view in a real terminal: the tree, an album opened, a song played from it,
    /// the filter typed, a song queued, and the terminal as it was after q.
    @Test func theLibraryViewBrowsesFiltersPlaysAndQueues() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[1]], environment: environment, width: 100, height: 14)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/1") }
        try pane.send("L")
        try pane.waitForLine { $0.hasPrefix("> Björk") && $0.hasSuffix("2 songs") }
        try pane.waitForLine { $0.hasPrefix("  Zeta Waves") }
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("    1995  Post") }
        try pane.send("Down")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("      02. Hyperballad") }
        try pane.send("Down")
        try pane.send("Down")
        try pane.send("Enter")
        try pane.waitForStatus { $0.contains("Hyperballad") && $0.contains("2/2") }
        // A filter narrows as it is typed; the tag's escape sequence is shown, not obeyed.
        try pane.type("/pwned")
        try pane.waitForLine { $0.hasPrefix("> Zeta Waves") }
        try pane.send("Enter")
        try pane.send("t")
        try pane.waitForLine { $0.contains("Zeta Waves – Evil\\e]2;pwned") }
        try pane.send("e")
        try pane.waitForStatus { $0.contains("[1 queued]") && $0.contains("/3") }
        try pane.send("Escape")
        try pane.waitForStatus { $0.contains("Zeta Waves") && $0.contains("3/3") }
        #expect(!(try pane.screen()).contains("tplayer library:"), "the normal screen again")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// `tplayer` alone in a terminal, with a library and no saved session, opens the library
    /// view, as cmus and ncmpcpp do, and a song chosen there plays (it said "no INPUT given",
    /// exit 64); with no library it still says so, and how to make one.
    @Test func plainTplayerOpensTheLibrary() throws {
        let (folder, environment) = try setUp()
        let none = try Pane(arguments: ["-o", "null"], environment: environment)
        try none.waitForText("tplayer --scan FOLDER, and tplayer alone opens the library")
        #expect(try none.waitForExit() == 64)
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let pane = try Pane(arguments: ["-o", "null"], environment: environment, width: 100, height: 14)
        try pane.waitForLine { $0.hasPrefix("> Björk") && $0.hasSuffix("2 songs") }
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("    1995  Post") }
        try pane.send("Down")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("      02. Hyperballad") }
        try pane.send("Down")
        try pane.send("Enter")
        try pane.send("Escape")
        try pane.waitForStatus { $0.contains("Army of Me") && $0.contains("/") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    /// A song stopped past its half counts as played in a run with no terminal (a script, as a
    /// service or a front-end drives it), as in one: what is heard is followed at every turn of
    /// the loop and before each command, not by the status line's tick, which such a run never had.
    @Test func aSongStoppedPastHalfCountsAsPlayedWithNoTerminal() throws {
        let (folder, environment) = try setUp()
        let song = try Harness.makeSong(seconds: 4, in: folder.appendingPathComponent("Music"), name: "four.mp3")
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let script = folder.appendingPathComponent("stop.tps")
        try "add \(song)\nplay\nwait 2.5s\nstop\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        let run = try Harness.tplayer(["-o", "null", "--script", script.path], in: folder, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let counted = try Harness.tplayer(["--find", "plays:1.."], environment: environment)
        #expect(counted.status == 0 && counted.stdout.hasSuffix("Music/four.mp3\n"), "\(counted.stdout)\(counted.stderr)")
    }

    /// A song skipped with `n` after passing its half counts as played, not skipped, the same
    /// in a run with no terminal (a script) as at the keys in tmux: what is heard is taken from
    /// the engine's position before the command moves on, whatever shows on screen.
    @Test(arguments: [false, true])
    func aSongSkippedPastHalfCountsAsPlayed(atTheKeys: Bool) throws {
        let (folder, environment) = try setUp()
        let music = folder.appendingPathComponent("Music")
        let song = try Harness.makeSong(seconds: 4, in: music, name: "four.mp3")
        let next = try Harness.makeSong(seconds: 4, in: music, name: "next.mp3")
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        if atTheKeys {
            let pane = try Pane(arguments: ["-o", "null", song, next], environment: environment)
            try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("0:02 /") }
            try pane.send("n")
            try pane.waitForStatus { $0.contains("next.mp3") }
            try pane.send("q")
            #expect(try pane.waitForExit() == 0)
        } else {
            let script = folder.appendingPathComponent("skip.tps")
            try "add \(song)\nadd \(next)\nplay\nwait 2.5s\nnext\nwait 0.3s\nquit\n".write(to: script, atomically: true, encoding: .utf8)
            let run = try Harness.tplayer(["-o", "null", "--script", script.path], in: folder, environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let played = try Harness.tplayer(["--find", "plays:1.."], environment: environment)
        #expect(played.status == 0 && played.stdout.hasSuffix("Music/four.mp3\n"), "\(played.stdout)\(played.stderr)")
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let skips = try Harness.run("/usr/bin/sqlite3", [library, "SELECT skipcount FROM song WHERE CAST(name AS TEXT) = 'four.mp3'"])
        #expect(skips.stdout == "0\n", "counted as skipped: \(skips.stdout)\(skips.stderr)")
    }

    /// Plays and ratings are shown where they are kept: the library view's rows count a song's
    /// plays beside its length and rating, and `i` says its plays, when, and its stars (they were
    /// kept but never shown).
    @Test func playsAndRatingsAreShownInTheLibraryViewAndTheDetails() throws {
        let (folder, environment) = try setUp()
        // A minute long: it is not counted again while the test looks.
        let long = try Harness.makeSong(seconds: 60, in: folder.appendingPathComponent("Music"), name: "long.mp3")
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let rated = try Harness.run("/usr/bin/sqlite3", [library, """
            UPDATE song SET playcount = 3, skipcount = 1, rating = 4 WHERE title = 'Hyperballad' OR CAST(name AS TEXT) = 'long.mp3'
            """])
        try #require(rated.status == 0, "\(rated.stderr)")
        let pane = try Pane(arguments: ["-o", "null", long], environment: environment, width: 100, height: 24)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("i")
        try pane.waitForLine { $0.hasPrefix("Plays    3; skipped 1") }
        try pane.waitForLine { $0 == "Rating   ★★★★☆" }
        try pane.send("L")
        try pane.send("Enter")
        try pane.send("Down")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("      02. Hyperballad") && $0.hasSuffix("★★★★  3 plays  0:01") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// The library set up from inside the player, as cmus's `:add` and ncmpcpp's `u` do it: with
    /// no library, `:scan Music/Post` makes one and the library view shows it; there, `:add
    /// Music` adds a folder and `u` brings it up to date; `:volume 40` is a script's line run now,
    /// and a mistyped command is said in one line (the library was made from the shell only).
    @Test func theCommandLineSetsUpTheLibraryAndRunsAScriptsLine() throws {
        var (folder, environment) = try setUp()
        environment["HOME"] = folder.appendingPathComponent("nobody").path  // no ~/Music: the folders named alone
        let long = try Harness.makeSong(seconds: 60, in: folder, name: "long.mp3")
        let pane = try Pane(arguments: ["-o", "null", long], environment: environment, width: 100, height: 14)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.type(":volume 40\n")
        try pane.waitForStatus { $0.contains("vol 40%") }
        // The equaliser is chosen while playing (E said only to edit the settings).
        try pane.send("E")
        try pane.waitForText("no equalizer set: :equalizer PRESET sets one now (flat rock pop")
        try pane.type(":equalizer rock\n")
        try pane.send("i")
        try pane.waitForLine { $0.contains("EQ       31 Hz +5  62 +4") }
        try pane.send("E")
        try pane.send("i")
        try pane.waitForLine { $0.contains("EQ       off") }
        try pane.type(":frobnicate\n")
        try pane.waitForText(":frobnicate: frobnicate: no such command")
        try pane.type(":scan \(folder.path)/Music/Post\n")
        try pane.waitForText("library: 2 songs, 1 album, 1 artist")
        try pane.send("L")
        try pane.waitForLine { $0.hasPrefix("> Björk") && $0.hasSuffix("2 songs") }
        try pane.type(":add \(folder.path)/Music\n")
        try pane.waitForLine { $0.hasPrefix("  Zeta Waves") }
        try pane.send("u")
        try pane.waitForText("(0 read, 3 unchanged)")
        // h in the library view lists its own keys first (they were only in its header).
        try pane.send("h")
        try pane.waitForLine { $0 == "Keys in the library view:" }
        try pane.waitForLine { $0.contains("u") && $0.contains("bring the library up to date") }
        try pane.send("Escape")
        try pane.waitForLine { $0.hasPrefix("  Zeta Waves") }
        try pane.send("Escape")
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        let found = try Harness.tplayer(["--find", "zeta"], environment: environment)
        #expect(found.status == 0 && found.stdout.hasSuffix("Music/zeta.ogg\n"), "\(found.stdout)\(found.stderr)")
    }

    /// In a terminal, when nothing named can be played: with no library the run says so and
    /// ends, status 1, the terminal as it was (it sat at End of list, and what was typed next
    /// went to the player); with a library, the library view opens.
    @Test func nothingPlayableEndsTheRunOrOpensTheLibrary() throws {
        let (folder, environment) = try setUp()
        let missing = folder.appendingPathComponent("Missing").path
        let bare = try Pane(arguments: ["-o", "null", missing, missing + "/x.mp3"], environment: environment)
        try bare.waitForText("nothing to play: none of the songs named could be opened")
        #expect(try bare.waitForExit() == 1)
        #expect(try bare.sttyUnchanged())
        let screen = try bare.screen()
        #expect(screen.contains("Missing: no such file") && screen.contains("x.mp3: no such file"), "\(screen)")
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let pane = try Pane(arguments: ["-o", "null", missing], environment: environment, width: 100, height: 14)
        try pane.waitForLine { $0.hasPrefix("> Björk") && $0.hasSuffix("2 songs") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 1, "a song named failed")
    }

    /// While tplayer plays, a song copied into the library, and one deleted from it, are in
    /// the library and gone a moment later, with no command.
    @Test func theLibraryFollowsItsFoldersWhileThePlayerRuns() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let long = try Harness.makeSong(seconds: 60, in: folder, name: "long.mp3")
        let pane = try Pane(arguments: ["-o", "null", long], environment: environment)
        try pane.waitForStatus { $0.hasPrefix("Playing ") }
        let made = try Harness.run("/bin/sh", ["-ec", """
            sox -n -b 16 -r 44100 -c 2 new.wav synth 1 sine 330 vol 0.3
            mkdir -p Music/New && flac -s -T TITLE="Brand New" -T ARTIST=Newcomer new.wav -o Music/New/new.flac
            rm new.wav Music/zeta.ogg
            """], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        func find(_ query: String) throws -> Harness.Result { try Harness.tplayer(["--find", query], environment: environment) }
        var waited = 0.0
        while try find("brand new").status != 0 || find("zeta").status == 0, waited < 20 {
            usleep(200_000)
            waited += 0.2
        }
        let all = try find("")
        let screen = try pane.screen()
        #expect(try find("brand new").stdout.hasSuffix("Music/New/new.flac\n"), "the new song is in the library: \(all) \(screen)")
        #expect(try find("zeta").status == 1, "the deleted one is gone")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    /// Album mode on real files: the list stops where the album does (Post's two songs of a
    /// second each, not Middle Ground's after them), and a run with no terminal ends there.
    @Test func albumModeStopsWhereTheAlbumEnds() throws {
        let (folder, _) = try setUp()
        let script = folder.appendingPathComponent("album.tps")
        try """
            add Music/Post/01.mp3
            add Music/Post/02.flac
            add Music/zeta.ogg
            album-mode on
            play
            """.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer(["-q", "-w", out, "--script", script.path], in: folder)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try Harness.pcm(ofWAV: out).count == 2 * 44100 * 4)
    }

    /// A script's `wait` in album mode is audio, whatever the player waits for between songs:
    /// the next song's album read off the main loop does not make the wait pass with nothing
    /// played (a `-w` run quit before the second song was written).
    @Test func aScriptsWaitInAlbumModeIsAllHeard() throws {
        let (folder, _) = try setUp()
        let script = folder.appendingPathComponent("album-wait.tps")
        try """
            add Music/Post/01.mp3
            add Music/Post/02.flac
            album-mode on
            play
            wait 1.5s
            quit
            """.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer(["-q", "-w", out, "--script", script.path], in: folder)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try Harness.pcm(ofWAV: out).count == 3 * 44100 * 4 / 2)
    }

    /// A song gone between the scan and the play is one line, and the next song plays.
    @Test func aSongGoneSinceTheScanIsOneLineAndTheNextPlays() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Music/Post/01.mp3"))
        let out = folder.appendingPathComponent("out.wav").path
        let played = try Harness.tplayer(["-q", "-w", out, "--play-find", "album:post"], in: folder, environment: environment)
        #expect(played.status == 1, "a song could not be played")
        #expect(played.stderrLines.count == 1 && played.stderr.contains("01.mp3") && played.stderr.contains("no such file"),
                "\(played.stderr)")
        #expect(try Harness.pcm(ofWAV: out).count == 44100 * 4, "Hyperballad played whole")
    }

    @Test func theLibraryFoldersComeFromTheSettingsOrTheMusicFolder() throws {
        let (folder, environment) = try setUp()
        // No folder named and none set: ~/Music, as HOME says.
        let home = try Harness.tplayer(["--scan"], environment: environment)
        #expect(home.status == 0 && home.stdout.hasPrefix("3 songs"), "\(home.stdout)\(home.stderr)")
        // `library = PATH` in the settings: that folder alone (~ is HOME).
        try "library = ~/Music/Post\n".write(to: folder.appendingPathComponent("settings"), atomically: true, encoding: .utf8)
        var fresh = environment
        fresh["XDG_DATA_HOME"] = folder.appendingPathComponent("data2").path
        let set = try Harness.tplayer(["--config", folder.appendingPathComponent("settings").path, "--scan"], environment: fresh)
        #expect(set.status == 0 && set.stdout.hasPrefix("2 songs, 1 album, 1 artist"), "\(set.stdout)\(set.stderr)")
        // XDG_MUSIC_DIR in the environment, over user-dirs.dirs (it was read from the file only:
        // "no library folders").
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config"), withIntermediateDirectories: true)
        try "XDG_MUSIC_DIR=\"$HOME/Elsewhere\"\n".write(to: folder.appendingPathComponent("config/user-dirs.dirs"), atomically: true,
                                                         encoding: .utf8)
        var music = environment
        music["XDG_DATA_HOME"] = folder.appendingPathComponent("data3").path
        music["XDG_MUSIC_DIR"] = folder.appendingPathComponent("Music/Post").path
        let xdg = try Harness.tplayer(["--scan"], environment: music)
        #expect(xdg.status == 0 && xdg.stdout.hasPrefix("2 songs, 1 album, 1 artist"), "\(xdg.stdout)\(xdg.stderr)")
    }

    @Test func aTagsEscapeSequenceNeverReachesTheTerminalAndAFolderThatIsNotThereIsSaid() throws {
        let (folder, environment) = try setUp()
        _ = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        let found = try Harness.tplayer(["--find", "pwned"], environment: environment)
        #expect(found.status == 0 && found.stdout.hasSuffix("Music/zeta.ogg\n") && !found.stdout.contains("\u{1B}"))
        let missing = try Harness.tplayer(["--scan", "Nowhere"], in: folder, environment: environment)
        #expect(missing.status == 66 && missing.stderrLines == ["tplayer: Nowhere: no such folder; name a folder of music to add to the library"])
    }

    @Test func aDamagedLibraryIsMovedAsideAndRebuiltByTheScan() throws {
        let (folder, environment) = try setUp()
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite")
        try FileManager.default.createDirectory(at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x55, count: 8192).write(to: library)
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0 && scan.stdout.hasPrefix("3 songs"), "\(scan.stdout)")
        #expect(scan.stderrLines.count == 1 && scan.stderr.contains("moved aside to library.sqlite.damaged-1"), "\(scan.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library.path + ".damaged-1")) == Data(repeating: 0x55, count: 8192))
    }

    /// A search index damaged (its words' pages overwritten): `--find` says the library is
    /// damaged and that `--scan` repairs it, and `--scan` moves it aside and makes a new one of
    /// its songs, in one line. (The scan said all was well and fixed nothing.)
    @Test func aDamagedSearchIndexIsMadeAgainByTheScan() throws {
        let (folder, environment) = try setUp()
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let damage = try Harness.run("/usr/bin/sqlite3", [library, "UPDATE song_search_data SET block = x'ffffffffffffffff' WHERE id > 1; PRAGMA wal_checkpoint(TRUNCATE);"])
        try #require(damage.status == 0, "\(damage.stderr)")
        let broken = try Harness.tplayer(["--find", "hyperballad"], in: folder, environment: environment)
        #expect(broken.status == 74 && broken.stderr.contains("damaged (tplayer --scan repairs it)"), "\(broken.stdout)\(broken.stderr)")
        let repair = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(repair.status == 0 && repair.stdout.hasPrefix("3 songs"), "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stderrLines == ["tplayer: \(library): its search index is damaged; moved aside to library.sqlite.damaged-1, "
                                       + "and its 3 readable songs (0 with plays or a rating) carried into a new library (--scan reads the rest)"],
                "\(repair.stderr)")
        let found = try Harness.tplayer(["--find", "hyperballad"], in: folder, environment: environment)
        #expect(found.status == 0 && found.stdout.hasSuffix("Post/02.flac\n"), "\(found.stdout)\(found.stderr)")
        let again = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }

    /// A library damaged in the middle of its file (a page of its search index overwritten,
    /// its header whole): `--find` meets it, and the `--scan` after moves it aside, never
    /// deleted, and carries every song it can still read into a new library, a rating and plays
    /// with it. (It was left in place, and the README says a damaged library is moved aside.)
    @Test func aLibraryDamagedInItsMiddleIsMovedAsideWithWhatCanBeRead() throws {
        let (folder, environment) = try setUp()
        let copies = try Harness.run("/bin/sh", ["-ec", "mkdir Music/Many; for i in $(seq 200); do cp Music/Post/01.mp3 Music/Many/$i.mp3; done"],
                                     in: folder)
        #expect(copies.status == 0)
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0 && scan.stdout.hasPrefix("203 songs"), "\(scan.stdout)\(scan.stderr)")
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let page = try Harness.run("/usr/bin/sqlite3", [library, """
            UPDATE song SET rating = 5, playcount = 7, added = 1600000000 WHERE title = 'Hyperballad';
            INSERT INTO listen (song, at, heard, skipped) SELECT id, 1700000000, 120.5, 0 FROM song WHERE title = 'Hyperballad';
            PRAGMA wal_checkpoint(TRUNCATE);
            SELECT max(pageno) FROM dbstat WHERE name = 'song_search_idx';
            """])
        let number = try #require(Int(page.stdout.split(separator: "\n").last ?? ""), "\(page.stdout)\(page.stderr)")
        let damage = try Harness.run("/bin/sh", ["-ec", "head -c 4096 /dev/urandom | dd of=\"$0\" bs=4096 seek=$1 conv=notrunc status=none",
                                                 library, String(number - 1)])
        try #require(damage.status == 0, "\(damage.stderr)")
        // A rescan reads none of the damaged page: the library is checked whole once damage was met.
        let broken = try Harness.tplayer(["--find", "a"], in: folder, environment: environment)
        #expect(broken.status == 74 && broken.stderr.contains("damaged (tplayer --scan repairs it)"), "\(broken.stdout)\(broken.stderr)")
        let damaged = try Data(contentsOf: URL(fileURLWithPath: library))
        let repair = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(repair.status == 0 && repair.stdout.hasPrefix("203 songs"), "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stderrLines.count == 1 && repair.stderr.contains("moved aside to library.sqlite.damaged-1")
                && repair.stderr.contains("203 readable songs (1 with plays or a rating)"), "\(repair.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library + ".damaged-1")) == damaged)
        let kept = try Harness.run("/usr/bin/sqlite3", [library, "SELECT rating, playcount, added FROM song WHERE title = 'Hyperballad'"])
        #expect(kept.stdout == "5|7|1600000000\n", "its plays, rating and when it came: \(kept.stdout)\(kept.stderr)")
        let history = try Harness.run("/usr/bin/sqlite3", [library, "SELECT at, heard, skipped FROM listen"])
        #expect(history.stdout == "1700000000|120.5|0\n", "its history: \(history.stdout)\(history.stderr)")
        let found = try Harness.tplayer(["--find", "hyperballad"], in: folder, environment: environment)
        #expect(found.status == 0 && found.stdout.hasSuffix("Post/02.flac\n"), "\(found.stdout)\(found.stderr)")
    }

    /// The same song tagged ID3v2.3 and ID3v2.4 by mutagen, as Picard saves each: the library
    /// holds the same fields for both, field by field, with the date in each of TDRC's three
    /// forms (v2.3's TYER and TDAT make the same 1995-03-13; v2.3 has no month without a day);
    /// `year:1995` finds every copy; ID3v2.4's several values are each kept, and a genre by number
    /// is named. (The v2.4 copies had no date, and kept one artist, genre and composer of several.)
    @Test func anID3v24SongHasEveryFieldItsV23CopyHas() throws {
        let (folder, environment) = try setUp()
        try TaggedCopies.write(from: folder.appendingPathComponent("Music/Post/01.mp3").path,
                               into: folder.appendingPathComponent("Music/Tagged"))
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let query = """
            SELECT CAST(name AS TEXT),
                   title, artists, albumartists, album, disc, track, date, year, genres, composers, compilation,
                   trackgain, albumgain, shelf, (SELECT albumkey FROM album WHERE album.id = song.albumid) FROM song
              WHERE dirid IN (SELECT id FROM dir WHERE CAST(path AS TEXT) LIKE '%/Tagged/')
            """
        let rows = try Harness.run("/usr/bin/sqlite3", ["-separator", "|", library, query])
        var fields: [String: [String]] = [:]
        for row in rows.stdout.split(separator: "\n") {
            let columns = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            fields[columns[0]] = Array(columns.dropFirst())
        }
        #expect(fields.count == 7, "\(rows.stdout)\(rows.stderr)")
        for date in TaggedCopies.dates {
            let v24 = fields["v24-\(date).mp3"] ?? [], v23 = fields["v23-\(date).mp3"] ?? []
            #expect(v24 == ["Isobel", "Björk", "Björk", "Post", "1", "3", date, "1995", "Electronic", "Björk", "1",
                            "-6.5", "-7.25", "Björk", "post"], "\(date)")
            var expected = v24
            if date == "1995-03" { expected[6] = "1995" }
            #expect(v23 == expected, "\(date)")
        }
        let several = fields["several.mp3"] ?? []
        #expect(several.count == 15 && several[1] == "Björk\u{1F}Nellee Hooper" && several[8] == "Rock\u{1F}Pop"
                && several[9] == "Björk\u{1F}Marius de Vries", "\(several)")
        let found = try Harness.tplayer(["--find", "isobel year:1995"], in: folder, environment: environment)
        #expect(found.status == 0 && found.stdout.split(separator: "\n").count == 7, "\(found.stdout)\(found.stderr)")
        let genre = try Harness.tplayer(["--find", "genre:rock"], in: folder, environment: environment)
        #expect(genre.status == 0 && genre.stdout.hasSuffix("Tagged/several.mp3\n"), "\(genre.stdout)\(genre.stderr)")
    }

    @Test func aFullDiskMidScanRollsBackAndSaysSo() throws {
        var (folder, environment) = try setUp()
        environment["HOME"] = folder.appendingPathComponent("nobody").path  // no ~/Music: the folders named alone
        let copies = try Harness.run("/bin/sh", ["-ec", "mkdir Music/Many; for i in $(seq 300); do cp Music/Post/01.mp3 Music/Many/$i.mp3; done"],
                                     in: folder)
        #expect(copies.status == 0)
        let first = try Harness.tplayer(["--scan", "Music/Post"], in: folder, environment: environment)
        #expect(first.status == 0 && first.stdout.hasPrefix("2 songs"), "\(first.stdout)\(first.stderr)")
        // No file may grow past 64 KB (SIGXFSZ ignored: a write fails with EFBIG, as on a full
        // disk; the shared-memory index's 32 KB fit; dash counts 512-byte blocks): the write-ahead
        // log cannot hold 300 songs.
        let script = "trap '' XFSZ; ulimit -f 128; exec \"$0\" --scan Music"
        let full = try Harness.run("/bin/sh", ["-c", script, Harness.binary], in: folder, environment: environment)
        #expect(full.status == 74, "\(full.stdout)\(full.stderr)")
        #expect(full.stderrLines.count == 1 && full.stderr.contains("could not be written") && full.stderr.contains("rolled back"),
                "\(full.stderr)")
        let kept = try Harness.tplayer(["--find", "hyperballad"], environment: environment)
        #expect(kept.status == 0 && kept.stdout.hasSuffix("Post/02.flac\n"), "\(kept.stdout)\(kept.stderr)")
        let after = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(after.status == 0 && after.stdout.hasPrefix("303 songs"), "\(after.stdout)\(after.stderr)")
    }

    /// Whether this run may mount: a folder bound read-only onto itself (root, with the right to
    /// mount; a container may refuse it).
    static let canMountReadOnly: Bool = {
        guard getuid() == 0, let folder = try? Harness.temporaryFolder() else { return false }
        let tried = try? Harness.run("/bin/sh", ["-c", "mount --bind . . && mount -o remount,bind,ro . && umount ."], in: folder)
        return tried?.status == 0
    }()

    /// A library on a file system mounted read-only (a shared disk, a snapshot) is read as it is:
    /// `--find` finds, a song plays and is counted nowhere, and `--scan` says in one line that
    /// the library cannot be written. (`--find` said "cannot open the library", exit 74.)
    @Test(.enabled(if: canMountReadOnly, "only root with the right to mount can bind a folder read-only"))
    func aLibraryOnAReadOnlyFileSystemIsRead() throws {
        let (folder, environment) = try setUp()
        let scan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let data = folder.appendingPathComponent("data").path
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite")
        let before = try Data(contentsOf: library)
        let mounted = try Harness.run("/bin/sh", ["-ec", "mount --bind \"$0\" \"$0\"; mount -o remount,bind,ro \"$0\"", data])
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Harness.run("/bin/umount", [data]) }
        let found = try Harness.tplayer(["--find", "hyperballad"], in: folder, environment: environment)
        #expect(found.status == 0 && found.stdout.hasSuffix("Post/02.flac\n") && found.stderr.isEmpty, "\(found.stdout)\(found.stderr)")
        let played = try Harness.tplayer(["-q", "-o", "null", "--play-find", "army"], in: folder, environment: environment)
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
        let rescan = try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment)
        #expect(rescan.status != 0 && rescan.stderrLines.count == 1 && rescan.stderr.contains("read-only"), "\(rescan.stdout)\(rescan.stderr)")
        #expect(try Data(contentsOf: library) == before)
    }
}
