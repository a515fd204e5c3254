import Foundation
import Glibc
import Library
import PlayerCore
import Testing
@testable import PlayerApp

/// The library view's shelf and the listen recorder, on a real library in a folder of the test's
/// own (they lived in the executable, out of the unit tests' reach).
struct LibraryShelfTests {
    private static func library() throws -> (LibraryDatabase, folder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-shelf-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
}
