import Files
import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Inputs
import TestSupport

/// Saving the list (the list view's `w`): what is written, and that nothing there is ever
/// written over.
struct ListSavingTests {
    static func folder() throws -> String {
        try TestFolders.make("tplayer-save").path
    }

    @Test func theM3U8HoldsTitlesAndAbsolutePathsAndNothingThatCouldBreakALine() {
        var sheetTrack = Entry(path: "album.flac", title: "Track 1", origin: SourceLocation(file: "/music/album.cue", line: 3))
        sheetTrack.span = TrackSpan(start: 0, end: 100)
        sheetTrack.sheet = "/music/album.cue"
        var secondTrack = sheetTrack
        secondTrack.span = TrackSpan(start: 100, end: nil)
        let entries = [
            Entry(path: "/music/a.mp3", title: "Artist – A"),
            Entry(path: "b.flac", title: "evil\n/etc/passwd\u{1B}[2J"),
            Entry(path: "new\nline.mp3"),
            sheetTrack, secondTrack,
            Entry(path: Path(bytes: Array("/music/latin-".utf8) + [0xE9] + Array(".mp3".utf8))),
        ]
        let written = PlaylistWriter.m3u8(entries, folder: "/home/me")
        let expected = Array("#EXTM3U\n#EXTINF:-1,Artist – A\n/music/a.mp3\n#EXTINF:-1,evil /etc/passwd [2J\n/home/me/b.flac\n/music/album.cue\n/music/latin-".utf8)
            + [0xE9] + Array(".mp3\n".utf8)
        #expect(written.bytes == expected, "\(String(decoding: written.bytes, as: UTF8.self))")
        #expect(written.leftOut == ["new\nline.mp3"])
        #expect(written.wholeImages.isEmpty)
    }

    /// A sheet is written by its path's own bytes (a Latin-1 `Café` folder was rebuilt from
    /// its display and written with U+FFFD, naming a file that is not there), and tracks whose
    /// sheet is not known (a list resumed from an older tplayer, with no `origin` either) are
    /// their image once, said, not the image once a track.
    @Test func sheetsAreWrittenByTheirBytesAndUnknownOnesAsTheirImageOnce() {
        let cafe = Path(bytes: Array("/music/Caf".utf8) + [0xE9] + Array("/album.cue".utf8))
        var tracks: [Entry] = []
        for (start, end) in [(0, 100), (100, nil)] as [(Int64, Int64?)] {
            var track = Entry(path: Path(bytes: Array("/music/Caf".utf8) + [0xE9] + Array("/album.flac".utf8)))
            track.span = TrackSpan(start: start, end: end)
            track.sheet = cafe
            tracks.append(track)
        }
        var resumed = tracks.map { track -> Entry in
            var old = track
            old.sheet = nil
            return old
        }
        resumed.insert(Entry(path: "/music/b.mp3"), at: 1)
        let written = PlaylistWriter.m3u8(tracks + resumed, folder: "/")
        let image = tracks[0].path
        #expect(written.bytes == Array("#EXTM3U\n".utf8) + cafe.bytes + [0x0A] + image.bytes + Array("\n/music/b.mp3\n".utf8) + image.bytes + [0x0A])
        #expect(written.wholeImages == [image, image])
    }

    @Test func aListIsSavedOnlyAsANewPlaylistFile() throws {
        let folder = try Self.folder()
        try Data("song".utf8).write(to: URL(fileURLWithPath: folder + "/old.m3u8"))
        symlink(folder + "/nowhere", folder + "/dangling.m3u8")
        #expect(WriteGuard.listPath("mix") == "mix.m3u8" && WriteGuard.listPath("mix.m3u") == "mix.m3u")
        #expect(WriteGuard.listRefusal(Path(folder + "/new.m3u8")) == nil)
        #expect(WriteGuard.listRefusal(Path(folder + "/old.m3u8"))?.contains("a file is there already") == true)
        #expect(WriteGuard.listRefusal(Path(folder + "/dangling.m3u8"))?.contains("is there already") == true)
        #expect(WriteGuard.listRefusal(Path(folder + "/song.mp3"))?.contains("that name is a song") == true)
        #expect(WriteGuard.listRefusal(Path(folder + "/notes.txt"))?.contains("not a playlist") == true)
        // A folder, named as one or there already: said so (it was "not a playlist", and `.` saved `..m3u8`).
        for typed in ["sub/", ".", "..", folder + "/"] {
            let path = WriteGuard.listPath(Path(typed))
            #expect(path == Path(typed), "nothing added to \(typed)")
            #expect(WriteGuard.listRefusal(path) == "\(typed): that is a folder; name a new file in it, e.g. \(Path(typed).appending("list.m3u8"))")
        }
        #expect(WriteGuard.listPath(Path(folder)) == Path(folder + ".m3u8"), "a folder's name without its slash: the list beside it")
    }

    @Test func publishingWritesANewFileWholeAndNeverReplacesOne() throws {
        let folder = try Self.folder()
        let path = Path(folder + "/list.m3u8")
        #expect(FileSystem.publish(path, bytes: Array("#EXTM3U\n".utf8), permissions: 0o644) == nil)
        #expect(try String(contentsOfFile: folder + "/list.m3u8", encoding: .utf8) == "#EXTM3U\n")
        #expect(FileSystem.publish(path, bytes: Array("other".utf8), permissions: 0o644) == .fileExists)
        #expect(try String(contentsOfFile: folder + "/list.m3u8", encoding: .utf8) == "#EXTM3U\n", "left as it was")
        symlink(folder + "/target.mp3", folder + "/link.m3u8")
        #expect(FileSystem.publish(Path(folder + "/link.m3u8"), bytes: [1], permissions: 0o644) == .fileExists)
        #expect(!FileManager.default.fileExists(atPath: folder + "/target.mp3"), "nothing made through the link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.m3u8", "list.m3u8"], "no temporary file left")
    }
}

extension ListSavingTests {
    /// A stream is saved as its URL (it was made a path under the folder saved to), and a list
    /// saved and read again plays it.
    @Test func aStreamIsSavedAsItsURL() {
        let entries = [Entry(path: "https://radio.example/live?id=3", title: "Test FM"), Entry(path: "song.mp3")]
        let written = PlaylistWriter.m3u8(entries, folder: "/home/me")
        #expect(String(decoding: written.bytes, as: UTF8.self) == "#EXTM3U\n#EXTINF:-1,Test FM\nhttps://radio.example/live?id=3\n/home/me/song.mp3\n")
        let read = Playlist.parse(written.bytes, format: .m3u, file: "saved.m3u8")
        #expect(read.items.first?.path == "https://radio.example/live?id=3" && read.problems.isEmpty)
    }
}
