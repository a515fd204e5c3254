import Foundation
import Glibc
import Testing

/// A skip's fade heard on a real sound server (a null sink's monitor recorded): a 440 Hz song
/// plays, an MPD client says `next` 2 s in, and the 660 Hz song fades in as the first fades out
/// over the skip's 1 s (both tones heard together for most of it, not one after the other), with
/// no silence anywhere from the first sound on.
extension GaplessLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aSkipFadesOnTheServer() throws {
        let folder = try Harness.temporaryFolder()
        let low = try SpeedTests.tone("low.flac", seconds: 12, in: folder)
        let high = try SpeedTests.tone("high.flac", seconds: 12, frequency: 660, in: folder)
        let port = try MpdWire.freePort()
        let recording = try MonitorRecording()
        let player = Process()
        player.executableURL = URL(fileURLWithPath: Harness.binary)
        player.arguments = ["--no-config", "--no-mpris", "-o", "pulse", "--crossfade", "5", "--mpd=127.0.0.1:\(port)", low, high]
        player.environment = ProcessInfo.processInfo.environment.merging(recording.server.environment) { $1 }
            .merging(Harness.isolated(folder)) { $1 }
        player.standardInput = FileHandle.nullDevice
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        defer {
            if player.isRunning { kill(player.processIdentifier, SIGKILL) }
            player.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
        var elapsed = 0.0
        for _ in 0..<200 where elapsed < 2 {
            usleep(50_000)
            elapsed = (try? MpdClientsTests.status(port, "elapsed")).flatMap { Double($0) } ?? 0
        }
        #expect(elapsed >= 2, "the first song plays")
        _ = try MpdWire.Client(port: port).send("next")
        usleep(3_000_000)
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit(within: BoundedWait.defaultSeconds)
        let left = recording.stopLeft()
        guard let first = left.firstIndex(where: { abs($0) > 1000 }) else { return #expect(Bool(false), "the song was heard") }
        // 50 ms at a time: how strong each tone is (Goertzel), as a fraction of a tone alone.
        let window = 2205
        let blocks = stride(from: first, to: left.count - window, by: window).map { start in
            (Self.strength(left[start..<start + window], 440), Self.strength(left[start..<start + window], 660))
        }
        let both = blocks.filter { $0.0 > 0.1 && $0.1 > 0.1 }.count
        #expect(both >= 10 && both <= 24, "both tones heard together for about the skip's second: \(both) blocks of 50 ms")
        #expect(blocks.contains { $0.0 > 0.9 } && blocks.contains { $0.1 > 0.9 }, "each alone too")
        let silent = stride(from: first, to: (blocks.lastIndex { $0.1 > 0.5 }).map { first + $0 * window } ?? first, by: 220)
            .filter { start in left[start..<min(start + 220, left.count)].allSatisfy { abs($0) < 50 } }
        #expect(silent.isEmpty, "no silence from the first sound on: \(silent.prefix(5))")
    }

    /// How strong `frequency` is in `samples` (44.1 kHz), as a fraction of a sine at -6 dB's.
    static func strength(_ samples: ArraySlice<Double>, _ frequency: Double) -> Double {
        let step = 2 * Double.pi * frequency / 44100
        var (real, imaginary) = (0.0, 0.0)
        for (index, sample) in samples.enumerated() {
            real += sample * cos(step * Double(index))
            imaginary += sample * sin(step * Double(index))
        }
        let amplitude = 2 * (real * real + imaginary * imaginary).squareRoot() / Double(samples.count)
        return amplitude / (32767 * 0.501)
    }
}
