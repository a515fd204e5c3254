import Foundation
import Testing

/// A disk that stalls for 2 s mid-song, played to a real sound server: the song is read through
/// a FUSE file system of the tests' own (`Tests/Tools/stallfs.py`, the kernel's FUSE protocol
/// spoken directly: no libfuse) whose reads stall once they reach the middle of the file, and
/// the monitor's recording is `tplayer -w` of the song frame for frame, not a sample of silence
/// in it: what was decoded ahead covers the stall.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct StallLiveTests {
    static let tool = Harness.root.appendingPathComponent("Tests/Tools/stallfs.py").path

    /// FUSE needs /dev/fuse and the right to mount (root here; CI runs as root too). Not under a
    /// sanitizer: a player slowed ten times cannot keep a real-time device fed.
    static var canMount: Bool {
        getuid() == 0 && FileManager.default.isReadableFile(atPath: "/dev/fuse")
            && ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil
    }

    @Test(.enabled(if: canMount))
    func aTwoSecondStallOfTheDiskIsNotHeard() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 8, in: folder, name: "tone.mp3")
        let reference = folder.appendingPathComponent("reference.raw")
        try #require(try Harness.tplayer(["-q", "-w", reference.path, song]).status == 0)
        let ours = Heard.frames(try Data(contentsOf: reference))

        let mount = folder.appendingPathComponent("mount")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("stall.log")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: song)[.size] as? Int)
        let fs = Process()
        fs.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        fs.arguments = [Self.tool, mount.path, song, "--stall-at", "\(size / 2)", "--stall-seconds", "2",
                        "--stall-log", log.path, "--stall-per-open"]
        let ready = Pipe()
        fs.standardOutput = ready
        try fs.run()
        defer {
            fs.terminate()
            fs.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
        let said = String(decoding: ready.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
        try #require(said == "ready\n", "stallfs did not mount")

        let recording = try MonitorRecording()
        let played = try Harness.tplayer(["-q", "-o", "pulse", mount.appendingPathComponent("tone.mp3").path],
                                         environment: recording.server.environment)
        #expect(played.status == 0, "\(played.stderr)")
        let heard = try Heard.compare(recording.stop(), with: ours)
        let stalls = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n") ?? []
        // Every open handle that reads the middle stalls once (the frame indexer's too), and the
        // decoder reads all of it: the song played whole.
        #expect(stalls.contains { $0.hasPrefix("stall end") }, "the reads stalled for 2 s: \(stalls)")
        #expect(heard.start <= 4410, "at most 100 ms missing at the start (\(heard.start) frames)")
        #expect(heard.gaps.isEmpty, "no silence: \(heard.gaps)")
        #expect(heard.difference == nil, "the first difference is at frame \(heard.difference ?? 0) of \(ours.count)")
    }
}
