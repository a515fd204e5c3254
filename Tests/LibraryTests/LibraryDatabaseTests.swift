import Foundation
import Library
import PlayerCore
import Testing

struct LibraryDatabaseTests {
    private func song(_ path: String, title: String, artist: String, album: String, date: String? = nil, track: Int? = nil,
                      albumArtist: String? = nil) -> LibrarySong {
        var song = LibrarySong(path: Path(path), size: 1000, modified: 1, rate: 44100, channels: 2)
        song.title = title
        song.artists = [artist]
        song.albumArtists = albumArtist.map { [$0] } ?? []
        song.album = album
        song.date = date
        song.track = track
        song.seconds = 200
        return song
    }

    private func newDatabase() throws -> (LibraryDatabase, Path) {
        let folder = try LibraryFixture.folder()
        let path = folder.appending("data/library.sqlite")
        return (try LibraryDatabase.open(at: path).get().database, path)
    }

    private var songs: [LibrarySong] {
        [song("/m/b/2.mp3", title: "Hyperballad", artist: "Björk", album: "Post", date: "1995", track: 2),
         song("/m/b/1.mp3", title: "Army of Me", artist: "Björk", album: "Post", date: "1995", track: 1),
         song("/m/b/0.mp3", title: "Human Behaviour", artist: "Björk", album: "Debut", date: "1993", track: 1),
         song("/m/a/1.flac", title: "Straße", artist: "Zeta Waves", album: "Middle Ground", date: "2001", track: 1),
         song("/m/c/1.ogg", title: "Hoppípolla", artist: "Sigur Rós", album: "Takk...", date: "2005", track: 1,
              albumArtist: "Various Artists")]
    }

    @Test func findsByAnyFieldAnyCaseAnyAccentInAlbumOrder() throws {
        let (database, _) = try newDatabase()
        try database.put(songs).get()
        let find = { (text: String) in try database.find(LibraryQuery.parse(text).get()).get().map(\.description) }
        #expect(try find("bjork") == ["/m/b/0.mp3", "/m/b/1.mp3", "/m/b/2.mp3"], "Debut (1993) before Post, by track")
        #expect(try find("BJÖRK post") == ["/m/b/1.mp3", "/m/b/2.mp3"], "every word must match, in any field")
        #expect(try find("strasse") == ["/m/a/1.flac"], "ß folds to ss as the list view's search folds it")
        #expect(try find("hopp sigur") == ["/m/c/1.ogg"], "a word matches from its start")
        #expect(try find("albumartist:\"various artists\"") == ["/m/c/1.ogg"])
        #expect(try find("\"hopp\"").isEmpty && find("\"hoppipolla\"") == ["/m/c/1.ogg"], "quotes hold whole words")
        #expect(try find("artist:post").isEmpty, "a field's words are looked for in that field only")
        #expect(try find("year:1990..1999").count == 3)
        #expect(try find("path:flac") == ["/m/a/1.flac"])
        #expect(try find("").count == 5)
        #expect(try database.counts().get() == LibraryDatabase.Counts(songs: 5, albums: 4, artists: 3))
    }

    /// A folder's words are held once, for all its songs: a song is found by a word of its
    /// folders' path or of its name, alone, as `path:`, beside words of its tags (in the same
    /// search, from the other side), and in the library view; a folder's words leave with its
    /// last song.
    @Test func aSongIsFoundByItsFoldersWordsHeldOnceAFolder() throws {
        let (database, _) = try newDatabase()
        try database.put([song("/music/Pink Floyd/Animals/01 Pigs.flac", title: "Pigs", artist: "Pink Floyd", album: "Animals"),
                          song("/music/Pink Floyd/Animals/02 Sheep.flac", title: "Sheep", artist: "Pink Floyd", album: "Animals"),
                          song("/music/Bootlegs/Live Åt Pompeii/01.mp3", title: "Echoes", artist: "Pink Floyd", album: "Pompeii"),
                          song("/music/Björk/Post/01.mp3", title: "Army of Me", artist: "Björk", album: "Post")]).get()
        let find = { (text: String) in try database.find(LibraryQuery.parse(text).get()).get().map(\.description) }
        #expect(try find("bootlegs") == ["/music/Bootlegs/Live Åt Pompeii/01.mp3"], "a folder's word")
        #expect(try find("path:\"live at\"") == ["/music/Bootlegs/Live Åt Pompeii/01.mp3"], "a phrase of a folder, folded")
        #expect(try find("bootlegs echoes") == ["/music/Bootlegs/Live Åt Pompeii/01.mp3"], "a folder's word and a title's")
        #expect(try find("floyd pompeii") == ["/music/Bootlegs/Live Åt Pompeii/01.mp3"], "each word found in a tag or a folder")
        #expect(try find("path:sheep") == ["/music/Pink Floyd/Animals/02 Sheep.flac"], "a name's word")
        #expect(try find("path:floyd").count == 2 && find("title:bootlegs").isEmpty && find("path:echoes").isEmpty)
        #expect(try find("music").count == 4 && find("path:mp3").count == 2)
        let bootlegs = try LibraryQuery.parse("bootlegs").get()
        #expect(try database.songCount(bootlegs).get() == 1 && database.artists(bootlegs, offset: 0, limit: 10).get().map(\.songs) == [1])
        try database.retire(["/music/Bootlegs/Live Åt Pompeii/01.mp3"], carrying: []).get()
        #expect(try find("bootlegs").isEmpty && find("pompeii").isEmpty)
        #expect(try find("floyd animals") == ["/music/Pink Floyd/Animals/01 Pigs.flac", "/music/Pink Floyd/Animals/02 Sheep.flac"])
    }

    @Test func artistsAndAlbumsAreInNaturalOrderAnyCaseAnyAccent() throws {
        let (database, _) = try newDatabase()
        try database.put([song("/m/1.mp3", title: "A", artist: "Artist 10", album: "Vol. 10"),
                          song("/m/2.mp3", title: "B", artist: "artist 2", album: "Vol. 2"),
                          song("/m/3.mp3", title: "C", artist: "Ártist 2", album: "vol. 9")]).get()
        let artists = try database.artists(LibraryQuery(), offset: 0, limit: 10).get()
        #expect(artists.map(\.songs) == [2, 1], "artist 2 and Ártist 2 are one artist, before Artist 10")
        #expect(artists.last?.name == "Artist 10")
        let albums = try database.albums(of: artists[0].key, LibraryQuery()).get().map(\.name)
        #expect(albums == ["Vol. 2", "vol. 9"])
        #expect(try database.find(LibraryQuery()).get() == ["/m/2.mp3", "/m/3.mp3", "/m/1.mp3"])
    }

    /// An album whose tracks disagree on the date (one undated, one dated otherwise) is one
    /// group at its earliest year, in the artist's albums and in album order; it moves as its
    /// songs are dated again or go. (Each track's year was sorted before the album: three groups.)
    @Test func anAlbumIsOneGroupAtItsEarliestYear() throws {
        let (database, path) = try newDatabase()
        let post = [song("/m/post/1.mp3", title: "Army of Me", artist: "Björk", album: "Post", date: "1995", track: 1),
                    song("/m/post/2.mp3", title: "Hyperballad", artist: "Björk", album: "Post", track: 2),
                    song("/m/post/3.mp3", title: "Isobel", artist: "Björk", album: "Post", date: "1996-03", track: 3)]
        try database.put(post + [song("/m/debut.mp3", title: "Human Behaviour", artist: "Björk", album: "Debut", date: "1993"),
                                 song("/m/homo.mp3", title: "Jóga", artist: "Björk", album: "Homogenic", date: "1997")]).get()
        let albums = { try database.albums(of: LibrarySong.sortKey("Björk"), LibraryQuery()).get() }
        #expect(try albums().map { "\($0.year ?? 0) \($0.name) \($0.songs)" } == ["1993 Debut 1", "1995 Post 3", "1997 Homogenic 1"])
        let order = { try database.find(LibraryQuery()).get().map(\.description) }
        #expect(try order() == ["/m/debut.mp3", "/m/post/1.mp3", "/m/post/2.mp3", "/m/post/3.mp3", "/m/homo.mp3"])
        let postAlbum = try #require(try albums().first { $0.name == "Post" })
        #expect(try database.songs(of: LibrarySong.sortKey("Björk"), album: postAlbum, LibraryQuery()).get().map(\.track) == [1, 2, 3])

        var redated = post[0]
        redated.date = "1998"
        try database.put([redated]).get()
        #expect(try albums().map(\.name) == ["Debut", "Post", "Homogenic"], "Post is at 1996, its earliest now")
        try database.retire([post[2].path], carrying: []).get()
        #expect(try albums().map { "\($0.year ?? 0) \($0.name)" } == ["1993 Debut", "1997 Homogenic", "1998 Post"])
        #expect(try order() == ["/m/debut.mp3", "/m/homo.mp3", "/m/post/1.mp3", "/m/post/2.mp3"])

        // A library made before albums had a year of their own (0.1.0's, made as it was then)
        // is given them when opened, and then its album rows.
        let old = path.directory.appending("old.sqlite")
        try FileManager.default.copyItem(atPath: LibraryMigrationTests.fixture.path, toPath: "\(old)")
        try LibraryFixture.sh("""
            sqlite3 old.sqlite "UPDATE song SET year = 2003 WHERE title = 'Canción número 2'; \
            DROP INDEX song_order; DROP INDEX song_album; ALTER TABLE song DROP COLUMN albumyear; \
            CREATE INDEX song_order ON song (shelfkey, year, albumkey, ifnull(disc, 1), track, path); \
            DELETE FROM grdb_migrations WHERE identifier = 'album-year'"
            """, in: path.directory)
        let reopened = try LibraryDatabase.open(at: old).get().database
        #expect(try reopened.find(LibraryQuery.parse("nunez").get()).get().map { "\($0.lastComponent)" } == ["01.flac", "02.flac", "03.flac"])
        #expect(try reopened.albums(of: LibrarySong.sortKey("Ana Núñez"), LibraryQuery()).get().map { "\($0.year ?? 0) \($0.name)" }
            == ["2001 Días"])
    }

    @Test func theSortedViewSortsByTheFieldsAsked() throws {
        let (database, _) = try newDatabase()
        var played = songs
        played[3].playCount = 9
        played[1].playCount = 4
        try database.put(played).get()
        let order = try LibrarySort.parse("-plays title").get()
        #expect(try database.songs(LibraryQuery(), order: order, offset: 0, limit: 10).get().map { $0.title ?? "" }
            == ["Straße", "Army of Me", "Hoppípolla", "Human Behaviour", "Hyperballad"])
        #expect(throws: LibrarySort.ParseError.self) { try LibrarySort.parse("albumartist year").get() }
        // A song with no date comes after those with one, up or down (it came first).
        var untagged = LibrarySong(path: "/m/untagged.flac", size: 1, modified: 1, rate: 44100, channels: 2)
        untagged.seconds = 1
        try database.put([untagged]).get()
        for text in ["date title", "-date title", "disc date"] {
            let sorted = try database.songs(LibraryQuery(), order: LibrarySort.parse(text).get(), offset: 0, limit: 10).get()
            #expect(sorted.last?.path == "/m/untagged.flac" && sorted.count == 6, "\(text)")
        }
    }

    @Test func theFilesKnownUnderAFolderAreItsOwnNotANeighboursOfALongerName() throws {
        let (database, _) = try newDatabase()
        try database.put([song("/m/a/1.mp3", title: "A", artist: "A", album: "A"), song("/m/a/deep/2.mp3", title: "B", artist: "B", album: "B"),
                          song("/m/ab/3.mp3", title: "C", artist: "C", album: "C"), song("/m/a0.mp3", title: "D", artist: "D", album: "D")]).get()
        #expect(try database.knownFiles(under: "/m/a", after: nil, limit: 10).get().map(\.place.path) == ["/m/a/1.mp3", "/m/a/deep/2.mp3"])
        #expect(try database.knownFiles(under: "/m/", after: nil, limit: 10).get().count == 4)
        #expect(try database.paths(under: "/m/ab").get() == ["/m/ab/3.mp3"])
        // A page at a time, in the library's order of paths: a folder's songs, then the folders
        // in it, by their names' bytes ("/m/a0.mp3", then "/m/a/" before "/m/ab/").
        let first = try database.knownFiles(under: "/m", after: nil, limit: 2).get().map(\.place.path)
        #expect(first == ["/m/a0.mp3", "/m/a/1.mp3"])
        #expect(try database.knownFiles(under: "/m", after: first.last.map(SongPlace.init), limit: 2).get().map(\.place.path) == ["/m/a/deep/2.mp3", "/m/ab/3.mp3"])
        #expect(try database.knownFiles(under: "/m", after: SongPlace("/m/a/deep/2.mp3"), limit: 1).get().map(\.place.path) == ["/m/ab/3.mp3"])
        #expect(try database.knownFiles(under: "/m", after: SongPlace("/m/ab/3.mp3"), limit: 2).get().isEmpty)
        #expect(try database.files(under: "/m", ofSizes: [2]).get().isEmpty && database.files(under: "/m/a", ofSizes: [2, 1000]).get().count == 2)
        // One folder's songs paged within it, a folder whose name sorts before "/" (a space), and
        // a CUE sheet's track, which is of its sheet's folder (the walk lists it there).
        try database.put([song("/m/a/0.mp3", title: "E", artist: "E", album: "E"), song("/m/a b/4.mp3", title: "F", artist: "F", album: "F"),
                          song("/m/b.cue/track0002", title: "G", artist: "G", album: "G")]).get()
        #expect(try database.knownFiles(under: "/m/a", after: SongPlace("/m/a/0.mp3"), limit: 1).get().map(\.place.path) == ["/m/a/1.mp3"])
        #expect(try database.paths(under: "/m").get()
            == ["/m/a0.mp3", "/m/b.cue/track0002", "/m/a b/4.mp3", "/m/a/0.mp3", "/m/a/1.mp3", "/m/a/deep/2.mp3", "/m/ab/3.mp3"])
        #expect(try database.songs(at: ["/m/b.cue/track0002", "/m/a b/4.mp3", "/m/none.mp3"]).get().map(\.title) == ["G", "F"])
        // A sheet is the folder of its tracks, as MPD lists it (`add "b.cue"`), not its neighbours'.
        try database.put([song("/m/b.cue/track0001", title: "H", artist: "H", album: "H"), song("/m/b.cue0.mp3", title: "I", artist: "I", album: "I"),
                          song("/m/c.cue/track0001", title: "J", artist: "J", album: "J")]).get()
        #expect(try database.paths(under: "/m/b.cue").get() == ["/m/b.cue/track0001", "/m/b.cue/track0002"])
        try database.retire(["/m/b.cue/track0001", "/m/b.cue0.mp3", "/m/c.cue/track0001"], carrying: []).get()
        // A folder left with no song leaves the library with its last.
        try database.retire(["/m/a b/4.mp3", "/m/ab/3.mp3"], carrying: []).get()
        #expect(try database.paths(under: "/m").get() == ["/m/a0.mp3", "/m/b.cue/track0002", "/m/a/0.mp3", "/m/a/1.mp3", "/m/a/deep/2.mp3"])
    }

    @Test func whateverIsTypedIsNeverFTS5Syntax() throws {
        let (database, _) = try newDatabase()
        try database.put(songs).get()
        for text in ["\"", "a\"b", "NEAR(a b)", "post*", "(post", "title:\"", "-post", "^post", "a AND", "OR", "{title}:x", "\u{0}",
                     "NE\u{0}AR(a b) \"x\"* -a b)y", "a\u{0}b\"c"] {
            let query = try LibraryQuery.parse(text).get()
            #expect(throws: Never.self, "\(text)") { try database.find(query).get() }
        }
    }

    @Test func aSongPutAgainKeepsItsStatisticsAndTheIndexFollowsItsTags() throws {
        let (database, _) = try newDatabase()
        var first = songs[0]
        first.playCount = 7
        first.rating = 4
        try database.put([first]).get()
        var retagged = songs[0]
        retagged.title = "Isobel"
        try database.put([retagged]).get()
        let held = try #require(try database.songs(at: [first.path]).get().first)
        #expect(held.title == "Isobel")
        #expect(held.playCount == 7 && held.rating == 4)
        #expect(try database.find(LibraryQuery.parse("hyperballad").get()).get().isEmpty, "the old title is out of the index")
        #expect(try database.find(LibraryQuery.parse("isobel").get()).get() == [first.path])
    }

    @Test func multipleValuesAreKept() throws {
        let (database, _) = try newDatabase()
        var both = songs[0]
        both.artists = ["Björk", "Thom Yorke"]
        both.genres = ["Pop", "Electronic"]
        try database.put([both]).get()
        let held = try #require(try database.songs(at: [both.path]).get().first)
        #expect(held.artists == ["Björk", "Thom Yorke"] && held.genres == ["Pop", "Electronic"])
        #expect(try database.find(LibraryQuery.parse("artist:thom genre:electro").get()).get() == [both.path])
    }

    @Test func aFileThatIsNoDatabaseIsMovedAsideNeverDeleted() throws {
        for (name, bytes) in [("garbage", Array("this is not SQLite at all, just text".utf8) + [UInt8](repeating: 7, count: 5000)),
                              ("empty header", Array("SQLite format 3\0".utf8))] {
            let folder = try LibraryFixture.folder()
            let path = folder.appending("library.sqlite")
            try Data(bytes).write(to: URL(fileURLWithPath: "\(path)"))
            let (database, notes) = try LibraryDatabase.open(at: path).get()
            #expect(notes.count == 1 && notes[0].contains("moved aside to library.sqlite.damaged-1"), "\(name): \(notes)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).damaged-1")) == Data(bytes), "\(name): kept as it was")
            try database.put(songs).get()
            #expect(try database.counts().get().songs == 5)
        }
    }

    @Test func aLibraryCutShortIsMovedAsideAndAnotherProgramsDatabaseToo() throws {
        let (database, path) = try newDatabase()
        try database.put(Array(repeating: songs, count: 1).flatMap { $0 } + (0..<300).map {
            song("/m/many/\($0).mp3", title: "Song \($0) " + String(repeating: "x", count: 200), artist: "A", album: "B")
        }).get()
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(path)"))
        let cut = try LibraryFixture.folder().appending("library.sqlite")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(cut)"))
        let notes = try LibraryDatabase.open(at: cut).get().notes
        #expect(notes.count == 1 && notes[0].contains("cut short"), "\(notes)")

        let foreign = try LibraryFixture.folder().appending("library.sqlite")
        try LibraryFixture.sh("sqlite3 library.sqlite 'CREATE TABLE photos (id INTEGER)' 2>/dev/null || python3 -c "
            + "\"import sqlite3; sqlite3.connect('library.sqlite').execute('CREATE TABLE photos (id INTEGER)')\"", in: foreign.directory)
        let foreignNotes = try LibraryDatabase.open(at: foreign).get().notes
        #expect(foreignNotes.count == 1 && foreignNotes[0].contains("another program's database"), "\(foreignNotes)")
    }

    @Test func aLibraryFromANewerTplayerIsLeftAsItIs() throws {
        let (database, path) = try newDatabase()
        try database.put(songs).get()
        try LibraryFixture.sh("python3 -c \"import sqlite3; c = sqlite3.connect('library.sqlite'); "
            + "c.execute(\\\"INSERT INTO grdb_migrations VALUES ('from-the-future')\\\"); c.commit()\"", in: path.directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(path)"))
        #expect(throws: LibraryError.newer(path)) { try LibraryDatabase.open(at: path).get() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path)")) == before)
    }

    @Test func aFifoOrADeviceIsNeverOpened() throws {
        let folder = try LibraryFixture.folder()
        try LibraryFixture.sh("mkfifo library.sqlite", in: folder)
        let result = LibraryDatabase.open(at: folder.appending("library.sqlite"))
        guard case .failure(.cannotOpen(_, let why)) = result else { Issue.record("opened: \(result)"); return }
        #expect(why.contains("named pipe"))
    }

    @Test func twoHandlesShareTheLibraryReadersNeverBlocked() throws {
        let (first, path) = try newDatabase()
        let second = try LibraryDatabase.open(at: path).get().database
        try first.put(songs).get()
        #expect(try second.counts().get().songs == 5)
        try second.put([song("/m/d/1.mp3", title: "New", artist: "N", album: "N")]).get()
        #expect(try first.find(LibraryQuery.parse("new").get()).get() == [Path("/m/d/1.mp3")])
    }
}
