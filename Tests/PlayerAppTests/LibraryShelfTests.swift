import Files
import Foundation
import Glibc
import Library
import PlayerCore
import Testing
@testable import PlayerApp
import TestSupport

/// The library view's shelf and the listen recorder, on a real library in a folder of the test's
/// own (they lived in the executable, out of the unit tests' reach).
struct LibraryShelfTests {
    private static func library() throws -> (LibraryDatabase, folder: String) {
        let folder = try TestFolders.make("tplayer-shelf").path
        let database = try LibraryDatabase.open(at: Path(folder + "/library.sqlite")).get().database
        var songs: [LibrarySong] = []
        for (path, title, artist, album, track) in [("/m/b/1.mp3", "Army of Me", "Björk", "Post", 1), ("/m/b/2.mp3", "Hyperballad", "Björk", "Post", 2),
                                                    ("/m/a/1.flac", "Straße", "Zeta Waves", "Middle Ground", 1)] {
            var song = LibrarySong(path: Path(path), size: 1000, modified: 1, rate: 44100, channels: 2)
            song.title = title
            song.artists = [artist]
            song.album = album
            song.track = track
            song.seconds = 200
            songs.append(song)
        }
        try database.put(songs).get()
        return (database, folder)
    }

    @Test func theShelfListsArtistsAlbumsAndSongsAndTakesASort() throws {
        let (database, _) = try Self.library()
        let shelf = LibraryShelf(database: database, order: .albumOrder)
        let artists = shelf.artists(filter: "", offset: 0, limit: 10)
        #expect(artists.map(\.name) == ["Björk", "Zeta Waves"])
        let albums = shelf.albums(of: artists[0], filter: "")
        #expect(albums.map(\.name) == ["Post"])
        #expect(shelf.songs(of: albums[0], filter: "").compactMap(\.path) == ["/m/b/1.mp3", "/m/b/2.mp3"])
        #expect(shelf.songs(filter: "straße", offset: 0, limit: 10).compactMap(\.path) == ["/m/a/1.flac"])
        #expect(shelf.problem(filter: "year:abc") != nil)
        #expect(shelf.setSort("nonsense") != nil && shelf.setSort("title") == nil && shelf.sort == "title")
    }

    @Test func aListenIsCountedAndLoggedOffTheMainLoop() throws {
        let (database, folder) = try Self.library()
        let work = try BackgroundWork()
        var said: [String] = []
        let log = Path(folder + "/listens.log")
        let recorder = ListenRecorder(log: log, library: SharedLibrary(open: { database }), work: work, say: { said.append($0) })
        var song = SongInfo(path: "/m/b/2.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100 * 200, title: "Hyperballad")
        song.tags.artist = "Björk"
        recorder.record(Listen(kind: .played, song: song, heard: 150))
        recorder.record(Listen(kind: .skipped, song: song, heard: 5))
        recorder.finish()
        let counted = try #require(try database.songs(at: ["/m/b/2.mp3"]).get().first)
        #expect(counted.playCount == 1 && counted.skipCount == 1)
        let logged = try String(contentsOfFile: folder + "/listens.log", encoding: .utf8)
        #expect(logged.hasPrefix("#AUDIOSCROBBLER") && logged.contains("Hyperballad"), "\(logged)")
        #expect(said.isEmpty, "\(said)")
    }

    /// The playlists as the library view shows them: each one's count (a smart one's query), a
    /// file read again only when its size or time changed; a playlist's songs as the library
    /// knows them, a file it does not hold by its name; a smart one filled from the library.
    @Test func thePlaylistsAreShownAndAFileIsReadAgainOnlyWhenItChanged() throws {
        let (database, folder) = try Self.library()
        let playlists = folder + "/playlists"
        try FileManager.default.createDirectory(atPath: playlists, withIntermediateDirectories: true)
        try "#EXTM3U\n#TPLAYER-QUERY:artist:björk\n".write(toFile: playlists + "/Best.m3u", atomically: true, encoding: .utf8)
        let road = playlists + "/Road.m3u"
        try "#EXTM3U\n/m/b/1.mp3\n/m/b/2.mp3\n/x/outside.flac\n".write(toFile: road, atomically: false, encoding: .utf8)
        let shelf = LibraryShelf(database: database, order: .albumOrder, playlists: NamedPlaylists(folder: Path(playlists)))
        let rows = shelf.playlists()
        #expect(rows.map(\.name) == ["Best", "Road"] && rows.map(\.kind) == [.playlist, .playlist])
        #expect(rows.map(\.detail) == ["0 songs  smart: artist:björk", "3 songs"])
        #expect(shelf.songs(ofPlaylist: rows[0]).map(\.name) == ["Björk – Army of Me (Post)", "Björk – Hyperballad (Post)"])
        let songs = shelf.songs(ofPlaylist: rows[1])
        #expect(songs.map(\.name) == ["Björk – Army of Me (Post)", "Björk – Hyperballad (Post)", "outside.flac"])
        #expect(songs.map { $0.albumKey == nil } == [false, false, true], "a file the library does not hold has no album key")
        #expect(shelf.paths(of: rows[1], filter: "") == ["/m/b/1.mp3", "/m/b/2.mp3", "/x/outside.flac"])
        // The same size and time: not read again (a line made a comment is not seen)…
        var before = stat()
        #expect(stat(road, &before) == 0)
        try "#EXTM3U\n/m/b/1.mp3\n#m/b/2.mp3\n/x/outside.flac\n".write(toFile: road, atomically: false, encoding: .utf8)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, road, &times, 0) == 0)
        #expect(shelf.playlists().map(\.detail) == ["0 songs  smart: artist:björk", "3 songs"])
        // …another time: read again.
        times[1].tv_sec += 1
        #expect(utimensat(AT_FDCWD, road, &times, 0) == 0)
        #expect(shelf.playlists().map(\.detail) == ["0 songs  smart: artist:björk", "2 songs"])
        // A name tplayer refuses, put there by another program: shown, never opened.
        try "#EXTM3U\n/m/b/1.mp3\n".write(toFile: playlists + "/Bad\u{1B}.m3u", atomically: true, encoding: .utf8)
        let bad = try #require(shelf.playlists().first { $0.name.hasPrefix("Bad") })
        #expect(bad.detail == "name refused: rename the file" && bad.refused != nil && shelf.songs(ofPlaylist: bad).isEmpty)
    }
}
