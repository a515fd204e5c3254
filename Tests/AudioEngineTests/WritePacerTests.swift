import Testing
@testable import AudioEngine

/// The playback loop keeping time on a simulated device (`FakeOutput` with a clock): a buffer of
/// a given size, played a little faster or slower than the loop's clock, now and then a write
/// that only looks blocked. Whatever the device, it never runs dry while a song plays, holds
/// little enough queued that a stop is heard at once, and is woken ~25 times a second, not
/// hundreds.
struct WritePacerTests {
    struct Run {
        var starved: Double
        /// Seconds queued in the device after each write, from the third second on.
        var queuedLater: [Double]
        var writesPerSecond: Double
        var measuredBuffer: Double?
    }

    private func play(seconds: Int, buffer: Double, speed: Double = 1, falseBlocks: Set<Int> = []) -> Run {
        let output = FakeOutput()
        output.deviceBuffer = buffer
        output.deviceSpeed = speed
        output.falseBlocks = falseBlocks
        let rig = LoopRig(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 44100 * seconds)]), output: output)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        let start = rig.clock.now
        rig.run(limit: 1_000_000)
        #expect(rig.events().last == .ended(token: 1))
        let sink = output.sinks[0]
        let later = zip(sink.writeTimes, sink.queuedAfterWrites).filter { $0.0 - start >= 2 }.map(\.1)
        return Run(starved: sink.starved, queuedLater: later,
                   writesPerSecond: Double(sink.writes) / (rig.clock.now - start), measuredBuffer: rig.loop.measuredBuffer)
    }

    @Test(arguments: [0.02, 0.06, 0.08, 0.12, 0.2, 0.35], [0.999, 1.0, 1.001])
    func aDeviceIsNeverStarvedAndKeepsLittleQueued(buffer: Double, speed: Double) {
        let run = play(seconds: 60, buffer: buffer, speed: speed)
        #expect(run.starved < 1e-9, "the device never runs dry")
        let measured = run.measuredBuffer ?? 0
        #expect(abs(measured - buffer) < 0.001, "its buffer is measured by filling it once")
        // What the pacer keeps queued for a buffer of that size, plus what the drift it
        // allows for builds up before a write blocks and puts it right.
        var pacer = WritePacer(pacing: .device)
        pacer.restart(at: 0)
        pacer.wrote(buffer, took: 0, blocked: true, at: 0)
        let sorted = run.queuedLater.sorted()
        // (A big buffer fills up with that surplus for longer before it blocks.)
        if buffer <= 0.12 {
            #expect(sorted[sorted.count / 2] <= pacer.low + pacer.chunk + 0.02, "a stop is heard at once")
        }
        #expect(sorted.last! <= buffer + 1e-9)
        #expect(run.writesPerSecond <= 1 / pacer.chunk + 1, "one wake-up per chunk (40 ms for a buffer of 80 ms or more)")
    }

    /// (Twice a minute: one such write leaves an error that the drift takes ~30 s to undo.)
    @Test func aWriteThatOnlyLooksBlockedDoesNotStarveTheDevice() {
        let run = play(seconds: 60, buffer: 0.12, falseBlocks: [300, 1300])
        #expect(run.starved == 0)
        #expect(run.queuedLater.max()! <= 0.12 + 0.0001)
    }

    @Test func aDeviceThatNeverFillsIsHeldToRealTime() {
        let run = play(seconds: 30, buffer: 100)
        #expect(run.measuredBuffer == nil)
        #expect(run.starved == 0)
        #expect(run.queuedLater.max()! <= WritePacer.calibrationLimit + 0.041, "never more queued than calibration wrote")
        #expect(run.writesPerSecond <= 26)
    }

    @Test func aStopAndPlayLeaveTheMeasureAndDoNotStarveTheDevice() {
        let output = FakeOutput()
        output.deviceBuffer = 0.12
        let rig = LoopRig(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 44100 * 20)]), output: output)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        for _ in 0..<100 {
            if let due = rig.loop.nextWrite { rig.clock.now = due }
            rig.loop.step()
        }
        rig.loop.execute(.stop)
        rig.clock.now += 1
        rig.loop.execute(.play)
        let writesBefore = output.sinks[0].writes
        rig.run(limit: 1_000_000)
        #expect(output.log == ["open 44100 Hz stereo"], "one device, opened once")
        #expect(abs((rig.loop.measuredBuffer ?? 0) - 0.12) < 0.041)
        #expect(output.sinks[0].writes - writesBefore > 100)
        // Dry only while stopped (the second the test waited), never while playing.
        #expect(output.sinks[0].starved <= 1)
    }
}
