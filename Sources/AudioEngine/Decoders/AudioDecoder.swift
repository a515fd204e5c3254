import Files
import PlayerCore

/// What one read gave.
enum DecodeResult: Equatable, Sendable {
    /// `bytes` of PCM in the buffer.
    case data(bytes: Int)
    /// The stream changes format here (a "Frankenstein" stream, or a new song's first frame);
    /// what follows is in this format.
    case newFormat(PCMFormat)
    case done
    /// The stream is damaged here: `bytes` were decoded before the damage, and the song ends
    /// after them, as in mpg123.
    case damaged(bytes: Int, reason: String)
    /// The stream was damaged here and the decoder found its frames again after it: about
    /// `seconds` of the song were lost (skipped, never played as noise); it plays on.
    case skipped(seconds: Double)
    /// Nothing decoded yet (a decoder that decodes ahead on a thread of its own, `AheadDecoder`):
    /// it wakes the reader when it has more.
    case pending
}

/// A song open in a decoder: what the player needs to know about it.
struct OpenedSong: Equatable, Sendable {
    var info: SongInfo
    var format: PCMFormat
    /// What its decoder applied itself, in its synthesis (libmpg123, as mpg123 does); the
    /// processing stage applies the rest (`SampleStage`).
    var appliedInDecoder: AppliedInDecoder = []
}

/// What a decoder applies to the samples itself, as its reference tool does, so that they are
/// that tool's: libmpg123 applies an MP3's ReplayGain (`mpg123 --rva-mix`) and `-R`'s 32-band
/// equaliser (`mpg123_eq2`) in its synthesis. What it does not, the processing stage does.
struct AppliedInDecoder: OptionSet, Equatable, Sendable {
    let rawValue: UInt8
    /// The song's ReplayGain, in the mode asked for when it opened: the song keeps it, and a
    /// new mode is heard from the next song that decoder opens.
    static let replayGain = AppliedInDecoder(rawValue: 1)
    /// `-R`'s equaliser of 32 MPEG bands.
    static let mpegEqualizer = AppliedInDecoder(rawValue: 2)
}

/// The formats a decoder may give: whatever the stream has at each point, or one format for the
/// whole song (the decoder converts rate, channels and sample depth to it).
enum FormatRule: Equatable {
    /// Each part of the stream in its own format (a live device is reopened when it changes).
    case any
    /// The format the song starts in, kept to its end: a file's first song.
    case first
    /// Exactly this one: the songs after the first in a file.
    case exactly(PCMFormat)
}

/// Decodes one song at a time to PCM. The live one is `SongDecoder` (each format's library),
/// decoding ahead in an `AheadDecoder` on a live output; tests use a fake that makes PCM,
/// format changes and damage to order.
protocol AudioDecoder: AnyObject {
    /// Opens `source` (a file, a track of it, or an internet stream), closing any song before,
    /// and reads up to its first frame. The file `-w` writes is never opened as a song
    /// (`OpenedFiles`).
    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong
    func close()
    /// Decodes up to `capacity` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult
    /// Moves to `frame` (clamped by the decoder); the frame it landed on, or `nil` when the
    /// stream cannot seek.
    func seek(toFrame frame: Int64) -> Int64?
    /// What the decoder may decode the songs opened from now on to.
    func restrictFormat(to rule: FormatRule) throws(LoadFailure)
    /// The ReplayGain mode for the songs opened from now on: libmpg123 applies it to an MP3 as
    /// it opens; every other song's gain is applied after the decoder (`SampleStage`).
    func setReplayGain(_ choice: ReplayGainChoice)
    /// libmpg123's equaliser bands (32 factors, left and right), for MPEG audio decoded from now
    /// on; the other formats are equalised with them after the decoder (`MpegBandEqualizer`).
    func setEqualizer(_ bands: [[Double]])
    /// The song's file was truncated while it played: its size then and now.
    var truncation: (was: Int64, now: Int64)? { get }
    /// Whether the song's stated length is exact (FLAC's STREAMINFO, an Ogg stream's last
    /// granule, a LAME tag's frame count), not an estimate: a song that ends short of it was cut.
    var lengthIsExact: Bool { get }
    /// The song open on this decoder is the one playing (opened so, or opened ahead on the spare
    /// decoder and taken over).
    func promoted()
    /// Begins to open `source` as the next song, where the decoder can do that on a thread of its
    /// own (`AheadDecoder`); `opened` then gives the outcome, waiting for it if need be.
    func startOpening(_ source: SongSource)
    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong
    /// What makes an internet stream's waits end at once (its read, its connecting): called
    /// from any thread, before what replaces the song (`open`, `close`) or ends the run.
    var streams: StreamInterruption { get }
}

extension AudioDecoder {
    /// A decoder that opens no streams has none to stop.
    var streams: StreamInterruption { StreamInterruption() }
}
