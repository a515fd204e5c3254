import Foundation
import Glibc
import Testing

/// The migration that makes a release's library smaller (its search index made again from
/// 200,000 rows, in one transaction) killed with SIGKILL part way through: the library is left
/// whole as that release made it, every row and listen there, and the next run migrates it.
@Suite(.timeLimit(.minutes(10)))
struct LibraryMigrationEndToEndTests {
    static let fixture = Harness.root.appendingPathComponent("Tests/Fixtures/library-0.1.0.sqlite")

    /// Runs Python's sqlite3 (Debian's, with FTS5) on the library: `script` with `db` open.
    private func python(_ script: String, _ library: URL) throws -> String {
        let result = try Harness.run("/usr/bin/python3", ["-c", "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n" + script, library.path])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the library holds, and whether SQLite and its search index find it whole.
    private func state(_ library: URL) throws -> String {
        try python("""
            print(db.execute("SELECT count(*), sum(playcount), sum(rating) FROM song").fetchone(),
                  db.execute("SELECT count(*), sum(at) FROM listen").fetchone(),
                  db.execute("PRAGMA integrity_check").fetchone()[0],
                  db.execute("SELECT count(*) FROM grdb_migrations WHERE identifier = 'lean'").fetchone()[0])
            db.execute("INSERT INTO song_search (song_search) VALUES ('integrity-check')")
            """, library)
    }

    /// The release's library at `library`: its nine songs and `more` more, indexed as that
    /// release indexed them.
    private func releaseLibrary(at library: URL, more: Int) throws {
        try FileManager.default.createDirectory(at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: library)
        _ = try python("""
            db.execute('''WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(more))
                INSERT INTO song (path, size, modified, title, artists, album, rate, channels, shelf, shelfkey, albumkey, albumyear, added, playcount)
                SELECT CAST('/m/' || (i / 100) || '/' || i || '.mp3' AS BLOB), 1, 1, 'Title ' || i, 'Artist ' || (i / 1000),
                       'Album ' || (i / 100), 44100, 2, 'Artist ' || (i / 1000), 'artist', 'album ' || (i / 100), 2000, 1, i % 3 FROM n''')
            db.execute('''INSERT INTO song_search (rowid, title, artist, albumartist, album, genre, composer, path)
                SELECT id, lower(title), lower(artists), lower(shelf), lower(album), '', '', CAST(path AS TEXT) FROM song WHERE id > 9''')
            db.commit()
            """, library)
    }

    @Test func aMigrationKilledLeavesTheReleasesLibraryWholeAndTheNextRunMakesIt() throws {
        let folder = try Harness.temporaryFolder()
        let library = folder.appendingPathComponent("data/tplayer/library.sqlite")
        try releaseLibrary(at: library, more: 200_000)
        let before = try state(library)
        #expect(before.hasSuffix(" ok 0"), "\(before)")
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path]
        var killedWhileRunning = false
        let wal = library.path + "-wal"
        _ = try Harness.run(Harness.binary, ["--find", "title 4242"], environment: environment) { process in
            // Once the migration is writing (its log past a megabyte), or a few seconds.
            let start = Date()
            while process.isRunning, Harness.fileSize(wal) < 1 << 20, Date().timeIntervalSince(start) < 20 { usleep(2_000) }
            killedWhileRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
        }
        try #require(killedWhileRunning, "the migration ended before it could be killed: 200,000 rows were too few here")
        #expect(try state(library) == before, "the release's library, whole, as it was")
        let found = try Harness.tplayer(["--find", "\"title 4242\""], environment: environment)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout == "/m/42/4242.mp3\n")
        // A library this large is said to be brought up first, in one line: it takes a while.
        #expect(found.stderrLines == ["tplayer: \(library.path): bringing it up to this tplayer, once "
            + "(a large library takes a while: a million songs, about half a minute)"], "\(found.stderr)")
        let after = try state(library)
        #expect(after == String(before.dropLast()) + "1", "every row and listen kept, the index whole: \(after)")
    }

    /// Whether this machine lets the tests mount a small tmpfs (root, in a namespace that may).
    static let canMount: Bool = {
        guard let folder = try? Harness.temporaryFolder() else { return false }
        guard (try? Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path]))?.status == 0 else { return false }
        _ = try? Harness.run("/bin/umount", [folder.path])
        return true
    }()

    /// The disk fills while the release's library is migrated (a tmpfs with room for the
    /// library and a quarter megabyte more): the migration is rolled back, tplayer says so in
    /// one line naming the library and exits non-zero, and the library is as the release left it.
    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func aMigrationOnAFullDiskRollsBackAndSaysSo() throws {
        let folder = try Harness.temporaryFolder()
        let made = folder.appendingPathComponent("made/library.sqlite")
        try releaseLibrary(at: made, more: 20_000)
        let before = try state(made)
        let size = Harness.fileSize(made.path)
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = try Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size + 256 * 1024)", "tmpfs", disk.path])
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Harness.run("/bin/umount", [disk.path]) }
        let library = disk.appendingPathComponent("tplayer/library.sqlite")
        try FileManager.default.createDirectory(at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: made, to: library)
        let found = try Harness.tplayer(["--find", "\"title 4242\""], environment: ["XDG_DATA_HOME": disk.path, "HOME": folder.path])
        #expect(found.status != 0)
        #expect(found.stderrLines.count == 1 && found.stderrLines.first?.hasPrefix("tplayer: \(library.path): cannot open the library: ") == true
                && found.stderr.hasSuffix("the disk is full, so it could not be brought up to this tplayer; it is whole as it was: make room and run again\n"),
                "\(found.stderr)")
        #expect(try state(library) == before, "the release's library, whole, as it was")
    }
}
