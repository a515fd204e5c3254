import Foundation
import Glibc
import Testing

/// A 24-bit FLAC on a real sound server: the stream is opened in 24 bits (`pactl list
/// sink-inputs`), and the monitor of a 32-bit sink records every one of the song's bits (the
/// low byte is the song's, not zero): what `flac -d` writes, shifted into 32 bits.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HiResLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aTwentyFourBitSongReachesTheServerWhole() throws {
        let folder = try Harness.temporaryFolder()
        let (source, song) = try HiResTests.deepFlac(in: folder, rate: 48000, frames: 48000 * 2)
        let recording = try MonitorRecording(sink: "deep", rate: 48000, format: "s32le")
        let player = Process()
        player.executableURL = URL(fileURLWithPath: Harness.binary)
        player.arguments = ["-q", "-o", "pulse", "--no-fade", song]
        player.environment = ProcessInfo.processInfo.environment.merging(recording.server.environment) { $1 }
        player.standardInput = FileHandle.nullDevice
        try player.run()
        var spec = ""
        for _ in 0..<100 where spec.isEmpty {
            let inputs = try Harness.run("/usr/bin/pactl", ["list", "sink-inputs"], environment: recording.server.environment)
            // tplayer's stream (the server also holds the test's own keep-alive stream).
            let ours = inputs.stdout.components(separatedBy: "Sink Input #").first { $0.contains("application.name = \"tplayer\"") }
            spec = ours?.split(separator: "\n").first { $0.contains("Sample Specification") }.map(String.init) ?? ""
            if spec.isEmpty { usleep(30_000) }
        }
        player.waitUntilExit(within: BoundedWait.defaultSeconds)
        #expect(player.exitStatus == 0)
        #expect(spec.contains("s24le 2ch 48000Hz"), "the stream: \(spec)")
        let recorded = recording.stopRaw()
        let heard = recorded.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        let wav = [UInt8](try Data(contentsOf: source)).dropFirst(68)
        let ours = stride(from: wav.startIndex, to: wav.endIndex - 2, by: 3).map {
            Int32(bitPattern: UInt32(wav[$0]) << 8 | UInt32(wav[$0 + 1]) << 16 | UInt32(wav[$0 + 2]) << 24)
        }
        // Where the recording's first sound is in the song (the monitor may wake a little into
        // it): its first 128 samples found in ours, at a frame's start.
        let start = try #require(heard.firstIndex { $0 != 0 }, "nothing was heard") / 2 * 2
        let window = 48000  // half a second, from there
        try #require(heard.count >= start + window, "\(heard.count) samples recorded")
        let probe = Array(heard[start..<(start + 128)])
        let offset = try #require(stride(from: 0, to: ours.count - window, by: 2).first { Array(ours[$0..<($0 + 128)]) == probe },
                                  "the recording's start is not in the song: not its samples")
        let got = Array(heard[start..<(start + window)])
        let expected = Array(ours[offset..<(offset + window)])
        #expect(got.contains { $0 & 0xFF00 != 0 }, "the low byte of the 24 reaches the sink")
        #expect(got == expected, "the recording is the song's samples, bit for bit (first difference at \(got.indices.first { got[$0] != expected[$0] } ?? -1))")
    }
}
