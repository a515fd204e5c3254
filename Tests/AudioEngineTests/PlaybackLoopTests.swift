import Files
import PlayerCore
import Testing
@testable import AudioEngine

/// The playback loop on fakes: a decoder that makes numbered samples, outputs that record and
/// fail to order, a clock that moves only when told. One command or chunk at a time.
struct PlaybackLoopTests {
    private func rig(_ segments: [FakeDecoder.Segment], file: Bool = false) -> LoopRig {
        LoopRig(decoder: FakeDecoder(segments), output: FakeOutput(name: file ? "out.wav" : "fake", isFile: file))
    }

    /// 0, 1, 2, ...: the samples a fake song holds, in order.
    private func counting(_ count: Int, from start: Int = 0) -> [Int16] {
        (start..<(start + count)).map { Int16(truncatingIfNeeded: $0) }
    }

    @Test func aSongPlaysToItsEndInChunksOfAtMost40Milliseconds() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 5000)])
        rig.loop.execute(.open("a.mp3", token: 1))
        #expect(rig.events().first.map { if case .opened(_, 1) = $0 { true } else { false } } == true)
        rig.loop.execute(.play)
        rig.run()
        #expect(rig.events() == [.ended(token: 1)])
        #expect(rig.output.samples == counting(10_000))
        #expect(rig.decoder.reads.allSatisfy { $0 <= 1764 })
        #expect(rig.shared.read(\.position) == 5000)
    }

    @Test func aFormatChangeMidSongDrainsAndReopensALiveDeviceAndLosesNothing() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 2000), .init(format: FakeDecoder.halfMono, frames: 1000)])
        rig.loop.execute(.open("frank.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run()
        #expect(rig.events().last == .ended(token: 1))
        #expect(rig.output.log == ["open 44100 Hz stereo", "close", "open 22050 Hz mono"], "drained before reopening")
        #expect(rig.output.sinks.map(\.samples) == [counting(4000), counting(1000, from: 4000)])
    }

    @Test func aFileKeepsItsFirstFormatAndTheRestIsConvertedToIt() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 2000), .init(format: FakeDecoder.halfMono, frames: 1000)], file: true)
        rig.loop.execute(.open("frank.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run()
        #expect(rig.events().last == .ended(token: 1))
        #expect(rig.output.log == ["open 44100 Hz stereo"], "one file, one format")
        #expect(rig.decoder.restrictions == [.first], "the first song keeps the format it starts in, from its first sample")
        // 1000 frames at 22.05 kHz mono come out as 2000 at 44.1 kHz stereo.
        #expect(rig.output.samples.count == (2000 + 2000) * 2)
        #expect(rig.output.samples == counting(8000))
    }

    @Test func aDeviceThatStopsTakingAudioIsRetriedAndNothingIsLost() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 10_000)])
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.loop.step()
        rig.output.sinks[0].failingFromWrite = 3
        rig.loop.step()
        #expect(rig.events() == [.opened(rig.loop.song!.info, token: 1), .deviceLost(token: 1, message: "the fake device stopped taking audio")])
        #expect(rig.loop.phase == .deviceLost(retryAt: 1000.5, retries: 0))
        rig.clock.now += 0.4
        rig.loop.step()
        #expect(rig.output.log == ["open 44100 Hz stereo", "close"], "not retried before its time")
        rig.output.failingOpens = 1
        rig.clock.now += 0.2
        rig.loop.step()
        #expect(rig.loop.phase == .deviceLost(retryAt: 1001.1, retries: 1))
        rig.clock.now += 0.5
        rig.loop.step()
        #expect(rig.events(withPhases: true) == [.playback(.waitingForDevice(retries: 1)), .playback(.idle), .deviceRestored(token: 1)])
        rig.loop.execute(.play)
        rig.run()
        #expect(rig.events().last == .ended(token: 1))
        #expect(rig.output.samples == counting(20_000), "the chunk the device refused is played first")
    }

    @Test func aFileThatCannotBeWrittenEndsTheRunWithTheReason() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 100_000)], file: true)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.output.sinks[0].failingFromWrite = 2
        rig.run()
        #expect(rig.events().last == .outputFailed(message: "out.wav: cannot write to the file: no space left on device"))
        #expect(rig.loop.phase == .idle)
    }

    @Test func aBudgetThatRunsOutMidChunkHoldsExactlyThere() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 10_000)])
        rig.shared.update { $0.budget.limit(true) }
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        #expect(rig.loop.phase == .heldByBudget, "nothing granted yet")
        rig.shared.update { $0.budget.grant(AudioTime(frames: 2000, rate: 44100), id: 4) }
        rig.loop.step()
        rig.loop.step()
        #expect(rig.decoder.reads == [1764, 236], "the second read asks only for what is left")
        rig.loop.step()
        #expect(rig.loop.phase == .heldByBudget)
        #expect(rig.events(withPhases: true).suffix(2) == [.budgetSpent(id: 4), .playback(.heldByBudget)])
        #expect(rig.output.samples.count == 4000)
    }

    @Test func aStopBetweenTwoChunksWritesNothingMore() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 10_000)])
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.loop.execute(.stop)
        rig.loop.step()
        rig.loop.step()
        #expect(rig.output.samples == counting(3528))
        #expect(rig.shared.read(\.position) == 1764)
        rig.loop.execute(.play)
        rig.loop.step()
        #expect(rig.output.samples == counting(7056), "play goes on from where it stopped")
    }

    @Test func damageEndsTheSongAfterItsLastGoodSamplesWithThePosition() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 10_000)])
        rig.decoder.damagedAt = 2500
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run()
        #expect(rig.events().last == .damaged(token: 1, at: AudioTime(frames: 2500, rate: 44100), reason: "lost the MPEG frame sync"))
        #expect(rig.output.samples == counting(5000))
        #expect(rig.loop.phase == .idle)
    }

    @Test func aSongThatCannotBeOpenedIsReportedWithItsReason() {
        let rig = rig([.init(format: FakeDecoder.cd, frames: 100)])
        rig.decoder.failingPaths["notes.mp3"] = .notAudio
        rig.loop.execute(.open("notes.mp3", token: 3))
        #expect(rig.events() == [.openFailed(LoadError(path: "notes.mp3", reason: .notAudio), token: 3)])
        rig.loop.execute(.play)
        #expect(rig.loop.phase == .idle, "nothing to play")
    }

    @Test func closingAFileThatCannotBeFinishedSaysWhy() {
        final class Unfinishable: BlockingSink {
            let format = FakeDecoder.cd
            func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool { false }
            func close() throws(OutputFailure) { throw OutputFailure(message: "could not finish the file: no space left on device") }
        }
        final class Output: AudioOutput {
            func wakes(_ wake: @escaping @Sendable () -> Void) {}
            func settleName() {}
            let name = "out.wav", isFile = true, pacing = Pacing.none
            func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink { Unfinishable() }
        }
        let shared = Locked(EngineShared())
        let loop = PlaybackLoop(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 100)]),
                                outputs: OutputChoice(primary: Output(), fallback: nil), clock: FakeClock(), shared: shared) { _ in }
        loop.execute(.open("a.mp3", token: 1))
        loop.execute(.play)
        loop.step()
        loop.finish()
        #expect(shared.read { $0.finished.map { if case .failure(let failure) = $0 { failure.message } else { "" } } }
                == "could not finish the file: no space left on device")
    }

    /// The gain a 10 ms fade gives frame `frame` of `length`: 0 → 1 in, 1 → 0 out.
    private func faded(_ samples: [Int16], channels: Int, length: Int, rising: Bool) -> [Int16] {
        samples.enumerated().map { index, sample in
            let frame = Double(index / channels) / Double(length)
            return Int16((Double(sample) * (rising ? frame : 1 - frame)).rounded())
        }
    }

    @Test func onALiveDeviceStopAndPlayFadeOutAndInOver10Milliseconds() {
        let rig = LoopRig(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 20_000)]), output: FakeOutput(), fades: true)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.loop.step()
        #expect(rig.output.samples == counting(7056), "the first song starts as it is: no fade at a song's start")
        rig.loop.execute(.stop)
        // The next 441 frames (10 ms) were played going down to silence.
        #expect(Array(rig.output.samples[7056...]) == faded(counting(882, from: 7056), channels: 2, length: 441, rising: false))
        #expect(rig.shared.read(\.position) == 3528 + 441)
        rig.loop.execute(.play)
        rig.loop.step()
        let resumed = Array(rig.output.samples[7938...])
        #expect(Array(resumed.prefix(882)) == faded(counting(882, from: 7938), channels: 2, length: 441, rising: true))
        #expect(Array(resumed.dropFirst(882)) == counting(resumed.count - 882, from: 8820), "then full level")
    }

    @Test func aSeekOnALiveDeviceFadesOutThenInAndLandsWhereItWasAskedFrom() {
        let rig = LoopRig(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 200_000)]), output: FakeOutput(), fades: true)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.loop.execute(.seek(.by(AudioTime(frames: 44100, rate: 44100))))
        #expect(rig.shared.read(\.position) == 1764 + 44100, "a second on from where the seek was asked, not from the fade's end")
        rig.loop.step()
        let after = Array(rig.output.samples[(3528 + 882)...])
        // (The fake numbers its samples in the order it makes them, whatever the seek.)
        #expect(Array(after.prefix(882)) == faded(counting(882, from: 3528 + 882), channels: 2, length: 441, rising: true))
    }

    @Test func aFileNeverFades() {
        let rig = LoopRig(decoder: FakeDecoder([.init(format: FakeDecoder.cd, frames: 200_000)]),
                          output: FakeOutput(name: "out.wav", isFile: true), fades: true)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.step()
        rig.loop.execute(.stop)
        rig.loop.execute(.seek(.to(.zero)))
        rig.loop.execute(.play)
        rig.loop.step()
        #expect(rig.output.samples == counting(4 * 16384), "sample for sample, as mpg123 writes (as much as the buffer holds at a time)")
    }
}

/// The next song opened ahead (`cue`) takes over at the end of the one playing, on the spare
/// decoder, so the device never runs dry however long the main loop takes to answer the end.
struct CueTests {
    /// A song of `frames` frames whose samples count up from `start`.
    private func song(_ frames: Int, from start: Int16) -> FakeDecoder {
        let decoder = FakeDecoder([.init(format: FakeDecoder.cd, frames: frames)])
        decoder.sample = start
        return decoder
    }

    /// Plays until song 1 ends, then lets `delay` seconds pass (a slow main loop, a slow disk)
    /// before the session's calls for the end arrive, as they do: the ended song's rewind and
    /// stop, then the next song's open and play.
    private func boundary(cued: Bool, delay: Double, ahead: Bool = false) -> (rig: LoopRig, events: [EngineEvent]) {
        let output = FakeOutput()
        output.deviceBuffer = 0.08
        let rig = LoopRig(decoder: song(44100, from: 0), spare: song(44100, from: 20000), output: output, ahead: ahead)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        if cued { rig.loop.execute(.cue("b.mp3")) }
        var events: [EngineEvent] = []
        while !events.contains(.ended(token: 1)) {
            rig.advance()
            events += rig.events()
        }
        let end = rig.clock.now + delay
        while rig.clock.now < end {
            if rig.loop.phase == .starved {
                rig.advance()  // the decoder's thread wakes it: no time passes on the device
                continue
            }
            if let due = rig.loop.nextWrite { rig.clock.now = min(due, end) } else if rig.loop.phase != .playing { rig.clock.now = end }
            rig.loop.step()
        }
        rig.loop.execute(.seek(.to(.zero)))
        rig.loop.execute(.stop)
        rig.loop.execute(.open("b.mp3", token: 2))
        rig.loop.execute(.play)
        events += rig.events()
        return (rig, events)
    }

    @Test(arguments: [false, true])
    func theCuedSongTakesOverWithoutAGapAndIsAdoptedByItsOpen(ahead: Bool) {
        let (rig, events) = boundary(cued: true, delay: 0.5, ahead: ahead)
        #expect((rig.loop.decoder is AheadDecoder) == ahead)
        #expect(rig.output.sinks[0].starved < 1e-9, "the device never ran dry at the boundary")
        #expect(events.contains { if case .opened(_, 2) = $0 { true } else { false } })
        #expect(rig.loop.phase == .playing)
        rig.run(limit: 1_000_000)
        #expect(rig.output.log == ["open 44100 Hz stereo"], "one device, never drained between the songs")
        let samples = rig.output.samples
        let first = (0..<88200).map { Int16(truncatingIfNeeded: $0) }
        let second = (0..<88200).map { Int16(truncatingIfNeeded: 20000 + $0) }
        #expect(samples.count == first.count + second.count)
        #expect(samples.elementsEqual(first + second), "song 2 follows song 1 sample for sample: no rewind, no stop, no restart")
    }

    /// An output that names each song to its listeners (a broadcast) is told which song plays
    /// just before its first sample, the cued one too, once each.
    @Test func theSinkIsToldEachSongBeforeItsFirstSample() {
        let (rig, _) = boundary(cued: true, delay: 0.1)
        rig.run(limit: 1_000_000)
        let announced = rig.output.sinks[0].announced
        #expect(announced.map(\.path) == ["a.mp3", "b.mp3"], "\(announced)")
        #expect(announced.map(\.atSample) == [0, 88200], "\(announced)")
    }

    @Test func withoutACueTheDeviceRunsDryWhileTheAnswerIsAwaited() {
        let (rig, _) = boundary(cued: false, delay: 0.5)
        rig.run(limit: 1_000_000)
        #expect(rig.output.sinks[0].starved > 0.3)
    }

    @Test func aScriptsPacedPlaybackNeverTakesOverByItself() {
        let output = FakeOutput()
        let rig = LoopRig(decoder: song(4410, from: 0), spare: song(4410, from: 20000), output: output)
        rig.shared.update { $0.budget.limit(true) }
        rig.shared.update { $0.budget.grant(AudioTime(frames: 44100, rate: 44100), id: 1) }
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.execute(.cue("b.mp3"))
        rig.run()
        #expect(rig.events().contains(.ended(token: 1)))
        #expect(rig.loop.phase == .idle, "the script says what comes next")
    }

    @Test func aFileNeverCues() {
        let rig = LoopRig(decoder: song(4410, from: 0), spare: song(4410, from: 20000), output: FakeOutput(name: "out.wav", isFile: true))
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.loop.execute(.cue("b.mp3"))
        rig.run()
        #expect(rig.loop.phase == .idle)
        #expect(rig.output.samples.count == 8820)
    }
}
