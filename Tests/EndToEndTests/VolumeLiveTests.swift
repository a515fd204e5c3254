import Foundation
import Glibc
import Testing

/// A volume change while a sound server holds a second of the song: the monitor has the new
/// level within a few milliseconds of the change (what the server held was written again at it,
/// from the tail, not decoded again), and half the level for 50 %; with no gap.
@Suite(.serialized, .timeLimit(.minutes(10)))
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
        // The change and the position heard at it, in one turn of the player's loop: where in
        // the song the change was made, by the sound server's own clock. (The recorder's file
        // size at the answer was the anchor: a busy machine's recorder wrote late, and the
        // change seemed 0.12 s late.)
        player.send("VOLUME 50\nSAMPLE")
        try player.waitFor("@V 50.000000%")
        try player.waitFor("@SAMPLE ", prefix: true)
        let reply = player.received.last { $0.hasPrefix("@SAMPLE ") }
        let heard = try #require(reply?.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "\(reply ?? "no reply")")
        try player.waitFor("@P 0")
        #expect(player.quit() == 0)
        let left = recording.stopLeft()
        let window = 220  // 5 ms
        func level(_ range: Range<Int>) -> Double {
            (left[range].reduce(0) { $0 + $1 * $1 } / Double(range.count)).squareRoot()
        }
        let levels = stride(from: 0, to: left.count - window, by: window).map { level($0..<($0 + window)) }
        let first = try #require(levels.firstIndex { $0 > 1000 }, "nothing was heard")
        let last = try #require(levels.lastIndex { $0 > 1000 })
        let full = levels[first + 20]
        let dropped = try #require(levels[(first + 20)...].firstIndex { $0 < full * 0.75 }, "the level never fell")
        // The song's first sample is heard in `first`'s window (give or take one, 5 ms).
        let took = Double(dropped * window - (first * window + heard)) / 44100
        #expect(took < 0.1, "the new level is heard \(took) s after the change was made (the server holds 1 s)")
        let quiet = levels.indices[(first + 1)..<last].filter { levels[$0] <= 1000 }
        // The rewrite goes over what the server holds in place (`pa_stream_write` back by the
        // frames queued): the stream never empties on the way, as it did after a flush (5 to
        // 10 ms of silence about one run in fifteen, while that was how it was done).
        #expect(quiet.isEmpty, "no gap between the first sound and the last: quiet at \(quiet.prefix(8).map { (Double($0 - first) * 0.005, Int(levels[$0])) }) s; the change at \(Double(dropped - first) * 0.005) s")
        // Over whole spans, not one 5 ms window (2.2 periods of the tone: its level wavers a few
        // per cent with the phase): the 0.3 s before the change against the 0.3 s after it.
        let span = 13230
        let half = level((dropped * window + 2 * window)..<(dropped * window + 2 * window + span))
            / level((dropped * window - 2 * window - span)..<(dropped * window - 2 * window))
        #expect(abs(half - 0.5) < 0.03, "50 % is half the level: \(half)")
        // Sample for sample: the tone's phase after the change is where it was heading before
        // it, no frame lost or put in (10 ms of silence put in shifted it by 441 frames).
        func phase(_ range: Range<Int>) -> Double {
            let step = 2 * Double.pi * 440 / 44100
            let (re, im) = range.reduce((0.0, 0.0)) { ($0.0 + left[$1] * cos(step * Double($1)), $0.1 - left[$1] * sin(step * Double($1))) }
            return atan2(im, re)
        }
        let before = phase((dropped * window - 2 * window - span)..<(dropped * window - 2 * window))
        let after = phase((dropped * window + 2 * window)..<(dropped * window + 2 * window + span))
        let shift = remainder(after - before, 2 * Double.pi) / (2 * Double.pi * 440) * 44100
        #expect(abs(shift) < 1, "the tone runs on at half where it was, shifted \(shift) frames")
    }
}
