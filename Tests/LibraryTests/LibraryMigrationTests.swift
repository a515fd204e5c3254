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
            // The path as the release held it, or as its folder's and its name now.
            let held = try db.columns(in: "song").contains { $0.name == "path" }
            let path = held ? "CAST(path AS TEXT)" : "CAST((SELECT dir.path FROM dir WHERE dir.id = dirid) || name AS TEXT)"
            return try String.fetchAll(db, sql: """
                SELECT 'song ' || id || ' ' || \(path) || ' ' || ifnull(title, '-') || ' ' || playcount || ' '
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
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.folderwords USING fts5vocab(main, dir_search, 'instance')")
            return try String.fetchAll(db, sql: """
                SELECT term || ' ' || doc || ' ' || col || ' ' || offset FROM temp.words
                UNION ALL SELECT 'folder ' || term || ' ' || doc || ' ' || offset FROM temp.folderwords ORDER BY 1
                """)
        }
    }

    /// Whether each album's row is what its songs make: an album for each of their keys, none
    /// without songs, each at the earliest year of its songs.
    static func albumsAsTheirSongsMakeThem(_ path: Path) throws -> Bool {
        try DatabaseQueue(path: "\(path)").read { db in
            let held = try String.fetchAll(db, sql: """
                SELECT album.id || ' ' || ifnull(firstyear, '-') FROM album ORDER BY album.id
                """)
            let made = try String.fetchAll(db, sql: """
                SELECT albumid || ' ' || ifnull(min(year), '-') FROM song GROUP BY albumid ORDER BY albumid
                """)
            let keysOnce = try Int.fetchOne(db, sql: "SELECT count(*) FROM album") == Int.fetchOne(db, sql: "SELECT count(DISTINCT shelfkey || char(31) || albumkey) FROM album")
            return held == made && keysOnce
        }
    }

    @Test func aReleasesLibraryKeepsEveryPlayRatingListenAndStickerAndIsSmaller() throws {
        let path = try releaseLibrary()
        // 2,000 songs more, as that release wrote them, so that its size is its songs' and not
        // its tables' first pages.
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                INSERT INTO song (path, size, modified, title, artists, album, rate, channels, shelf, shelfkey, albumkey, albumyear, added)
                SELECT CAST('/m/' || (i / 10) || '/' || i || '.mp3' AS BLOB), 1, 1, 'Title ' || i, 'Artist ' || (i / 100),
                       'Album ' || (i / 10), 44100, 2, 'Artist ' || (i / 100), 'artist ' || (i / 100), 'album ' || (i / 10), NULL, 1 FROM n;
                INSERT INTO song_search (rowid, title, artist, albumartist, album, genre, composer, path)
                SELECT id, lower(title), lower(artists), lower(shelf), lower(album), '', '', CAST(path AS TEXT) FROM song WHERE id > 9;
                """)
        }
        let before = try kept(path)
        try #require(before.filter { $0.hasPrefix("listen ") }.count == 6 && before.filter { $0.hasPrefix("song ") }.count == 2009)
        let sizeBefore = try #require(FileManager.default.attributesOfItem(atPath: "\(path)")[.size] as? Int)
        let database = try LibraryDatabase.open(at: path).get().database
        #expect(try kept(path) == before, "every row, play, rating, skip, listen, sticker and folder as it was")
        let schema = try DatabaseQueue(path: "\(path)").read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'song_search'") ?? ""
        }
        #expect(schema.contains("content = ''"), "\(schema)")
        // Each path held once: a song is its folder's row and its name.
        let columns = try DatabaseQueue(path: "\(path)").read { db in try db.columns(in: "song").map(\.name) }
        #expect(columns.contains("dirid") && columns.contains("name") && !columns.contains("path"), "\(columns)")
        let sizeAfter = try #require(FileManager.default.attributesOfItem(atPath: "\(path)")[.size] as? Int)
        #expect(sizeAfter < sizeBefore, "the room given back: \(sizeBefore) → \(sizeAfter) bytes")

        #expect(try database.counts().get() == LibraryDatabase.Counts(songs: 2009, albums: 205, artists: 25), "as 0.1.0 counted them")
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

    /// A release's library whose search index is damaged (so that SQLite cannot load it, even
    /// to drop it) is migrated all the same, its index made again from its rows: it was set
    /// aside whole and a new library begun, its plays, ratings and history not carried.
    @Test func aReleasesLibraryWithADamagedIndexKeepsEverythingAndIsFoundAgain() throws {
        let path = try releaseLibrary()
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: "UPDATE song_search_data SET block = x'ffffffffffffffff' WHERE id > 1")
        }
        let before = try kept(path)
        let (database, notes) = try LibraryDatabase.open(at: path).get()
        #expect(notes.isEmpty, "\(notes)")
        #expect(try kept(path) == before)
        #expect(try find(database, "nunez").count == 3)
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('integrity-check')")
        }
    }

    /// A library whose words were made otherwise (another SQLite, another folding: here a
    /// note that says so, and an index that holds a word no row has) has its index made again
    /// from its rows when it is opened, once.
    @Test func anIndexMadeOtherwiseIsMadeAgainFromTheRows() throws {
        let path = try releaseLibrary()
        _ = try LibraryDatabase.open(at: path).get()
        let made = try Self.words(path)
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: "UPDATE library_meta SET value = 'made by another tplayer' WHERE name = 'words'")
            try db.execute(sql: "INSERT INTO song_search (rowid, title) VALUES (1, 'stale')")
        }
        #expect(try Self.words(path) != made)
        let database = try LibraryDatabase.open(at: path).get().database
        #expect(try Self.words(path) == made)
        #expect(try find(database, "stale").isEmpty)
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
        // Seeded, so that a failure can be had again: the seed is in the failure's message.
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        func pick() -> String { odd.randomElement(using: &random)! + " \(Int.random(in: 0..<50, using: &random))" }
        for round in 0..<12 {
            // 40 songs on 30 paths: songs put again, some twice in one write, some into other albums.
            let songs = (0..<40).map { _ -> LibrarySong in
                // In folders that come and go, one of them with the songs of a CUE sheet.
                let name = ["\(Int.random(in: 0..<30, using: &random)).flac", "s.cue/track000\(Int.random(in: 1...3, using: &random))"]
                let place = "/m/" + ["Ünïcödé Wörds", "a b", "x.cue", "日本語"].randomElement(using: &random)! + "/" + name.randomElement(using: &random)!
                var song = LibrarySong(path: Path(place), size: 1, modified: Int64(round), rate: 44100, channels: 2)
                song.date = Bool.random(using: &random) ? "\(Int.random(in: 1990...1995, using: &random))" : nil
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
            #expect(try Self.albumsAsTheirSongsMakeThem(path), "seed \(seed), round \(round)")
            let folders = try DatabaseQueue(path: "\(path)").read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM dir WHERE NOT EXISTS (SELECT 1 FROM song WHERE dirid = dir.id)")
                    == 0 && Int.fetchOne(db, sql: "SELECT count(*) FROM song WHERE NOT EXISTS (SELECT 1 FROM dir WHERE dir.id = dirid)") == 0
            }
            #expect(folders, "a folder's row for each song's folder, and none without songs: seed \(seed), round \(round)")
        }
        let kept = try Self.words(path)
        try #require(!kept.isEmpty, "seed \(seed)")
        // The same rows, their index made anew.
        let queue = try DatabaseQueue(path: "\(path)")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('delete-all')")
            try db.execute(sql: "INSERT INTO dir_search (dir_search) VALUES ('delete-all')")
        }
        try queue.close()
        #expect(try Self.words(path).isEmpty)
        try DatabaseQueue(path: "\(path)").write { db in try LibraryDatabase.indexAll(in: db) }
        #expect(try Self.words(path) == kept, "seed \(seed)")
        try DatabaseQueue(path: "\(path)").write { db in
            try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('integrity-check')")
            try db.execute(sql: "INSERT INTO dir_search (dir_search) VALUES ('integrity-check')")
        }
    }
}

/// SplitMix64: random numbers that a seed makes again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
