import Foundation
import Testing

/// The play history as a user meets it: songs heard and skipped in a run, then found by when
/// they were played (`played:<1d`), how often lately (`plays@1d:1`), their skips (`skips:1..`)
/// and when they came (`added:<1d`); a song moved and scanned again keeps its history.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PlayHistoryEndToEndTests {
    @Test func aSongHeardIsFoundByWhenItWasPlayedASkipByItsSkipsAndAMoveKeepsThem() throws {
        let folder = try Harness.temporaryFolder()
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let music = folder.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let (heard, skipped) = (music.appendingPathComponent("heard.mp3").path, music.appendingPathComponent("skipped.mp3").path)
        for path in [heard, skipped, music.appendingPathComponent("never.mp3").path] {
            try FileManager.default.moveItem(atPath: try Harness.makeSong(seconds: 4, in: folder), toPath: path)
        }
        #expect(try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment).status == 0)
        func find(_ query: String) throws -> [String] {
            let found = try Harness.tplayer(["--find", query], environment: environment)
            #expect(found.status == 0 || found.status == 1, "\(query): \(found.stderr)")
            return found.stdout.split(separator: "\n").map { String($0.split(separator: "/").suffix(2).joined(separator: "/")) }
        }
        #expect(try find("played:<1d").isEmpty)
        #expect(try find("added:<1d").count == 3, "scanned now")
        // Past its half: a play; the next one left after half a second: a skip.
        let script = folder.appendingPathComponent("listen.tps")
        try "add \(heard)\nadd \(skipped)\nplay\nwait 2.5s\nnext\nwait 0.5s\nnext\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        let run = try Harness.tplayer(["-o", "null", "--script", script.path], in: folder, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try find("played:<1d") == ["Music/heard.mp3"])
        #expect(try find("plays@1d:1") == ["Music/heard.mp3"])
        #expect(try find("skips:1..") == ["Music/skipped.mp3"])
        #expect(try find("played:>1d") == ["Music/never.mp3", "Music/skipped.mp3"], "not since a day: never played")
        let bad = try Harness.tplayer(["--find", "played:lately"], environment: environment)
        #expect(bad.status == 64 && bad.stderrLines.count == 1 && bad.stderr.contains("played:lately"), "\(bad.stderr)")

        // Moved and scanned again: the same history under the new path.
        let moved = music.appendingPathComponent("Moved")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: heard, toPath: moved.appendingPathComponent("heard.mp3").path)
        #expect(try Harness.tplayer(["--scan", "Music"], in: folder, environment: environment).status == 0)
        #expect(try find("played:<1d") == ["Moved/heard.mp3"])
        #expect(try find("plays@30d:1") == ["Moved/heard.mp3"])
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite").path
        let rows = try Harness.run("/usr/bin/sqlite3", [library, "SELECT count(*), sum(skipped) FROM listen"])
        #expect(rows.stdout == "2|1\n", "one play and one skip kept: \(rows.stdout)\(rows.stderr)")
    }
}
