import Foundation
import Testing

/// Gapless on a live device, proven on the samples that reach a real sound server: the null
/// sink runs at the songs' format (44.1 kHz, 16-bit stereo) at 100 % volume, so nothing is
/// resampled or scaled, and its monitor, recorded while tplayer plays three songs back to back,
/// holds exactly the samples `tplayer -w` writes for them: not one missing, doubled or zeroed
/// at the song boundaries.
@Suite(.serialized)
struct GaplessLiveTests {
    /// (Not under a sanitizer: a player slowed ten times cannot keep a real-time device fed.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func whatReachesTheServerIsExactlyWhatAFileGets() throws {
        let folder = try Harness.temporaryFolder()
        let reference = folder.appendingPathComponent("reference.raw")
        try Harness.tplayer(["-q", "-w", reference.path] + Harness.songs)
        let expected = try Data(contentsOf: reference)

        let server = try PulseServer.start(sink: "module-null-sink sink_name=exact rate=44100 format=s16le channels=2")
        defer { server.stop() }
        try Harness.run("/usr/bin/pactl", ["set-sink-volume", "exact", "100%"], environment: server.environment)
        let recorded = folder.appendingPathComponent("recorded.raw")
        FileManager.default.createFile(atPath: recorded.path, contents: nil)
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        recorder.arguments = ["-d", "exact.monitor", "--raw", "--format=s16le", "--rate=44100", "--channels=2", "--latency-msec=10"]
        recorder.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        recorder.standardOutput = try FileHandle(forWritingTo: recorded)
        try recorder.run()
        var recording = true
        // SIGKILL: parec may inherit SIGTERM blocked from the test process.
        defer { if recording { kill(recorder.processIdentifier, SIGKILL); recorder.waitUntilExit() } }
        usleep(500_000)
        let played = try Harness.tplayer(["-q", "-o", "pulse"] + Harness.songs, environment: server.environment)
        #expect(played.status == 0, "\(played.stderr)")
        usleep(700_000)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        recording = false

        let ours = Self.frames(expected)
        let heard = Self.frames(try Data(contentsOf: recorded))
        // The monitor starts recording once the sink wakes, a little into the first song (mpg123
        // loses 50 ms there too): line the recording up by where its first frames are in ours.
        let probe = Array(heard.prefix(256))
        try #require(probe.count == 256 && probe.contains { $0 != 0 }, "nothing was heard")
        let start = try #require((0..<min(ours.count - 256, 44100)).first { ours[$0..<($0 + 256)].elementsEqual(probe) },
                                 "the recording does not start within the first second of the songs")
        #expect(start <= 4410, "at most 100 ms missing at the start (\(start) frames)")
        let rest = ours.count - start
        try #require(heard.count >= rest, "the recording holds all the rest (\(heard.count) of \(rest) frames)")
        let window = heard[0..<rest]
        if let first = (0..<rest).first(where: { window[$0] != ours[start + $0] }) {
            Issue.record("the first difference is at frame \(start + first) of \(ours.count) (songs end at \(Self.boundaries()))")
        }
        let same = window.elementsEqual(ours[start...])
        #expect(same, "the recording is the file, frame for frame")
    }

    /// Stereo 16-bit frames, each as one 32-bit value.
    static func frames(_ data: Data) -> [UInt32] {
        data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }

    /// Where the songs end, in frames, for the message when something differs.
    static func boundaries() -> [Int] {
        var total = 0
        return Harness.songs.compactMap { song in
            let folder = try? Harness.temporaryFolder()
            guard let out = folder?.appendingPathComponent("one.raw").path,
                  (try? Harness.tplayer("-q", "-w", out, song)) != nil,
                  let size = try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int else { return nil }
            total += size / 4
            return total
        }
    }
}
