import Foundation
import Glibc
import Testing

/// The sleep timer heard on a real sound server (a null sink's monitor recorded): set over `-R`
/// with 10 s to go (a third of its 30 s fade), the tone falls second by second, then tplayer
/// pauses at its moment, and play goes on at the volume it had.
extension GaplessLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func theSleepTimerFadesOutThenPauses() throws {
        let folder = try Harness.temporaryFolder()
        let tone = try SpeedTests.tone("tone.flac", seconds: 30, in: folder)
        let recording = try MonitorRecording()
        let player = try RemotePlayer(["-o", "pulse"], environment: recording.server.environment)
        player.send("LOAD \(tone)")
        try player.waitFor("@P 2")
        try player.waitUntilHeard(seconds: 1)
        let set = Date()
        player.send("SLEEP 10s")
        try player.waitFor("@SLEEP 0:10")
        try player.waitFor("@P 1", timeout: 20)
        let took = Date().timeIntervalSince(set)
        #expect(took > 9.5 && took < 11.5, "paused at its moment: \(took) s")
        usleep(500_000)
        let left = recording.stopLeft()
        // The loudness of each second heard (the sink's clock), from where the tone starts.
        guard let first = left.firstIndex(where: { abs($0) > 1000 }) else { return #expect(Bool(false), "the tone was heard") }
        let seconds = stride(from: first, to: left.count - 44100, by: 44100).map { start in
            (left[start..<start + 44100].map { $0 * $0 }.reduce(0, +) / 44100).squareRoot()
        }
        let loud = seconds.prefix(while: { $0 > 50 })
        #expect(loud.count >= 9 && loud.count <= 12, "about 11 s heard (1 before the timer, 10 fading): \(seconds.map { Int($0) })")
        let falling = zip(loud.dropFirst(2), loud.dropFirst(3)).allSatisfy { $1 < $0 }
        #expect(falling, "each second of the fade quieter than the one before: \(loud.map { Int($0) })")
        #expect((loud.last ?? 0) < (loud.first ?? 0) / 20, "near silence at the end: \(loud.map { Int($0) })")
        #expect(player.quit() == 0)
    }
}
