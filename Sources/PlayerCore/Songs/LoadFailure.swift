/// Why a song could not be loaded: a reason the caller can switch on, and say.
public enum LoadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case missing
    /// The system refused: permission denied, too many open files, file name too long.
    case notReadable(String)
    case isDirectory
    /// A named pipe, a device or a socket: never opened as a song.
    case notRegular(String)
    case empty
    /// Nothing in the file is audio that a decoder knows (no MPEG frames, no container FFmpeg reads).
    case notAudio
    /// The file's first bytes say it is something no decoder plays (an image, a playlist, Speex
    /// in Ogg…): it is never searched for MPEG frames, which such data can hold by chance and
    /// would play as noise.
    case otherFormat(FileContent)
    /// The format's decoder library could not be loaded (it is loaded when first needed).
    case decoderMissing(String)
    /// Audio, but its decoder cannot decode it (its reason).
    case damaged(String)
    /// The file `-w` is writing: reading it while it grows would never end.
    case isOutput
    /// The song's header claims a rate or channel count past `PlayableFormat`'s: refused, never
    /// multiplied out (2,000,000,000 Hz, 200 channels).
    case unplayableFormat(rate: Int, channels: Int)
    /// An internet stream that cannot be opened: refused, an HTTP error, no such host, a TLS
    /// certificate that does not verify, a redirect to what is not http (the reason).
    case network(String)
    /// What was opened is a playlist served over http (a radio's `.pls`). Carried from the
    /// stream's opener to the playback loop, which reports it as `EngineEvent.servedPlaylist`
    /// (never as a failure): its entries go in its place (`PlayerModel.adopt`).
    case playlist(ServedPlaylist)

    public var description: String {
        switch self {
        case .missing: "no such file"
        case .notReadable(let reason): reason
        case .isDirectory: "is a directory, not a song"
        case .notRegular(let kind): "not a regular file (it is a \(kind))"
        case .empty: "file is empty"
        case .notAudio: "not an audio format tplayer plays (no MPEG audio or other format found in it)"
        case .otherFormat(let content) where content.isAudio: "\(content), which tplayer cannot decode"
        case .otherFormat(let content) where content.isList:
            "\(content), not a song: play it as a list (name it as an input, or LOADLIST it with -R)"
        case .otherFormat(let content): "not an audio format tplayer plays (it looks like \(content))"
        case .decoderMissing(let library): "its decoder, \(library), cannot be loaded; install it"
        case .damaged(let reason): "cannot decode it: \(reason)"
        case .isOutput: "that is the file -w is writing; not played"
        case .network(let reason): reason
        case .playlist(let served): "a playlist of \(served.entries.count) stream\(served.entries.count == 1 ? "" : "s")"
        case .unplayableFormat(let rate, let channels):
            "its header claims \(rate) Hz and \(channels) channels; tplayer plays \(PlayableFormat.description)"
        }
    }
}

/// A song that could not be loaded, and why.
public struct LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: Path
    public let reason: LoadFailure

    public init(path: Path, reason: LoadFailure) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
