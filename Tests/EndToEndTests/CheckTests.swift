import Foundation
import Testing

/// `tplayer --check PATH...` on songs: every one decoded whole, each damaged one named in one
/// line with where, a count at the end, exit 65 when any is damaged; a progress bar in a
/// terminal.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CheckTests {
    /// A folder with a clean song, one cut short, one with a burst of junk in the middle and a
    /// text file named .mp3.
    static func library() throws -> URL {
        let folder = try Harness.temporaryFolder()
        let album = folder.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let song = try Data(contentsOf: URL(fileURLWithPath: Harness.songs[1]))
        try song.write(to: album.appendingPathComponent("01 clean.mp3"))
        try song.prefix(song.count / 2).write(to: album.appendingPathComponent("02 cut.mp3"))
        var junk = song
        for index in (song.count / 2)..<(song.count / 2 + 4000) { junk[index] = 0x55 }
        try junk.write(to: album.appendingPathComponent("03 junk.mp3"))
        try Data("not audio at all\n".utf8).write(to: album.appendingPathComponent("04 text.mp3"))
        return folder
    }

    /// Junk with sync words in it: libmpg123 finds frames again in steps, each a skip; they
    /// are one place, said once, by --check as by -w (--check listed eight overlapping spans).
    @Test func checkAndWriteSayTheSameOnePlace() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("noise.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "30", "pinknoise", "gain", "-6"])
        let clean = folder.appendingPathComponent("clean.mp3").path
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "128", wav, clean])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
        var state: UInt32 = 1
        for index in (bytes.count / 2)..<(bytes.count / 2 + 40_000) {
            state = state &* 1_103_515_245 &+ 12_345
            bytes[index] = UInt8(truncatingIfNeeded: state >> 16)
        }
        for index in stride(from: bytes.count / 2, to: bytes.count / 2 + 40_000, by: 997) { (bytes[index], bytes[index + 1]) = (0xFF, 0xFB) }
        let damaged = folder.appendingPathComponent("damaged.mp3").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let checked = try Harness.tplayer("--check", damaged)
        let written = try Harness.tplayer("-q", "-w", folder.appendingPathComponent("out.wav").path, damaged)
        let place = { (line: String) in line.components(separatedBy: "damaged from ").dropFirst().map { $0.prefix(7) } }
        let fromCheck = checked.stderrLines.flatMap(place), fromWrite = written.stderrLines.flatMap(place)
        #expect(fromCheck.count == 1 && fromWrite.count == 1, "\(checked.stderr)\(written.stderr)")
        #expect(fromCheck == fromWrite, "the same place, from the same sample")
    }

    /// A song cut short (its header says 0:06, its audio ends near 0:03) is said when it is
    /// written and when it plays, as --check says it, and the list view shows where it ended
    /// (it played and wrote in silence, exit 0, and the view kept showing 0:06).
    @Test func aSongCutShortIsSaidWhenItPlaysAndWhenWritten() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "6", "sine", "440", "gain", "-6"])
        let whole = folder.appendingPathComponent("whole.flac").path
        try FormatTests.encode(wav, to: whole, format: "flac")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = folder.appendingPathComponent("cut.flac").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let checked = try Harness.tplayer("--check", cut)
        let said = try #require(checked.stderrLines.first)
        #expect(said.hasPrefix("\(cut): damaged at 0:0") && said.hasSuffix("the file ends there, but its header says 0:06.00; was it cut short?"))
        let written = try Harness.tplayer("-q", "-w", folder.appendingPathComponent("out.wav").path, cut)
        #expect(written.status == 1)
        #expect(written.stderrLines == ["tplayer: " + said])
        let pane = try Pane(arguments: ["-o", "null", cut, Harness.songs[1]], width: 100, height: 10)
        try pane.waitForStatus { $0.contains("2/2") }
        try pane.send("Tab")
        try pane.waitForLine { $0.hasPrefix(" ✗1  cut.flac") && ($0.hasSuffix("0:02") || $0.hasSuffix("0:03")) }
        try pane.send("q")
        #expect(try pane.waitForExit() == 1)
    }

    @Test func damagedSongsAreNamedWithWhereAndTheRunSaysHowMany() throws {
        let folder = try Self.library()
        let result = try Harness.tplayer(["--check", "album"], in: folder)
        #expect(result.status == 65)
        let lines = result.stderrLines
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first { $0.hasPrefix("album/02 cut.mp3: damaged at ") && $0.hasSuffix("was it cut short?") } != nil)
        #expect(lines.first { $0.hasPrefix("album/03 junk.mp3: damaged from ") && $0.hasSuffix(", skipped") } != nil)
        #expect(lines.contains("album/04 text.mp3: not an audio format tplayer plays (no MPEG audio or other format found in it)"))
        #expect(result.stdout == "4 songs decoded: 3 damaged or not playable\n")
    }

    @Test func aCleanLibraryExitsZeroWithItsLength() throws {
        let result = try Harness.tplayer(["--check"] + Harness.songs + [Harness.root.appendingPathComponent("Resources/demo.m3u").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last?.hasPrefix("6 songs decoded (") == true && lines.last?.hasSuffix("): none damaged") == true)
        #expect(lines.first?.hasSuffix("demo.m3u: ok, 3 songs") == true)
    }

    /// The length is counted in samples, not summed in seconds chunk by chunk (which came to
    /// 29.99…: `(0:29)` where the status line says 0:30).
    @Test func theLengthIsTheSongsOwnToTheSecond() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 30, in: folder, name: "thirty.mp3")
        let result = try Harness.tplayer("--check", song, song, song)
        #expect(result.stdout == "3 songs decoded (1:30): none damaged\n")
    }

    @Test func aSongInAPlaylistThatIsDamagedTakesItsOkAway() throws {
        let folder = try Self.library()
        try Data("album/01 clean.mp3\nalbum/02 cut.mp3\n".utf8).write(to: folder.appendingPathComponent("list.m3u"))
        let result = try Harness.tplayer(["--check", "list.m3u"], in: folder)
        #expect(result.status == 65)
        #expect(result.stdout == "2 songs decoded: 1 damaged or not playable\n")
    }

    @Test func scriptsAreStillCheckedAndUsageErrorsSayWhatToDo() throws {
        let none = try Harness.tplayer("--check")
        #expect(none.status == 64)
        #expect(none.stderr.contains("--check needs something to check"))
        let withW = try Harness.tplayer("--check", "-w", "x.wav", Harness.songs[0])
        #expect(withW.status == 64)
    }

    @Test func inATerminalAProgressBarShowsAndIsGoneAtTheEnd() throws {
        let folder = try Self.library()
        // Enough songs that the run takes a moment: the clean one, many times, by a playlist.
        let list = String(repeating: "album/01 clean.mp3\n", count: 400)
        try Data(list.utf8).write(to: folder.appendingPathComponent("many.m3u"))
        let pane = try Pane(arguments: ["--check", folder.appendingPathComponent("many.m3u").path])
        try pane.waitForLine(20) { $0.hasPrefix("[") && $0.contains("/400 ") && $0.contains("01 clean.mp3") }
        #expect(try pane.waitForExit(120) == 0)
        let screen = try pane.lines()
        #expect(!screen.contains { $0.hasPrefix("[") }, "the bar is cleared: \(screen)")
        #expect(screen.contains { $0.hasPrefix("400 songs decoded (") })
    }
}
