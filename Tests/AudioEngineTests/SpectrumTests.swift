import Glibc
import Testing
@testable import AudioEngine

/// The spectrum: its bars from an FFT of what was heard, and the frames it takes as heard.
struct SpectrumTests {
    static func sine(_ frequency: Double, rate: Int = 44100, count: Int = 2048, amplitude: Double = 1) -> [Float] {
        (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    @Test func aSineLightsTheBarOfItsPitchAndSilenceNone() {
        var analysis = SpectrumAnalysis()
        let bars = analysis.bars(Self.sine(1000), rate: 44100, count: 32)
        let loudest = bars.indices.max { bars[$0] < bars[$1] }!
        // 32 bars from 40 Hz to 16 kHz: 1 kHz is in bar 17 (40 · 400^(17/32) = 959 Hz to 1.15 kHz).
        #expect(loudest == 17, "\(bars)")
        #expect(bars[17] > 0.95)
        #expect(bars[0] < 0.2 && bars[31] < 0.2, "\(bars)")
        var quiet = SpectrumAnalysis()
        #expect(quiet.bars(Self.sine(1000, amplitude: 0.001), rate: 44100, count: 32)[17] < 0.05, "-60 dB is the floor")
        var silent = SpectrumAnalysis()
        #expect(silent.bars([Float](repeating: 0, count: 2048), rate: 44100, count: 32).allSatisfy { $0 == 0 })
        #expect(silent.bars([], rate: 44100, count: 32).allSatisfy { $0 == 0 })
        #expect(silent.bars([.nan, .infinity], rate: 0, count: 0).count == 1, "hostile numbers give bars, no trap")
    }

    @Test func barsFallGentlyAndRiseAtOnce() {
        var analysis = SpectrumAnalysis()
        let loud = analysis.bars(Self.sine(1000), rate: 44100, count: 32)
        let after = analysis.bars([Float](repeating: 0, count: 2048), rate: 44100, count: 32)
        #expect(abs(after[17] - (loud[17] - SpectrumAnalysis.fall)) < 1e-9)
    }

    @Test func theFramesTakenEndWhereTheOutputIsHeard() {
        let tap = SpectrumTap()
        var samples = (0..<10_000).map { Int16($0 % 30_000) }
        samples = samples.flatMap { [$0, $0] }  // stereo, both channels alike
        #expect(samples.withUnsafeBytes { raw -> (samples: [Float], rate: Int)? in
            tap.record(raw, encoding: .s16, channels: 2, rate: 44100)
            return tap.latest(4, queued: 0)
        } == nil, "nothing is recorded until a spectrum is shown")
        tap.wanted = true
        samples.withUnsafeBytes { tap.record($0, encoding: .s16, channels: 2, rate: 48000) }
        // The output still holds the last 1,000 frames: the 4 before them are heard now.
        let heard = tap.latest(4, queued: 1000)
        #expect(heard?.rate == 48000)
        #expect(heard?.samples == [8996, 8997, 8998, 8999].map { Float($0) / 32768 })
        #expect(tap.latest(4, queued: 0)?.samples.last == Float(9999) / 32768)
        // A hostile hold larger than what was written: nothing heard yet.
        #expect(tap.latest(4, queued: 20_000) == nil)
        #expect(tap.latest(4, queued: SpectrumTap.capacity) == nil, "more held than the ring keeps: nothing, not frames ahead")
        #expect(tap.latest(4, queued: -1) == nil)
        tap.wanted = false
        #expect(tap.latest(4, queued: 0) == nil, "hidden: forgotten")
    }
}
