/// Vorbis comments (`TITLE=Night Drive`): the tags of FLAC, Ogg Vorbis and Opus files, as their
/// libraries hand them over. Untrusted text: shown only through the terminal's sanitiser.
public struct VorbisComments: Equatable, Sendable {
    /// Every comment as stored: the field name (any case) and its value, in file order.
    public var fields: [(name: String, value: String)] = []

    public init() {}

    /// From the raw `NAME=value` comments (bytes, not necessarily UTF-8: repaired; kept as
    /// `TagText` keeps them, lyrics longer); a comment with no `=` or an empty name is left out.
    public init(raw comments: [[UInt8]]) {
        var kept = TagText.Song()
        for comment in comments where fields.count < TagText.fieldLimit {
            guard let equals = comment.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { continue }
            let name = TagText.value(comment[..<equals])
            fields.append((name, kept.value(comment[(equals + 1)...], field: name)))
        }
    }

    /// The first value of `name` (any case), if any.
    public func first(_ name: String) -> String? {
        let wanted = name.uppercased()
        return fields.first { $0.name.uppercased() == wanted }?.value
    }

    /// Title, artist, album, date, genre, track number and comment.
    public var tags: SongInfo.Tags {
        var tags = SongInfo.Tags(title: first("TITLE"), artist: first("ARTIST") ?? first("ALBUMARTIST"), album: first("ALBUM"))
        tags.year = first("DATE") ?? first("YEAR")
        tags.genre = first("GENRE")
        // The number with the album's count, as ID3's TRCK keeps them (`4/12`).
        tags.track = first("TRACKNUMBER").map { number in
            guard !number.contains("/"), let total = first("TRACKTOTAL") ?? first("TOTALTRACKS"), !total.isEmpty else { return number }
            return number + "/" + total
        }
        tags.comment = first("COMMENT") ?? first("DESCRIPTION")
        return tags
    }

    /// The REPLAYGAIN_* fields.
    public var replayGain: ReplayGain {
        var gain = ReplayGain()
        for field in fields { gain.read(key: field.name, value: field.value) }
        return gain
    }

    public static func == (lhs: VorbisComments, rhs: VorbisComments) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
