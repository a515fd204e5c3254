/// One song in the list: its path, the title a playlist gave it (shown when the file has no
/// tags), and the playlist line that named it.
public struct Entry: Equatable, Hashable, Sendable {
    public var path: Path
    public var title: String?
    /// The playlist or script line that named it, for messages about it.
    public var origin: SourceLocation?
    /// How the playlist wrote it, when that was a URL (mpg123's `LISTENTRY` shows it so).
    public var written: String?
    /// The part of the file that is this entry (a CUE sheet's track); `nil`: the whole file.
    public var span: TrackSpan?
    /// What a CUE sheet says of its track (title, performer, album…): it wins over the image
    /// file's own tags, field by field, once the song is opened (`SongInfo.named(by:)`).
    public var sheetTags: SongInfo.Tags?
    /// The CUE sheet a track was read from, as its bytes name it (the list is saved as the
    /// sheet, which M3U can name where it cannot name a span).
    public var sheet: Path?

    /// What the engine opens for it.
    public var source: SongSource { SongSource(path, span: span) }

    /// A list stops at this many entries (about 100 MB of them), whatever a playlist, a folder
    /// or a saved session holds: no input, however large, makes memory grow without bound.
    public static let listLimit = 1_000_000

    public init(path: Path, title: String? = nil, origin: SourceLocation? = nil) {
        self.path = path
        self.title = title
        self.origin = origin
    }

    /// A load failure about this entry: `list.m3u:12: no such file: x.mp3` when a playlist named
    /// it, else `x.mp3: no such file`.
    public func describe(_ error: LoadError) -> String {
        guard let origin else { return error.description }
        return "\(origin.brief): \(error.reason): \(path)"
    }
}

/// A place in a file tplayer reads (a playlist or a script): its line and column, or the whole
/// file (line 0). Every message about a file says where with one of these.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it (for display).
    public var file: String
    /// 1-based; 0 when the problem is about the whole file.
    public var line: Int
    /// 1-based, in characters.
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The same place in `file` (parsers know lines, not file names).
    public func `in`(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// `list.m3u:12`: how a run names it.
    public var brief: String { line > 0 ? "\(file):\(line)" : file }

    /// `list.m3u:12:3`: how `--check` names it (what editors jump to).
    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}

/// A problem found at a place in a file tplayer reads.
public struct Diagnostic: Equatable, Sendable, Error {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `list.m3u:12: no such file: x.mp3`: how a run reports it.
    public var brief: String { "\(location.brief): \(message)" }

    /// `list.m3u:12:1: no such file: x.mp3`: how `--check` reports it.
    public var located: String { "\(location): \(message)" }
}
