import Files
import PlayerCore

/// One format's decoder behind `SongDecoder`: the format's reference library (libFLAC,
/// vorbisfile, opusfile, FFmpeg), loaded with dlopen when the first song of its format opens, so
/// that an MP3 run starts as fast as before. `SongDecoder` opens and checks the file, chooses the
/// decoder by the file's content (never its name), and converts what it gives to the format the
/// output needs, at the volume asked. Only the thread that owns the `SongDecoder` touches it.
protocol FormatDecoder: AnyObject {
    /// Opens the song in `file`, a regular file that `SongFile` opened and checked, and reads up
    /// to its first samples. The decoder reads the file through its descriptor only (never by
    /// name) and may keep it until `close`. The format is the song's own: signed 16-bit samples
    /// in native byte order, interleaved, at the stream's rate and channel count (deeper samples
    /// are rounded to 16 bits). `verifies`: the song will be decoded whole from its start
    /// (`--check`): check what the format can check besides (FLAC's MD5 signature of the audio),
    /// and give a mismatch as `.damaged` at the end.
    func open(_ file: OpenFile, size: Int64, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong
    /// Up to `capacity` bytes of PCM, whole frames: `.data`; `.newFormat` where a chained stream
    /// changes rate or channels; `.done`; `.damaged` with the bytes decoded before the damage;
    /// `.skipped` where damage was skipped and decoding goes on.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult
    /// Moves to `frame`, exactly: the next read starts with that frame, as a decode from the start
    /// would give it. The frame it landed on, or `nil` when the stream cannot seek.
    func seek(toFrame frame: Int64) -> Int64?
    func close()
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
