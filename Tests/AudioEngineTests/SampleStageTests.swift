import Foundation
import Files
import PlayerCore
import Testing
@testable import AudioEngine

/// A sound server's stream, faked: it holds what is written until the test says it was heard,
/// has room for `room` frames, and has handed the first `renderedAhead` of those it holds to its
/// sink (a write over them is still taken, as a server takes it, but the player must not make one).
final class FakeServerSink: AudioSink {
    func close(within seconds: Double) throws(OutputFailure) { try close() }
    var grantedBuffer: (length: Double, request: Double)? { nil }
    let format: PCMFormat
    let room: Int
    /// What the server is taken to have handed its sink (what it says may vary, as a real
    /// server's figures age).
    var renderedAhead: Int
    /// The samples, 16-bit or 32-bit as the stream is opened.
    private(set) var queue: [Int32] = []
    private(set) var heardSamples: [Int32] = []
    /// What was heard, as 16-bit samples (a 16-bit stream's).
    var heard: [Int16] { heardSamples.map { Int16(truncatingIfNeeded: $0) } }
    private(set) var overwrites = 0
    /// The byte counts of the writes that went back over what it held (`write(_:over:)` with
    /// frames to go back), and of those that followed them.
    private(set) var writesOver: [Int] = []

    init(format: PCMFormat, room: Int, renderedAhead: Int = 0) {
        self.format = format
        self.room = room
        self.renderedAhead = renderedAhead
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        if format.encoding == .s32 {
            queue += bytes.bindMemory(to: Int32.self)
        } else {
            queue += bytes.bindMemory(to: Int16.self).map(Int32.init)
        }
        return false
    }

    func close() throws(OutputFailure) {}
    var writableBytes: Int? { max(room * format.channels - queue.count, 0) * format.bytesPerSample }
    var queuedFrames: Int? { queue.count / format.channels }
    var replaceableFrames: Int { max(queue.count / format.channels - renderedAhead, 0) }
    /// Writes over frames the sink had rendered, which a real one would have played already.
    var overRendered: Int { writesOverRendered }
    private var writesOverRendered = 0
    var canTakeBack: Bool { true }
    func playWhatIsWritten() {}
    /// False: its sink takes audio as fast as it comes (a test says so).
    var keepsTime = true
    /// Its sink has not started taking it (a test says so): a take-back drops all it holds.
    var unplayed = false
    func dropIfUnplayed() -> Bool {
        guard unplayed else { return false }
        queue.removeAll()
        return true
    }
    /// As a server does: the last `frames` frames written are replaced; those of them already
    /// heard stay heard, and the new samples meant for them are dropped.
    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) {
        if frames > 0 { overwrites += 1 }
        if frames > replaceableFrames { writesOverRendered += 1 }
        writesOver.append(bytes.count)
        let queuedSamples = queue.count
        let back = frames * format.channels
        queue.removeLast(min(back, queuedSamples))
        let before = queue.count
        _ = try write(bytes)
        queue.removeSubrange(before..<min(before + max(back - queuedSamples, 0), queue.count))
    }
    func drain() {}
    var isDrained: Bool { queue.isEmpty }

    /// The next `frames` frames queued are played.
    func hear(_ frames: Int) {
        let samples = min(frames * format.channels, queue.count)
        heardSamples += queue.prefix(samples)
        queue.removeFirst(samples)
    }
}

final class FakeServer: AudioOutput {
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}
    let name = "server"
    let isFile = false
    let pacing = Pacing.server
    let room: Int
    let renderedAhead: Int
    private(set) var sinks: [FakeServerSink] = []

    init(room: Int, renderedAhead: Int = 0) {
        self.room = room
        self.renderedAhead = renderedAhead
    }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        let sink = FakeServerSink(format: format, room: room, renderedAhead: renderedAhead)
        sinks.append(sink)
        return sink
    }
}

/// The volume is applied after the decode-ahead queue: a key never decodes again.
struct SampleStageTests {
    static let cd = FakeDecoder.cd

    /// Plays `frames` of a counting song on a fake server holding `room` frames; `beforeEnd` runs
    /// once the server is first full. What was heard, and the decoder.
    private func play(frames: Int, room: Int, fades: Bool = false, replayGain: ReplayGain = ReplayGain(),
                      depth: SampleEncoding? = nil, _ beforeEnd: (PlaybackLoop, FakeServerSink) -> Void)
        -> (heard: [Int16], decoder: FakeDecoder, sink: FakeServerSink) {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: Self.cd, frames: frames)])
        decoder.replayGain = replayGain
        let server = FakeServer(room: room)
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: server, fallback: nil), clock: FakeClock(),
                                fades: fades, depth: depth, shared: Locked(EngineShared())) { _ in }
        loop.execute(.open("a.mp3", token: 1))
        loop.execute(.play)
        var acted = false
        for _ in 0..<100_000 {
            if loop.phase == .idle { break }
            if loop.nextWrite != nil || loop.phase == .draining {
                if !acted, let sink = server.sinks.last {
                    acted = true
                    beforeEnd(loop, sink)
                }
                server.sinks.last?.hear(441)
            }
            loop.step()
        }
        return (server.sinks.last?.heard ?? [], decoder, server.sinks.last!)
    }

    /// The samples the fake decoder makes (a running count), from `start`, scaled by `factor`.
    private func counting(_ range: Range<Int>, by factor: Double = 1) -> [Int16] {
        range.map { Int16((Double(Int16(truncatingIfNeeded: $0)) * factor).rounded()) }
    }

    @Test func aNewVolumeIsHeardAtOnceWithoutDecodingAgain() {
        let (heard, decoder, sink) = play(frames: 44100, room: 22050) { loop, sink in
            sink.hear(4410)
            loop.execute(.setVolume(0.5))
        }
        #expect(decoder.opens == 1)
        #expect(decoder.seeks.isEmpty, "nothing decoded again")
        #expect(sink.overwrites == 1, "what the server held was written again over itself")
        #expect(heard.count == 88200, "nothing lost or repeated")
        #expect(Array(heard.prefix(8820)) == counting(0..<8820), "what was heard before it, at full volume")
        // At half, at once: each sample within the TPDF dither's step of the exact half, the
        // dither's mean zero.
        let after = Array(heard.dropFirst(8820))
        let exact = (8820..<88200).map { Double(Int16(truncatingIfNeeded: $0)) * 0.5 }
        #expect(zip(after, exact).allSatisfy { abs(Double($0) - $1) <= 1.5 }, "everything after it at half, at once")
        let bias = zip(after, exact).reduce(0.0) { $0 + Double($1.0) - $1.1 } / Double(after.count)
        #expect(abs(bias) < 0.05, "dithered, not truncated: \(bias)")
        #expect(after != counting(8820..<88200, by: 0.5), "16-bit samples after a gain are dithered")
    }

    /// The first write over what the server holds is a whole buffer even where the tail's ring
    /// wraps inside it (a server handing the sound card what it holds in between two writes must
    /// find the first one reaching past what it handed; the odd end of the ring did not, and
    /// the card played silence); and the samples land where they were, nothing lost or repeated.
    @Test func theFirstWriteOverWhatTheServerHoldsIsAWholeBuffer() {
        let (heard, decoder, sink) = play(frames: 132_300, room: 22050) { loop, sink in
            // 1.15 s heard and more written: the tail (1.5 s) has wrapped inside what is held,
            // 15,435 frames (less than a buffer) after the frame heard.
            for _ in 0..<115 {
                sink.hear(441)
                loop.step()
            }
            loop.execute(.setVolume(0.5))
        }
        #expect(decoder.seeks.isEmpty && sink.overwrites == 1)
        #expect(sink.writesOver.count == 2 && sink.writesOver.first == PlaybackLoop.bufferCapacity,
                "a whole buffer first, then the rest: \(sink.writesOver)")
        #expect(heard.count == 264_600, "nothing lost or repeated")
        #expect(Array(heard.prefix(101_430)) == counting(0..<101_430), "before it, as decoded")
        let exact = (101_430..<264_600).map { Double(Int16(truncatingIfNeeded: $0)) * 0.5 }
        #expect(zip(heard.dropFirst(101_430), exact).allSatisfy { abs(Double($0) - $1) <= 1.5 }, "after it, at half, in place")
    }

    /// A new equaliser setting is heard at once, as a new volume is: what the server held is
    /// equalised again from the frame heard (the equaliser brought there from its state at the
    /// write before), nothing decoded again, nothing lost; before it, the samples as decoded.
    @Test func aNewEqualizerIsHeardAtOnceWithoutDecodingAgain() {
        let (heard, decoder, sink) = play(frames: 44100, room: 22050) { loop, sink in
            sink.hear(4410)
            loop.execute(.setGraphicEqualizer([12, 12, 12, 0, 0, 0, 0, -12, -12, -12]))
        }
        #expect(decoder.opens == 1 && decoder.seeks.isEmpty, "nothing decoded again")
        #expect(sink.overwrites == 1, "what the server held was written again over itself")
        #expect(heard.count == 88200, "nothing lost or repeated")
        #expect(Array(heard.prefix(8820)) == counting(0..<8820), "before it, as decoded")
        // From the frame heard on it cross-fades to the new filters over 10 ms (441 frames):
        // its first sample is still the old one's (flat), and a little later they differ.
        #expect(heard[8820] == counting(8820..<8822)[0])
        let after = Array(heard[(8820 + 882)..<(8820 + 4410)])
        #expect(after != counting((8820 + 882)..<(8820 + 4410)), "equalised from the frame heard on")
    }

    /// A new ReplayGain mode is the song's at once, as a new volume is: nothing decoded again.
    @Test func aNewReplayGainModeIsHeardAtOnceWithoutDecodingAgain() {
        let gain = ReplayGain(trackGain: 20 * log10(0.5))  // -6.02 dB: half
        let (heard, decoder, sink) = play(frames: 44100, room: 22050, replayGain: gain) { loop, sink in
            sink.hear(4410)
            loop.execute(.setReplayGain(ReplayGainChoice(gain: .track)))
        }
        #expect(decoder.opens == 1 && decoder.seeks.isEmpty, "nothing decoded again")
        #expect(sink.overwrites == 1, "what the server held was written again over itself")
        #expect(heard.count == 88200, "nothing lost or repeated")
        #expect(Array(heard.prefix(8820)) == counting(0..<8820), "before it, as decoded")
        let after = Array(heard.dropFirst(8820))
        let expected = counting(8820..<88200, by: 0.5)
        #expect(zip(after, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "after it, at the track's gain")
    }

    /// With `--bits 32` the stream is 32-bit: what a new volume writes again is too.
    @Test func aNewVolumeOnADeeperStreamIsWrittenInItsSamples() {
        let (_, decoder, sink) = play(frames: 44100, room: 22050, depth: .s32) { loop, sink in
            sink.hear(4410)
            loop.execute(.setVolume(0.5))
        }
        #expect(sink.format.encoding == .s32 && decoder.seeks.isEmpty)
        let heard = sink.heardSamples
        #expect(heard.count == 88200, "nothing lost or repeated: \(heard.count)")
        #expect(Array(heard.prefix(8820)) == counting(0..<8820).map { Int32($0) << 16 })
        // Widened first, then halved in 32 bits: exact, nothing narrowed, no dither.
        #expect(Array(heard.dropFirst(8820)) == counting(8820..<88200).map { Int32($0) << 15 }, "the rest at half, in 32 bits")
    }

    @Test func atFullVolumeTheSamplesPassUntouched() {
        let (heard, decoder, _) = play(frames: 22050, room: 4410) { loop, _ in
            loop.execute(.setVolume(0.25))
            loop.execute(.setVolume(1))
        }
        #expect(decoder.seeks.isEmpty)
        #expect(heard == counting(0..<44100))
    }

    @Test func whileTheEndDrainsTheNewVolumeWaitsForWhatIsQueued() {
        // The whole song fits in the server: it is draining when the volume changes.
        let (heard, decoder, sink) = play(frames: 4410, room: 22050) { loop, _ in
            #expect(loop.phase == .draining)
            loop.execute(.setVolume(0.5))
        }
        #expect(decoder.seeks.isEmpty)
        #expect(sink.overwrites == 0)
        #expect(heard == counting(0..<8820))
    }

    /// The tail keeps the last `UnheardTail.seconds` across its wrap, with the equaliser's state
    /// before each write: what it writes again starts at the last write before the frames asked for.
    @Test func theTailKeepsTheLastBytesAcrossItsWrap() {
        let tail = UnheardTail()
        let sink = FakeServerSink(format: PCMFormat(rate: 100, channels: 1), room: 0)
        // 100 Hz mono, a write of 47 frames at a time, until it has wrapped twice over.
        let kept = Int(UnheardTail.seconds * 100), piece = 47
        var written: [Int16] = []
        var pieces = 0
        while written.count < kept + 3 * piece {
            let samples = (0..<piece).map { Int16(pieces * piece + $0) }
            written += samples
            var state = SampleStage(fades: false).snapshot
            state.equalizer.set([Double(pieces), 0, 0, 0, 0, 0, 0, 0, 0, 0])
            samples.withUnsafeBytes { tail.record($0, format: sink.format, to: sink, state: state) }
            pieces += 1
        }
        let total = written.count, oldest = total - kept
        let replay = tail.replay(140, of: sink)
        #expect(replay?.unheard.flatMap { Array($0.bindMemory(to: Int16.self)) } == Array(written.suffix(140)))
        // 140 back falls inside a write: the lead is that write's frames before it, the state its.
        let from = total - 140, began = from / piece * piece
        #expect(replay?.lead.flatMap { Array($0.bindMemory(to: Int16.self)) } == Array(written[began..<from]))
        #expect(replay?.state.equalizer.gains?.first == Double(began / piece))
        // The first write wholly kept begins at or after the oldest frame kept; a frame before it
        // needs the state of a write begun before the oldest: not kept.
        let firstKept = (oldest + piece - 1) / piece * piece
        #expect(tail.replay(total - firstKept, of: sink) != nil)
        #expect(tail.replay(total - firstKept + 1, of: sink) == nil, "the state before its oldest frame is not kept")
        #expect(tail.replay(kept + 1, of: sink) == nil, "no more than it holds")
        #expect(tail.replay(1, of: FakeServerSink(format: sink.format, room: 0)) == nil, "only what went to that stream")
    }
}

/// What reaches the output is said with the song (the `i` panel's Output line): the samples
/// the output is opened for, and where they differ from the song's.
struct PlayedFormatTests {
    private func opened(_ format: PCMFormat, depth: SampleEncoding?) -> String? {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: format, frames: 100)])
        let server = FakeServer(room: 1000)
        var played: String?
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: server, fallback: nil), clock: FakeClock(),
                                depth: depth, shared: Locked(EngineShared())) { event in
            if case .opened(let info, _) = event { played = info.played }
        }
        loop.execute(.open("a.flac", token: 1))
        return played
    }

    /// A song whose gain the stage applies says so in its details, as the mode in force gives it.
    @Test func theGainTheStageAppliesIsSaidWithTheSong() {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: FakeDecoder.cd, frames: 100)])
        decoder.replayGain = ReplayGain(trackGain: -6, albumGain: -2)
        var applied: [Double?] = []
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: FakeServer(room: 1000), fallback: nil), clock: FakeClock(),
                                shared: Locked(EngineShared())) { event in
            if case .opened(let info, _) = event { applied.append(info.appliedGain) }
        }
        loop.execute(.open("a.flac", token: 1))
        loop.execute(.setReplayGain(ReplayGainChoice(gain: .album)))
        loop.execute(.open("b.flac", token: 2))
        #expect(applied == [nil, -2])
    }

    @Test func theOutputLineSaysTheSamplesSent() {
        let deep = PCMFormat(rate: 96000, channels: 2, encoding: .s24)
        #expect(opened(deep, depth: nil)?.hasSuffix(": 24-bit, 96000 Hz, stereo") == true, "\(opened(deep, depth: nil) ?? "none")")
        #expect(opened(deep, depth: .s16)?.hasSuffix(": 16-bit (from 24-bit), 96000 Hz, stereo") == true)
        #expect(opened(PCMFormat(rate: 44100, channels: 1), depth: nil)?.hasSuffix(": 16-bit, 44100 Hz, mono") == true)
    }
}
