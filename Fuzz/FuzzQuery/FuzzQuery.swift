import Library
import ParserChecks
import PlayerCore

/// A small library in memory, made once: every query parsed runs against it.
let library: LibraryDatabase = {
    do {
        let database = try LibraryDatabase.inMemory()
        var songs: [LibrarySong] = []
        for (index, (title, artist)) in [("Army of Me", "Björk"), ("Straße", "Zeta Waves"), ("Hoppípolla", "Sigur Rós"),
                                         ("\"Quoted\" NEAR(x y)", "AC/DC")].enumerated() {
            var song = LibrarySong(path: Path("/music/\(index).flac"), size: 1, modified: 1, rate: 44100, channels: 2)
            song.title = title
            song.artists = [artist]
            song.date = "199\(index)"
            songs.append(song)
        }
        try database.put(songs).get()
        return database
    } catch {
        fatalError("the fuzzer's library: \(error)")
    }
}()

/// The query language: any text parses or is one line saying why; whatever parses runs as
/// SQL and FTS5 without an error (nothing typed is FTS5's syntax); a term's words are never empty,
/// its numbers and spans of time never negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ParserChecks.fuzz(data, size) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        switch LibraryQuery.parse(text) {
        case .failure(let error):
            return error.description.contains("\n") ? ["an error of more than one line: \(error)"] : []
        case .success(let query):
            var broken: [String] = []
            for term in query.terms {
                switch term {
                case .words(let words, _), .phrase(let words, _): if words.isEmpty { broken.append("empty words") }
                case .number(_, let range): if range.lowerBound < 0 { broken.append("a negative number") }
                case .recentPlays(let seconds, let range): if seconds < 0 || range.lowerBound < 0 { broken.append("a negative span or count") }
                case .time(_, .within(let seconds)), .time(_, .before(let seconds)): if seconds < 0 { broken.append("a negative span") }
                case .time(_, .between(let start, let end)): if start >= end { broken.append("an empty stretch of time") }
                }
            }
            if case .failure(let error) = library.find(query) { broken.append("\(text.debugDescription): \(error)") }
            return broken
        }
    }
}
