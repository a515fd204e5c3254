import CMpg123
import Glibc
import PlayerCore

/// libmpg123's gain: an MP3's ReplayGain and its pre-amp, applied in the synthesis as
/// `mpg123 --rva-mix` applies them, so that the samples are mpg123's.
extension Mpg123Decoder {
    /// Scales the decoded samples by `fraction` (1 leaves them untouched): the ReplayGain
    /// pre-amp, in the synthesis as `mpg123 --rva-mix` applies it. It is a property of the
    /// handle, so it holds for every song opened after.
    func setVolume(_ fraction: Double) {
        mpg123_volume(handle, fraction)
    }

    /// libmpg123 applies an MP3's own ReplayGain itself (from its LAME tag, an RVA2 frame or
    /// `replaygain_*` TXXX frames, in that order of trust), lowered where the peak says the
    /// song would clip.
    func setReplayGain(_ choice: ReplayGainChoice) {
        let mode = switch choice.gain {
        case .off: MPG123_RVA_OFF
        case .track: MPG123_RVA_MIX
        case .album: MPG123_RVA_ALBUM
        }
        _ = mpg123_param2(handle, Int32(MPG123_RVA.rawValue), Int(mode.rawValue), 0)
    }

    /// libmpg123's own equaliser, as `mpg123 -R`'s `EQ` sets it: each of the 32 bands' factor
    /// on each channel, for the frames decoded from now on (and every song after).
    func setEqualizer(_ bands: [[Double]]) {
        for (channel, factors) in zip([MPG123_LEFT, MPG123_RIGHT], bands) {
            for (band, factor) in factors.prefix(32).enumerated() where factor.isFinite {
                _ = mpg123_eq2(handle, Int32(channel.rawValue), Int32(band), factor)
            }
        }
    }

    /// The ReplayGain libmpg123 applies to the song open now, in dB: 0 when it found none.
    var replayGainDecibels: Double {
        var base = 0.0
        var really = 0.0
        var gain = 0.0
        return mpg123_getvolume(handle, &base, &really, &gain) == MPG123_OK.rawValue ? gain : 0
    }
}

/// libmpg123 as MPEG audio's decoder, applying an MP3's ReplayGain itself.
extension Mpg123Decoder: FormatDecoder {
    /// libmpg123 applies an MP3's own gain (from its LAME tag, an RVA2 frame or `replaygain_*`
    /// TXXX frames) in its synthesis, and prevents clipping, as `mpg123 --rva-mix` does.
    func applyReplayGain(_ choice: ReplayGainChoice) -> AppliedInDecoder {
        replayGain = choice
        return [.replayGain, .mpegEqualizer]
    }

    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        setReplayGain(replayGain)
        var song = try open(source, path: path)
        song.info.replayGain = ReplayGain(song.info.id3)
        var decibels = replayGain.gain == .off ? 0 : replayGainDecibels
        if !(-64...64).contains(decibels) {
            // A tag's number as libmpg123 read it (`atof`: inf, nan, 1e30): the song is opened
            // again without any (its tables were made with it).
            setReplayGain(.off)
            song = try open(source, path: path)
            song.info.replayGain = ReplayGain(song.info.id3)
            decibels = 0
        }
        // The pre-amp is libmpg123's volume, applied with the gain.
        var preamp = 1.0
        if decibels != 0 {
            preamp = pow(10, replayGain.preamp / 20)
            song.info.appliedGain = decibels + replayGain.preamp
        }
        setVolume(preamp)
        return song
    }
}
