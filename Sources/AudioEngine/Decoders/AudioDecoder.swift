import Files
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
}

/// Decodes one song at a time to PCM. The live one is libmpg123 (`Mpg123Decoder`); tests use a
/// fake that makes PCM, format changes and damage to order.
/// The formats a decoder may give: whatever the stream has at each point, or one format for the
/// whole song (the decoder converts rate and channels to it).
enum FormatRule: Equatable {
    /// Each part of the stream in its own format (a live device is reopened when it changes).
    case any
    /// The format the song starts in, kept to its end: a file's first song.
    case first
    /// Exactly this one: the songs after the first in a file.
    case exactly(PCMFormat)
}

protocol AudioDecoder: AnyObject {
    /// Opens `source` (a file, or a track of it), closing any song before, and reads up to its
    /// first frame. The file `-w` writes is never opened as a song (`OpenedFiles`).
    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong
    func close()
    /// Decodes up to `capacity` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult
    /// Moves to `frame` (clamped by the decoder); the frame it landed on, or `nil` when the
    /// stream cannot seek.
    func seek(toFrame frame: Int64) -> Int64?
    /// What the decoder may decode the songs opened from now on to.
    func restrictFormat(to rule: FormatRule) throws(LoadFailure)
    /// The ReplayGain the songs opened from now on get.
    func setReplayGain(_ choice: ReplayGainChoice)
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
}

/// Why the output failed: one line for the user.
struct OutputFailure: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    /// The output works, but not in the format asked for (a rate past what the server takes):
    /// the song cannot play there, the output can still play the others.
    var refusesFormat = false
    var description: String { message }
}

/// Where PCM goes: a live device or a file, opened in a format. The live one is libao
/// (`AoOutput`); tests use a fake that records what it is given and fails to order.
protocol AudioOutput: AnyObject {
    /// The driver or the file, for messages.
    var name: String { get }
    /// A file runs as fast as decoding allows and keeps its first format.
    var isFile: Bool { get }
    /// How it is kept to time: not at all (a file), held to real time (the null device), or
    /// kept a little ahead of a device's clock.
    var pacing: Pacing { get }
    /// Opens the device or creates the file for `format`.
    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink
    /// The highest rate it can be opened at: what a pitch may raise a song's rate to.
    var highestRate: Int { get }
}

extension AudioOutput {
    var highestRate: Int { PlayableFormat.rates.upperBound }
}

/// An open device or file.
protocol AudioSink: AnyObject {
    var format: PCMFormat { get }
    /// Hands `bytes` to the device or file; throws when it takes them no more. Returns whether
    /// the device's buffer was full, so that the write waited for it to make room.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool
    /// Drains a device, or finishes a file (its final header). Throws when that fails.
    func close() throws(OutputFailure)

    // A sound server's stream (`PulseSink`) can say more, and pause and drop what it holds:

    /// Bytes the output has room for now; `nil` for an output that says nothing (it blocks).
    var writableBytes: Int? { get }
    /// Frames written but not yet heard; `nil` for an output that cannot say.
    var queuedFrames: Int? { get }
    /// Whether `pause` stops the output where it is (a cork), with nothing lost.
    var canPause: Bool { get }
    func pause(_ paused: Bool)
    /// Drops what is queued, so that what is written next is heard at once.
    func discard()
    /// Asks to be told when what is queued has played (`isDrained`); the server's word, not an
    /// estimate, is what ends a song.
    func drain()
    var isDrained: Bool { get }
}

/// A device or file that says nothing of what it holds: a write blocks until it has room, it
/// cannot pause or drop what it holds, and it is drained when closed (libao, a file). Sinks opt
/// in by name; a sound server's stream implements each of these itself.
protocol BlockingSink: AudioSink {}

extension BlockingSink {
    var writableBytes: Int? { nil }
    var queuedFrames: Int? { nil }
    var canPause: Bool { false }
    func pause(_ paused: Bool) {}
    func discard() {}
    func drain() {}
    var isDrained: Bool { true }
}
