import Foundation
import Glibc
import Testing

/// Hostile input, tried as an attacker and as a clumsy user would: every case checks the exit
/// status, the exact one-line message, that no file in the folder changed, and where memory is
/// at stake the peak RSS. Each ran against the code before the audit fixes and failed there.
@Suite(.timeLimit(.minutes(10))) struct HostileInputTests {
    /// Every file under `folder` (contents for small ones; size and time for huge sparse ones).
    struct Snapshot: Equatable {
        var files: [String: Data] = [:]

        init(_ folder: URL) {
            let root = folder.path
            guard let walker = FileManager.default.enumerator(atPath: root) else { return }
            while let name = walker.nextObject() as? String {
                let path = root + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG where info.st_size <= 64 << 20:
                    files[name] = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
                case S_IFREG:
                    files[name] = Data("\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)".utf8)
                case S_IFLNK:
                    files[name] = Data(((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "").utf8)
                default:
                    files[name] = Data("kind \(info.st_mode & S_IFMT)".utf8)
                }
            }
        }
    }

    /// A folder with two songs, a playlist, a folder of songs, a script, and links to them.
    static func workspace() throws -> URL {
        let folder = try Harness.temporaryFolder()
        let fm = FileManager.default
        try fm.copyItem(atPath: Harness.songs[0], toPath: folder.appendingPathComponent("a.mp3").path)
        try fm.copyItem(atPath: Harness.songs[1], toPath: folder.appendingPathComponent("b.mp3").path)
        try fm.createDirectory(at: folder.appendingPathComponent("album"), withIntermediateDirectories: true)
        try fm.copyItem(atPath: Harness.songs[2], toPath: folder.appendingPathComponent("album/x.mp3").path)
        try Data("b.mp3\n".utf8).write(to: folder.appendingPathComponent("list.m3u"))
        try Data("add b.mp3\nplay\nwait end\n".utf8).write(to: folder.appendingPathComponent("go.tps"))
        for (link, target) in [("hard.wav", "b.mp3"), ("album.wav", "album/x.mp3"), ("list.wav", "list.m3u"), ("go.wav", "go.tps")] {
            try fm.linkItem(atPath: folder.appendingPathComponent(target).path, toPath: folder.appendingPathComponent(link).path)
        }
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("sym.wav").path, withDestinationPath: "b.mp3")
        return folder
    }

    // MARK: 1. -w never destroys an input

    @Test(arguments: [
        (["--force", "-w", "b.mp3", "b.mp3"],
         "tplayer: -w b.mp3: that is a song, not an output file, and writing would destroy it; did you forget the output name? e.g. tplayer -w out.wav b.mp3"),
        (["-w", "a.mp3", "b.mp3"],
         "tplayer: -w a.mp3: that is a song, not an output file, and writing would destroy it; did you forget the output name? e.g. tplayer -w out.wav a.mp3 b.mp3"),
        (["--force", "-w", "./b.mp3", "b.mp3"],
         "tplayer: -w ./b.mp3: that is a song, not an output file, and writing would destroy it; did you forget the output name? e.g. tplayer -w out.wav ./b.mp3 b.mp3"),
        (["--force", "-w", "list.m3u", "b.mp3"],
         "tplayer: -w list.m3u: that is a playlist, not an output file, and writing would destroy it; did you forget the output name? e.g. tplayer -w out.wav list.m3u b.mp3"),
        (["-w", "new.mp3", "b.mp3"],
         "tplayer: -w new.mp3: tplayer writes WAV, AU or raw audio, not .mp3; name the output e.g. out.wav"),
        (["--force", "-w", "hard.wav", "b.mp3"],
         "tplayer: -w hard.wav: that is the same file as the input b.mp3; writing would destroy it: name a new file, e.g. tplayer -w out.wav b.mp3"),
        (["--force", "-w", "sym.wav", "./b.mp3"],
         "tplayer: -w sym.wav: that is the same file as the input ./b.mp3; writing would destroy it: name a new file, e.g. tplayer -w out.wav ./b.mp3"),
        (["--force", "-w", "hard.wav", "a.mp3", "list.m3u"],
         "tplayer: -w hard.wav: that is the same file as the input b.mp3; writing would destroy it: name a new file, e.g. tplayer -w out.wav a.mp3 list.m3u"),
        (["--force", "-w", "album.wav", "album"],
         "tplayer: -w album.wav: that is the same file as the input album/x.mp3; writing would destroy it: name a new file, e.g. tplayer -w out.wav album"),
        (["--force", "-w", "list.wav", "list.m3u"],
         "tplayer: -w list.wav: that is the same file as the input list.m3u; writing would destroy it: name a new file, e.g. tplayer -w out.wav list.m3u"),
        (["--force", "-w", "go.wav", "--script", "go.tps"],
         "tplayer: -w go.wav: that is the same file as the input go.tps; writing would destroy it: name a new file, e.g. tplayer -w out.wav"),
    ])
    func writeNeverDestroysAnInputEvenWithForce(arguments: [String], message: String) throws {
        let folder = try Self.workspace()
        let before = Snapshot(folder)
        let result = try RawProcess.tplayer(arguments.map { Array($0.utf8) }, in: folder, timeout: 20)
        #expect(result.status == 64)
        #expect(result.stderrLines == [message])
        #expect(Snapshot(folder) == before, "no file was created or changed")
    }

    // MARK: 2. What comes from a file reaches the terminal shown, never interpreted

    @Test func controlCharactersInANameAreShownVisiblyInItsOneLineError() throws {
        let folder = try Harness.temporaryFolder()
        let name = "nope\u{1B}]2;owned\u{07}\u{1B}[2J\n\u{202E}3pm.mp3"
        let result = try RawProcess.tplayer("-o", "null", name, in: folder, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderrText == "tplayer: nope\\e]2;owned\\x07\\e[2J\\n\\u{202e}3pm.mp3: no such file\n")
        #expect(!result.stderr.contains(0x1B))
    }

    @Test func playlistTitlesAndPathsInMessagesAndTracesAreShownVisibly() throws {
        let folder = try Harness.temporaryFolder()
        try Data("#EXTINF:1,\u{1B}[31mred\nmissing\u{1B}[2J.mp3\n".utf8).write(to: folder.appendingPathComponent("l.m3u"))
        let result = try RawProcess.tplayer("-o", "null", "--trace", "l.m3u", in: folder, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderrLines == [
            "Idle -> Loading (load missing\\e[2J.mp3)",
            "Loading -> Loading (play)",
            "Loading -> Idle (open failed: no such file)",
            "tplayer: l.m3u:2: no such file: missing\\e[2J.mp3",
        ])
    }

    // MARK: 3. Durations that do not fit are errors, not crashes

    @Test func durationsAndSeeksTooLongAreLocatedErrors() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder)
        try Data("add \(song)\nwait 3631020.9h\nwait 217861206.9m\nseek +3631020.9h\nplay\n".utf8)
            .write(to: folder.appendingPathComponent("long.tps"))
        let expected = [
            "long.tps:2:6: duration too long: '3631020.9h'",
            "long.tps:3:6: duration too long: '217861206.9m'",
            "long.tps:4:6: duration too long: '+3631020.9h'",
        ]
        let check = try RawProcess.tplayer("--check", "long.tps", in: folder, timeout: 20)
        #expect(check.status == 65)
        #expect(check.stderrLines == expected)
        let before = Snapshot(folder)
        let run = try RawProcess.tplayer("-w", "out.wav", "--script", "long.tps", in: folder, timeout: 20)
        #expect(run.status == 65)
        #expect(run.stderrLines == expected + ["tplayer: long.tps: not run because of the problems above; tplayer --check long.tps lists them"])
        #expect(Snapshot(folder) == before)
    }

    // MARK: 4 and 5. Only regular files are read, and never more than a bound

    @Test(arguments: [
        (["-o", "null", "pipe.m3u"], 1, "tplayer: pipe.m3u: not a regular file (it is a named pipe (FIFO))"),
        (["--check", "pipe.m3u"], 65, "pipe.m3u: not a regular file (it is a named pipe (FIFO))"),
        (["--check", "pipe.tps"], 65, "pipe.tps: cannot read script: not a regular file (it is a named pipe (FIFO))"),
        (["-o", "null", "outer.m3u"], 1, "tplayer: outer.m3u:1: cannot read playlist pipe.m3u: not a regular file (it is a named pipe (FIFO))"),
        (["-o", "null", "pipe.mp3"], 1, "tplayer: pipe.mp3: not a regular file (it is a named pipe (FIFO))"),
        (["-o", "null", "zero.m3u"], 1, "tplayer: zero.m3u: not a regular file (it is a character device)"),
        (["--check", "/dev/zero"], 65, "/dev/zero: cannot read script: not a regular file (it is a character device)"),
        (["-o", "null", "huge.m3u"], 1, "tplayer: huge.m3u: larger than 64 MB; is it really a playlist?"),
        (["--check", "huge.m3u"], 65, "huge.m3u: larger than 64 MB; is it really a playlist?"),
        (["--check", "huge.tps"], 65, "huge.tps: cannot read script: larger than 1 MB; is it really a script?"),
        (["--check", "song.m3u"], 65, "song.m3u: binary data, not a playlist"),
        (["--check", "oneline.m3u"], 65, "oneline.m3u:1:1: line too long (40000000 bytes; at most 4096)"),
    ])
    func namedPipesDevicesAndHugeFilesAreRefusedAtOnceInLittleMemory(arguments: [String], status: Int32, message: String) throws {
        let folder = try Harness.temporaryFolder()
        for fifo in ["pipe.m3u", "pipe.tps", "pipe.mp3"] { mkfifo(folder.appendingPathComponent(fifo).path, 0o644) }
        try Data("pipe.m3u\n".utf8).write(to: folder.appendingPathComponent("outer.m3u"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.m3u").path, withDestinationPath: "/dev/zero")
        for huge in ["huge.m3u", "huge.tps"] {
            let path = folder.appendingPathComponent(huge).path
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            truncate(path, 2 << 30)  // 2 GB, sparse
        }
        try FileManager.default.copyItem(atPath: Harness.songs[0], toPath: folder.appendingPathComponent("song.m3u").path)
        try Data(repeating: UInt8(ascii: "x"), count: 40_000_000).write(to: folder.appendingPathComponent("oneline.m3u"))
        let before = Snapshot(folder)
        let result = try RawProcess.tplayer(arguments.map { Array($0.utf8) }, in: folder, timeout: 20)
        #expect(!result.timedOut, "it must not hang")
        #expect(result.status == status)
        #expect(result.stderrLines == [message])
        // A sanitizer's shadow memory is not tplayer's: memory is measured on plain builds. The
        // bound is what starting costs (a debug build maps Foundation's shared libraries, which
        // the library's GRDB brings: 31 MB in all; a release build, static, 21 MB) and far below
        // what reading any of these files would add (40 MB to 2 GB).
        if ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil {
            #expect(result.peakRSS > 0 && result.peakRSS < 40 << 10, "peak RSS \(result.peakRSS) KB")
        }
        #expect(Snapshot(folder) == before)
    }

    /// A 16 MB ID3v2 title: kept to 4 KB, as every format's tags are (libmpg123's was kept
    /// whole: a 16 MB "Playing" line, a 16 MB `@I` line at 295 MB, 16 MB through MPRIS).
    @Test func aHugeTagIsCutAsEveryFormatsIs() throws {
        let folder = try Harness.temporaryFolder()
        let plain = try Harness.makeSong(seconds: 0.5, in: folder, name: "plain.mp3")
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }
        let title = [UInt8(0)] + [UInt8](repeating: UInt8(ascii: "A"), count: 16 << 20)
        let frame = Array("TIT2".utf8) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: title.count >> $0) } + [0, 0] + title
        let tag = Array("ID3".utf8) + [3, 0, 0] + syncsafe(frame.count) + frame
        try Data(tag + [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))).write(to: folder.appendingPathComponent("big.mp3"))
        let kept = String(repeating: "A", count: 4096) + "…"
        let written = try RawProcess.tplayer("-w", "out.wav", "big.mp3", in: folder, timeout: 20)
        #expect(written.status == 0)
        #expect(written.stderrLines == ["Playing 1/1: " + kept])
        try Data("SILENCE\nLOAD big.mp3\nQ\n".utf8).write(to: folder.appendingPathComponent("commands"))
        let remote = try Harness.run("/bin/sh", ["-c", "'\(Harness.binary)' -R -o null < commands"], in: folder)
        #expect(remote.stdout.split(separator: "\n").contains { $0 == "@I ID3v2.title:" + kept })
        // libmpg123 holds the 16 MB frame it read; nothing more is made of it.
        if ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil {
            #expect(written.peakRSS > 0 && written.peakRSS < 64 << 10, "peak RSS \(written.peakRSS) KB")
        }
    }

    /// A long list costs its paths' bytes and a few words an entry, whatever door it comes by:
    /// the command line, `-R`'s LOADLIST and MPRIS's OpenUri. 200,000 entries (of 1,000 songs)
    /// took 83 MB, 86 MB and more (a million: 283 MB and 510 MB), each entry about 300 bytes
    /// and a loaded list held twice while it went in; now under 56 MB in a debug build.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil,
                   "a sanitizer's shadow memory is not tplayer's: memory is measured on plain builds"))
    func aLongListCostsItsPathsThroughEveryDoor() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder, name: "song.mp3")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("songs"), withIntermediateDirectories: true)
        for index in 0..<1_000 { link(song, folder.appendingPathComponent("songs/song-number-\(index).mp3").path) }
        let lines = (0..<200_000).map { "\(folder.path)/songs/song-number-\($0 % 1_000).mp3\n" }.joined()
        let list = folder.appendingPathComponent("list.m3u").path
        try Data(lines.utf8).write(to: URL(fileURLWithPath: list))
        let limit = 56 << 10
        // Ended by SIGTERM once it plays; GNU time counts the player, reaped by timeout.
        let command = try Harness.run("/bin/sh", ["-c", "/usr/bin/time -f '%M' timeout -s TERM 4 '\(Harness.binary)' -q -o null '\(list)'"])
        let played = Int(command.stderrLines.last ?? "") ?? 0
        #expect(played > 0 && played < limit, "command line: \(played) KB \(command.stderr.suffix(300))")
        let remote = try Harness.run("/bin/sh", ["-c", "(printf 'SILENCE\\nLOADLIST 1 \(list)\\n'; sleep 4; echo Q) "
            + "| /usr/bin/time -f '%M' '\(Harness.binary)' -R -o null > /dev/null"])
        let loaded = Int(remote.stderrLines.last ?? "") ?? 0
        #expect(loaded > 0 && loaded < limit, "LOADLIST: \(loaded) KB")
        let script = """
            '\(Harness.binary)' -o null '\(song)' '\(song)' > /dev/null 2>&1 < /dev/null & pid=$!
            for i in $(seq 300); do playerctl -l 2>/dev/null | grep -q tplayer && break; sleep 0.1; done
            dbus-send --print-reply --dest=org.mpris.MediaPlayer2.tplayer /org/mpris/MediaPlayer2 \\
              org.mpris.MediaPlayer2.Player.OpenUri string:file://\(list) > /dev/null 2>&1
            grep VmHWM /proc/$pid/status | tr -dc 0-9; echo
            kill $pid
            """
        let opened = try Harness.dbusSession(script)
        let peak = Int(opened.stdout.split(separator: "\n").last ?? "") ?? 0
        #expect(peak > 0 && peak < limit, "OpenUri: \(peak) KB \(opened.stderr)")
    }

    @Test func aScriptThatIsANamedPipeIsRefusedBeforeAnythingPlays() throws {
        let folder = try Harness.temporaryFolder()
        mkfifo(folder.appendingPathComponent("pipe.tps").path, 0o644)
        let result = try RawProcess.tplayer("-o", "null", "--script", "pipe.tps", in: folder, timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status == 65)
        #expect(result.stderrLines == [
            "pipe.tps: cannot read script: not a regular file (it is a named pipe (FIFO))",
            "tplayer: pipe.tps: not run because of the problems above; tplayer --check pipe.tps lists them",
        ])
    }

    // MARK: 6. An empty PLS entry is a problem, not the playlist's folder

    @Test func anEmptyPLSEntryIsReportedAndSkipped() throws {
        let folder = try Self.workspace()
        try Data("[playlist]\nFile1=b.mp3\nFile2=\nNumberOfEntries=2\n".utf8).write(to: folder.appendingPathComponent("e.pls"))
        let check = try RawProcess.tplayer("--check", "e.pls", in: folder, timeout: 20)
        #expect(check.status == 65)
        #expect(check.stderrLines == ["e.pls:3:7: empty entry (File2=); skipped"])
        let run = try RawProcess.tplayer("-q", "-w", "out.wav", "e.pls", in: folder, timeout: 60)
        #expect(run.status == 1)
        #expect(run.stderrLines == ["tplayer: e.pls:3: empty entry (File2=); skipped"])
        _ = Harness.samePCM(try Harness.pcm(ofWAV: folder.appendingPathComponent("out.wav").path),
                            try Harness.referenceDecode([Harness.songs[1]], in: folder))
    }

    // MARK: 7. Names that are not UTF-8 play

    @Test func namesThatAreNotUTF8PlayFromTheCommandLineAFolderAndPlaylists() throws {
        let folder = try Harness.temporaryFolder()
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3".utf8)
        let latin1Path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + latin1
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("old"), withIntermediateDirectories: true)
        let inFolder = Array(folder.path.utf8) + Array("/old/".utf8) + [0xFF, 0x41] + Array(".mp3".utf8)
        for path in [Array(latin1Path), inFolder] {
            let source = try Data(contentsOf: URL(fileURLWithPath: Harness.songs[2]))
            let fd = path.withUnsafeBufferPointer { openBytes($0, O_WRONLY | O_CREAT | O_TRUNC) }
            try #require(fd >= 0)
            _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        // An old playlist: the name as Latin-1 bytes (the file is named so), and a name in
        // Latin-1 whose file was renamed to UTF-8 since, and a PLS URL with %E9.
        try FileManager.default.copyItem(atPath: Harness.songs[2], toPath: folder.appendingPathComponent("naïve.mp3").path)
        try Data(latin1 + Array("\n".utf8) + Array("na".utf8) + [0xEF] + Array("ve.mp3\n".utf8)).write(to: folder.appendingPathComponent("old.m3u"))
        try Data("[playlist]\nFile1=file://\(folder.path)/caf%E9.mp3\n".utf8).write(to: folder.appendingPathComponent("old.pls"))
        let result = try RawProcess.tplayer([Array("-q".utf8), Array("-w".utf8), Array("out.wav".utf8), latin1,
                                             Array("old".utf8), Array("old.m3u".utf8), Array("old.pls".utf8)],
                                            in: folder, timeout: 60)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderr.isEmpty)
        _ = Harness.samePCM(try Harness.pcm(ofWAV: folder.appendingPathComponent("out.wav").path),
                            try Harness.referenceDecode(Array(repeating: Harness.songs[2], count: 5), in: folder))

        let missing = try RawProcess.tplayer([Array("-o".utf8), Array("null".utf8), Array("gone".utf8) + [0xE9] + Array(".mp3".utf8)],
                                             in: folder, timeout: 20)
        #expect(missing.status == 1)
        #expect(missing.stderrLines == ["tplayer: gone\u{FFFD}.mp3: no such file"], "only the display is repaired")
    }

    // MARK: 8. A closed stdout or stderr is never fatal

    @Test(arguments: [
        (["--no-such-option"], RawProcess.Output.closedPipe, RawProcess.Output.captured, Int32(64)),
        (["-w", "exists.wav", "b.mp3"], .closedPipe, .captured, 1),
        (["-o", "null", "empty"], .closedPipe, .captured, 1),
        (["-o", "null", "nope.mp3"], .closedPipe, .captured, 1),
        (["--check", "go.tps"], .captured, .closedPipe, 0),
        (["--check", "bad.tps"], .closedPipe, .closedPipe, 65),
        (["--print-states"], .captured, .closedPipe, 0),
        (["--list-outputs"], .captured, .closedPipe, 0),
    ])
    func aClosedPipeIsNeverFatal(arguments: [String], stderr: RawProcess.Output, stdout: RawProcess.Output, status: Int32) throws {
        let folder = try Self.workspace()
        try Data("x".utf8).write(to: folder.appendingPathComponent("exists.wav"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try Data("plya\n".utf8).write(to: folder.appendingPathComponent("bad.tps"))
        let before = Snapshot(folder)
        let result = try RawProcess.tplayer(arguments.map { Array($0.utf8) }, in: folder, stdout: stdout, stderr: stderr, timeout: 20)
        #expect(result.status == status, "not killed by SIGPIPE (141)")
        #expect(Snapshot(folder) == before)
    }

    // MARK: 9. Every message gives the real reason

    @Test func aFolderTooDeepToOpenSaysSoInsteadOfNoAudio() throws {
        let folder = try Harness.temporaryFolder()
        // Made one level at a time, relative to the last: the whole path is too long to name.
        var fd = open(folder.path, O_RDONLY | O_DIRECTORY)
        for name in ["deep"] + Array(repeating: String(repeating: "d", count: 200), count: 22) {
            mkdirat(fd, name, 0o755)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        close(fd)
        let result = try RawProcess.tplayer("-o", "null", "deep", in: folder, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: deep: cannot read folder deep/ddd"))
        #expect(line.hasSuffix(": file name too long"))
        #expect(line.count < 300, "a long path is shortened in the middle")
    }

    /// With a library too (the song heard is counted in it): libdispatch, which GRDB's queues
    /// start, trapped (SIGILL) when it could not have a descriptor.
    @Test func runningOutOfFileDescriptorsIsNamedAsSuch() throws {
        let folder = try Harness.temporaryFolder()
        _ = try Harness.makeSong(seconds: 0.2, in: folder, name: "b.mp3")
        let library = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path]
        let scan = try Harness.tplayer(["--scan", folder.path], environment: library)
        #expect(scan.status == 0, "\(scan.stderr)")
        var failures: [String] = []
        for limit in 4...14 {
            for environment in [["XDG_DATA_HOME": folder.appendingPathComponent("none").path, "HOME": folder.path], library] {
                let result = try Harness.run("/bin/sh", ["-c", "ulimit -n \(limit) && exec '\(Harness.binary)' -q -o null b.mp3"], in: folder,
                                             environment: environment)
                // A trap in a helper thread as the run ends left status 0, and its backtrace on stderr.
                #expect((result.status == 0 && result.stderr.isEmpty) || result.status == 1, "limit \(limit): status \(result.status) \(result.stderr)")
                if result.status != 0 { failures.append(result.stderr) }
            }
        }
        #expect(!failures.isEmpty, "some limit is too low to play")
        for failure in failures {
            #expect(failure.contains("too many open files") && !failure.contains("no MPEG audio"), "\(failure)")
            #expect(failure.split(separator: "\n").count == 1, "one line: \(failure)")
        }
    }

    @Test(arguments: [
        ("nodir/out.wav", "tplayer: nodir/out.wav: cannot create the file: its folder does not exist"),
        ("/proc/self/fd/99", "tplayer: /proc/self/fd/99: cannot create the file there: no such file or descriptor"),
    ])
    func anOutputThatCannotBeCreatedSaysWhy(path: String, message: String) throws {
        let folder = try Self.workspace()
        let before = Snapshot(folder)
        let result = try RawProcess.tplayer("-q", "--force", "-w", path, "b.mp3", in: folder, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderrLines == [message])
        #expect(Snapshot(folder) == before)
    }

    @Test func anOutputOnAReadOnlyFileSystemSaysSo() throws {
        let folder = try Self.workspace()
        let mount = folder.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let mounted = try Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "ro", "tmpfs", mount.path])
        defer { _ = try? Harness.run("/bin/umount", [mount.path]) }
        // Mounting needs privileges a test machine may not give: then /sys, read-only for writes.
        let target = mounted.status == 0 ? "ro/out.wav" : "/sys/out.wav"
        let result = try RawProcess.tplayer("-q", "-w", target, "b.mp3", in: folder, timeout: 20)
        #expect(result.status == 1)
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("tplayer: \(target): cannot create the file: "))
        if mounted.status == 0 { #expect(line.hasSuffix("read-only file system")) }
    }

    @Test func aSongCutShortWhileItPlaysIsReported() throws {
        let folder = try Self.workspace()
        let song = folder.appendingPathComponent("album/x.mp3").path
        let result = try Harness.run(Harness.binary, ["-q", "-o", "null", song]) { _ in
            usleep(1_000_000)
            truncate(song, 40_000)
        }
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("tplayer: \(song): the file was cut short while it played (") == true)
    }

    @Test(.enabled(if: getuid() == 0, "only root can run a program as another user with a process limit of one (root itself is exempt from the limit)"))
    func aPlaybackThreadThatCannotStartIsAnErrorNotAHang() throws {
        // `nobody` may not be able to enter the checkout (a clone under root's home or a
        // `mktemp -d` folder, mode 0700): the binary and the song are copied where it can.
        var template = Array("/tmp/tplayer-nobody-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let folder = String(cString: made)
        defer { _ = try? Harness.run("/bin/rm", ["-rf", folder]) }
        chmod(folder, 0o755)
        let binary = folder + "/tplayer", song = folder + "/song.mp3"
        try FileManager.default.copyItem(atPath: Harness.binary, toPath: binary)
        try FileManager.default.copyItem(atPath: Harness.songs[0], toPath: song)
        chmod(binary, 0o755)
        chmod(song, 0o644)
        let result = try Harness.run("/usr/bin/timeout", ["10", "/bin/su", "nobody", "-s", "/bin/bash", "-c",
                                                          "ulimit -u 1; exec '\(binary)' -q -o null '\(song)'"],
                                     // Under `make test-sanitize`, LeakSanitizer's own checker needs a thread,
                                     // which this limit denies; its leak check is not what is tested here.
                                     environment: ["ASAN_OPTIONS": "detect_leaks=0"])
        #expect(result.status == 1, "not a hang (124) and not a crash")
        #expect(result.stderrLines == ["tplayer: cannot start the playback thread: resource temporarily unavailable"])
    }

    // MARK: 10. Signals

    @Test func ofTwoEndingSignalsTheFirstDecidesTheExitStatus() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 5, in: folder)
        let result = try Harness.run(Harness.binary, ["-q", "-o", "null", song]) { process in
            usleep(500_000)
            let pid = process.processIdentifier
            // Stopped, both signals wait; they arrive together when it goes on.
            kill(pid, SIGSTOP)
            usleep(100_000)
            kill(pid, SIGHUP)
            kill(pid, SIGTERM)
            kill(pid, SIGCONT)
        }
        #expect(result.status == 128 + SIGHUP)
    }
}

/// `open` on raw path bytes.
private func openBytes(_ path: UnsafeBufferPointer<UInt8>, _ flags: Int32) -> Int32 {
    var bytes = Array(path)
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, flags, 0o644) }
    }
}
