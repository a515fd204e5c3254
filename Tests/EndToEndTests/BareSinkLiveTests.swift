import Foundation
import Glibc
import Testing

/// Every sample heard on the null sink users have: bare, with nothing else playing, rendering
/// as far ahead as tplayer's stream lets it, rewinding when a stream starts, and recorded as a
/// user records it (`parec -d sink.monitor`, which asks for no latency of its own). Its monitor
/// cannot take back what it passed on: whatever a player makes the sink render again is lost
/// there. tplayer lost the first 1 to 4 s of a run so (a start of many small writes to a sink
/// rendering 0.9 s ahead), and whole songs of an album ended unheard. Here the recording must be
/// what `-w` writes, from the first frame to the last: in a terminal and without one, for one
/// song, a gapless album, and a 24-bit/96 kHz album with the equaliser on, on a busy machine too.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct BareSinkLiveTests {
    static let unsanitized = ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil

    /// The songs played on a bare sink at its format are heard whole (`LiveProofs.whole`).
    static func proveWhole(_ songs: [String], rate: Int = 44100, format: String = "s16le", frameBytes: Int = 4,
                           options: [String] = [], inTerminal: Bool = false) throws {
        try LiveProofs.whole(songs, frameBytes: frameBytes, options: options, inTerminal: inTerminal) {
            try MonitorRecording(rate: rate, format: format, bare: true)
        }
    }

    @Test(.enabled(if: unsanitized))
    func aSongIsHeardWholeWithoutATerminal() throws {
        try Self.proveWhole([Harness.songs[1]])
    }

    /// `i` names the output the first song plays on as it names the next's: the sound server
    /// chosen by default (it said `default:` for the first song and `pulse:` after it).
    @Test(.enabled(if: unsanitized))
    func theDetailsNameTheServerForEverySong() throws {
        let recording = try MonitorRecording(bare: true)
        defer { _ = recording.stop() }
        let pane = try Pane(arguments: [Harness.songs[1], Harness.songs[2]], environment: recording.server.environment, width: 120, height: 30)
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("1/2") }
        try pane.send("i")
        try pane.waitForLine { $0.hasPrefix("Output   pulse: 16-bit") }
        try pane.send("n")
        try pane.waitForStatus { $0.hasPrefix("Playing ") && $0.contains("2/2") }
        try pane.send("i")
        try pane.waitForLine { $0.hasPrefix("Output   pulse: 16-bit") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test(.enabled(if: unsanitized))
    func aGaplessAlbumIsHeardWholeInATerminal() throws {
        try Self.proveWhole(Harness.songs, inTerminal: true)
    }

    /// Three 2 s tracks cut from one 24-bit 96 kHz sweep (a gapless album), the equaliser's
    /// rock preset on: the sink runs at their format, so the monitor records what `-w` writes.
    @Test(.enabled(if: unsanitized))
    func aHiResAlbumWithTheEqualiserIsHeardWhole() throws {
        let folder = try Harness.temporaryFolder()
        let whole = folder.appendingPathComponent("whole.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "96000", "-b", "24", "-c", "2", whole,
                                         "synth", "6", "sine", "100-4000", "sine", "300-6000", "gain", "-9"])
        let tracks = try (0..<3).map { index -> String in
            let wav = folder.appendingPathComponent("\(index).wav").path
            try Harness.run("/usr/bin/sox", [whole, wav, "trim", "\(index * 2)", "2"])
            let flac = folder.appendingPathComponent("0\(index + 1).flac").path
            try Harness.run("/usr/bin/flac", ["-s", "-f", "-o", flac, wav])
            return flac
        }
        let config = folder.appendingPathComponent("config")
        try "equalizer-preset = rock\n".write(to: config, atomically: true, encoding: .utf8)
        try Self.proveWhole(tracks, rate: 96000, format: "s24le", frameBytes: 6, options: ["--config", config.path])
    }

    /// The album again, in a terminal, with twice as many processes spinning as there are
    /// cores for the whole run.
    @Test(.enabled(if: unsanitized))
    func aGaplessAlbumIsHeardWholeOnABusyMachine() throws {
        let spinners = try Spinners()
        defer { spinners.stop() }
        try Self.proveWhole(Harness.songs, inTerminal: true)
    }

    @Test(.enabled(if: unsanitized))
    func aPauseAndResumeLosesAndRepeatsNothing() throws {
        try LiveProofs.pauseLosesNothing { try MonitorRecording(bare: true) }
    }

    /// The first keys come while the sink still plays the silence it rendered before the
    /// stream came.
    @Test(.enabled(if: unsanitized))
    func keysAreHeardWithoutAClick() throws {
        try LiveProofs.keysWithoutAClick { try MonitorRecording(bare: true) }
    }

    /// The position a front-end reads is what has been heard: never more than the time since
    /// `LOAD` (it was 1.4 to 5.1 s a second after it: the sink's render-ahead and what it lost
    /// counted as played), and it moves once the song is heard. (A bare sink may still be
    /// playing up to 2 s of silence it rendered before the stream came: it stays at 0 until then.)
    @Test(.enabled(if: unsanitized))
    func thePositionIsWhatWasHeard() throws {
        let recording = try MonitorRecording(bare: true)
        let player = try RemotePlayer(["-o", "pulse"], environment: recording.server.environment)
        let start = Date()
        player.send("LOAD \(Harness.songs[1])")
        try player.waitFor("@P 2")
        var readings: [(elapsed: Double, heard: Double)] = []
        while Date().timeIntervalSince(start) < 4 {
            player.send("SAMPLE")
            try player.waitFor("@SAMPLE ", prefix: true)
            let elapsed = Date().timeIntervalSince(start)
            let reply = try #require(player.received.last { $0.hasPrefix("@SAMPLE ") })
            let sample = try #require(reply.split(separator: " ").dropFirst().first.flatMap { Double($0) })
            readings.append((elapsed, sample / 44100))
            usleep(50_000)
        }
        #expect(player.quit() == 0)
        let ahead = readings.filter { $0.heard > $0.elapsed }
        #expect(ahead.isEmpty, "more heard than the time since LOAD: \(ahead.prefix(3))")
        #expect((readings.last?.heard ?? 0) > 1, "it plays: \(readings.suffix(3))")
    }
}

/// Twice as many processes spinning as there are cores, at the tests' own priority, until
/// stopped: a busy machine.
final class Spinners {
    private let processes: [Process]

    /// `count` spinning processes (twice as many as cores unless told).
    init(count: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) throws {
        processes = try (0..<count).map { _ in
            let spinner = Process()
            spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
            spinner.arguments = ["-c", "while :; do :; done"]
            spinner.standardOutput = FileHandle.nullDevice
            spinner.standardError = FileHandle.nullDevice
            try spinner.run()
            return spinner
        }
    }

    /// SIGKILL: the test runner leaves SIGTERM ignored in the processes it starts.
    func stop() {
        for spinner in processes where spinner.isRunning {
            kill(spinner.processIdentifier, SIGKILL)
            spinner.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
    }

    deinit { stop() }
}
