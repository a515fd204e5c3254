import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// The crossfade in the playback loop, on fakes: what a sound server is given at a song's end is
/// the equal-power mix of the two songs, and a key during the fade (a pause's take-back, a seek)
/// moves both songs together, so what is heard is the same mix.
struct CrossfaderTests {
    static let frames = 8820, overlap = 2205  // 0.2 s songs, a 0.05 s fade

    /// A song whose sample at frame f, channel c, is 2f + c (after a seek too).
    static func song() -> FakeDecoder {
        let decoder = FakeDecoder([.init(format: FakeDecoder.cd, frames: frames)])
        decoder.countsFromTheFrame = true
        decoder.lengthIsExact = true
        return decoder
    }

    /// The first song to its last `overlap` frames, those faded out as the second's first fade
    /// in (summed and rounded as the loop sums them), then the rest of the second.
    static var expected: [Int16] {
        let start = frames - overlap
        var samples = (0..<(start * 2)).map { Int16($0) }
        for index in 0..<overlap {
            let (out, into) = Crossfader.gains(at: index, of: overlap)
            for channel in 0..<2 {
                let value = Double((start + index) * 2 + channel) * out + Double(index * 2 + channel) * into
                samples.append(Int16(value.rounded()))
            }
        }
        return samples + (overlap * 2..<frames * 2).map { Int16($0) }
    }

    /// Plays the two songs on a fake server holding 20 ms (5 ms heard a step, so that what is
    /// written runs little ahead of what is heard: a key in the fade is made in it), crossfaded;
    /// `act` runs once when `at` frames have been heard. What was heard.
    static func play(actingAt at: Int? = nil, _ act: (PlaybackLoop, FakeServerSink) -> Void = { _, _ in }) -> [Int16] {
        let server = FakeServer(room: 882)
        let loop = PlaybackLoop(decoder: song(), spare: song(), outputs: OutputChoice(primary: server, fallback: nil), clock: FakeClock(),
                                shared: Locked(EngineShared())) { _ in }
        loop.execute(.setCrossfade(CrossfadeSetting(seconds: 0.05)))
        loop.execute(.open("a.flac", token: 1))
        loop.execute(.play)
        loop.execute(.cue("b.flac"))
        var acted = false
        var heard: [Int16] = []
        for _ in 0..<100_000 {
            if loop.phase == .idle, loop.song?.token == 2 { break }  // the second song ended
            if let sink = server.sinks.last {
                if let at, !acted, heard.count / 2 + sink.heard.count / 2 >= at {
                    acted = true
                    act(loop, sink)
                }
                if loop.nextWrite != nil || loop.phase == .draining || loop.phase == .idle { sink.hear(220) }
            }
            loop.step()
            // The session's open of the song that took over adopts it.
            if loop.song?.token == nil, loop.song?.source == "b.flac" { loop.execute(.open("b.flac", token: 2)) }
        }
        return server.sinks.flatMap(\.heard)
    }

    @Test func theEndIsTheEqualPowerMixOfTheTwoSongs() {
        let heard = Self.play()
        #expect(heard.count == Self.expected.count, "the list is the overlap shorter")
        #expect(Self.same(heard, Self.expected))
    }

    /// A pause in the fade takes back what the server holds: both songs go back to the frame
    /// heard, and play goes on with the same mix (after the one frame of silence a pause's
    /// queue ends on, as everywhere).
    @Test(arguments: [6000, 6700, 7500, 8400])
    func aPauseInTheFadeHearsTheSameMix(at frame: Int) {
        var heard = Self.play(actingAt: frame) { loop, _ in
            loop.execute(.stop)
            loop.execute(.play)
        }
        let silent = (0..<heard.count / 2).first { heard[$0 * 2] == 0 && heard[$0 * 2 + 1] == 0 && $0 > 0 }
        #expect(silent.map { $0 >= frame } == true, "the pause's frame of silence, after what was heard")
        if let silent { heard.removeSubrange(silent * 2..<silent * 2 + 2) }
        #expect(Self.same(heard, Self.expected))
    }

    /// Sought back from inside the fade to before it: the song plays on from there, and the fade
    /// comes again, the next song from its start.
    @Test func aSeekBackFromTheFadeFadesAgain() {
        var at = 0
        let heard = Self.play(actingAt: 7000) { loop, sink in
            at = sink.heard.count / 2
            loop.execute(.seek(.to(AudioTime(frames: 4410, rate: 44100))))
        }
        let expected = Self.expected
        #expect(Self.same(heard, Array(expected[..<(at * 2)]) + expected[(4410 * 2)...]))
    }

    /// The largest step between two frames in a row of one channel: the counting songs and
    /// their mix move by a few a frame; a song dropped or restarted mid-fade jumps by thousands.
    static func largestStep(_ heard: [Int16]) -> Int {
        stride(from: 2, to: heard.count, by: 1).map { abs(Int(heard[$0]) - Int(heard[$0 - 2])) }.max() ?? 0
    }

    /// A skip to the song fading in, in the fade: that fade finishes (in what is left of the
    /// skip's fade), the song going on from where it was, never again from its start.
    @Test func aSkipToTheSongFadingInFinishesTheFade() {
        let heard = Self.play(actingAt: 7000) { loop, _ in
            loop.execute(.setCrossfade(CrossfadeSetting(seconds: 0.05, skipSeconds: 0.01)))  // a skip's fade: 441 frames
            #expect(loop.fadeBySkip(to: "b.flac", token: 2))
        }
        #expect(heard.count == Self.expected.count, "the next song never begun again")
        #expect(heard.prefix(7000 * 2) == Self.expected.prefix(7000 * 2), "the same mix up to the skip")
        #expect(heard != Self.expected, "the fade finished faster")
        #expect(heard.suffix(2) == [Int16(17638), 17639], "the next song to its end")
        #expect(Self.largestStep(heard) < 100, "no jump: \(Self.largestStep(heard))")
    }

    /// The song cued changes in the fade (stop after this song, another song next): the fade
    /// is given up at once, the song playing on alone to its end.
    @Test func anotherCueInTheFadeGivesItUp() {
        let heard = Self.play(actingAt: 7000) { loop, _ in loop.execute(.cue(nil)) }
        #expect(heard.count / 2 >= Self.frames && heard.count / 2 <= Self.frames + 1, "the first song whole: \(heard.count / 2) frames")
        #expect(heard.suffix(2) == [Int16(17638), 17639])
    }

    /// Whether `heard` is `expected`, saying where they part when not (not the whole arrays).
    static func same(_ heard: [Int16], _ expected: [Int16], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
        guard heard != expected else { return true }
        let first = zip(heard, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        let at = first ?? min(heard.count, expected.count)
        let ours = Array(heard[at..<min(at + 4, heard.count)]), theirs = Array(expected[at..<min(at + 4, expected.count)])
        Issue.record("\(heard.count / 2) frames heard, \(expected.count / 2) expected; they part at frame \(at / 2): \(ours) against \(theirs)",
                     sourceLocation: sourceLocation)
        return false
    }
}

