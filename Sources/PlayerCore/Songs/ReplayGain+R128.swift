extension ReplayGain {
    /// An Opus file's gains: `R128_TRACK_GAIN` and `R128_ALBUM_GAIN` (RFC 7845, 5.2.1) are Q7.8
    /// fixed-point dB (an integer, 1/256 dB) that bring the song, as decoded with the header's
    /// output gain already applied, to EBU R128's −23 LUFS. ReplayGain's reference is about
    /// −18 LUFS, 5 dB louder: gain = R128 / 256 + 5 dB. Opus has no peak tags; REPLAYGAIN_* tags
    /// (which the specification forbids in Opus, but taggers write) are read, and the R128 gains
    /// win over them.
    public init(opus comments: VorbisComments) {
        self = comments.replayGain
        if let gain = Self.r128(comments.first("R128_TRACK_GAIN")) { trackGain = gain }
        if let gain = Self.r128(comments.first("R128_ALBUM_GAIN")) { albumGain = gain }
    }

    /// A Q7.8 gain in ReplayGain's dB, or `nil` when it is not a whole number in −32768…32767.
    static func r128(_ text: String?) -> Double? {
        guard let text, text.utf8.count <= 8, let q78 = Int(text.trimmingPrefix(" ")), (-32768...32767).contains(q78) else {
            return nil
        }
        return Double(q78) / 256 + 5
    }
}
