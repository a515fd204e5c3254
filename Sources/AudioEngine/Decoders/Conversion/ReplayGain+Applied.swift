import Glibc
import PlayerCore

extension ReplayGain {
    /// The gain to apply for `choice`, in dB, and the factor that scales samples by it: the
    /// chosen kind's gain (the other kind's when the song has only that one) plus the pre-amp,
    /// lowered where the peak says the loudest sample would clip. `nil` when the choice is off
    /// or the song has no gain.
    func applied(_ choice: ReplayGainChoice) -> (decibels: Double, factor: Double)? {
        let picked: (gain: Double?, peak: Double?)
        switch choice.gain {
        case .off: return nil
        case .track: picked = trackGain != nil ? (trackGain, trackPeak) : (albumGain, albumPeak)
        case .album: picked = albumGain != nil ? (albumGain, albumPeak) : (trackGain, trackPeak)
        }
        guard let gain = picked.gain else { return nil }
        var decibels = gain + choice.preamp
        if let peak = picked.peak, peak > 0 {
            // Clipping prevention: the loudest sample at most at full scale.
            decibels = min(decibels, -20 * log10(peak))
        }
        return (decibels, pow(10, decibels / 20))
    }
}
