import Foundation
import Testing
@testable import AudioEngine

/// The graphic equaliser: flat or off it leaves every sample as it was; a band lifts its
/// frequencies against the others (the whole lowered by the boost, so nothing clips); turning
/// it on cross-fades without a click.
struct GraphicEqualizerTests {
    static let format = PCMFormat(rate: 44100, channels: 2)

    /// `seconds` of a stereo sine at `hertz`, 16-bit, at `level` of full scale.
    static func tone(_ hertz: Double, seconds: Double = 0.5, level: Double = 0.25) -> [Int16] {
        (0..<Int(44100 * seconds)).flatMap { frame -> [Int16] in
            let value = Int16((level * 32767 * sin(2 * Double.pi * hertz * Double(frame) / 44100)).rounded())
            return [value, value]
        }
    }

    static func process(_ samples: [Int16], _ equalizer: inout GraphicEqualizer) -> [Int16] {
        var samples = samples
        var dither = TPDFDither()
        samples.withUnsafeMutableBytes { equalizer.process($0.baseAddress!, bytes: $0.count, format: format, dither: &dither) }
        return samples
    }

    /// The RMS of the last half of `samples` (the filters settled).
    static func level(_ samples: [Int16]) -> Double {
        let tail = samples.suffix(samples.count / 2)
        return sqrt(tail.reduce(0) { $0 + Double($1) * Double($1) } / Double(tail.count))
    }

    @Test func flatOrOffLeavesTheSamplesUntouched() {
        let tone = Self.tone(440)
        var off = GraphicEqualizer()
        #expect(Self.process(tone, &off) == tone)
        var flat = GraphicEqualizer()
        flat.set([Double](repeating: 0, count: 10))
        _ = Self.process(Array(tone.prefix(4410)), &flat)  // the fade from off to flat
        #expect(Self.process(tone, &flat) == tone, "flat: bypassed, bit for bit")
    }

    @Test func aBandLiftsItsFrequenciesAgainstTheOthers() {
        var equalizer = GraphicEqualizer()
        equalizer.set([0, 0, 0, 0, 0, 6, 0, 0, 0, 0])  // +6 dB at 1 kHz
        _ = Self.process(Self.tone(100, seconds: 0.1), &equalizer)
        let boosted = Self.level(Self.process(Self.tone(1000), &equalizer))
        let other = Self.level(Self.process(Self.tone(8000), &equalizer))
        let plain = Self.level(Self.tone(1000))
        let difference = 20 * log10(boosted / other)
        #expect(abs(difference - 6) < 1, "1 kHz stands 6 dB over 8 kHz: \(difference) dB")
        #expect(abs(20 * log10(boosted / plain)) < 1, "the boost is taken back as headroom: nothing clips")
    }

    @Test func turningItOnCrossFadesWithoutAClick() {
        var equalizer = GraphicEqualizer()
        let tone = Self.tone(60, seconds: 1, level: 0.5)
        let before = Self.process(Array(tone.prefix(44100)), &equalizer)
        equalizer.set([12, 12, 0, 0, 0, 0, 0, 0, 0, 0])
        let after = Self.process(Array(tone.suffix(44100)), &equalizer)
        let joined = before + after
        // A 60 Hz sine at half scale moves at most 2πf/rate × amplitude a sample (≈140); a
        // click is a jump far past that.
        let steps = stride(from: 2, to: joined.count, by: 2).map { abs(Int(joined[$0]) - Int(joined[$0 - 2])) }
        #expect((steps.max() ?? 0) < 300, "the largest step: \(steps.max() ?? 0)")
        #expect(Self.level(after) != Self.level(before), "the bass changed")
    }

    /// Changes faster than the 10 ms cross-fade (a key held down): each fades from what is
    /// heard at that moment, so the joins stay as smooth as one change's.
    @Test func aChangeDuringACrossFadeFadesFromWhatIsHeard() {
        var equalizer = GraphicEqualizer()
        let tone = Self.tone(60, seconds: 1, level: 0.5)
        var joined = Self.process(Array(tone.prefix(8820)), &equalizer)
        var at = 8820
        for (gains, frames) in [([12.0, 12, 0, 0, 0, 0, 0, 0, 0, 0], 88), ([-12.0, -12, 0, 0, 0, 0, 0, 0, 0, 0], 176),
                                ([12.0, 12, 12, 0, 0, 0, 0, 0, 0, 0], 44), ([0.0, -12, 0, 0, 0, 0, 0, 0, 0, 0], 22),
                                ([12.0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 30), ([-6.0, 6, 0, 0, 0, 0, 0, 0, 0, 0], 8820)] {
            equalizer.set(gains)
            joined += Self.process(Array(tone[(at * 2)..<((at + frames) * 2)]), &equalizer)
            at += frames
        }
        let steps = stride(from: 2, to: joined.count, by: 2).map { abs(Int(joined[$0]) - Int(joined[$0 - 2])) }
        #expect((steps.max() ?? 0) < 300, "the largest step: \(steps.max() ?? 0)")
    }

    @Test func twentyFourBitSamplesAreEqualisedToo() {
        var equalizer = GraphicEqualizer()
        equalizer.set([0, 0, 0, 0, 0, 0, 0, 0, 0, -12])
        let format = PCMFormat(rate: 48000, channels: 1, encoding: .s24)
        var bytes = SampleEncodingTests.bytes((0..<4800).map { (4_000_000 * sin(2 * Double.pi * 16000 * Double($0) / 48000)).rounded() }, .s24)
        var dither = TPDFDither()
        bytes.withUnsafeMutableBytes { equalizer.process($0.baseAddress!, bytes: $0.count, format: format, dither: &dither) }
        let values = SampleEncodingTests.values(bytes, .s24).suffix(2400)
        #expect((values.map(abs).max() ?? 0) < 4_000_000 / 2, "16 kHz cut by 12 dB")
    }
}

struct GraphicEqualizerHeadroomTests {
    /// Neighbouring bands' boosts add up: the headroom is the cascade's highest gain, not the
    /// largest band's, so no preset and no setting clips.
    @Test func theHeadroomIsTheFiltersHighestGain() {
        let all = GraphicEqualizer.Chain(gains: [Double](repeating: 12, count: 10), rate: 44100, channels: 2)
        let decibels = -20 * log10(all.headroom)
        #expect(abs(decibels - 19.6) < 0.6, "all ten at +12 dB peak near +19.6 dB: \(decibels)")
        let one = GraphicEqualizer.Chain(gains: [0, 0, 0, 0, 0, 6, 0, 0, 0, 0], rate: 44100, channels: 2)
        #expect(abs(-20 * log10(one.headroom) - 6) < 0.1)
    }

    /// A full-scale steady tone at any frequency never clips, through any preset (a transient
    /// may overshoot the filters' steady gain by a little: that is clipped).
    @Test(arguments: ["rock", "bass", "treble", "pop", "classical"])
    func aFullScaleToneThroughAPresetNeverClips(preset: String) throws {
        let gains = try #require(PresetGains.named(preset))
        for hertz in [25.0, 31.25, 45, 62.5, 90, 125, 180, 250, 500, 1000, 2000, 4000, 6000, 8000, 12000, 16000, 19000] {
            var equalizer = GraphicEqualizer()
            equalizer.set(gains)
            let tone = GraphicEqualizerTests.tone(hertz, seconds: 0.6, level: 1)
            let out = GraphicEqualizerTests.process(tone, &equalizer).dropFirst(44100 / 2 * 2)  // settled after 0.5 s
            let clipped = out.filter { $0 == Int16.max || $0 == Int16.min }.count
            #expect(clipped == 0, "\(preset) at \(hertz) Hz: \(clipped) samples at full scale")
        }
    }
}

/// The settings' presets, as the tests name them (the Terminal module holds them).
enum PresetGains {
    static func named(_ name: String) -> [Double]? {
        ["rock": [5, 4, 3, 1, -1, -1, 1, 3, 4, 5], "bass": [6, 5, 4, 2, 0, 0, 0, 0, 0, 0], "treble": [0, 0, 0, 0, 0, 1, 2, 4, 5, 6],
         "pop": [-1, 1, 3, 4, 4, 3, 1, 0, -1, -1], "classical": [4, 3, 2, 1, -1, -1, 0, 2, 3, 4]][name]
    }
}
