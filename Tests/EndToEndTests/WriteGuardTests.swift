import Foundation
import Glibc
import Testing

/// `-w` never destroys a file the run reads, by whatever door the song comes in (the command
/// line, `-R`'s LOAD, the `l` prompt) and whatever path leads to it (a link, `/proc/self/fd/N`,
/// standard output): what is opened is checked when it is opened. Each case destroyed a file
/// before the guard moved to the moment of opening.
@Suite(.timeLimit(.minutes(10))) struct WriteGuardTests {
    typealias Snapshot = HostileInputTests.Snapshot

    /// A song that neither its name nor its first bytes give away: junk, then MP3 frames
    /// (libmpg123 finds them, as it finds them after any junk).
    static func disguisedSong(in folder: URL, name: String = "victim") throws -> String {
        let path = folder.appendingPathComponent(name).path
        var bytes = Data(repeating: UInt8(ascii: "x"), count: 100)
        bytes += try Data(contentsOf: URL(fileURLWithPath: Harness.songs[0]))
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        (["-R", "-w", "a.mp3", "--force"],
         "tplayer: -w a.mp3: that is a song, not an output file, and writing would destroy it; did you forget the output name? e.g. tplayer -w out.wav a.mp3"),
        (["-R", "-w", "out.wav", "--force"], "tplayer: -w out.wav: that leads to FOLDER/a.mp3, a song; writing would destroy it: name a new file, e.g. out.wav"),
        (["-R", "-w", "new.mp3"], "tplayer: -w new.mp3: tplayer writes WAV, AU or raw audio, not .mp3; name the output e.g. out.wav"),
        (["-R", "-w", "b.dat", "--force"],
         "tplayer: -w b.dat: that file holds MPEG audio (MP3), not audio tplayer wrote; writing would destroy it: name a new file, e.g. out.wav"),
    ])
    func remoteRunsHaveTheSameGuardAsTheCommandLine(arguments: [String], message: String) throws {
        let folder = try Harness.temporaryFolder()
        try FileManager.default.copyItem(atPath: Harness.songs[0], toPath: folder.appendingPathComponent("a.mp3").path)
        try FileManager.default.copyItem(atPath: Harness.songs[1], toPath: folder.appendingPathComponent("b.dat").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out.wav").path, withDestinationPath: "a.mp3")
        let before = Snapshot(folder)
        let program = ([Harness.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try RemoteTests.drive(program, RemoteTests.send("L a.mp3") + ["sleep 1"] + RemoteTests.send("Q"), in: folder)
        #expect(result.status == 64)
        // The shell feeding the commands may say that its pipe closed: only tplayer's lines count.
        #expect(result.stderrLines.filter { !$0.hasPrefix("/bin/sh") }
            == [message.replacingOccurrences(of: "FOLDER", with: folder.resolvingSymlinksInPath().path)])
        #expect(Snapshot(folder) == before, "nothing was created or changed")
    }

    /// The song `LOAD` opens is the file a link names as the output: refused when the output
    /// opens, by identity, since nothing in the names gives it away.
    @Test func remoteLoadOfTheFileTheOutputLeadsToIsRefusedWhenItOpens() throws {
        let folder = try Harness.temporaryFolder()
        _ = try Self.disguisedSong(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: "victim")
        let before = Snapshot(folder)
        let result = try RemoteTests.drive("'\(Harness.binary)' -R -w link.wav --force",
                                           RemoteTests.send("L victim") + ["sleep 1.5"] + RemoteTests.send("Q"), in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("tplayer: link.wav: that is the same file as victim, which this run reads; writing would destroy it: name a new file"),
                "\(result.stderr)")
        #expect(Snapshot(folder) == before)
    }

    /// `/proc/self/fd/N` and `/dev/fd/N` name whatever tplayer has open as N when the output
    /// opens: the song being decoded, its own pipes. Each is refused, the song left whole, and no
    /// audio is lost silently (exit 0) or written into a pipe of its own (a signal exit).
    @Test(arguments: ["/proc/self/fd/", "/dev/fd/"])
    func descriptorPathsNeverNameTheSongOrAPipeOfTplayersOwn(prefix: String) throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("a.mp3").path
        try FileManager.default.copyItem(atPath: Harness.songs[0], toPath: song)
        let before = Snapshot(folder)
        for fd in 3...9 {
            let result = try Harness.tplayer("-q", "-w", "\(prefix)\(fd)", "--force", "a.mp3", in: folder)
            #expect(result.status == 1, "fd \(fd): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("tplayer: \(prefix)\(fd): "), "\(result.stderr)")
            #expect(Snapshot(folder) == before, "fd \(fd): the song is whole")
        }
    }

    /// A descriptor the caller hands down is the caller's to give: `3>out.wav` with
    /// `-w /dev/fd/3` writes there, as `mpg123 -w /dev/fd/3` does.
    @Test func aDescriptorHandedDownMayBeWritten() throws {
        let folder = try Harness.temporaryFolder()
        let result = try Harness.run("/bin/sh", ["-c", "'\(Harness.binary)' -q -w /dev/fd/3 --force '\(Harness.songs[2])' 3>out.wav"],
                                     in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        _ = Harness.samePCM(try Harness.pcm(ofWAV: folder.appendingPathComponent("out.wav").path),
                            try Harness.referenceDecode([Harness.songs[2]], in: folder))
    }

    /// The `l` prompt of a `-w` run opens the song the output's link leads to: refused when the
    /// output opens, the song left whole.
    @Test func theLoadPromptOfAWriteRunNeverDestroysTheSongItLoads() throws {
        let folder = try Harness.temporaryFolder()
        _ = try Self.disguisedSong(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: "victim")
        let victim = try Data(contentsOf: folder.appendingPathComponent("victim"))
        let pane = try Pane(arguments: ["-w", folder.appendingPathComponent("link.wav").path, "--force",
                                        folder.appendingPathComponent("missing.mp3").path])
        try pane.waitForText("missing.mp3: no such file")
        try pane.type("l")
        try pane.type(folder.appendingPathComponent("victim").path)
        try pane.send("Enter")
        try pane.waitForText("that is the same file as")
        try? pane.type("q")
        _ = try pane.waitForExit()
        #expect(try Data(contentsOf: folder.appendingPathComponent("victim")) == victim, "the song is whole")
        #expect(try pane.sttyUnchanged())
    }

    @Test func theFifoIsRemovedOnlyIfItIsStillTplayersPipe() throws {
        let folder = try Harness.temporaryFolder()
        let fifo = folder.appendingPathComponent("ctl").path
        let moved = folder.appendingPathComponent("moved").path
        let result = try Harness.run(Harness.binary, ["-R", "-o", "null", "--fifo", fifo]) { _ in
            // However slow the start (a sanitized build): the pipe made, then tplayer reading it.
            for _ in 0..<1_000 where access(fifo, F_OK) != 0 { usleep(20_000) }
            rename(fifo, moved)
            try? Data("a user's file\n".utf8).write(to: URL(fileURLWithPath: fifo))
            // Never a blocking open: with no reader (tplayer gone) it would wait for ever.
            var writer: Int32 = -1
            for _ in 0..<1_000 where writer < 0 {
                writer = open(moved, O_WRONLY | O_NONBLOCK)
                if writer < 0 { usleep(20_000) }
            }
            _ = "Q\n".withCString { write(writer, $0, 2) }
            close(writer)
        }
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: fifo, encoding: .utf8) == "a user's file\n", "the file put there is left alone")
    }

    @Test func standardOutputThatIsAnInputIsRefused() throws {
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("b.mp3").path
        try FileManager.default.copyItem(atPath: Harness.songs[1], toPath: song)
        let before = Snapshot(folder)
        let result = try Harness.run("/bin/sh", ["-c", "'\(Harness.binary)' -q -w - b.mp3 1<>b.mp3"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderrLines == ["tplayer: -w -: standard output is the same file as the input b.mp3; writing would destroy it: name a new file, e.g. tplayer -w out.wav b.mp3"])
        #expect(Snapshot(folder) == before)
    }

    @Test func aFolderAsTheOutputIsAUsageErrorEvenWithForce() throws {
        let folder = try HostileInputTests.workspace()
        let before = Snapshot(folder)
        for arguments in [["-w", "album", "b.mp3"], ["--force", "-w", "album", "b.mp3"]] {
            let result = try Harness.tplayer(["-q"] + arguments, in: folder)
            #expect(result.status == 64)
            #expect(result.stderrLines == ["tplayer: -w album: is a folder; name a file in it, e.g. -w album/out.wav"])
        }
        #expect(Snapshot(folder) == before)
    }

    /// A write that fails partway (a size limit here; a full disk goes the same way): the
    /// header says exactly the whole frames that are in the file.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil,
                   "ThreadSanitizer itself dies of SIGBUS under ulimit -f (even for tplayer --version)"))
    func aFileCutOffByItsSizeLimitHasAnHonestHeader() throws {
        let folder = try Harness.temporaryFolder()
        let result = try Harness.run("/bin/sh", ["-c", "ulimit -f 100; exec '\(Harness.binary)' -q -w out.wav '\(Harness.songs[1])'"],
                                     in: folder)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tplayer: out.wav: cannot write to the file: file too large"])
        let bytes = try Data(contentsOf: folder.appendingPathComponent("out.wav"))
        let declared = Int(Harness.littleEndian32(bytes, 40))
        #expect(declared > 0 && declared == bytes.count - 44, "header \(declared), data \(bytes.count - 44)")
        #expect(declared % 4 == 0, "whole stereo frames")
        #expect(Int(Harness.littleEndian32(bytes, 4)) == bytes.count - 8)
    }
}
