import Foundation
import Files
import PlayerCore
import Testing
@testable import AudioEngine

/// The playback loop at a speed (`--speed`), on a fake sound server: what is written is the
/// song over the speed; the position heard is song time; a new speed is heard at once, from
/// the frame heard; a seek lands on the song's frame.
struct SpeedLoopTests {
    static let cd = FakeDecoder.cd

    /// A loop playing `frames` of a fake song on a server of `room` frames, `speed` set first.
    private func loop(frames: Int, room: Int, speed: Double)
        -> (loop: PlaybackLoop, decoder: FakeDecoder, server: FakeServer, shared: Locked<EngineShared>) {
        let decoder = FakeDecoder([FakeDecoder.Segment(format: Self.cd, frames: frames)])
        let server = FakeServer(room: room)
        let shared = Locked(EngineShared())
        let loop = PlaybackLoop(decoder: decoder, outputs: OutputChoice(primary: server, fallback: nil), clock: FakeClock(),
                                shared: shared) { _ in }
        loop.execute(.setSpeed(speed))
        loop.execute(.open("a.mp3", token: 1))
        loop.execute(.play)
        return (loop, decoder, server, shared)
    }

    /// Steps `loop` until the server is full (its room used), hearing nothing.
    private func fill(_ loop: PlaybackLoop) {
        for _ in 0..<1000 where loop.nextWrite == nil && loop.phase != .idle { loop.step() }
    }

    /// Steps `loop` to the song's end, the server playing 441 frames whenever it is full.
    private func playOut(_ loop: PlaybackLoop, _ server: FakeServer) {
        for _ in 0..<100_000 {
            if loop.phase == .idle { break }
            if loop.nextWrite != nil || loop.phase == .draining { server.sinks.last?.hear(441) }
            loop.step()
        }
    }

    @Test(arguments: [2.0, 0.5, 1.5])
    func theSongIsItsLengthOverTheSpeedAndThePositionHeardIsSongTime(speed: Double) throws {
        let (loop, _, server, shared) = loop(frames: 88200, room: 22050, speed: speed)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        // 4,410 frames heard at the speed are 4,410 × speed of the song's.
        #expect(abs(EngineShared.heard(shared) - Int64(4410 * speed)) <= 2, "\(EngineShared.heard(shared))")
        playOut(loop, server)
        let heard = sink.heardSamples.count / 2
        #expect(abs(heard - Int(88200 / speed)) <= 2, "\(heard) frames heard")
        #expect(abs(shared.read(\.position) - 88200) <= 2, "the position at the end is the song's end")
    }

    /// A new speed is heard at once: what the server held at the old one is written over, and
    /// the song is taken back to the frame heard (the only seek), the rest of it at the new speed.
    @Test func aNewSpeedIsHeardAtOnceFromTheFrameHeard() throws {
        let (loop, decoder, server, _) = loop(frames: 88200, room: 22050, speed: 1)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(4410)
        loop.execute(.setSpeed(2))
        #expect(decoder.seeks == [4410])
        #expect(sink.overwrites >= 1)
        playOut(loop, server)
        let heard = sink.heardSamples.count / 2
        #expect(abs(heard - (4410 + (88200 - 4410) / 2)) <= 2, "\(heard) frames heard")
        #expect(Array(sink.heardSamples.prefix(8820)).map(Int16.init) == (0..<8820).map { Int16(truncatingIfNeeded: $0) },
                "what was heard before it, untouched")
        #expect(decoder.opens == 1)
    }

    /// A seek at a speed lands on the song's frame, and the position is that frame.
    @Test func aSeekAtASpeedLandsOnTheSongsFrame() throws {
        let (loop, decoder, server, shared) = loop(frames: 441_000, room: 22050, speed: 2)
        fill(loop)
        let sink = try #require(server.sinks.last)
        sink.hear(2205)
        loop.execute(.seek(.to(.seconds(5))))
        #expect(decoder.seeks.last == 220_500)
        #expect(EngineShared.heard(shared) == 220_500)
        fill(loop)
        sink.hear(4410)
        #expect(abs(EngineShared.heard(shared) - (220_500 + 8820)) <= 2, "\(EngineShared.heard(shared))")
    }
}
