import Foundation
import GRDB
import PlayerCore

/// A song as a row of `song` and of its search index.
extension LibrarySong {
    /// The columns a scan writes, in the order of `arguments`.
    static let columns = ["path", "size", "modified", "title", "artists", "albumartists", "album", "disc", "track", "date",
                          "year", "genres", "composers", "compilation", "seconds", "format", "bits", "rate", "channels",
                          "trackgain", "albumgain", "shelf", "shelfkey", "albumkey", "others", "tagversion"]
    /// Which tags a row holds: 1 with `others` (a row of 0 is read again at the next scan).
    static let tagVersion = 1
    /// The statistics, which a scan keeps (and a move carries over).
    static let statistics = ["playcount", "lastplayed", "skipcount", "rating"]

    var arguments: StatementArguments {
        arguments(keys: LibraryDatabase.AlbumKey(shelf: Self.sortKey(shelf), album: Self.sortKey(album ?? "")))
    }

    /// The same, with its keys as made already.
    func arguments(keys: LibraryDatabase.AlbumKey) -> StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            Data(path.bytes), size, modified, title, Self.joined(artists), Self.joined(albumArtists), album, disc, track, date,
            year, Self.joined(genres), Self.joined(composers), compilation, seconds, format, bits, rate, channels,
            trackGain, albumGain, shelf, keys.shelf, keys.album, Self.joined(others: otherTags), Self.tagVersion,
        ]
        return StatementArguments(values)
    }

    /// The search index's columns: title, artist, album artist, album, genre, composer, path,
    /// each folded as the list view's search folds.
    var searchArguments: StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            Self.folded(title ?? ""), Self.folded(artists.joined(separator: " ")), Self.folded(shelf), Self.folded(album ?? ""),
            Self.folded(genres.joined(separator: " ")), Self.folded(composers.joined(separator: " ")),
            Self.folded(path: path),
        ]
        return StatementArguments(values)
    }

    /// From a row of `SELECT *` on `song`.
    init(row: Row) {
        let bytes: Data = row["path"]
        self.init(path: Path(bytes: Array(bytes)), size: row["size"], modified: row["modified"], rate: row["rate"],
                  channels: row["channels"])
        title = row["title"]
        artists = Self.values(row["artists"])
        albumArtists = Self.values(row["albumartists"])
        album = row["album"]
        disc = row["disc"]
        track = row["track"]
        date = row["date"]
        genres = Self.values(row["genres"])
        composers = Self.values(row["composers"])
        compilation = row["compilation"]
        seconds = row["seconds"]
        format = row["format"]
        bits = row["bits"]
        trackGain = row["trackgain"]
        albumGain = row["albumgain"]
        otherTags = Self.others(row["others"])
        playCount = row["playcount"]
        lastPlayed = row["lastplayed"]
        skipCount = row["skipcount"]
        rating = row["rating"]
    }

    /// Several values in one column, apart by U+001F (taken out of the values themselves).
    private static let separator: Character = "\u{1F}"

    static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.map { $0.replacingOccurrences(of: String(separator), with: " ") }.joined(separator: String(separator))
    }

    static func values(_ column: String?) -> [String] {
        column.map { $0.split(separator: separator).map(String.init) } ?? []
    }

    /// Other tags in one column: each `NAME` U+001E `value`, apart by U+001F.
    static func joined(others: [Tag]) -> String? {
        joined(others.map { "\($0.name.rawValue)\u{1E}\($0.value.replacingOccurrences(of: "\u{1E}", with: " "))" })
    }

    static func others(_ column: String?) -> [Tag] {
        values(column).compactMap { pair in
            guard let mark = pair.firstIndex(of: "\u{1E}"), let name = MpdTag(rawValue: String(pair[..<mark])) else { return nil }
            return Tag(name, String(pair[pair.index(after: mark)...]))
        }
    }

    /// The key an album artist or an album is grouped and ordered by: folded as the search
    /// folds (any case, any accent), each run of digits padded to ten, so that byte order is
    /// natural order ("Artist 2" before "Artist 10", as the player orders file names).
    public static func sortKey(_ text: String) -> String {
        var key = ""
        var digits = ""
        func flush() {
            if !digits.isEmpty { key += String(repeating: "0", count: max(10 - digits.count, 0)) + digits }
            digits = ""
        }
        for character in folded(text) {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                flush()
                key.append(character)
            }
        }
        flush()
        return key
    }

    static func folded(path: Path) -> String {
        var bytes: [UInt8] = []
        SearchFold.fold(path: path.bytes, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func folded(_ text: String) -> String {
        String(decoding: SearchFold.fold(text), as: UTF8.self)
    }
}
