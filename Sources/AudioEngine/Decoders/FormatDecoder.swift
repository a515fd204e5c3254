import Files
import PlayerCore

/// One format's decoder behind `SongDecoder`: the format's reference library (libmpg123, linked;
/// libFLAC, vorbisfile, opusfile, FFmpeg, loaded with dlopen when the first song of their format
/// opens, so that an MP3 run starts as fast as before). `SongDecoder` opens and checks the file,
/// chooses the decoder by the file's content (never its name), and converts what it gives to the
/// format the output needs where the library does not. Only the thread that owns the
/// `SongDecoder` touches it.
protocol FormatDecoder: AnyObject {
    /// Makes the songs opened from now on decode as `rule` asks, where the library can do that
    /// itself (libmpg123 converts to its own rates, mono or stereo); whether it does. Where it
    /// does not, it gives each song in its own format and `SongDecoder` converts.
    func decode(as rule: FormatRule) throws(LoadFailure) -> Bool
    /// Applies the ReplayGain `choice` asks for to the songs opened from now on, where the
    /// library does that itself, as its reference tool does (libmpg123, as `mpg123 --rva-mix`),
    /// saying what it applied in `SongInfo.appliedGain`; returns what it applies itself (the
    /// gain, and `-R`'s MPEG equaliser). What it does not, the processing stage applies
    /// (`SampleStage`, after the decode-ahead queue: a new mode is heard at once).
    func applyReplayGain(_ choice: ReplayGainChoice) -> AppliedInDecoder
    /// Opens the song in `source` (a file that `SongFile` opened and checked, or an internet
    /// stream) and reads up to its first samples. The decoder reads it through `SourceReading`
    /// only (never a file by name) and may keep it until `close`. The format is the song's own:
    /// interleaved samples at the stream's rate and channel count, in the `SampleEncoding` that
    /// holds its bits. libmpg123, vorbisfile and opusfile give signed 16-bit; libFLAC the song's
    /// depth (unsigned 8-bit up to 8 bits, else 16, 24 or 32-bit); FFmpeg 24 or 32-bit for deeper
    /// integer samples, 32-bit float for float PCM, 16-bit for the rest. `verifies`: the song
    /// will be decoded whole from its start (`--check`): check what the format can check besides
    /// (FLAC's MD5 signature of the audio), and give a mismatch as `.damaged` at the end.
    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong
    /// Up to `capacity` bytes of PCM, whole frames: `.data`; `.newFormat` where a chained stream
    /// changes rate or channels; `.done`; `.damaged` with the bytes decoded before the damage;
    /// `.skipped` where damage was skipped and decoding goes on.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult
    /// Moves to `frame`, exactly: the next read starts with that frame, as a decode from the start
    /// would give it. The frame it landed on, or `nil` when the stream cannot seek.
    func seek(toFrame frame: Int64) -> Int64?
    func close()
    /// Whether the song's stated length is exact (FLAC's STREAMINFO, an Ogg stream's last
    /// granule, a LAME tag's frame count), not an estimate: a song that ends short of it was cut.
    var lengthIsExact: Bool { get }
    /// The song open is the one playing (not one opened ahead): work for it alone may start
    /// (libmpg123's frame index for fast seeks).
    func promoted()
    /// Equalises what it decodes from now on with these bands (32 factors, left and right),
    /// where the library has an equaliser (libmpg123's).
    func setEqualizer(_ bands: [[Double]])
    /// A chained Ogg stream's link began since last asked (a radio's next song): its title, as
    /// its comments give it ("Artist - Title"); `nil` when none began or it has none.
    func takeLinkTitle() -> String?
    /// Where in its input the audio given out last began (a byte offset), where the library
    /// says: a stream's ICY title is placed by it. `nil`: not known (the reads' reach is used).
    var inputOffset: Int64? { get }
}

/// What most libraries do: decode each song in its own format, leave ReplayGain to the tags,
/// state exact lengths, and have nothing to start once a song plays.
extension FormatDecoder {
    func decode(as rule: FormatRule) throws(LoadFailure) -> Bool { false }
    func takeLinkTitle() -> String? { nil }
    var inputOffset: Int64? { nil }
    func applyReplayGain(_ choice: ReplayGainChoice) -> AppliedInDecoder { [] }
    var lengthIsExact: Bool { true }
    func promoted() {}
    func setEqualizer(_ bands: [[Double]]) {}
}

/// Makes the decoder of each format, set up as the engine wants it.
struct DecoderLibrary {
    /// Builds the playing MP3's frame index in the background (live output: seeks are heard).
    var indexer: FrameIndexer?
    /// Measure each MP3's start delay when it opens, for mpg123's remote protocol.
    var measuresStartDelay = false

    /// The library's decoder for `codec`, loading the library.
    func make(_ codec: Codec) throws(LoadFailure) -> FormatDecoder {
        switch codec {
        case .mpeg:
            let decoder: Mpg123Decoder
            do {
                decoder = try Mpg123Decoder()
            } catch {
                throw .decoderMissing("libmpg123: \(error)")
            }
            decoder.indexer = indexer
            decoder.measuresStartDelay = measuresStartDelay
            return decoder
        case .flac: return try FlacDecoder()
        case .vorbis: return try VorbisDecoder()
        case .opus: return try OpusDecoder()
        case .ffmpeg: return try FFmpegDecoder()
        }
    }
}

/// The libraries behind the formats, one per `FormatDecoder`.
enum Codec: Hashable, Sendable {
    case mpeg
    case flac
    case vorbis
    case opus
    case ffmpeg

    /// Which library decodes `content`; `nil` for what none does (images, playlists…). MPEG
    /// audio, and a file that says nothing known, go to libmpg123, which looks for frames.
    init?(_ content: FileContent?) {
        guard let content else {
            self = .mpeg
            return
        }
        switch content {
        case .mpegAudio: self = .mpeg
        case .flac, .oggFlac: self = .flac
        case .oggVorbis: self = .vorbis
        case .opus: self = .opus
        case .mp4, .wav, .aiff, .au, .ape, .wavPack, .asf, .matroska, .adts, .tta, .musepack, .caf, .ac3, .ogg: self = .ffmpeg
        case .m3u, .pls, .cueSheet, .png, .jpeg, .gif, .pdf, .zip, .executable: return nil
        }
    }
}
