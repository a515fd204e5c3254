import Foundation
import Testing
@testable import AudioEngine

/// mpg123's 32-band equaliser for the formats libmpg123 does not decode: each band's factor is
/// the gain at its centre, the bands' overlaps corrected; all 1, the samples pass untouched.
struct MpegBandEqualizerTests {
    static let format = PCMFormat(rate: 44100, channels: 2)

    /// The RMS of the left channel's last half after `equalizer` on 0.5 s of a sine at `hertz`.
    static func level(_ hertz: Double, _ equalizer: inout MpegBandEqualizer, right: Bool = false) -> Double {
        var samples = (0..<22050).flatMap { frame -> [Int16] in
            let value = Int16((0.1 * 32767 * sin(2 * Double.pi * hertz * Double(frame) / 44100)).rounded())
            return [value, value]
        }
        var dither = TPDFDither()
        samples.withUnsafeMutableBytes { equalizer.process($0.baseAddress!, bytes: $0.count, format: format, dither: &dither) }
        let side = stride(from: right ? 1 : 0, to: samples.count, by: 2).map { Double(samples[$0]) }.suffix(11025)
        return (side.reduce(0) { $0 + $1 * $1 } / Double(side.count)).squareRoot()
    }

    static let plain = 0.1 * 32767 / 2.0.squareRoot()

    @Test func allOnesLeaveTheSamplesUntouched() {
        var equalizer = MpegBandEqualizer()
        equalizer.set([[Double](repeating: 1, count: 32), [Double](repeating: 1, count: 32)])
        #expect(equalizer.isBypassed)
        #expect(abs(Self.level(1000, &equalizer) - Self.plain) < 1)
    }

    /// SEQ 0.5 on every band: the whole 6 dB down, wherever the tone is.
    @Test(arguments: [60.0, 100, 344, 689, 700, 1000, 1378, 2067, 3000, 5000, 5340, 8268, 12000, 16000, 18000])
    func everyBandAtHalfIsSixDecibelsDown(hertz: Double) {
        var equalizer = MpegBandEqualizer()
        equalizer.set([[Double](repeating: 0.5, count: 32), [Double](repeating: 0.5, count: 32)])
        let decibels = 20 * log10(Self.level(hertz, &equalizer) / Self.plain)
        #expect(abs(decibels + 6.02) < 0.5, "\(decibels) dB at \(hertz) Hz")
    }

    /// One band at 2 (`EQ 1 5 2`: left, band 5, +6 dB) lifts a tone at its centre 6 dB and leaves
    /// a tone far from it and the right channel as they were.
    @Test func oneBandLiftsItsOwnFrequenciesOnItsOwnSide() {
        var factors = [[Double](repeating: 1, count: 32), [Double](repeating: 1, count: 32)]
        factors[0][5] = 2
        var equalizer = MpegBandEqualizer()
        equalizer.set(factors)
        let centre = 5.5 * 44100 / 64
        let lifted = 20 * log10(Self.level(centre, &equalizer) / Self.plain)
        #expect(abs(lifted - 6.02) < 0.75, "\(lifted) dB at the band's centre")
        let far = 20 * log10(Self.level(12000, &equalizer) / Self.plain)
        #expect(abs(far) < 0.5, "\(far) dB far from it")
        let right = 20 * log10(Self.level(centre, &equalizer, right: true) / Self.plain)
        #expect(abs(right) < 0.1, "the right channel: \(right) dB")
    }

    /// A bass boost (bands 0 to 3 at 2, the rest 1, as a front-end's slider might set it): +6 dB
    /// at those bands' centres, nothing from band 8 up.
    @Test func aBassBoostLiftsTheBassAndLeavesTheRest() {
        var factors = [Double](repeating: 1, count: 32)
        for band in 0...3 { factors[band] = 2 }
        var equalizer = MpegBandEqualizer()
        equalizer.set([factors, factors])
        for band in 1...3 {
            let lifted = 20 * log10(Self.level((Double(band) + 0.5) * 44100 / 64, &equalizer) / Self.plain)
            #expect(abs(lifted - 6.02) < 0.75, "band \(band): \(lifted) dB")
        }
        for hertz in [6000.0, 10000, 15000] {
            let flat = 20 * log10(Self.level(hertz, &equalizer) / Self.plain)
            #expect(abs(flat) < 0.5, "\(hertz) Hz: \(flat) dB")
        }
    }

    /// A factor that is not a number, or missing bands, count as 1; a silenced band is 40 dB down.
    @Test func untrustedFactorsAreTamed() {
        var equalizer = MpegBandEqualizer()
        equalizer.set([[.nan, .infinity, -3]])
        #expect(equalizer.factors[0][0] == 1 && equalizer.factors[0][1] == 1 && equalizer.factors[0][2] == 0)
        #expect(equalizer.factors[1] == [Double](repeating: 1, count: 32))
        let centre = 2.5 * 44100 / 64
        let silenced = 20 * log10(Self.level(centre, &equalizer) / Self.plain)
        #expect(silenced < -30, "\(silenced) dB")
        // A factor of 1e300 is +30 dB at most: loud, never NaN, never stuck at full scale.
        var huge = MpegBandEqualizer()
        var factors = [Double](repeating: 1, count: 32)
        factors[5] = 1e300
        huge.set([factors, factors])
        let level = Self.level(1000, &huge)
        #expect(level.isFinite && level < 32767 * 0.99, "\(level)")
    }
}
