import Foundation
import GRDB
import PlayerCore

/// The library's tables, as GRDB migrations: each migration is applied once, in order, and a
/// database that has one this tplayer does not know was made by a newer tplayer.
///
/// `song` holds a row a file, in its folder's row of `dir` under its name (`SongPlace`: as
/// bytes, a name need not be UTF-8); `song_search` is
/// its FTS5 index, holding each field folded as the list view's search folds text (lower case,
/// no accents), kept in step by the library's own writes, not by triggers (the folding is
/// Swift's). Songs are listed in album order through `album_order` and `song_order`, each album
/// a row of `album` at its earliest year (`firstyear`). `folder` holds the folders
/// named to `--scan`, which the library takes in from then on.
enum LibrarySchema {
    /// The search index as the first schema made it: the words of each song's fields, by its
    /// `song` row's id, with its own copy of their text (a third of the library's size).
    static let firstSearchTable = """
        CREATE VIRTUAL TABLE song_search USING fts5 (
                            title, artist, albumartist, album, genre, composer, path,
                            tokenize = 'unicode61 remove_diacritics 0'
                        )
        """

    /// The search index: the words alone (contentless, no column sizes: nothing ranks by
    /// them). A song's words are taken out by saying them again, folded from its row as they
    /// went in (`LibraryDatabase.SearchWords`).
    static let searchTable = """
        CREATE VIRTUAL TABLE song_search USING fts5 (
                            title, artist, albumartist, album, genre, composer, path,
                            content = '', columnsize = 0,
                            tokenize = 'unicode61 remove_diacritics 0'
                        )
        """

    /// The folders' words (contentless, as `searchTable`), by `dir`'s id: each folder's once,
    /// where each song's path's were its own.
    static let folderSearchTable = """
        CREATE VIRTUAL TABLE dir_search USING fts5 (
                            path,
                            content = '', columnsize = 0,
                            tokenize = 'unicode61 remove_diacritics 0'
                        )
        """

    /// The albums: an album artist's album, by their keys (each folded as the search folds
    /// and its numbers padded, `LibrarySong.sortKey`), at the earliest year of its songs
    /// (`AlbumRows.settle`), in album order by `album_order`.
    static let albumTable = """
        CREATE TABLE album (
            id INTEGER PRIMARY KEY,
            shelfkey TEXT NOT NULL,
            albumkey TEXT NOT NULL,
            firstyear INTEGER,
            UNIQUE (shelfkey, albumkey)
        );
        CREATE INDEX album_order ON album (shelfkey, firstyear, albumkey)
        """

    /// The songs' table as the "paths" migration makes it: a row a song, in its folder's row
    /// (`dirid`, of `dir`) under its name, in its album's (`albumid`, of `album`).
    static func songTable(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
            id INTEGER PRIMARY KEY,
            dirid INTEGER NOT NULL,
            name BLOB NOT NULL,
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL,
            title TEXT,
            artists TEXT,
            albumartists TEXT,
            album TEXT,
            disc INTEGER,
            track INTEGER,
            date TEXT,
            year INTEGER,
            genres TEXT,
            composers TEXT,
            compilation INTEGER NOT NULL DEFAULT 0,
            seconds REAL,
            format TEXT,
            bits INTEGER,
            rate INTEGER NOT NULL,
            channels INTEGER NOT NULL,
            trackgain REAL,
            albumgain REAL,
            playcount INTEGER NOT NULL DEFAULT 0,
            lastplayed INTEGER,
            skipcount INTEGER NOT NULL DEFAULT 0,
            rating INTEGER NOT NULL DEFAULT 0,
            shelf TEXT NOT NULL,
            others TEXT,
            tagversion INTEGER NOT NULL DEFAULT 0,
            added INTEGER,
            albumid INTEGER,
            UNIQUE (dirid, name)
        )
        """
    }

    /// The place of the path an old row holds (`paths`'s functions' argument).
    private static func place(of values: [DatabaseValue]) -> SongPlace? {
        switch values.first?.storage {
        case .blob(let bytes)?: SongPlace(Path(bytes: bytes))
        case .string(let text)?: SongPlace(Path(text))
        default: nil
        }
    }

    /// Drops the search index, even a damaged one, which SQLite cannot load to drop (it is
    /// made again from the rows): its own tables go, then its line in the schema. (A damaged
    /// index made the whole migration fail, and the library was set aside and begun anew.)
    static func dropSearchTable(_ db: Database) throws {
        do {
            try db.execute(sql: "DROP TABLE song_search")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_ERROR {
            for shadow in ["data", "idx", "content", "docsize", "config"] {
                try db.execute(sql: "DROP TABLE IF EXISTS song_search_\(shadow)")
            }
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "DELETE FROM sqlite_schema WHERE name = 'song_search'")
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("songs") { db in
            try db.execute(sql: """
                CREATE TABLE song (
                    id INTEGER PRIMARY KEY,
                    path BLOB NOT NULL UNIQUE,
                    size INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    title TEXT,
                    artists TEXT,
                    albumartists TEXT,
                    album TEXT,
                    disc INTEGER,
                    track INTEGER,
                    date TEXT,
                    year INTEGER,
                    genres TEXT,
                    composers TEXT,
                    compilation INTEGER NOT NULL DEFAULT 0,
                    seconds REAL,
                    format TEXT,
                    bits INTEGER,
                    rate INTEGER NOT NULL,
                    channels INTEGER NOT NULL,
                    trackgain REAL,
                    albumgain REAL,
                    playcount INTEGER NOT NULL DEFAULT 0,
                    lastplayed INTEGER,
                    skipcount INTEGER NOT NULL DEFAULT 0,
                    rating INTEGER NOT NULL DEFAULT 0,
                    shelf TEXT NOT NULL,
                    shelfkey TEXT NOT NULL,
                    albumkey TEXT NOT NULL
                );
                CREATE INDEX song_order ON song (shelfkey, year, albumkey, ifnull(disc, 1), track, path);
                CREATE TABLE folder (path BLOB PRIMARY KEY);
                \(firstSearchTable);
                """)
        }
        // Keys in natural order: the rows of a library made before are keyed again.
        migrator.registerMigration("natural-order") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, shelf, album FROM song")
            let update = try db.makeStatement(sql: "UPDATE song SET shelfkey = ?, albumkey = ? WHERE id = ?")
            for row in rows {
                let shelf: String = row["shelf"]
                let album: String? = row["album"]
                try update.execute(arguments: [LibrarySong.sortKey(shelf), LibrarySong.sortKey(album ?? ""), row["id"] as Int64])
            }
        }
        // An album is one group at its earliest year, whatever its tracks say: `albumyear` is
        // the least year of the songs of its album artist and album, kept by the library's writes
        // (`LibraryDatabase.settleAlbumYears`); `song_album` finds an album's songs for them.
        migrator.registerMigration("album-year") { db in
            try db.execute(sql: """
                ALTER TABLE song ADD COLUMN albumyear INTEGER;
                CREATE INDEX song_album ON song (shelfkey, albumkey, year);
                UPDATE song SET albumyear = (SELECT min(year) FROM song AS other
                                             WHERE other.shelfkey = song.shelfkey AND other.albumkey = song.albumkey);
                DROP INDEX song_order;
                CREATE INDEX song_order ON song (shelfkey, albumyear, albumkey, ifnull(disc, 1), track, path);
                """)
        }
        // MPD's clients' stickers that are no statistic of the library's own (those are the
        // song's columns): a name and a value a song, kept while the song is in the library.
        migrator.registerMigration("stickers") { db in
            try db.execute(sql: """
                CREATE TABLE sticker (
                    path BLOB NOT NULL,
                    name TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (path, name)
                ) WITHOUT ROWID;
                """)
        }
        // The tags MPD's clients ask for beyond the columns above (`LibrarySong.otherTags`), in
        // one column; rows read before it (`tagversion` 0) are read again at the next scan.
        migrator.registerMigration("other-tags") { db in
            try db.execute(sql: """
                ALTER TABLE song ADD COLUMN others TEXT;
                ALTER TABLE song ADD COLUMN tagversion INTEGER NOT NULL DEFAULT 0;
                """)
        }
        // The play history: each listen a row (when, in seconds since 1970; how much was heard;
        // played or skipped), its song's, carried with it when it moves and gone with it; and
        // when each song came into the library (`added`: a song held before, its file's time).
        migrator.registerMigration("history") { db in
            try db.execute(sql: """
                ALTER TABLE song ADD COLUMN added INTEGER;
                UPDATE song SET added = modified / 1000000000;
                CREATE TABLE listen (
                    song INTEGER NOT NULL REFERENCES song (id) ON DELETE CASCADE,
                    at INTEGER NOT NULL,
                    heard REAL NOT NULL,
                    skipped INTEGER NOT NULL
                );
                CREATE INDEX listen_song ON listen (song, at);
                """)
        }
        // The library at half its size: the search index without its own copy of the text, made
        // again from the rows; each album a row of `album` (its keys and its earliest year,
        // `firstyear`), which its songs name by `albumid`, where each song held the keys and the
        // year and two indexes held them again; the album order's index is then the album's id,
        // disc and track (ties, songs of one album with no track numbers, are put in path order
        // as they are read). Plays, ratings and history are the rows' own, untouched; one
        // transaction, so a kill or a full disk leaves the library as it was
        // (`LibraryDatabase.openPool` then gives back the room).
        migrator.registerMigration("lean") { db in
            try dropSearchTable(db)
            try db.execute(sql: """
                \(searchTable);
                \(albumTable);
                INSERT INTO album (shelfkey, albumkey, firstyear)
                    SELECT shelfkey, albumkey, min(year) FROM song GROUP BY shelfkey, albumkey ORDER BY shelfkey, albumkey;
                ALTER TABLE song ADD COLUMN albumid INTEGER;
                UPDATE song SET albumid = (SELECT id FROM album WHERE album.shelfkey = song.shelfkey AND album.albumkey = song.albumkey);
                DROP INDEX song_order;
                DROP INDEX song_album;
                ALTER TABLE song DROP COLUMN shelfkey;
                ALTER TABLE song DROP COLUMN albumkey;
                ALTER TABLE song DROP COLUMN albumyear;
                CREATE INDEX song_order ON song (albumid, ifnull(disc, 1), track);
                """)
            // Its words are put in once the library is at this tplayer's schema, by what this
            // tplayer writes (`LibraryDatabase.checkWords`, at every opening).
        }
        // Each path held once: each folder's a row of `dir` (with a "/" at its end), each song
        // its folder's row and its name in it (`SongPlace`), where each song held its whole path
        // and its unique index held it again. SQLite drops no column an index holds, so the
        // table is made anew with the same rows and ids (foreign keys are off in a migration:
        // the history stays its songs'); one transaction, as each migration. Each folder's words
        // are then the folder's (`dir_search`), a song's its name's: the index is made again at
        // the opening (`LibraryDatabase.checkWords`: the words are made otherwise).
        migrator.registerMigration("paths") { db in
            let folder = DatabaseFunction("tplayer_folder", argumentCount: 1, pure: true) { place(of: $0).map { Data($0.folder) } }
            let name = DatabaseFunction("tplayer_name", argumentCount: 1, pure: true) { place(of: $0).map { Data($0.name) } }
            db.add(function: folder)
            db.add(function: name)
            defer {
                db.remove(function: folder)
                db.remove(function: name)
            }
            let kept = """
                size, modified, title, artists, albumartists, album, disc, track, date, year, genres, composers, compilation,
                seconds, format, bits, rate, channels, trackgain, albumgain, playcount, lastplayed, skipcount, rating, shelf,
                others, tagversion, added, albumid
                """
            // A listen whose song is gone (taken out by hand, foreign keys off) would fail the
            // migration's check of them at its end, at every opening: it is no song's history.
            // The words are made again at the opening, the folders' among them.
            try db.execute(sql: "DELETE FROM listen WHERE song NOT IN (SELECT id FROM song)")
            if try db.tableExists("library_meta") { try db.execute(sql: "DELETE FROM library_meta WHERE name = 'words'") }
            try db.execute(sql: """
                CREATE TABLE dir (id INTEGER PRIMARY KEY, path BLOB NOT NULL UNIQUE);
                \(folderSearchTable);
                INSERT INTO dir (path) SELECT DISTINCT tplayer_folder(path) FROM song ORDER BY 1;
                \(songTable("song_new"));
                INSERT INTO song_new (id, dirid, name, \(kept))
                    SELECT id, (SELECT dir.id FROM dir WHERE dir.path = tplayer_folder(song.path)), tplayer_name(path), \(kept)
                    FROM song ORDER BY id;
                DROP TABLE song;
                ALTER TABLE song_new RENAME TO song;
                CREATE INDEX song_order ON song (albumid, ifnull(disc, 1), track);
                """)
        }
        return migrator
    }
}
