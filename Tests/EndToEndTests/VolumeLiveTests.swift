import Foundation
import Glibc
import Testing

/// A volume change while a sound server holds a second of the song: the monitor has the new
/// level within a few milliseconds of the change (what the server held was written again at it,
/// from the tail, not decoded again), with no gap, and half the level for 50 %.
@Suite(.serialized)
struct VolumeLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aNewVolumeIsHeardAtOnceWithoutAGap() throws {
        let folder = try Harness.temporaryFolder()
        let song = try SpeedTests.tone("tone.wav", seconds: 4, frequency: 440, in: folder)
        let recording = try MonitorRecording()
        let player = try RemotePlayer(["-o", "pulse", "--no-fade"], environment: recording.server.environment)
        player.send("LOAD \(song)")
        try player.waitFor("@P 2")
        usleep(1_500_000)
        player.send("VOLUME 50")
        try player.waitFor("@V 50.000000%")
        // The monitor's frame when the change was answered (it is read every 10 ms: this is at
        // most that much behind what the sink played).
        let asked = recording.framesRecorded
        try player.waitFor("@P 0")
        #expect(player.quit() == 0)
        let left = recording.stopLeft()
        let window = 220  // 5 ms
        let levels = stride(from: 0, to: left.count - window, by: window).map { start in
            (left[start..<(start + window)].reduce(0) { $0 + $1 * $1 } / Double(window)).squareRoot()
        }
        let first = try #require(levels.firstIndex { $0 > 1000 }, "nothing was heard")
        let last = try #require(levels.lastIndex { $0 > 1000 })
        let full = levels[first + 20]
        let dropped = try #require(levels[(first + 20)...].firstIndex { $0 < full * 0.75 }, "the level never fell")
        let took = Double(dropped * window - asked) / 44100
        #expect(took < 0.1, "the new level is heard \(took) s after the change was answered (the server holds 1 s)")
        #expect(levels[(first + 1)..<last].allSatisfy { $0 > 1000 }, "no gap between the first sound and the last")
        let half = levels[dropped + 10] / full
        #expect(abs(half - 0.5) < 0.03, "50 % is half the level: \(half)")
    }
}
