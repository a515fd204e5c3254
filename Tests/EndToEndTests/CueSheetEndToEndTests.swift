import Foundation
import Glibc
import Testing

/// CUE sheets through the built binary: a sheet's tracks played from their FLAC image, and
/// `--check` on a sheet.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CueSheetEndToEndTests {
    /// A 9-second sweep as one FLAC image, and a sheet cutting it into three tracks, the second
    /// with a pregap (which plays at the end of the first).
    static func album() throws -> URL {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("whole.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "9", "sine", "100:2000", "gain", "-6"])
        try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", folder.appendingPathComponent("album.flac").path, wav])
        let sheet = """
            PERFORMER "The Band"
            TITLE "Sweep"
            FILE "album.flac" WAVE
              TRACK 01 AUDIO
                TITLE "Low"
                INDEX 01 00:00:00
              TRACK 02 AUDIO
                TITLE "Middle"
                INDEX 00 00:02:50
                INDEX 01 00:03:17
              TRACK 03 AUDIO
                TITLE "High"
                INDEX 01 00:06:01

            """
        try Data(sheet.utf8).write(to: folder.appendingPathComponent("album.cue"))
        return folder
    }

    @Test func aSheetsTracksWrittenBackToBackAreTheWholeImageSampleForSample() throws {
        let folder = try Self.album()
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer(["-q", "-w", out, "album.cue"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: out), try Harness.pcm(ofWAV: folder.appendingPathComponent("whole.wav").path)))
        // One track alone: from its INDEX 01 (3:17 = 3 s 17 frames: 133,896 samples) to the next.
        let middle = folder.appendingPathComponent("middle.cue")
        try Data("FILE album.flac WAVE\nTRACK 02 AUDIO\nINDEX 01 00:03:17\nTRACK 03 AUDIO\nINDEX 01 00:06:01\n".utf8).write(to: middle)
        let two = folder.appendingPathComponent("two.wav").path
        #expect(try Harness.tplayer(["-q", "-w", two, "middle.cue"], in: folder).status == 0)
        let whole = try Harness.pcm(ofWAV: folder.appendingPathComponent("whole.wav").path)
        let start = (3 * 75 + 17) * 588 * 4, end = (6 * 75 + 1) * 588 * 4
        // middle.cue's first track only: -w writes the whole list, so cut what it wrote at the track's length.
        let written = try Harness.pcm(ofWAV: two)
        #expect(Harness.samePCM(written.prefix(end - start), whole[(whole.startIndex + start)..<(whole.startIndex + end)]))
        #expect(Harness.samePCM(written.dropFirst(end - start), whole[(whole.startIndex + end)...]), "track 3 plays to the image's end")
    }

    /// A sheet's tracks are in the library, each with its title and performer (as cmus and MPD
    /// list them; the image was one 0:09 "Unknown Artist" song and `--find middle` found
    /// nothing), under MPD's path for them (`album.cue/track0002`), which plays the track
    /// exactly and is counted when heard.
    @Test func aSheetsTracksAreInTheLibraryAndPlayFromIt() throws {
        let folder = try Self.album()
        let moved = try Harness.run("/bin/sh", ["-ec", "mkdir Music; mv album.flac album.cue Music/"], in: folder)
        try #require(moved.status == 0, "\(moved.stderr)")
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.appendingPathComponent("nobody").path]
        let scan = try Harness.tplayer(["--scan", folder.appendingPathComponent("Music").path], environment: environment)
        #expect(scan.status == 0 && scan.stdout.hasPrefix("3 songs, 1 album, 1 artist"), "\(scan.stdout)\(scan.stderr)")
        let real = folder.appendingPathComponent("Music").resolvingSymlinksInPath().path
        let again = try Harness.tplayer(["--scan"], environment: environment)
        #expect(again.stdout.contains("(0 read, 3 unchanged)"), "a rescan reads nothing unchanged: \(again.stdout)")
        let found = try Harness.tplayer(["--find", "middle the band"], environment: environment)
        #expect(found.status == 0 && found.stdout == "\(real)/album.cue/track0002\n", "\(found.stdout)\(found.stderr)")
        let all = try Harness.tplayer(["--find", ""], environment: environment)
        #expect(all.stdout == (1...3).map { "\(real)/album.cue/track000\($0)\n" }.joined(), "the image is no song of its own: \(all.stdout)")
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let rows = try Harness.run("/usr/bin/sqlite3", [library, "SELECT title, artists, albumartists, album, track, round(seconds, 3) FROM song ORDER BY track"])
        #expect(rows.stdout == "Low|The Band|The Band|Sweep|1|3.227\nMiddle|The Band|The Band|Sweep|2|2.787\nHigh|The Band|The Band|Sweep|3|2.987\n",
                "\(rows.stdout)\(rows.stderr)")
        // Its path plays the track, sample for sample, named by the sheet.
        let out = folder.appendingPathComponent("track.wav").path
        let played = try Harness.tplayer(["-w", out, "\(real)/album.cue/track0002"], environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
        let whole = try Harness.pcm(ofWAV: folder.appendingPathComponent("whole.wav").path)
        let start = (3 * 75 + 17) * 588 * 4, end = (6 * 75 + 1) * 588 * 4
        #expect(Harness.samePCM(try Harness.pcm(ofWAV: out), whole[(whole.startIndex + start)..<(whole.startIndex + end)]))
        // Heard, it is counted under that path.
        let heard = try Harness.tplayer(["-q", "-o", "null", "--play-find", "high"], environment: environment)
        #expect(heard.status == 0, "\(heard.stderr)")
        let counted = try Harness.tplayer(["--find", "plays:1.."], environment: environment)
        #expect(counted.stdout == "\(real)/album.cue/track0003\n", "\(counted.stdout)\(counted.stderr)")
        // A track the sheet does not have is said in one line.
        let none = try Harness.tplayer(["-w", out, "--force", "\(real)/album.cue/track0009"], environment: environment)
        #expect(none.status != 0 && none.stderr.contains("its CUE sheet has no track 9"), "\(none.stderr)")
        // A sheet saved as UTF-16 (with its byte-order mark) is read as the folder's playing
        // reads it, in the library and from its tracks' paths.
        let utf16 = try Harness.run("/bin/sh", ["-ec", "{ printf '\\377\\376'; iconv -f UTF-8 -t UTF-16LE album.cue; } > u && mv u album.cue && touch album.cue"],
                                    in: folder.appendingPathComponent("Music"))
        try #require(utf16.status == 0, "\(utf16.stderr)")
        let rescan = try Harness.tplayer(["--scan"], environment: environment)
        #expect(rescan.status == 0 && rescan.stderr.isEmpty, "\(rescan.stderr)")
        let again16 = try Harness.tplayer(["--find", "middle the band"], environment: environment)
        #expect(again16.stdout == "\(real)/album.cue/track0002\n", "\(again16.stdout)\(again16.stderr)")
        let played16 = try Harness.tplayer(["-w", out, "--force", "\(real)/album.cue/track0002"], environment: environment)
        #expect(played16.status == 0, "\(played16.stderr)")
    }

    @Test func checkSaysEveryProblemOfASheetLocatedAndAMissingImage() throws {
        let folder = try Self.album()
        let good = try Harness.tplayer(["--check", "album.cue"], in: folder)
        #expect(good.status == 0 && good.stderr.isEmpty, "\(good.stderr)")
        #expect(good.stdout == "album.cue: ok, 3 tracks\n1 song decoded (0:09): none damaged\n")
        try Data("FILE \"gone.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 02:61:00\n  TRACK 02 AUDIO\n    INDEX 01 03:00:00\n".utf8)
            .write(to: folder.appendingPathComponent("bad.cue"))
        let bad = try Harness.tplayer(["--check", "bad.cue"], in: folder)
        #expect(bad.status == 65)
        #expect(bad.stderrLines == ["bad.cue:3:5: INDEX 01 02:61:00: seconds past 59; the track is left out",
                                    "bad.cue:1:1: no such file: gone.flac"])
    }

    /// A sheet's tracks saved with the list view's `w` after `--resume` are the sheet, named by
    /// its own bytes: resumed tracks had no sheet, and each was saved as the whole image (a
    /// 3-track sheet played three times as long); a Latin-1 folder was written as U+FFFD.
    @Test func aResumedSheetIsSavedAsTheSheet() throws {
        let album = try Self.album()
        // A Latin-1 folder name: bytes that are not UTF-8.
        let folder: [UInt8] = Array(album.path.utf8) + Array("/Caf".utf8) + [0xE9]
        func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }
        #expect(mkdir(cString(folder), 0o755) == 0)
        for name in ["album.flac", "album.cue"] {
            #expect(rename(album.appendingPathComponent(name).path, cString(folder + Array("/\(name)".utf8))) == 0)
        }
        let sheet = folder + Array("/album.cue".utf8)
        try Data(sheet + [0x0A]).write(to: album.appendingPathComponent("list.m3u"))
        let state = album.appendingPathComponent("state").path
        let first = try Pane(arguments: ["-o", "null", album.appendingPathComponent("list.m3u").path],
                             environment: ["XDG_STATE_HOME": state], width: 100, height: 12)
        try first.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/3") }
        try first.send("q")
        #expect(try first.waitForExit() == 0)
        let second = try Pane(arguments: ["-o", "null", "--resume"], environment: ["XDG_STATE_HOME": state], width: 100, height: 12)
        try second.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/3") }
        try second.send("Tab")
        try second.waitForLine { $0.contains("3 in the list") }
        try second.send("w")
        try second.type(album.appendingPathComponent("saved").path)
        try second.send("Enter")
        try second.waitForLine { $0.hasPrefix("Saved the list (3 entries) to ") }
        try second.send("q")
        #expect(try second.waitForExit() == 0)
        let saved = try [UInt8](Data(contentsOf: album.appendingPathComponent("saved.m3u8")))
        #expect(saved == Array("#EXTM3U\n".utf8) + sheet + [0x0A], "\(String(decoding: saved, as: UTF8.self))")
    }
}
