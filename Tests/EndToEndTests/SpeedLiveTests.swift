import Foundation
import Glibc
import Testing

/// `--speed` on a real sound server: two songs at 1.5 reach the sink back to back, with no
/// silence between them (the second carries on through the same stretcher), each at its own
/// pitch, in the time of their lengths over the speed.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SpeedLiveTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func twoSongsAtASpeedAreHeardBackToBackAtTheirPitch() throws {
        let folder = try Harness.temporaryFolder()
        let first = try SpeedTests.tone("first.wav", seconds: 4, frequency: 440, in: folder)
        let second = try SpeedTests.tone("second.wav", seconds: 3, frequency: 660, in: folder)
        let recording = try MonitorRecording()
        let played = try Harness.tplayer(["-q", "-o", "pulse", "--no-fade", "--speed", "1.5", first, second],
                                         environment: recording.server.environment)
        #expect(played.status == 0, "\(played.stderr)")
        let left = recording.stopLeft()
        let start = try #require(left.firstIndex { abs($0) > 300 }, "nothing was heard")
        let end = try #require(left.lastIndex { abs($0) > 300 })
        // The monitor may wake a little into the first song: up to 100 ms of it unheard.
        let seconds = Double(end - start) / 44100
        #expect(seconds > 7 / 1.5 - 0.1 && seconds < 7 / 1.5 + 0.02, "\(seconds) s heard")
        // No silence anywhere in it: every 5 ms from the first sound to the last has the tone.
        let window = 220
        let quiet = stride(from: start, to: end - window, by: window).filter { at in
            left[at..<(at + window)].allSatisfy { abs($0) < 300 }
        }
        #expect(quiet.isEmpty, "silence at \(quiet.prefix(5).map { Double($0 - start) / 44100 }) s")
        // Each song at its pitch: the first's 440 Hz a second in, the second's 660 Hz at the end.
        #expect(abs(SpeedTests.peakFrequency(left, from: start + 44100) - 440) < 1)
        #expect(abs(SpeedTests.peakFrequency(left, from: end - 44100 / 2 - 65536) - 660) < 1)
    }
}
