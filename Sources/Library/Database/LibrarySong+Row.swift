import Foundation
import GRDB
import PlayerCore

/// A song as a row of `song` and of its search index.
extension LibrarySong {
    /// The columns a scan writes, in the order of `arguments`.
    static let columns = ["dirid", "name", "size", "modified", "title", "artists", "albumartists", "album", "disc", "track", "date",
                          "year", "genres", "composers", "compilation", "seconds", "format", "bits", "rate", "channels",
                          "trackgain", "albumgain", "shelf", "albumid", "others", "tagversion"]
    /// Which tags a row holds: 1 with `others` (a row of 0 is read again at the next scan).
    static let tagVersion = 1
    /// The statistics, which a scan keeps (and a move carries over).
    static let statistics = ["playcount", "lastplayed", "skipcount", "rating"]

    /// The values of `columns`, its folder's row `folderID`, its album's `albumID`.
    func arguments(folderID: Int64, albumID: Int64) -> StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            folderID, Data(SongPlace(path).name), size, modified, title, Self.joined(artists), Self.joined(albumArtists), album, disc, track, date,
            year, Self.joined(genres), Self.joined(composers), compilation, seconds, format, bits, rate, channels,
            trackGain, albumGain, shelf, albumID, Self.joined(others: otherTags), Self.tagVersion,
        ]
        return StatementArguments(values)
    }

    /// The song as its row gives it back: each list without its empty values, and the
    /// separator in none (`joined`, then `values`). What is made from it as it goes in (its
    /// album's keys, its words) is then what its row makes: the library view's album artist
    /// and the index's were not the same for a tag of an empty value.
    var asStored: LibrarySong {
        var song = self
        song.artists = Self.values(Self.joined(artists))
        song.albumArtists = Self.values(Self.joined(albumArtists))
        song.genres = Self.values(Self.joined(genres))
        song.composers = Self.values(Self.joined(composers))
        return song
    }

    /// Its album's keys (`album`'s row).
    var albumKey: AlbumRows.Key {
        AlbumRows.Key(shelf: Self.sortKey(shelf), album: Self.sortKey(album ?? ""))
    }

    /// The search index's columns: title, artist, album artist, album, genre, composer, and of
    /// the path its `name` in its folder (`SongPlace`), each folded as the list view's search
    /// folds.
    func searchArguments(name: [UInt8]) -> StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            Self.folded(title ?? ""), Self.folded(artists.joined(separator: " ")), Self.folded(shelf), Self.folded(album ?? ""),
            Self.folded(genres.joined(separator: " ")), Self.folded(composers.joined(separator: " ")),
            Self.folded(path: Path(bytes: name)),
        ]
        return StatementArguments(values)
    }

    /// From a row of `SELECT *` on `song` with its folder's path as `dirpath`
    /// (`LibraryDatabase.songColumns`).
    init(row: Row) {
        self.init(row: row, layout: RowLayout(row))
    }

    /// The songs of rows of one `SELECT *` on `song`, their columns found once, by the first
    /// (by name at each row, GRDB folded each name's case: a quarter of reading 100,000 songs).
    static func songs(_ rows: [Row]) -> [LibrarySong] {
        guard let first = rows.first else { return [] }
        let layout = RowLayout(first)
        return rows.map { LibrarySong(row: $0, layout: layout) }
    }

    /// Where each column a song is read from lies in a query's rows.
    struct RowLayout {
        let folder, name, size, modified, rate, channels, title, artists, albumArtists, album, disc, track, date, genres, composers,
            compilation, seconds, format, bits, trackGain, albumGain, others, playCount, lastPlayed, skipCount, rating: Int?

        init(_ row: Row) {
            let names = Array(row.columnNames)
            func place(_ name: String) -> Int? { names.firstIndex(of: name) }
            (folder, name) = (place("dirpath"), place("name"))
            (size, modified, rate, channels, title) = (place("size"), place("modified"), place("rate"), place("channels"), place("title"))
            (artists, albumArtists, album, disc, track, date) = (place("artists"), place("albumartists"), place("album"), place("disc"),
                                                                 place("track"), place("date"))
            (genres, composers, compilation, seconds, format, bits) = (place("genres"), place("composers"), place("compilation"),
                                                                       place("seconds"), place("format"), place("bits"))
            (trackGain, albumGain, others, playCount, lastPlayed, skipCount, rating) = (place("trackgain"), place("albumgain"), place("others"),
                                                                                       place("playcount"), place("lastplayed"),
                                                                                       place("skipcount"), place("rating"))
        }
    }

    init(row: Row, layout: RowLayout) {
        // Each column read as the value SQLite holds (GRDB's conversions of optionals looked
        // their type up at run time, at every column of every row: half of reading a library).
        func stored(_ place: Int?) -> DatabaseValue.Storage { place.map { (row[$0] as DatabaseValue).storage } ?? .null }
        func text(_ place: Int?) -> String? {
            switch stored(place) {
            case .string(let text): text
            case .blob(let data): String(decoding: data, as: UTF8.self)
            case .int64(let number): String(number)
            case .double(let number): String(number)
            case .null: nil
            }
        }
        func int64(_ place: Int?) -> Int64? {
            switch stored(place) {
            case .int64(let number): number
            case .double(let number): Int64(exactly: number.rounded(.towardZero))
            case .string, .blob, .null: nil
            }
        }
        func int(_ place: Int?) -> Int? { int64(place).flatMap { Int(exactly: $0) } }
        func double(_ place: Int?) -> Double? {
            switch stored(place) {
            case .double(let number): number
            case .int64(let number): Double(number)
            case .string, .blob, .null: nil
            }
        }
        func bytes(_ place: Int?) -> Data {
            switch stored(place) {
            case .blob(let data): data
            case .string(let text): Data(text.utf8)
            case .int64, .double, .null: Data()
            }
        }
        self.init(path: SongPlace(folder: bytes(layout.folder), name: bytes(layout.name)).path, size: int64(layout.size) ?? 0, modified: int64(layout.modified) ?? 0,
                  rate: int(layout.rate) ?? 0, channels: int(layout.channels) ?? 0)
        title = text(layout.title)
        artists = Self.values(text(layout.artists))
        albumArtists = Self.values(text(layout.albumArtists))
        album = text(layout.album)
        disc = int(layout.disc)
        track = int(layout.track)
        date = text(layout.date)
        genres = Self.values(text(layout.genres))
        composers = Self.values(text(layout.composers))
        compilation = (int(layout.compilation) ?? 0) != 0
        seconds = double(layout.seconds)
        format = text(layout.format)
        bits = int(layout.bits)
        trackGain = double(layout.trackGain)
        albumGain = double(layout.albumGain)
        otherTags = Self.others(text(layout.others))
        playCount = int(layout.playCount) ?? 0
        lastPlayed = int64(layout.lastPlayed)
        skipCount = int(layout.skipCount) ?? 0
        rating = int(layout.rating) ?? 0
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
