import PlayerCore

/// The PCM format the decoder writes: always signed 16-bit, native byte order (what `mpg123 -w`
/// writes), at the stream's rate and channel count unless a format was imposed.
struct PCMFormat: Equatable, Sendable, CustomStringConvertible {
    var rate: Int
    var channels: Int

    static let bytesPerSample = 2
    var bytesPerFrame: Int { channels * Self.bytesPerSample }

    var description: String { "\(rate) Hz \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")" }

    /// Whether tplayer plays it (`PlayableFormat`): what a header claims is checked before it
    /// is multiplied by anything.
    var isPlayable: Bool { PlayableFormat.contains(rate: rate, channels: channels) }

    /// Scales `bytes` of signed 16-bit samples in `buffer` by `factor` (at least 0), rounding to
    /// the nearest and clipping; untouched at 1. The listener's volume and a song's gain.
    static func scale(_ buffer: UnsafeMutableRawPointer, bytes: Int, by factor: Double) {
        guard factor != 1 else { return }
        let factor = max(0, factor)
        let samples = buffer.bindMemory(to: Int16.self, capacity: bytes / 2)
        for index in 0..<(bytes / 2) {
            let scaled = (Double(samples[index]) * factor).rounded()
            samples[index] = Int16(max(-32768, min(32767, scaled)))
        }
    }

    /// Why a song in this format is refused, when it is.
    var refusal: LoadFailure? { isPlayable ? nil : .unplayableFormat(rate: rate, channels: channels) }
}
