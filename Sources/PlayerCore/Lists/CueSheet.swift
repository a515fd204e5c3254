/// A CUE sheet: the tracks of one or more image files (`album.flac` ripped whole from a CD), with
/// their titles and where each starts, and every problem found, located.
///
/// A parser of our own rather than libcue: libcue would be one more C library to load, and its
/// flex/bison grammar gives no sheet at all for a line it does not expect, where sheets in the
/// wild are sloppy (unquoted titles with spaces, lower-case commands, `REM` lines of every
/// ripper); this one is small, pure Swift, keeps every good track and says where every bad one
/// is, and is fuzzed (`Fuzz/FuzzCue`) against the promises `ParserChecks.cue` states.
///
/// Rules, and why:
/// - Text: UTF-8 (a BOM skipped) when the whole sheet is valid UTF-8, else Windows-1252, which
///   EAC and other Windows rippers write (Latin-1 with printable `€ ‘ ’ “ ”` at 0x80–0x9F). The
///   choice is made once for the sheet: a ripper writes one encoding. `FILE` names stay bytes.
/// - A track plays from its `INDEX 01` to the next track's `INDEX 01` in the same `FILE`
///   (`end`), or to the end of its file (`nil`). The next track's `INDEX 00` is not its end: the
///   pregap between them plays at the end of this track, as a CD player playing through does
///   and as foobar2000 and Hydrogenaudio's guidance have it, so that consecutive tracks join
///   sample for sample and no audio is left out. (cmus, cue.c, ends a track at the next one's
///   `INDEX 00`, so its pregaps are played by no track.) The first track's pregap (a hidden
///   track before `INDEX 01`) is not played, as on a CD player.
/// - `PREGAP`/`POSTGAP` are silence a burner would add: noted, no audio added.
/// - A track's file is the `FILE` in effect at its `INDEX 01` (EAC's sheets put a track's
///   `INDEX 00` at the end of the previous file).
/// - Every problem is a `Diagnostic` at its line and column; a track with one is left out, the
///   rest kept. Unknown commands are said and ignored. Past `maxProblems` the sheet is not read on.
public struct CueSheet: Equatable, Sendable {
    /// The sheet's `TITLE`: the album.
    public var title: String?
    /// The sheet's `PERFORMER`: the album's artist.
    public var performer: String?
    public var songwriter: String?
    /// `REM GENRE`, `REM DATE`.
    public var genre: String?
    public var date: String?
    public var catalog: String?
    /// `REM REPLAYGAIN_ALBUM_GAIN` / `_PEAK` (the tracks carry their own and these).
    public var replayGain = ReplayGain()
    /// The good tracks, in sheet order.
    public var tracks: [Track] = []
    public var problems: [Diagnostic] = []

    /// One track: where it is in its image file and what the sheet says of it.
    public struct Track: Equatable, Sendable {
        /// `TRACK nn`: 1 to 99.
        public var number: Int
        public var title: String?
        /// The track's own `PERFORMER` (`tags` falls back to the sheet's).
        public var performer: String?
        public var songwriter: String?
        public var isrc: String?
        public var flags: String?
        public var genre: String?
        public var date: String?
        /// The image file as the sheet writes it (bytes; the caller resolves it against the
        /// sheet's folder), and the `FILE` line that names it.
        public var file: Path
        public var fileLocation: SourceLocation
        /// The `TRACK` line.
        public var location: SourceLocation
        /// `INDEX 01`, in CD frames (1/75 s) from the start of the file.
        public var start: Int64
        /// The next track's `INDEX 01` in the same file; `nil`: to the end of the file.
        public var end: Int64?
        /// Frames of pregap: from `INDEX 00` to `INDEX 01`, or `PREGAP` (silence not in the file).
        public var pregap: Int64?
        public var postgap: Int64?
        /// The track's gain and peak, with the sheet's album gain and peak.
        public var replayGain = ReplayGain()

        /// Where the track lies in its file, as the engine plays it.
        public var span: TrackSpan { TrackSpan(start: start, end: end) }

        /// The track's start and end in sample frames at `rate`: exact at 44100 Hz (588 samples a
        /// CD frame) and every multiple of 75 Hz, rounded down at others (`TrackSpan.samples`).
        public func samples(at rate: Int) -> (start: Int64, end: Int64?) { span.samples(at: rate) }
    }

    /// A sheet with more problems than this is not read further: it is surely not a sheet.
    public static let maxProblems = 50
    /// A sheet is read only up to this size: 99 tracks with long titles take under 64 KB.
    public static let maxBytes = 1 << 20

    /// The tags a track's entry shows: its title, its performer or the album's, the album, the
    /// genre and date (its own or the sheet's), its number.
    public func tags(of track: Track) -> SongInfo.Tags {
        var tags = SongInfo.Tags(title: track.title, artist: track.performer ?? performer, album: title)
        tags.year = track.date ?? date
        tags.genre = track.genre ?? genre
        tags.track = "\(track.number)"
        return tags
    }

    public init() {}

    /// Whether `path` is named as a CUE sheet (`.cue`, any case).
    public static func isSheet(_ path: Path) -> Bool { path.lowercasedExtension == "cue" }

    /// Why a file's bytes are no sheet to parse, in the words said of it.
    public enum Unreadable: Error, Equatable, CustomStringConvertible {
        case utf16WithoutByteOrderMark, binary

        public var description: String {
            switch self {
            case .utf16WithoutByteOrderMark: "UTF-16 without a byte-order mark; save it as UTF-8"
            case .binary: "binary data, not a CUE sheet"
            }
        }
    }

    /// A sheet's file as read (up to `maxBytes`): UTF-16 with its byte-order mark read as the
    /// text it is, binary data refused; every door a sheet comes in by reads it so.
    public static func read(_ bytes: [UInt8], file: String = "") -> Result<CueSheet, Unreadable> {
        let text = TextLines.utf8(fromUTF16: bytes) ?? bytes
        guard !text.withUnsafeBufferPointer(TextLines.looksBinary) else {
            return .failure(TextLines.looksLikeUTF16(text) ? .utf16WithoutByteOrderMark : .binary)
        }
        return .success(parse(text, file: file))
    }

    /// Parses a sheet held in memory (read up to `maxBytes`); `file` names it in locations.
    public static func parse(_ bytes: [UInt8], file: String = "") -> CueSheet {
        var parser = CueParser(file: file, windows1252: String(validating: bytes, as: UTF8.self) == nil)
        LineSplitter.forEachLine(in: bytes) { parser.take($0) }
        return parser.finish()
    }
}
