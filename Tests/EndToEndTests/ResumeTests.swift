import Foundation
import Glibc
import Testing

/// Resume where you left off: an interactive run saves its list, song, sample, volume and modes
/// when it ends; `tplayer` alone in a terminal (or `--resume`) picks up at the same sample.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ResumeTests {
    static func stateFile(_ home: URL) -> URL { home.appendingPathComponent("tplayer/last-session") }

    /// The saved field `name`, as a number.
    static func field(_ name: String, in file: URL) throws -> Int64? {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int64($0.split(separator: " ")[1]) }
    }

    static func waitForFile(_ url: URL, _ predicate: (String) -> Bool, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOf: url, encoding: .utf8), predicate(text) { return text }
            usleep(50_000)
        }
        throw HarnessError.timedOut("\(url.lastPathComponent) never showed what was waited for")
    }

    @Test func quitMidSongAndResumeAtTheSameSample() throws {
        let folder = try Harness.temporaryFolder()
        let state = folder.appendingPathComponent("state")
        let songs = try (0..<3).map { index -> String in
            let copy = folder.appendingPathComponent("song \(index + 1).mp3")
            try FileManager.default.copyItem(atPath: Harness.songs[index], toPath: copy.path)
            return copy.path
        }
        let environment = ["XDG_STATE_HOME": state.path]
        let firstTrace = folder.appendingPathComponent("first.txt")
        let first = try Pane(arguments: ["-o", "null", "--trace"] + songs, environment: environment, stderr: firstTrace.path)
        _ = try Self.waitForFile(firstTrace) { $0.contains("Loading -> Play (opened") }
        try first.send("n")
        try first.send("Right")  // +5 s into song 2
        usleep(2_000_000)
        try first.send("q")
        #expect(try first.waitForExit() == 0)
        #expect(try first.sttyUnchanged())
        let file = Self.stateFile(state)
        #expect(try Self.field("current", in: file) == 1)
        let flicks = try #require(try Self.field("position", in: file))
        #expect(flicks % 16_000 == 0)  // a whole sample at 44.1 kHz
        let sample = flicks / 16_000
        #expect(sample > 44_100 * 6 && sample < 44_100 * 9, "saved at sample \(sample)")

        // Moved away from where it played, with no inputs: the same song, the same sample.
        let secondTrace = folder.appendingPathComponent("second.txt")
        let second = try Pane(arguments: ["-o", "null", "--trace"], environment: environment, stderr: secondTrace.path)
        let trace = try Self.waitForFile(secondTrace) { $0.contains("engine: seeked to") }
        #expect(trace.contains("Idle -> Loading (load \(songs[1]))"))
        #expect(trace.contains("(sample \(sample)) in"), "\(trace)")
        // It says so: where, what and at which time (it resumed without a word).
        let said = try #require(trace.split(separator: "\n").first { $0.hasPrefix("Resuming: ") })
        #expect(said == "Resuming: 2/3 tplayer demo band – Night Drive at 0:0\(sample / 44_100) (tplayer --help for more)")
        try second.send("q")
        #expect(try second.waitForExit() == 0)

        // Songs that moved: each said in one line and skipped; the list goes on from the next one.
        try FileManager.default.removeItem(atPath: songs[0])
        try FileManager.default.removeItem(atPath: songs[1])
        let thirdTrace = folder.appendingPathComponent("third.txt")
        let third = try Pane(arguments: ["-o", "null", "--trace", "--resume"], environment: environment, stderr: thirdTrace.path)
        let moved = try Self.waitForFile(thirdTrace) { $0.contains("Loading -> Play (opened") }
        #expect(moved.contains("tplayer: \(songs[0]): no longer there; skipped\n"))
        #expect(moved.contains("tplayer: \(songs[1]): no longer there; skipped\n"))
        #expect(moved.contains("Idle -> Loading (load \(songs[2]))"))
        #expect(!moved.contains("engine: seeked"))
        try third.send("q")
        #expect(try third.waitForExit() == 0)

        // Every song gone: one line, and nothing else happens.
        try FileManager.default.removeItem(atPath: songs[2])
        let gone = try Harness.tplayer(["--resume", "-o", "null"], environment: environment)
        #expect(gone.status == 64)
        #expect(gone.stderrLines.last == "tplayer: none of the saved session's songs is there any more; name a song, a folder, a playlist or a CUE sheet")
        // The third run kept the two that had gone in the list it saved (it dropped them for good).
        #expect(gone.stderrLines == songs.map { "tplayer: \($0): no longer there; skipped" } + [gone.stderrLines.last ?? ""],
                "\(gone.stderr)")

        // Back again: played again, not a word about them, and the run goes on where it was.
        for (index, song) in songs.enumerated() { try FileManager.default.copyItem(atPath: Harness.songs[index], toPath: song) }
        let fourthTrace = folder.appendingPathComponent("fourth.txt")
        let fourth = try Pane(arguments: ["-o", "null", "--trace", "--resume"], environment: environment, stderr: fourthTrace.path)
        _ = try Self.waitForFile(fourthTrace) { $0.contains("Resuming: 3/3 ") }
        try fourth.send("b")
        let back = try Self.waitForFile(fourthTrace) { Self.loads(in: $0).count == 2 }
        #expect(Self.loads(in: back) == [songs[2], songs[1]])
        #expect(!back.contains("no longer there"))
        try fourth.send("q")
        #expect(try fourth.waitForExit() == 0)
    }

    @Test func aTruncatedOrForeignStateFileIsReportedAndIgnored() throws {
        let folder = try Harness.temporaryFolder()
        let file = Self.stateFile(folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let whole = "tplayer saved session 1\nvolume 80\nmuted 0\nrepeat 0\nshuffle 0\ncurrent 0\nposition 0\nentry \(Harness.songs[0])\nend\n"
        for content in [String(whole.prefix(whole.count - 9)), "GIF89a\u{0}\u{1}garbage", ""] {
            try Data(content.utf8).write(to: file)
            let result = try Harness.tplayer(["--resume", "-o", "null"], environment: ["XDG_STATE_HOME": folder.path])
            #expect(result.status == 64)
            #expect(result.stderrLines.first?.hasPrefix("tplayer: \(file.path): not a session tplayer can resume (") == true,
                    "\(result.stderr)")
            #expect(result.stderrLines.first?.hasSuffix("; starting fresh") == true)
            #expect(try Data(contentsOf: file) == Data(content.utf8))  // left as it was
        }
        // Every entry unreadable: each said, and a list with no songs is no list to resume.
        try Data((whole.replacingOccurrences(of: "entry /", with: "entry %ZZ/")).utf8).write(to: file)
        let empty = try Harness.tplayer(["--resume", "-o", "null"], environment: ["XDG_STATE_HOME": folder.path])
        #expect(empty.status == 64)
        #expect(empty.stderrLines == ["tplayer: \(file.path):6: current 0: no such song in the list; the list starts at its first",
                                      "tplayer: \(file.path):8: entry: not a valid path; left out",
                                      "tplayer: the saved session holds no songs; name a song, a folder, a playlist or a CUE sheet"], "\(empty.stderr)")
        // A FIFO in its place is never opened for reading (no hang).
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)
        let fifo = try Harness.tplayer(["--resume", "-o", "null"], environment: ["XDG_STATE_HOME": folder.path])
        #expect(fifo.status == 64)
        #expect(fifo.stderrLines.first?.hasSuffix("; starting fresh") == true, "\(fifo.stderr)")
        // Scripts, -w and -R neither read nor write it.
        try FileManager.default.removeItem(at: file)
        let written = folder.appendingPathComponent("out.wav").path
        _ = try Harness.tplayer(["-w", written, Harness.songs[0]], environment: ["XDG_STATE_HOME": folder.path])
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let refused = try Harness.tplayer(["--resume", "-w", written], environment: ["XDG_STATE_HOME": folder.path])
        #expect(refused.status == 64)
    }

    /// One bad field (a volume of 900, `repeat yes`) and CR LF line ends cost nothing else: each
    /// is said in one located line and the session is resumed (it was thrown away whole).
    @Test func aBadFieldIsSaidAndTheRestResumed() throws {
        let folder = try Harness.temporaryFolder()
        let file = Self.stateFile(folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lines = ["tplayer saved session 1", "volume 900", "muted 0", "repeat yes", "shuffle 0", "current 1", "position 0",
                     "entry \(Harness.songs[0])", "entry \(Harness.songs[1])", "end"]
        try Data(lines.map { $0 + "\r\n" }.joined().utf8).write(to: file)
        let trace = folder.appendingPathComponent("trace.txt")
        let pane = try Pane(arguments: ["-o", "null", "--trace", "--resume"], environment: ["XDG_STATE_HOME": folder.path],
                            stderr: trace.path)
        let said = try Self.waitForFile(trace) { $0.contains("Resuming: ") }
        #expect(said.contains("tplayer: \(file.path):2: volume 900: not 0 to 100; 100 is used\n"), "\(said)")
        #expect(said.contains("tplayer: \(file.path):4: repeat yes: not 0 or 1; ignored\n"))
        #expect(said.contains("Idle -> Loading (load \(Harness.songs[1]))"))
        #expect(said.contains("Resuming: 2/2 "))
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        // Saved again as tplayer writes it: LF, the volume set right, repeat as it was by default.
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("\r") && text.contains("volume 100\n") && text.contains("repeat 0\n"))
    }

    /// The paths loaded, in the order the trace shows them.
    static func loads(in trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "-> Loading (load ") else { return nil }
            return String(line[range.upperBound...].dropLast())
        }
    }

    /// A shuffled list comes back in the order it was playing in (it was shuffled anew), from
    /// the song it was on, whatever the seed of the resumed run.
    @Test func aShuffledListResumesInTheSameOrder() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try (0..<8).map { index -> String in
            let copy = folder.appendingPathComponent("song \(index + 1).mp3")
            try FileManager.default.copyItem(atPath: Harness.songs[index % 3], toPath: copy.path)
            return copy.path
        }
        let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let firstTrace = folder.appendingPathComponent("first.txt")
        let first = try Pane(arguments: ["-o", "null", "--trace", "--shuffle", "--seed", "5"] + songs, environment: environment,
                             stderr: firstTrace.path)
        _ = try Self.waitForFile(firstTrace) { $0.contains("Loading -> Play (opened") }
        try first.send("n")
        _ = try Self.waitForFile(firstTrace) { $0.components(separatedBy: "Loading -> Play (opened").count == 3 }
        try first.send("q")
        #expect(try first.waitForExit() == 0)
        let played = Self.loads(in: try String(contentsOf: firstTrace, encoding: .utf8))
        let text = try String(contentsOf: Self.stateFile(folder.appendingPathComponent("state")), encoding: .utf8)
        let order = try #require(text.split(separator: "\n").first { $0.hasPrefix("order ") }).split(separator: " ").dropFirst()
            .compactMap { Int($0) }
        #expect(order.count == 8 && Set(order) == Set(0..<8))
        #expect(played == order.prefix(2).map { songs[$0] })

        let secondTrace = folder.appendingPathComponent("second.txt")
        let second = try Pane(arguments: ["-o", "null", "--trace", "--seed", "6"], environment: environment, stderr: secondTrace.path)
        _ = try Self.waitForFile(secondTrace) { $0.contains("Loading -> Play (opened") }
        for _ in 0..<6 {
            try second.send("n")
            usleep(150_000)
        }
        let resumed = Self.loads(in: try Self.waitForFile(secondTrace) { Self.loads(in: $0).count == 7 })
        #expect(resumed == order.dropFirst().map { songs[$0] }, "\(order)")
        try second.send("q")
        #expect(try second.waitForExit() == 0)
    }

    /// A state folder tplayer cannot write in: the run ends saying the session was not saved,
    /// where and why, in one line (it named the temporary file, and never said "not saved").
    @Test func aReadOnlyStateFolderSaysTheSessionWasNotSaved() throws {
        let folder = try Harness.temporaryFolder()
        let state = folder.appendingPathComponent("state/tplayer")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // A read-only file system where it can be mounted (root can write in any mode 0500 folder).
        let mounted = try Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "ro", "tmpfs", state.path])
        defer { if mounted.status == 0 { _ = try? Harness.run("/bin/umount", [state.path]) } }
        if mounted.status != 0, getuid() == 0 {
            try Test.cancel("root writes in any folder whatever its mode, and no read-only tmpfs could be mounted here")
        }
        if mounted.status != 0 { chmod(state.path, 0o500) }
        let stderr = folder.appendingPathComponent("stderr.txt")
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]],
                            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path], stderr: stderr.path)
        _ = try pane.waitForStatus { $0.contains("1/1") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        let lines = try String(contentsOf: stderr, encoding: .utf8).split(separator: "\n").map(String.init)
        let why = mounted.status == 0 ? "read-only file system" : "permission denied"
        #expect(lines == ["tplayer: session not saved: \(state.path)/last-session: cannot write in \(state.path) (\(why))"])
    }

    /// A state file that is a symbolic link (to a dotfiles folder, say) is written through: the
    /// file it names is replaced, and stays a link (it was replaced by a regular file); one that
    /// names a missing file makes it.
    @Test func aSymbolicLinkStateFileIsWrittenThrough() throws {
        let folder = try Harness.temporaryFolder()
        let file = Self.stateFile(folder)
        let target = folder.appendingPathComponent("dots/session")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        for existing in [true, false] {
            try? FileManager.default.removeItem(at: target)
            if existing { try Data("tplayer saved session 1\nend\n".utf8).write(to: target) }
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "../dots/session")
            let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: ["XDG_STATE_HOME": folder.path],
                                stderr: "/dev/null")
            _ = try pane.waitForStatus { $0.contains("1/1") }
            try pane.send("q")
            #expect(try pane.waitForExit() == 0)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == "../dots/session", "existing: \(existing)")
            #expect(try String(contentsOf: target, encoding: .utf8).contains("entry \(Harness.songs[0])\n"), "existing: \(existing)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path) == ["session"])
        }
    }

    /// A state file that is, or leads to, a named pipe or a device is left alone, with one
    /// line saying so: the save renamed a regular file over the node the link named (the
    /// common `ln -s /dev/null last-session`, run as root, would replace the real /dev/null).
    @Test func aStateFileLeadingToANamedPipeIsLeftAlone() throws {
        try stateFileIsLeftAlone(kind: "fifo")
    }

    @Test(.enabled(if: getuid() == 0, "makes a device node, which only root may"))
    func aStateFileLeadingToADeviceIsLeftAlone() throws {
        try stateFileIsLeftAlone(kind: "device")
    }

    private func stateFileIsLeftAlone(kind: String) throws {
        let folder = try Harness.temporaryFolder()
        let node = folder.appendingPathComponent("node")
        if kind == "fifo" {
            #expect(mkfifo(node.path, 0o600) == 0)
        } else {
            // The numbers of /dev/null (1, 3), made in the test's own folder.
            #expect(mknod(node.path, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0)
        }
        let file = Self.stateFile(folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "../node")
        let stderr = folder.appendingPathComponent("stderr.txt")
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: ["XDG_STATE_HOME": folder.path], stderr: stderr.path)
        _ = try pane.waitForStatus { $0.contains("1/1") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
        var info = stat()
        #expect(lstat(node.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == (kind == "fifo" ? S_IFIFO : S_IFCHR), "the node is still what it was")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == "../node")
        let what = kind == "fifo" ? "named pipe (FIFO)" : "character device"
        let lines = try String(contentsOf: stderr, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["tplayer: session not saved: \(file.path): it leads to \(file.deletingLastPathComponent().path)/../node, a \(what), "
            + "not a file; left alone: remove it (or the link) to save sessions again"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted() == ["last-session", "last-session.lock"])
    }

    /// Two runs at once: the first saves its session, the second says when it starts that it
    /// will not, and does not (the last to quit silently replaced the other's session).
    @Test func ofTwoRunsAtOnceOnlyTheFirstSaves() throws {
        let folder = try Harness.temporaryFolder()
        let environment = ["XDG_STATE_HOME": folder.path]
        let file = Self.stateFile(folder)
        let firstErrors = folder.appendingPathComponent("first.txt"), secondErrors = folder.appendingPathComponent("second.txt")
        let first = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: environment, stderr: firstErrors.path)
        _ = try first.waitForStatus { $0.contains("1/1") }
        let second = try Pane(arguments: ["-o", "null", Harness.songs[1]], environment: environment, stderr: secondErrors.path)
        _ = try second.waitForStatus { $0.contains("1/1") }
        try first.send("q")
        #expect(try first.waitForExit() == 0)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("entry \(Harness.songs[0])\n"))
        try second.send("q")
        #expect(try second.waitForExit() == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == saved, "the second run left the first's session")
        #expect(try String(contentsOf: secondErrors, encoding: .utf8) == "tplayer: another tplayer is running; this one will not save its session\n")
        #expect(try String(contentsOf: firstErrors, encoding: .utf8) == "")
        // The next run after both saves again.
        let third = try Pane(arguments: ["-o", "null", Harness.songs[2]], environment: environment, stderr: "/dev/null")
        _ = try third.waitForStatus { $0.contains("1/1") }
        try third.send("q")
        #expect(try third.waitForExit() == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("entry \(Harness.songs[2])\n"))
    }

    /// SIGTERM saves; a SIGKILL that lands at any moment of the save leaves a whole file: the
    /// one before or the one after, never a part. The list is 20,000 entries long, so each save
    /// writes about 2 MB and takes a while.
    /// A save killed between naming its temporary file and renaming it left the file there for
    /// good (CI's kill test met it once): the next save takes away those whose process is gone,
    /// and leaves a live process's, and any other file, alone.
    @Test func whatAKilledSaveLeftIsTakenAwayByTheNext() throws {
        let state = try Harness.temporaryFolder()
        let folder = Self.stateFile(state).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit(within: BoundedWait.defaultSeconds)
        let dead = ended.processIdentifier
        for name in [".tplayer-\(dead)-0.tmp", ".tplayer-\(getpid())-0.tmp", ".tplayer-notes.tmp"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: ["XDG_STATE_HOME": state.path], stderr: "/dev/null")
        _ = try pane.waitForStatus { $0.contains("1/1") }
        try pane.send("q")
        _ = try pane.waitForExit()
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.sorted() == [".tplayer-\(getpid())-0.tmp", ".tplayer-notes.tmp", "last-session", "last-session.lock"], "\(left)")
    }

    @Test func aKillDuringTheSaveLeavesTheFileWhole() throws {
        let folder = try Harness.temporaryFolder()
        let state = folder.appendingPathComponent("state")
        let list = folder.appendingPathComponent("many.m3u")
        let line = Harness.songs[1] + "\n"
        try Data(String(repeating: line, count: 20_000).utf8).write(to: list)
        let file = Self.stateFile(state)
        var kills = 0
        // Round 0 ends cleanly and measures how long SIGTERM takes to the end (the save is the
        // last of it); the kills then land at eighths of that time.
        var ending = 0.0
        for round in 0..<9 {
            let pane = try Pane(arguments: ["-o", "null", list.path], environment: ["XDG_STATE_HOME": state.path],
                                stderr: "/dev/null")
            _ = try pane.waitForStatus { $0.contains("1/20000") }
            let pid = try pane.playerPID()
            let started = Date()
            kill(pid, SIGTERM)
            if round == 0 {
                while kill(pid, 0) == 0 { usleep(1_000) }
                ending = Date().timeIntervalSince(started)
            } else {
                usleep(UInt32(ending * 1_000_000 * Double(round) / 8))
                if kill(pid, SIGKILL) == 0 { kills += 1 }
            }
            _ = try pane.waitForExit()
            if FileManager.default.fileExists(atPath: file.path) {
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(text.hasPrefix("tplayer saved session 1\n") && text.hasSuffix("\nend\n"), "round \(round)")
                #expect(text.split(separator: "\n").count == 20_000 + 8, "round \(round)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(kills > 0)
        // The next clean save removes what the killed ones left behind.
        let last = try Pane(arguments: ["-o", "null", Harness.songs[0]], environment: ["XDG_STATE_HOME": state.path],
                            stderr: "/dev/null")
        _ = try last.waitForStatus { $0.contains("1/1") }
        try last.send("q")
        _ = try last.waitForExit()
        let left = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(left.sorted() == ["last-session", "last-session.lock"])
    }
}
