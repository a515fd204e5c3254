import GRDB
import PlayerCore

/// A query as SQL over `song` and its FTS5 index `song_search`.
extension LibraryQuery {
    /// The condition on `song` (`TRUE` for an empty query), with its arguments.
    var condition: (sql: String, arguments: StatementArguments) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        let match = terms.compactMap { term -> String? in
            // An FTS5 phrase of the words (for `.words`, its last one a prefix), a field's column
            // named. The text is quoted, so nothing typed is FTS5's syntax.
            func phrase(_ words: String, _ field: TextField?, prefix: Bool) -> String {
                let phrase = "\"" + words.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
                return field.map { "\($0.column) : \(phrase)" } ?? phrase
            }
            switch term {
            case .words(let words, let field): return phrase(words, field, prefix: true)
            case .phrase(let words, let field): return phrase(words, field, prefix: false)
            case .number: return nil
            }
        }
        if !match.isEmpty {
            clauses.append("song.id IN (SELECT rowid FROM song_search WHERE song_search MATCH ?)")
            arguments += [match.joined(separator: " AND ")]
        }
        for case .number(let field, let range) in terms {
            clauses.append("\(field.column) BETWEEN ? AND ?")
            arguments += [range.lowerBound, range.upperBound]
        }
        return (clauses.isEmpty ? "1" : clauses.joined(separator: " AND "), arguments)
    }

    /// Album order: album artist, the album's year (its earliest: a track dated otherwise or not
    /// at all stays in it), album, disc (none is disc 1), track (then path, for what is
    /// untagged): `song_order`'s columns, so that the index gives the order.
    static let albumOrder = "shelfkey, albumyear, albumkey, ifnull(disc, 1), track, path"
}

extension LibrarySort {
    /// As SQL's ORDER BY (each field a column of `song`, never text typed), the songs without
    /// the field's value after those with it, the path last so that the order is whole.
    var sql: String {
        let columns = keys.map { key -> String in
            let column: String
            switch key.field {
            case .albumartist: column = "shelfkey"
            case .artist: column = "artists COLLATE NOCASE"
            case .date: column = "year"
            case .album: column = "albumkey"
            case .disc: column = "ifnull(disc, 1)"
            case .track: column = "track"
            case .title: column = "title COLLATE NOCASE"
            case .genre: column = "genres COLLATE NOCASE"
            case .composer: column = "composers COLLATE NOCASE"
            case .path: column = "path"
            case .length: column = "seconds"
            case .plays: column = "playcount"
            case .rating: column = "rating"
            case .played: column = "lastplayed"
            }
            // What a song has no value for comes after those that have one, either way (an
            // untagged song sorted by date came first).
            let value = column.hasPrefix("ifnull") ? nil : column.split(separator: " ").first
            return (value.map { "(\($0) IS NULL), " } ?? "") + column + (key.descending ? " DESC" : "")
        }
        return (columns + ["path"]).joined(separator: ", ")
    }
}

extension LibraryQuery.TextField {
    var column: String {
        switch self {
        case .title, .artist, .albumartist, .album, .genre, .composer, .path: rawValue
        }
    }
}

extension LibraryQuery.NumberField {
    var column: String {
        switch self {
        case .year, .rating, .disc, .track: rawValue
        case .plays: "playcount"
        }
    }
}
