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

    /// Why a song in this format is refused, when it is.
    var refusal: LoadFailure? { isPlayable ? nil : .unplayableFormat(rate: rate, channels: channels) }
}
