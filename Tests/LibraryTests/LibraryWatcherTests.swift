import Foundation
import Files
import Library
import PlayerCore
import Testing

/// The watcher on a real folder (inotify) and a real library: what changes is scanned once the
/// folder is quiet, and stopping it leaves nothing running.
@Suite(.serialized) struct LibraryWatcherTests {
    private func waitFor(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<100 {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    @Test func aSongCopiedInIsScannedAndOneDeletedLeaves() throws {
        let (database, scanner, folder) = try LibraryFixture.library()
        try LibraryFixture.sh("mkdir Music && \(LibraryFixture.tone) && lame --quiet --tt First tone.wav Music/first.mp3", in: folder)
        _ = try scanner.scan([folder.appending("Music")]).get()
        let scans = Locked(0)
        let watcher = try #require(LibraryWatcher(folders: [folder.appending("Music")], scanner: scanner, settle: 0.2,
                                                  scanned: { scans.update { $0 += 1 } }) { line in
            Issue.record("said: \(line)")
        })
        defer { watcher.stop() }
        #expect(waitFor { watcher.isWatching }, "its folders listed and watched, on its thread")
        try LibraryFixture.sh("mkdir -p Music/deep/er && lame --quiet --tt Second tone.wav Music/deep/er/second.mp3 && rm Music/first.mp3",
                              in: folder)
        let found = try waitFor { try database.find(LibraryQuery.parse("second").get()).get().count == 1 }
        #expect(found, "a song in a folder made since is found")
        let gone = try waitFor { try database.find(LibraryQuery.parse("first").get()).get().isEmpty }
        #expect(gone)
        // Told once the scan is over: after its songs are in the library, a moment later.
        #expect(waitFor { scans.read { $0 } >= 1 }, "each scan is told (the player notes it as the database's change)")
    }
}
