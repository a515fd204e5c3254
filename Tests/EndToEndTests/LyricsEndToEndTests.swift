import Foundation
import Glibc
import Testing

/// A song's `.lrc` beside it: with `lyrics = on`, each line said as it is sung, on the song's
/// audio time (a seek says the line there at once); `--check` reports a malformed line where it is.
@Suite(.timeLimit(.minutes(10)))
struct LyricsEndToEndTests {
    @Test func eachLineIsSaidAsItIsSungAndASeekFollows() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.mp3").path
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 8 sine 440 gain -6 | lame --silent -b 128 - \"$0\"", song])
        try "[ti:Song]\n[00:01.00]one\n[00:03.00]two\n[00:05.00]three \u{1B}[2J\n".write(
            to: folder.appendingPathComponent("song.lrc"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("config"), script = folder.appendingPathComponent("lyrics.tps")
        try "lyrics = on\n".write(to: config, atomically: true, encoding: .utf8)
        try "add \(song)\nplay\nwait 1.5s\nseek 4.5s\nwait 1.2s\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        // Each line of stderr with the seconds since the run started.
        let stamp = "import subprocess,sys,time\nt=time.monotonic()\np=subprocess.Popen(sys.argv[1:],stderr=subprocess.PIPE,text=True)\n"
            + "for l in p.stderr: print('%.3f %s' % (time.monotonic()-t, l.rstrip()))\nsys.exit(p.wait())"
        let run = try Harness.run("/usr/bin/python3", ["-c", stamp, Harness.binary, "--config", config.path, "-o", "null", "--script", script.path])
        #expect(run.status == 0, "\(run.stdout)")
        let sung = run.stdout.split(separator: "\n").filter { $0.contains(" ♪ ") }
        #expect(sung.map { $0.drop { $0 != " " }.dropFirst() } == ["♪ one", "♪ two", "♪ three \\e[2J"], "\(run.stdout)")
        let times = sung.compactMap { Double($0.prefix { $0 != " " }) }
        // "one" at 1 s; the seek to 4.5 s (at 1.5 s) says "two" at once; "three" half a second later.
        #expect(times.count == 3 && times[0] >= 0.9 && times[1] >= 1.4 && times[2] >= times[1] + 0.4, "\(run.stdout)")
    }

    @Test func checkSaysAMalformedLineWhereItIs() throws {
        let folder = try Harness.temporaryFolder()
        let good = folder.appendingPathComponent("good.lrc"), bad = folder.appendingPathComponent("bad.lrc")
        try "[00:01.00]one\n[00:02.50][00:10.00]two\n".write(to: good, atomically: true, encoding: .utf8)
        try "[00:01.00]one\n  [0a:02.00]two\n".write(to: bad, atomically: true, encoding: .utf8)
        // UTF-16 with its byte order mark, as Windows tools save CJK lyrics.
        let wide = folder.appendingPathComponent("wide.lrc")
        try "[00:01.00]一\r\n[00:02.00]二\r\n".write(to: wide, atomically: true, encoding: .utf16LittleEndian)
        try Data([0xFF, 0xFE] + (try Data(contentsOf: wide))).write(to: wide)
        let wideRun = try Harness.run(Harness.binary, ["--check", wide.path])
        #expect(wideRun.status == 0 && wideRun.stdout.contains("\(wide.path): ok, 2 timed lines of lyrics"), "\(wideRun.stdout) \(wideRun.stderr)")
        let run = try Harness.run(Harness.binary, ["--check", good.path, bad.path])
        #expect(run.stdout.contains("\(good.path): ok, 3 timed lines of lyrics"), "\(run.stdout)")
        #expect(run.stderr.contains("\(bad.path):2:3: [0a:02.00]: not a time; write [mm:ss.xx]") || run.stdout.contains("\(bad.path):2:3:"),
                "\(run.stdout) \(run.stderr)")
        #expect(run.status != 0)
    }

    /// A `.lrc` that is a FIFO is never opened (the song plays, nothing waits); one of 2 MB is
    /// refused by `--check` in one line.
    @Test func aFIFOOrAHugeLrcIsNone() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder, name: "song.mp3")
        let lrc = folder.appendingPathComponent("song.lrc").path
        #expect(mkfifo(lrc, 0o644) == 0)
        let config = folder.appendingPathComponent("config")
        try "lyrics = on\n".write(to: config, atomically: true, encoding: .utf8)
        let played = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", song])
        #expect(played.status == 0, "\(played.stderr)")
        try FileManager.default.removeItem(atPath: lrc)
        try Data(repeating: 0x41, count: 2 << 20).write(to: URL(fileURLWithPath: lrc))
        let checked = try Harness.run(Harness.binary, ["--check", lrc])
        #expect(checked.status != 0 && checked.stderr.contains("\(lrc): larger than"), "\(checked.stderr)")
    }

    /// With no `.lrc`, a timed `LYRICS` tag (a FLAC's Vorbis comment) is followed the same way.
    @Test func aTimedLyricsTagIsFollowed() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("song.flac").path, text = folder.appendingPathComponent("lyrics.txt").path
        try "[00:00.50]first\n[00:01.20]second\n".write(toFile: text, atomically: true, encoding: .utf8)
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 2 sine 440 gain -6 | flac -s -f - -o \"$0\" "
                                        + "&& metaflac --set-tag-from-file=LYRICS=\"$1\" \"$0\"", song, text])
        let config = folder.appendingPathComponent("config")
        try "lyrics = on\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", song])
        #expect(run.status == 0 && run.stderrLines.filter { $0.hasPrefix("♪ ") } == ["♪ first", "♪ second"], "\(run.stderr)")
    }

    /// Lyrics in ID3 (a synchronised `SYLT` before libmpg123's `USLT`, past a picture; 2.2's `SLT`) and MP4's
    /// `©lyr` (as ffmpeg writes it) are followed as a `LYRICS` tag is.
    @Test func lyricsInID3AndMP4TagsAreFollowed() throws {
        let folder = try Harness.temporaryFolder()
        let config = folder.appendingPathComponent("config")
        try "lyrics = on\n".write(to: config, atomically: true, encoding: .utf8)
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + syncsafe(body.count) + [0, 0] + body }
        func stamp(_ ms: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(ms >> $0 & 0xFF) } }
        let sylt: [UInt8] = [3] + Array("eng".utf8) + [2, 1, 0] + Array("synced one".utf8) + [0] + stamp(500)
            + Array("synced two".utf8) + [0] + stamp(1200)
        let uslt: [UInt8] = [3] + Array("eng".utf8) + [0] + Array("[00:00.40]unsynced frame\n[00:01.10]its second".utf8)
        let bare = try Harness.makeSong(seconds: 2, in: folder, name: "bare.mp3")
        let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bare)))
        for (name, frames, expected) in [("sylt.mp3", frame("APIC", [0] + Array("image/png".utf8) + [0, 3, 0] + [UInt8](repeating: 7, count: 50_000))
                                            + frame("SYLT", sylt) + frame("USLT", uslt), ["♪ synced one", "♪ synced two"]),
                                         ("uslt.mp3", frame("USLT", uslt), ["♪ unsynced frame", "♪ its second"])] {
            let tag = Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames
            let song = folder.appendingPathComponent(name)
            try Data(tag + audio).write(to: song)
            let run = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", song.path])
            #expect(run.status == 0 && run.stderrLines.filter { $0.hasPrefix("♪ ") } == expected, "\(name): \(run.stderr)")
        }
        // ID3v2.2 (older iTunes): SYLT is `SLT`, behind a `PIC`.
        func frame2(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + [16, 8, 0].map { UInt8(body.count >> $0 & 0xFF) } + body }
        let frames2 = frame2("PIC", [0] + Array("PNG".utf8) + [3, 0] + [UInt8](repeating: 7, count: 50_000)) + frame2("SLT", sylt)
        let old = folder.appendingPathComponent("slt.mp3")
        try Data(Array("ID3".utf8) + [2, 0, 0] + syncsafe(frames2.count) + frames2 + audio).write(to: old)
        let version2 = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", old.path])
        #expect(version2.status == 0 && version2.stderrLines.filter { $0.hasPrefix("♪ ") } == ["♪ synced one", "♪ synced two"], "\(version2.stderr)")
        let m4a = folder.appendingPathComponent("song.m4a").path
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", bare, "-c:a", "aac", "-metadata", "lyrics=[00:00.60]from the mp4 atom",
                                            m4a])
        let run = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", m4a])
        #expect(run.status == 0 && run.stderrLines.filter { $0.hasPrefix("♪ ") } == ["♪ from the mp4 atom"], "\(run.stderr)")
    }

    /// A song's timed lyrics often pass 4 KB, every other tag's bound: in a tag they are read as
    /// far as a `.lrc` is (1 MB), in FLAC, Ogg Vorbis, ID3's USLT (libmpg123's, and FFmpeg's in an
    /// AIFF) and MP4's `©lyr`.
    @Test func lyricsInATagPastFourKilobytesAreReadToTheirEnd() throws {
        let folder = try Harness.temporaryFolder()
        let config = folder.appendingPathComponent("config")
        try "lyrics = on\n".write(to: config, atomically: true, encoding: .utf8)
        // Two hundred lines in the first second (about 12 KB: past FLAC's comment bound for
        // other tags, 8 KB, too), then the line past them.
        let lrc = (0..<200).map { String(format: "[00:00.%02d]early line %03d, long enough to pass four kilobytes\n", $0 / 2, $0) }.joined()
            + "[00:01.50]past four kilobytes\n"
        #expect(lrc.utf8.count > 12_000)
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2.5", "sine", "440", "gain", "-6"])
        let flac = folder.appendingPathComponent("song.flac").path, ogg = folder.appendingPathComponent("song.ogg").path
        let m4a = folder.appendingPathComponent("song.m4a").path, mp3 = folder.appendingPathComponent("song.mp3")
        try Harness.run("/usr/bin/flac", ["-s", "-f", "-T", "LYRICS=" + lrc, wav, "-o", flac])
        try Harness.run("/usr/bin/oggenc", ["-Q", "-c", "LYRICS=" + lrc, wav, "-o", ogg])
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", "-metadata", "lyrics=" + lrc, m4a])
        // An AIFF's ID3 chunk, its USLT as FFmpeg names it (`lyrics-eng`).
        let aiff = folder.appendingPathComponent("song.aiff").path
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", wav, "-metadata", "lyrics-eng=" + lrc, "-write_id3v2", "1", aiff])
        let bare = try Harness.makeSong(seconds: 3, in: folder, name: "bare.mp3")
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
        let uslt: [UInt8] = [3] + Array("eng".utf8) + [0] + Array(lrc.utf8)
        let frames = Array("USLT".utf8) + syncsafe(uslt.count) + [0, 0] + uslt
        try Data(Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames + Data(contentsOf: URL(fileURLWithPath: bare))).write(to: mp3)
        for song in [flac, ogg, m4a, mp3.path, aiff] {
            let run = try Harness.run(Harness.binary, ["--config", config.path, "-o", "null", song])
            #expect(run.status == 0 && run.stderrLines.last { $0.hasPrefix("♪ ") } == "♪ past four kilobytes", "\(song): \(run.stderr.suffix(300))")
        }
    }

    /// Over MPRIS the song's lyrics are `xesam:asText`, a line each, escapes flattened.
    @Test func theLyricsAreXesamAsTextOverMpris() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 10, in: folder, name: "song.mp3")
        try "[00:05.00]two\n[00:01.00]one\n[00:09.00]three \u{1B}[2J\n".write(
            to: folder.appendingPathComponent("song.lrc"), atomically: true, encoding: .utf8)
        let said = try MprisSpecTests.run([song], in: folder, """
            echo "text $(playerctl -p tplayer metadata xesam:asText | tr '\\n' '|')"
            """)
        #expect(said.value("text") == "one|two|three  [2J|", "\(said.all)")
    }
}
