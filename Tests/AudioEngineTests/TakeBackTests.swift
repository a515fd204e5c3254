import Files
import PlayerCore
import Testing
@testable import AudioEngine

/// A stop, a seek or the next song on a sound server goes over what its stream holds from
/// beyond what its sink has rendered: what was rendered is heard whole (a sink that hands on
/// what it renders, a null sink's monitor, has passed it on), then a fade, and nothing is lost
/// or played twice.
struct TakeBackTests {
    static let cd = FakeDecoder.cd
    /// What the fake sink has rendered ahead of what it plays: 20 ms.
    static let rendered = 882

    private func rig(frames: Int, fades: Bool) -> (PlaybackLoop, FakeDecoder, FakeServer, Locked<EngineShared>) {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: Self.cd, frames: frames)])
        decoder.countsFromTheFrame = true
        let server = FakeServer(room: 22050, renderedAhead: Self.rendered)
        let shared = Locked(EngineShared())
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: server, fallback: nil), clock: FakeClock(),
                                fades: fades, shared: shared) { _ in }
        loop.execute(.open("a.flac", token: 1))
        loop.execute(.play)
        return (loop, decoder, server, shared)
    }

    /// Steps until the server is full.
    private func fill(_ loop: PlaybackLoop) {
        for _ in 0..<100 where loop.nextWrite == nil && loop.phase != .idle { loop.step() }
    }

    /// Plays out what is queued, stepping the loop as the server plays.
    private func playOut(_ loop: PlaybackLoop, _ server: FakeServer) {
        for _ in 0..<100_000 {
            guard let sink = server.sinks.last else { return }
            if loop.phase == .idle && sink.queuedFrames == 0 { return }
            sink.hear(441)
            loop.step()
        }
    }

    /// The samples the fake decoder makes: a running count, one a sample.
    private func counting(_ samples: Range<Int>) -> [Int16] {
        samples.map { Int16(truncatingIfNeeded: $0) }
    }

    /// Where `heard` first differs from `expected` (their lengths too), for a short message.
    private func difference(_ heard: some Collection<Int16>, _ expected: [Int16]) -> String? {
        let heard = Array(heard)
        if let index = zip(heard, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "sample \(index) of \(heard.count): \(heard[index]), not \(expected[index])"
        }
        return heard.count == expected.count ? nil : "\(heard.count) samples, not \(expected.count)"
    }

    @Test func aStopWithoutFadesEndsTheQueueWhereTheSinkHasGotAndPlayGoesOnFromThere() throws {
        let (loop, _, server, shared) = rig(frames: 44100, fades: false)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        loop.execute(.stop)
        #expect(sink.overRendered == 0, "nothing the sink rendered was written over")
        #expect(EngineShared.heard(shared) == 4410, "the position heard is still the frame heard")
        playOut(loop, server)
        let end = (4410 + Self.rendered) * 2
        // The queue ends on a frame of silence (the stream must end there, and nothing written
        // goes over it until play): part of the pause.
        #expect(difference(sink.heard, counting(0..<end) + [0, 0]) == nil, "what was rendered played whole, and nothing after it")
        loop.execute(.play)
        playOut(loop, server)
        #expect(difference(sink.heard, counting(0..<end) + [0, 0] + counting(end..<(44100 * 2))) == nil,
                "after play, the song went on from the next frame: nothing lost or repeated")
    }

    @Test func aStopFadesOutAfterWhatTheSinkHasRendered() throws {
        let (loop, _, server, _) = rig(frames: 44100, fades: true)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        loop.execute(.stop)
        #expect(sink.overRendered == 0)
        playOut(loop, server)
        let end = (4410 + Self.rendered) * 2
        let heard = sink.heard
        // The first frames fade in (a start): from the end of that fade on, the count exactly.
        #expect(difference(heard[882..<end], counting(882..<end)) == nil, "what was rendered, as decoded")
        let fade = Array(heard.dropFirst(end))
        #expect(fade.count == 441 * 2, "then a fade of 10 ms, and nothing after it: \(fade.count)")
        let expected = counting(end..<(end + 882))
        // Dithered as any gain is: within its step of the samples it fades.
        #expect(zip(fade, expected).allSatisfy { abs(Int($0)) <= abs(Int($1)) + 2 }, "falling from the samples it fades")
        #expect(fade.suffix(2).allSatisfy { abs(Int($0)) < 100 }, "to silence: \(fade.suffix(2))")
    }

    @Test func aSeekPlaysWhatWasRenderedThenFadesToTheNewPlace() throws {
        let (loop, decoder, server, _) = rig(frames: 441_000, fades: false)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        loop.execute(.seek(.to(.seconds(5))))
        #expect(sink.overRendered == 0)
        #expect(decoder.seeks.last == 220_500)
        for _ in 0..<10 {
            sink.hear(441)
            loop.step()
        }
        let end = (4410 + Self.rendered) * 2
        #expect(difference(sink.heard.prefix(end), counting(0..<end)) == nil, "what was rendered played whole")
        #expect(difference(sink.heard[end..<(end + 200)], counting((220_500 * 2)..<(220_500 * 2 + 200))) == nil,
                "then the new place, from its first frame")
    }

    /// A second seek before the first's new place was heard goes back no further than the
    /// first one's splice: before it the server holds the old place, which the position does not
    /// count (it took back the song's start and wrote the second place over it as if it were
    /// the first's: the old place, then the second's fade at full height, a click).
    @Test func aSecondSeekGoesBackNoFurtherThanTheFirst() throws {
        let (loop, decoder, server, _) = rig(frames: 441_000, fades: false)
        fill(loop)
        let sink = try #require(server.sinks.last)
        // The first take-back's figures are old: it leaves more of the queue be than it must.
        sink.renderedAhead = 8820
        loop.execute(.seek(.to(.seconds(5))))
        for _ in 0..<3 { loop.step() }
        sink.renderedAhead = Self.rendered
        loop.execute(.seek(.to(.seconds(8))))
        #expect(sink.overRendered == 0)
        for _ in 0..<20 {
            sink.hear(441)
            loop.step()
        }
        // The first left the song's first 8,820 frames be; the second took back all the first
        // place had written since, and no further: the song's start, then the second place.
        let kept = 8820 * 2, secondPlace = 352_800 * 2
        #expect(difference(sink.heard, counting(0..<kept) + counting(secondPlace..<(secondPlace + sink.heard.count - kept))) == nil)
        #expect(decoder.seeks.contains(220_500))
    }

    /// A seek before the stream's start is heard (its sink still plays what it rendered before):
    /// all the stream holds is dropped and it starts again from the new place; a pause then,
    /// and play goes on from the song's first frame.
    @Test func keysBeforeTheStartIsHeardStartTheStreamAgain() throws {
        let (loop, decoder, server, _) = rig(frames: 441_000, fades: true)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.unplayed = true
        loop.execute(.seek(.to(.seconds(5))))
        #expect(sink.queuedFrames == 0, "all of it dropped, no fade written: nothing played")
        #expect(decoder.seeks == [0, 220_500], "back to the first frame written, then the seek")
        loop.execute(.stop)
        #expect(decoder.seeks.last == 220_500, "paused where the seek landed: nothing of it was heard")
    }

    /// A second take-back (a load right after a stop) leaves the stop's fade alone: it is what
    /// is queued, and it plays out.
    @Test func aLoadAfterAStopLeavesItsFadeToPlayOut() throws {
        let (loop, _, server, _) = rig(frames: 44100, fades: true)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        loop.execute(.stop)
        let queued = sink.queuedFrames
        loop.execute(.open("b.flac", token: 2))
        #expect(sink.queuedFrames == queued, "the fade is still queued")
    }
}

/// A sound server's stream is held corked from each start until it is full or the player has
/// nothing more for now, a pad of silence first, so that a start takes back only silence.
struct StreamStartTests {
    @Test func aNewStreamPadsItsFirstWriteAndPlaysWhenFull() {
        var start = StreamStart(padBytes: 100, enoughBytes: 5000)
        #expect(start.corked && start.starting)
        let first = start.beforeWrite()
        #expect(first.pad && first.cork == nil, "created corked: the pad goes first, no cork to ask")
        #expect(start.wrote(1000, room: 500) == nil, "not full: held")
        #expect(start.beforeWrite() == (false, nil), "one pad a start")
        #expect(start.wrote(500, room: 0) == false, "full: uncorked")
        #expect(!start.corked && !start.starting)
        #expect(start.wrote(500, room: 0) == nil, "once")
    }

    @Test func enoughWrittenPlaysThoughThereIsRoom() {
        var start = StreamStart(padBytes: 100, enoughBytes: 5000)
        _ = start.beforeWrite()
        #expect(start.wrote(4000, room: 100_000) == nil)
        #expect(start.wrote(1000, room: 100_000) == false, "a quarter of a second written: it plays")
    }

    @Test func nothingMoreForNowPlaysWhatIsWrittenButNotThePadAlone() {
        var start = StreamStart(padBytes: 100, enoughBytes: 5000)
        _ = start.beforeWrite()
        #expect(start.nothingMoreForNow() == nil, "the pad alone is held")
        _ = start.wrote(10, room: 1000)
        #expect(start.nothingMoreForNow() == false)
        #expect(start.nothingMoreForNow() == nil)
    }

    @Test func aDrainPlaysWhatIsWrittenHoweverLittle() {
        var start = StreamStart(padBytes: 100, enoughBytes: 5000)
        _ = start.beforeWrite()
        #expect(start.draining() == false)
    }

    @Test func aStreamThatRanDryIsCorkedAgainAtItsNextWriteAndPaddedAgain() {
        var start = StreamStart(padBytes: 100, enoughBytes: 5000)
        _ = start.beforeWrite()
        _ = start.wrote(1000, room: 0)
        start.ranDry()
        #expect(!start.corked, "left playing out what it holds until something is written")
        let next = start.beforeWrite()
        #expect(next.pad && next.cork == true, "corked before the pad")
        #expect(start.wrote(50, room: 10) == nil)
        #expect(start.wrote(50, room: 0) == false)
    }
}

/// The position is counted from the server's figures: what the stream and its sink hold, less
/// the time since only while the sink takes the stream (a sink still playing silence it
/// rendered before the stream came has not started it).
struct StreamTimingTests {
    static let second = 176_400.0  // bytes of CD audio

    @Test func whilePlayingTheTimeSinceItWasSaidHasBeenHeard() {
        let timing = StreamTiming(queuedBytes: 176_400, sinkLatency: 0.02, playing: true, age: 0.3)
        #expect(abs(timing.unheard(bytesPerSecond: Self.second) - 0.72) < 1e-9)
    }

    @Test func beforeTheSinkTakesTheStreamNothingIsHeard() {
        // A bare null sink with 0.6 s of silence rendered before the stream came.
        let timing = StreamTiming(queuedBytes: 176_400, sinkLatency: 0.6, playing: false, age: 0.2)
        #expect(abs(timing.unheard(bytesPerSecond: Self.second) - 1.6) < 1e-9)
    }

    @Test func neverLessThanNothing() {
        let timing = StreamTiming(queuedBytes: 8820, sinkLatency: 0, playing: true, age: 2)
        #expect(timing.unheard(bytesPerSecond: Self.second) == 0)
        #expect(timing.unheard(bytesPerSecond: 0) == 0)
    }

    /// What can be written over: the queue, less what the sink can have taken since (real time,
    /// and its latency in one go, playing or not: it may start any moment) and a margin.
    @Test func whatTheSinkCannotHaveTakenYet() {
        let timing = StreamTiming(queuedBytes: 176_400, sinkLatency: 0.6, playing: false, age: 0.1)
        #expect(abs(timing.untaken(bytesPerSecond: Self.second, renderAhead: 0.02, margin: 0.005) - 0.875) < 1e-9)
        let short = StreamTiming(queuedBytes: 1764, sinkLatency: 0, playing: true, age: 0)
        #expect(short.untaken(bytesPerSecond: Self.second, renderAhead: 0.02, margin: 0.005) == 0)
    }
}

/// A sink that keeps no time (a pipe read faster than real time) is found out within a second,
/// said once, and the player holds itself to the clock from then on.
struct SinkPaceTests {
    private func observe(_ pace: inout SinkPace, at now: Double, heard: Double, ahead: Double = 0) -> Bool {
        pace.observe(at: now, taken: heard, ahead: ahead)
    }

    @Test func aSinkThatKeepsTimeIsLeftAlone() {
        var pace = SinkPace()
        #expect(!observe(&pace, at: 0, heard: 0))
        #expect(!observe(&pace, at: 0.02, heard: 0.3), "a start's render-ahead is allowed")
        #expect(!observe(&pace, at: 10, heard: 10.1))
        #expect(!observe(&pace, at: 100, heard: 99.9))
        var slow = SinkPace()
        #expect(!observe(&slow, at: 0, heard: 0))
        #expect(!observe(&slow, at: 0.01, heard: 1.2, ahead: 1), "a sink that renders a second ahead takes it at once")
    }

    @Test func aSinkThatTakesAudioAsFastAsItComesIsFoundOut() {
        var pace = SinkPace()
        #expect(!observe(&pace, at: 0, heard: 0))
        #expect(observe(&pace, at: 0.01, heard: 1), "a second taken in 10 ms")
        pace.restart()
        #expect(!observe(&pace, at: 3, heard: 40), "watched again from a restart")
        #expect(!observe(&pace, at: 4, heard: 41))
    }

    /// On the loop: a fake server's sink says it keeps no time. The loop says so once and from
    /// then on writes by the clock.
    @Test func theLoopFallsBackToTheClock() {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: FakeDecoder.cd, frames: 441_000)])
        let server = FakeServer(room: 22050)
        let clock = FakeClock()
        var said: [String] = []
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: server, fallback: nil), clock: clock,
                                shared: Locked(EngineShared())) { event in
            if case .outputFallback(let message) = event { said.append(message) }
        }
        loop.execute(.open("a.flac", token: 1))
        loop.execute(.play)
        loop.step()
        server.sinks.last?.keepsTime = false
        for _ in 0..<40 {
            loop.step()
            server.sinks.last?.hear(1_000_000)
            clock.now += 0.1
        }
        #expect(said.count == 1 && said.first?.contains("faster than it could play it") == true, "\(said)")
        // The clock stopped: a few steps write what is due, then a write is due later only.
        for _ in 0..<20 { loop.step() }
        #expect(loop.nextWrite != nil, "paced by the clock: the next write is due later")
        #expect(!loop.onServer)
    }
}
