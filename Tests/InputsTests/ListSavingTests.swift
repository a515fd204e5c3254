import Files
import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Inputs

/// Saving the list (the list view's `w`): what is written, and that nothing there is ever
/// written over.
struct ListSavingTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-save-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theM3U8HoldsTitlesAndAbsolutePathsAndNothingThatCouldBreakALine() {
        var sheetTrack = Entry(path: "album.flac", title: "Track 1", origin: SourceLocation(file: "/music/album.cue", line: 3))
        sheetTrack.span = TrackSpan(start: 0, end: 100)
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
