import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Files

/// The kernel's word on a watched folder, as the library's watcher reads it: what changed, by
/// name, and whether a folder was made there.
struct FolderWatchTests {
    @Test func aFileAndAFolderMadeAreHeardByName() throws {
        let folder = try WritingTests.folder()
        let watch = try #require(FolderWatch())
        let added = try watch.add(Path(folder)).get()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/song.mp3"))
        try FileManager.default.createDirectory(atPath: folder + "/Album", withIntermediateDirectories: false)
        #expect(Waiting.untilReadable(watch.descriptor))
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var heard: [FolderWatch.Change] = []
        for _ in 0..<50 where !heard.contains(where: \.isNewFolder) {
            heard += watch.take(into: &buffer)
            usleep(2_000)
        }
        #expect(heard.allSatisfy { $0.watch == added })
        #expect(heard.contains { $0.name == "song.mp3" && !$0.isNewFolder })
        #expect(heard.contains { $0.name == "Album" && $0.isNewFolder })
        #expect(watch.take(into: &buffer).isEmpty, "nothing more waits")
    }

    @Test func aFolderThatIsNotThereIsNotWatched() throws {
        let watch = try #require(FolderWatch())
        guard case .failure(let error) = watch.add("/nonexistent-tplayer-folder") else {
            Issue.record("watched")
            return
        }
        #expect(error == SystemError(code: ENOENT))
    }

    /// An event cut short (a read that ended mid-event) ends the list; nothing is made up.
    @Test func anEventCutShortEndsThem() {
        #expect(FolderWatch.changes(in: ArraySlice([UInt8](repeating: 1, count: 10))).isEmpty)
    }
}
