import Foundation
import Testing

/// Named and smart playlists as a user keeps them: the list saved as one, opened after a
/// restart (the same songs, sample for sample), renamed, added to and deleted; a smart one
/// filled from the library each time it is opened; names that could lead out of the folder
/// refused in one line. They are MPD's stored playlists too (`MpdPlaylists` reads this folder).
@Suite(.serialized, .timeLimit(.minutes(10))) struct NamedPlaylistsEndToEndTests {
    private func setUp() throws -> (folder: URL, environment: [String: String], playlists: URL) {
        let folder = try Harness.temporaryFolder()
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        return (folder, environment, folder.appendingPathComponent("data/tplayer/playlists"))
    }

    private func run(_ lines: String, _ arguments: [String] = [], in folder: URL, environment: [String: String]) throws -> Harness.Result {
        let script = folder.appendingPathComponent("script-\(UUID().uuidString).tps")
        try lines.write(to: script, atomically: true, encoding: .utf8)
        return try Harness.tplayer(["-q", "--trace", "--script", script.path] + arguments, in: folder, environment: environment)
    }

    private func loads(_ result: Harness.Result) -> [String] {
        result.stderrLines.filter { $0.contains("(load ") }.map { String($0.split(separator: "/").last ?? "").replacingOccurrences(of: ")", with: "") }
    }

    @Test func theListSavedIsOpenedAfterARestartRenamedAddedToAndDeleted() throws {
        let (folder, environment, playlists) = try setUp()
        let saved = try run("playlist save Road trip\nquit\n", ["-o", "null"] + Harness.songs, in: folder, environment: environment)
        #expect(saved.status == 0 && saved.stderr.contains("Saved the list (3 songs) as playlist Road trip"), "\(saved.stderr)")
        let file = playlists.appendingPathComponent("Road trip.m3u")
        #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n") == ["#EXTM3U"] + Harness.songs.map { Substring($0) })
        // A new run with nothing but the script: the playlist becomes the list and plays whole.
        let out = folder.appendingPathComponent("out.wav").path
        let opened = try run("playlist open Road trip\n", ["-w", out], in: folder, environment: environment)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(loads(opened) == ["01-morning-arpeggio.mp3", "02-night-drive.mp3", "03-tiny-waltz.mp3"], "\(opened.stderr)")
        _ = Harness.samePCM(try Harness.pcm(ofWAV: out), try Harness.referenceDecode(Harness.songs, in: folder))
        // Renamed; the song playing added to it (made when missing); deleted.
        let edits = try run("playlist rename Road trip / Long drive\nplay\nplaylist append Long drive\nplaylist append Night\nplaylist delete Road trip\n"
                            + "playlists\nquit\n", ["-o", "null", Harness.songs[1]], in: folder, environment: environment)
        #expect(edits.stderrLines.contains("Renamed playlist Road trip to Long drive"), "\(edits.stderr)")
        #expect(edits.stderrLines.contains("tplayer: no playlist called Road trip"), "\(edits.stderr)")
        #expect(edits.stderrLines.contains("Playlists: Long drive, Night"), "\(edits.stderr)")
        #expect(try String(contentsOf: playlists.appendingPathComponent("Long drive.m3u"), encoding: .utf8)
            .split(separator: "\n").last.map(String.init) == Harness.songs[1])
        #expect(try String(contentsOf: playlists.appendingPathComponent("Night.m3u"), encoding: .utf8).split(separator: "\n").count == 2)
        let deleted = try run("playlist delete Night\nplaylists\nquit\n", ["-o", "null", Harness.songs[0]], in: folder, environment: environment)
        #expect(deleted.stderrLines.contains("Playlists: Long drive"), "\(deleted.stderr)")
    }

    /// The library view's playlists (`L`, then `t` twice) in a real terminal: a playlist opened
    /// to its songs as the library knows them, played from one; a smart one filled as it is
    /// opened and played with P; one another program writes shown; the list saved with w,
    /// renamed with r and deleted with D y; a name's escape sequence shown, not obeyed.
    @Test func thePlaylistsViewOpensPlaysSavesRenamesAndDeletes() throws {
        let (folder, environment, playlists) = try setUp()
        let music = folder.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let songs = try Harness.songs.map { song in
            let copy = music.appendingPathComponent(URL(fileURLWithPath: song).lastPathComponent)
            try FileManager.default.copyItem(atPath: song, toPath: copy.path)
            return copy.path
        }
        #expect(try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment).status == 0)
        let made = try run("playlist save Road trip\nplaylist smart Waltzes / title:waltz\nquit\n", ["-o", "null"] + songs,
                           in: folder, environment: environment)
        #expect(made.status == 0, "\(made.stderr)")
        let pane = try Pane(arguments: ["-o", "null", songs[0]], environment: environment, width: 100, height: 16)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/1") }
        try pane.send("L")
        try pane.waitForLine { $0.hasPrefix(" tplayer library:") }
        try pane.send("t")
        try pane.send("t")
        try pane.waitForLine { $0.hasPrefix("> Road trip") && $0.hasSuffix("3 songs") }
        try pane.waitForLine { $0.hasPrefix("  Waltzes") && $0.contains("1 song  smart: title:waltz") }
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("    tplayer demo band – Night Drive (tplayer demos") }
        try pane.send("Down")
        try pane.send("Down")
        try pane.send("Enter")
        try pane.waitForStatus { $0.contains("Night Drive") && $0.contains("2/3") }
        // Written by another program: shown at the next look; its name's escape sequence is text.
        try "#EXTM3U\n\(songs[2])\n".write(to: playlists.appendingPathComponent("Evil\u{1B}]2;pwned\u{07}.m3u"), atomically: true, encoding: .utf8)
        try pane.waitForLine { $0.hasPrefix("  Evil\\e]2;pwned") && $0.hasSuffix("name refused: rename the file") }
        // w: the list saved as a new playlist.
        try pane.send("w")
        try pane.type("Sunday")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("> Sunday") && $0.hasSuffix("3 songs") }
        #expect(FileManager.default.fileExists(atPath: playlists.appendingPathComponent("Sunday.m3u").path))
        // r: renamed, the old name offered to edit; the cursor follows it to its new place.
        try pane.send("r")
        try pane.waitForLine { $0.hasPrefix("rename Sunday to: Sunday") }
        for _ in 0..<6 { try pane.send("BSpace") }
        try pane.type("Monday")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("> Monday") }
        #expect(!FileManager.default.fileExists(atPath: playlists.appendingPathComponent("Sunday.m3u").path))
        // D asks; y deletes.
        try pane.send("D")
        try pane.waitForLine { $0.hasPrefix(" delete? y deletes playlist Monday, any other key keeps it") }
        try pane.send("y")
        try pane.waitForLine { $0.contains("Deleted playlist Monday") }
        #expect(!FileManager.default.fileExists(atPath: playlists.appendingPathComponent("Monday.m3u").path))
        // The smart one: its songs as the library's query finds them; P makes it the list.
        try pane.send("End")
        try pane.send("Enter")
        try pane.waitForLine { $0.hasPrefix("    tplayer demo band – Tiny Waltz") }
        // Its file holding another song (a client changed it): P fills it again from the query.
        try "#EXTM3U\n#TPLAYER-QUERY:title:waltz\n\(songs[0])\n".write(to: playlists.appendingPathComponent("Waltzes.m3u"), atomically: true, encoding: .utf8)
        try pane.send("P")
        try pane.waitForStatus { $0.contains("Tiny Waltz") && $0.contains("1/1") }
        try pane.send("Escape")
        try pane.waitForStatus { $0.contains("Tiny Waltz") }
        #expect(!(try pane.screen()).contains("tplayer library:"), "the normal screen again")
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        #expect(try pane.sttyUnchanged())
    }

    @Test func aNameThatCouldLeadOutOfTheFolderIsRefusedInOneLine() throws {
        let (folder, environment, playlists) = try setUp()
        let refused = try run("playlist save ../../outside\nplaylist save ..\nplaylist save a/b\nplaylist open nothing here\nquit\n",
                              ["-o", "null", Harness.songs[0]], in: folder, environment: environment)
        #expect(refused.status == 0, "the music goes on: \(refused.stderr)")
        let said = refused.stderrLines.filter { $0.hasPrefix("tplayer:") }
        #expect(said == ["tplayer: ../../outside: a playlist name cannot hold /", "tplayer: ..: a playlist cannot be called ..",
                         "tplayer: a/b: a playlist name cannot hold /", "tplayer: no playlist called nothing here"], "\(refused.stderr)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: playlists.path)) ?? []
        #expect(written.isEmpty, "\(written)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("outside.m3u").path))
    }

    @Test func aSmartPlaylistIsFilledFromTheLibraryEachTimeItIsOpened() throws {
        let (folder, environment, playlists) = try setUp()
        let music = folder.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let songs = try ["heard.mp3", "other.mp3"].map { name in
            let path = music.appendingPathComponent(name).path
            try FileManager.default.moveItem(atPath: try Harness.makeSong(seconds: 4, in: folder), toPath: path)
            return path
        }
        #expect(try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment).status == 0)
        let made = try run("playlist smart Heard today / played:<1d\nquit\n", ["-o", "null", songs[1]], in: folder, environment: environment)
        #expect(made.stderr.contains("Saved smart playlist Heard today (0 songs now"), "\(made.stderr)")
        let empty = try run("playlist open Heard today\nquit\n", ["-o", "null", songs[1]], in: folder, environment: environment)
        #expect(empty.stderr.contains("smart playlist Heard today: no song in the library matches played:<1d"), "\(empty.stderr)")
        // Heard past its half: a play; then the playlist opened holds it.
        let played = try run("add \(songs[0])\nplay\nwait 2.5s\nstop\nquit\n", ["-o", "null"], in: folder, environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
        let out = folder.appendingPathComponent("smart.wav").path
        let opened = try run("playlist open Heard today\n", ["-w", out], in: folder, environment: environment)
        #expect(loads(opened) == ["heard.mp3"], "\(opened.stderr)")
        let text = try String(contentsOf: playlists.appendingPathComponent("Heard today.m3u"), encoding: .utf8)
        #expect(text.hasPrefix("#EXTM3U\n#TPLAYER-QUERY:played:<1d\n") && text.hasSuffix("heard.mp3\n"), "written as it was filled: \(text)")
        let bad = try run("playlist smart Later / played:soon\nquit\n", ["-o", "null", songs[1]], in: folder, environment: environment)
        #expect(bad.stderrLines.filter { $0.hasPrefix("tplayer:") }.count == 1 && bad.stderr.contains("played:soon"), "\(bad.stderr)")
    }
}
