/// Vorbis's channel order (also Opus's, for up to 8 channels) against WAV's, which FLAC, the
/// outputs and the file `-w` writes use: a 5.1 Vorbis stream is FL C FR RL RR LFE, where WAV is
/// FL FR C LFE RL RR. `oggdec` and `opusdec` reorder so, and so does tplayer.
enum VorbisChannelOrder {
    /// For each WAV channel, the Vorbis channel it comes from; `nil` where the orders agree.
    static func wavSources(channels: Int) -> [Int]? {
        switch channels {
        case 3: [0, 2, 1]
        case 5: [0, 2, 1, 3, 4]
        case 6: [0, 2, 1, 5, 3, 4]
        case 7: [0, 2, 1, 6, 5, 3, 4]
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]
        default: nil
        }
    }

    /// Puts the `frames` interleaved frames at `samples` in WAV's order, in place.
    static func toWAV(_ samples: UnsafeMutablePointer<Int16>, frames: Int, channels: Int) {
        guard let sources = wavSources(channels: channels) else { return }
        var frame = [Int16](repeating: 0, count: channels)
        for index in 0..<frames {
            let base = samples + index * channels
            for channel in 0..<channels { frame[channel] = base[channel] }
            for channel in 0..<channels { base[channel] = frame[sources[channel]] }
        }
    }
}
