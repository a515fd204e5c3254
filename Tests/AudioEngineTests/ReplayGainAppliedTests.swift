import PlayerCore
import Testing
@testable import AudioEngine

struct ReplayGainAppliedTests {
    @Test func theChosenGainPlusThePreampIsApplied() throws {
        let gain = ReplayGain(trackGain: -6, albumGain: -3)
        let track = try #require(gain.applied(ReplayGainChoice(gain: .track, preamp: 1)))
        #expect(abs(track.decibels - -5) < 1e-9)
        #expect(abs(track.factor - 0.562341) < 1e-6)
        #expect(try #require(gain.applied(ReplayGainChoice(gain: .album))).decibels == -3)
        #expect(gain.applied(.off) == nil)
        #expect(ReplayGain().applied(ReplayGainChoice(gain: .track)) == nil)
        // A song with only the other kind gets that one.
        #expect(try #require(ReplayGain(albumGain: -2).applied(ReplayGainChoice(gain: .track))).decibels == -2)
    }

    @Test func thePeakKeepsTheLoudestSampleFromClipping() throws {
        // +6 dB on a song that peaks at 0.8 would clip: it gets +1.94 dB (1/0.8), no more.
        let applied = try #require(ReplayGain(trackGain: 6, trackPeak: 0.8).applied(ReplayGainChoice(gain: .track)))
        #expect(abs(applied.factor * 0.8 - 1) < 1e-9)
        #expect(abs(applied.decibels - 1.9382) < 1e-3)
        // A cut is never limited.
        #expect(try #require(ReplayGain(trackGain: -6, trackPeak: 1.2).applied(ReplayGainChoice(gain: .track))).decibels < -6 + 1e-9)
    }
}
