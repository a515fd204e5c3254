import Foundation
import GRDB
@testable import Library
import PlayerCore
import Testing

/// The library made smaller (`LibrarySchema`'s "lean" migration: a contentless search index, a
/// row for each album), on a library made by tplayer 0.1.0 before it
/// (Tests/Fixtures/library-0.1.0.sqlite: nine songs scanned by that release, FLAC and MP3, accents,
/// several artists, an empty tag value, an untagged file; plays, ratings, skips, listens and a
/// sticker as it writes them).
struct LibraryMigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/library-0.1.0.sqlite")

    /// A copy of the release's library, in a folder of its own.
    private func releaseLibrary() throws -> Path {
        let folder = try LibraryFixture.folder()
        let path = folder.appending("library.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: "\(path)")
        return path
    }

    /// Everything the library keeps of its songs beside their tags, as text, read straight from
    /// the file.
    private func kept(_ path: Path) throws -> [String] {
        let queue = try DatabaseQueue(path: "\(path)")
        return try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT 'song ' || id || ' ' || CAST(path AS TEXT) || ' ' || ifnull(title, '-') || ' ' || playcount || ' '
                       || ifnull(lastplayed, '-') || ' ' || skipcount || ' ' || rating || ' ' || ifnull(added, '-') FROM song
                UNION ALL SELECT 'listen ' || song || ' ' || at || ' ' || heard || ' ' || skipped FROM listen
                UNION ALL SELECT 'sticker ' || CAST(path AS TEXT) || ' ' || name || ' ' || value FROM sticker
                UNION ALL SELECT 'folder ' || CAST(path AS TEXT) FROM folder
                ORDER BY 1
                """)
        }
    }

    private func find(_ database: LibraryDatabase, _ text: String) throws -> [String] {
        try database.find(LibraryQuery.parse(text).get()).get().map { String($0.description.split(separator: "/").suffix(2).joined(separator: "/")) }
    }

    /// Every word of the index, where it is (FTS5's own vocabulary table), as text.
    static func words(_ path: Path) throws -> [String] {
        let queue = try DatabaseQueue(path: "\(path)")
        return try queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.words USING fts5vocab(main, song_search, 'instance')")
            return try String.fetchAll(db, sql: "SELECT term || ' ' || doc || ' ' || col || ' ' || offset FROM temp.words ORDER BY 1")
        }
    }

    @Test func aReleasesLibraryKeepsEveryPlayRatingListenAndStickerAndIsSmaller() throws {
        let path = try releaseLibrary()
        let before = try kept(path)
        try #require(before.filter { $0.hasPrefix("listen ") }.count == 6 && before.filter { $0.hasPrefix("song ") }.count == 9)
        let sizeBefore = try #require(FileManager.default.attributesOfItem(atPath: "\(path)")[.size] as? Int)
        let database = try LibraryDatabase.open(at: path).get().database
        #expect(try kept(path) == before, "every row, play, rating, skip, listen, sticker and folder as it was")
        let schema = try DatabaseQueue(path: "\(path)").read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'song_search'") ?? ""
        }
        #expect(schema.contains("content = ''"), "\(schema)")
        let sizeAfter = try #require(FileManager.default.attributesOfItem(atPath: "\(path)")[.size] as? Int)
        #expect(sizeAfter < sizeBefore, "the room given back: \(sizeBefore) → \(sizeAfter) bytes")

        #expect(try database.counts().get() == LibraryDatabase.Counts(songs: 9, albums: 4, artists: 4), "as 0.1.0 counted them")
        #expect(try database.albums(of: LibrarySong.sortKey("Ana Núñez"), LibraryQuery()).get().map { "\($0.year ?? 0) \($0.name) \($0.songs)" }
            == ["2001 Días 3"])
        // Found as before: any accent, any field, several artists, the path, album order.
        #expect(try find(database, "nunez") == ["Días (2001)/01.flac", "Días (2001)/02.flac", "Días (2001)/03.flac"])
        #expect(try find(database, "\"cancion numero 2\"") == ["Días (2001)/02.flac"])
        #expect(try find(database, "\"second singer\"") == ["Mix/01.flac"])
        #expect(try find(database, "lone") == ["Mix/02.flac"])
        #expect(try find(database, "composer:somebody") == ["Mix/01.flac"])
        #expect(try find(database, "path:untagged") == ["loose/untagged tune.flac"])
        #expect(try find(database, "genre:rock") == ["Mix/01.flac"])

        // Its words change with its songs: a song's old words leave with them.
        var renamed = try #require(database.songs(at: [Path("/tmp/fix/music/Ana Núñez/Días (2001)/01.flac")]).get().first)
        renamed.title = "Otra Cosa"
        try database.put([renamed]).get()
        try database.retire([Path("/tmp/fix/music/Ana Núñez/Días (2001)/03.flac")], carrying: []).get()
        #expect(try find(database, "cancion") == ["Días (2001)/02.flac"])
        #expect(try find(database, "otra cosa") == ["Días (2001)/01.flac"])
        #expect(try find(database, "nunez").count == 2)
    }

    /// Songs put, put again changed and taken out, over and over, with the tags that do not
    /// come back from their rows as they went in (an empty value, the lists' own separator, a
    /// NUL, control characters): the index kept by taking words out is word for word the index
    /// made anew from the rows that are left. A word taken out that was not put in, or put in
    /// otherwise, would leave it damaged or finding what is gone.
    @Test func theIndexKeptByTakingWordsOutIsTheIndexMadeAnew() throws {
        let folder = try LibraryFixture.folder()
        let path = folder.appending("library.sqlite")
        let database = try LibraryDatabase.open(at: path).get().database
        let odd = ["", "plain", "Ünïcödé Wörds", "a\u{1F}b", "nul\u{0}after", "tab\tand\nline", "ß straße", "  ", "x\u{1E}y", "日本語 テキスト"]
        var random = SystemRandomNumberGenerator()
        func pick() -> String { odd.randomElement(using: &random)! + " \(Int.random(in: 0..<50, using: &random))" }
        for round in 0..<12 {
            let songs = (0..<40).map { index -> LibrarySong in
                var song = LibrarySong(path: Path("/m/\(index % 25)/\(pick()).flac"), size: 1, modified: Int64(round), rate: 44100, channels: 2)
                song.title = Bool.random(using: &random) ? pick() : nil
                song.artists = (0..<Int.random(in: 0...3, using: &random)).map { _ in pick() }
                song.albumArtists = (0..<Int.random(in: 0...2, using: &random)).map { _ in pick() }
                song.album = pick()
                song.genres = [pick(), ""]
                song.composers = Bool.random(using: &random) ? [pick()] : []
                song.compilation = Bool.random(using: &random)
                return song
            }
            try database.put(songs).get()
            let held = try database.find(LibraryQuery()).get()
            try database.retire(held.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }, carrying: []).get()
        }
        let kept = try Self.words(path)
        try #require(!kept.isEmpty)
        // The same rows, their index made anew.
        let queue = try DatabaseQueue(path: "\(path)")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('delete-all')")
        }
        try queue.close()
        #expect(try Self.words(path).isEmpty)
        try DatabaseQueue(path: "\(path)").write { db in try LibraryDatabase.indexAll(in: db) }
        #expect(try Self.words(path) == kept)
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('integrity-check')")
        }
    }
}
