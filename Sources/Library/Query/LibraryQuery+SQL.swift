import Foundation
import GRDB
import PlayerCore

/// A query as SQL over `song` and its FTS5 index `song_search`.
extension LibraryQuery {
    /// The condition on `song` (`TRUE` for an empty query), with its arguments, with `now`
    /// the moment the times are counted back from (seconds since 1970). A term that
    /// `inFolders` (its `folderMatch` matches a folder's words) is found in a song's words or
    /// its folder's; the others, as one search of the songs' words.
    func condition(now: Int64, inFolders: (Term) -> Bool = { _ in false }) -> (sql: String, arguments: StatementArguments) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        let match = terms.filter { !inFolders($0) }.compactMap(\.match)
        if !match.isEmpty {
            clauses.append("song.id IN (SELECT rowid FROM song_search WHERE song_search MATCH ?)")
            arguments += [match.joined(separator: " AND ")]
        }
        for term in terms where inFolders(term) {
            guard let match = term.match, let folders = term.folderMatch else { continue }
            clauses.append("""
                (song.id IN (SELECT rowid FROM song_search WHERE song_search MATCH ?) \
                OR song.dirid IN (SELECT rowid FROM dir_search WHERE dir_search MATCH ?))
                """)
            arguments += [match, folders]
        }
        for case .number(let field, let range) in terms {
            clauses.append("\(field.column) BETWEEN ? AND ?")
            arguments += [range.lowerBound, range.upperBound]
        }
        for case .time(let field, let span) in terms {
            let (clause, values): (String, [Int64]) = switch (field, span) {
            case (.played, .within(let seconds)): ("lastplayed >= ?", [now - seconds])
            case (.played, .before(let seconds)): ("(lastplayed IS NULL OR lastplayed < ?)", [now - seconds])
            // Any of its plays then (the history's rows), not only its last (which a play from before
            // the history, or an MPD client's sticker, may be).
            case (.played, .between(let start, let end)):
                ("(lastplayed >= ? AND lastplayed < ? OR EXISTS (SELECT 1 FROM listen WHERE listen.song = song.id AND NOT skipped AND at >= ? AND at < ?))",
                 [start, end, start, end])
            case (.added, .within(let seconds)): ("added >= ?", [now - seconds])
            case (.added, .before(let seconds)): ("added < ?", [now - seconds])
            case (.added, .between(let start, let end)): ("added >= ? AND added < ?", [start, end])
            }
            clauses.append(clause)
            arguments += StatementArguments(values)
        }
        for case .recentPlays(let seconds, let range) in terms {
            clauses.append("(SELECT count(*) FROM listen WHERE listen.song = song.id AND NOT skipped AND at >= ?) BETWEEN ? AND ?")
            arguments += [now - seconds, range.lowerBound, range.upperBound]
        }
        return (clauses.isEmpty ? "1" : clauses.joined(separator: " AND "), arguments)
    }

    /// Album order: album artist, the album's year (its earliest: a track dated otherwise or not
    /// at all stays in it), album, disc (none is disc 1), track (then path, in the library's
    /// order of paths, `SongPlace`, for what is untagged): `album_order`'s columns, then
    /// `song_order`'s, so that the indexes give the order (over
    /// `LibraryDatabase.songsAlbumsAndFolders`).
    /// (`album.id` never parts two albums, which their keys do; it tells SQLite that each
    /// album's songs come together.)
    static let albumOrder = "shelfkey, firstyear, albumkey, album.id, ifnull(disc, 1), track, dir.path, song.name"

    /// Whether it looks for words (in the search index).
    var searchesWords: Bool { terms.contains { $0.match != nil } }
}

extension LibraryQuery.Term {
    /// What it looks for in the search index, as an FTS5 phrase of its words (for `.words`,
    /// its last one a prefix), a field's column named; `nil` for a term the song's columns
    /// answer. The text is quoted, so nothing typed is FTS5's syntax.
    var match: String? {
        func phrase(_ words: String, _ field: LibraryQuery.TextField?, prefix: Bool) -> String {
            let phrase = "\"" + words.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
            return field.map { "\($0.column) : \(phrase)" } ?? phrase
        }
        switch self {
        case .words(let words, let field): return phrase(words, field, prefix: true)
        case .phrase(let words, let field): return phrase(words, field, prefix: false)
        case .number, .time, .recentPlays: return nil
        }
    }

    /// What it looks for in the folders' words (`dir_search`), for a term that may be found in
    /// a path (of any field, or `path:`); `nil` for another.
    var folderMatch: String? {
        switch self {
        case .words(let words, nil), .words(let words, .path?): Self.words(words, field: nil).match
        case .phrase(let words, nil), .phrase(let words, .path?): Self.phrase(words, field: nil).match
        case .words, .phrase, .number, .time, .recentPlays: nil
        }
    }
}

extension LibrarySort {
    /// As SQL's ORDER BY (each field a column of `song` or its album's or folder's, never text
    /// typed), the songs without the field's value after those with it, the path last so that
    /// the order is whole (the library's order of paths: its folder's, then its name).
    var sql: String {
        let columns = keys.map { key -> String in
            let direction = key.descending ? " DESC" : ""
            let column: String, caseless: Bool
            switch key.field {
            case .disc: return "ifnull(disc, 1)" + direction  // none is disc 1: never missing
            case .path: return "dir.path\(direction), song.name\(direction)"
            case .albumartist: (column, caseless) = ("shelfkey", false)
            case .artist: (column, caseless) = ("artists", true)
            case .date: (column, caseless) = ("year", false)
            case .album: (column, caseless) = ("albumkey", false)
            case .track: (column, caseless) = ("track", false)
            case .title: (column, caseless) = ("title", true)
            case .genre: (column, caseless) = ("genres", true)
            case .composer: (column, caseless) = ("composers", true)
            case .length: (column, caseless) = ("seconds", false)
            case .plays: (column, caseless) = ("playcount", false)
            case .rating: (column, caseless) = ("rating", false)
            case .played: (column, caseless) = ("lastplayed", false)
            case .added: (column, caseless) = ("added", false)
            }
            // What a song has no value for comes after those that have one, either way (an
            // untagged song sorted by date came first).
            return "(\(column) IS NULL), \(column)" + (caseless ? " COLLATE NOCASE" : "") + direction
        }
        return (columns + ["dir.path, song.name"]).joined(separator: ", ")
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
        case .skips: "skipcount"
        }
    }
}
