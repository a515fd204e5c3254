import PlayerCore

/// One song as the library knows it: where it is and how it was when read (to tell whether it
/// changed), its tags and format, and what the user did with it (plays, skips, rating).
///
/// Tags are untrusted text: they leave only through `UntrustedText`, like every tag.
public struct LibrarySong: Equatable, Sendable {
    public var path: Path
    /// The file's size and modification time (ns since 1970) when its tags were read.
    public var size: Int64
    public var modified: Int64

    public var title: String?
    /// Every value the tags give (several `ARTIST` comments, an ID3v2.4 frame's list).
    public var artists: [String] = []
    public var albumArtists: [String] = []
    public var album: String?
    public var disc: Int?
    public var track: Int?
    /// As tagged ("1997", "1997-06-16").
    public var date: String?
    public var genres: [String] = []
    public var composers: [String] = []
    /// Tagged as a compilation (`COMPILATION`, `TCMP`, `cpil`).
    public var compilation = false
    /// The tags beside those above that MPD's clients ask for (sort names, the original date,
    /// performers, comments, label, MusicBrainz ids…), by MPD's names, in the file's order.
    public var otherTags: [Tag] = []

    /// One of `otherTags`.
    public struct Tag: Equatable, Sendable {
        public let name: MpdTag
        public let value: String

        public init(_ name: MpdTag, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var seconds: Double?
    /// "MP3", "FLAC, 24 bits", "Ogg Vorbis", "AAC (MP4)"…
    public var format: String?
    public var bits: Int?
    public var rate: Int
    public var channels: Int
    public var trackGain: Double?
    public var albumGain: Double?

    public var playCount = 0
    /// Seconds since 1970.
    public var lastPlayed: Int64?
    public var skipCount = 0
    /// 0 (none) to 5.
    public var rating = 0

    /// Whether the user did anything with it: a play, a skip, a rating.
    public var hasStatistics: Bool { playCount > 0 || skipCount > 0 || rating != 0 || lastPlayed != nil }

    public init(path: Path, size: Int64, modified: Int64, rate: Int = 0, channels: Int = 0) {
        self.path = path
        self.size = size
        self.modified = modified
        self.rate = rate
        self.channels = channels
    }

    /// The year of `date`: its first run of four digits ("16/06/1997" is 1997).
    public var year: Int? {
        guard let date else { return nil }
        var run = 0, value = 0
        for byte in date.utf8 + [0] {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                run += 1
                value = run <= 4 ? value * 10 + Int(byte - UInt8(ascii: "0")) : value
            } else {
                if run == 4 { return value }
                run = 0
                value = 0
            }
        }
        return nil
    }

    /// Whom the library files the song under: its album artists; "Various Artists" for a
    /// compilation that names none; else its artists; else "Unknown Artist".
    public var shelf: String {
        if !albumArtists.isEmpty { return albumArtists.joined(separator: "; ") }
        if compilation { return Self.variousArtists }
        return artists.isEmpty ? Self.unknownArtist : artists.joined(separator: "; ")
    }

    public static let variousArtists = "Various Artists"
    public static let unknownArtist = "Unknown Artist"
}
