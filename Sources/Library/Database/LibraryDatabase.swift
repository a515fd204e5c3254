import Files
import Foundation
import Glibc
import GRDB
import PlayerCore

/// The library's SQLite database, behind one handle: a `DatabasePool` in WAL mode for a file
/// (readers are never blocked, one writer at a time, a busy timeout rather than "database is
/// locked"), a `DatabaseQueue` in memory for the fuzzer. Every query and write is a method here.
public final class LibraryDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The file, or `nil` in memory.
    public let path: Path?

    init(writer: any DatabaseWriter, path: Path?) {
        self.writer = writer
        self.path = path
    }

    /// How long a write waits for another tplayer's to end before it gives up.
    static let busyTimeout: TimeInterval = 10

    /// A library held in memory only, migrated.
    public static func inMemory() throws -> LibraryDatabase {
        let queue = try DatabaseQueue(configuration: configuration())
        try LibrarySchema.migrator.migrate(queue)
        return LibraryDatabase(writer: queue, path: nil)
    }

    /// The database at `path`, made (with its folder) when missing, migrated to this tplayer's
    /// schema. A file that is not a tplayer library (damaged, cut short, another program's) is
    /// moved aside, never deleted, and a new one begun: `notes` says so in one line. One made
    /// by a newer tplayer is left as it is (`.newer`). A large library brought up to this
    /// tplayer, or whose search index is made again, is said to `upgrading` first, in one line:
    /// a million songs take half a minute, which said nothing.
    public static func open(at path: Path, upgrading: (String) -> Void = { _ in })
        -> Result<(database: LibraryDatabase, notes: [String]), LibraryError> {
        // On a file system mounted read-only (a shared disk, a snapshot) it is read as it is:
        // SQLite cannot make the files its write-ahead log needs there, nor could anything
        // change it meanwhile. (It said "cannot open the library".)
        if FileSystem.exists(path), FileSystem.isReadOnlyMount(path.directory) { return openReadOnly(path).map { ($0, []) } }
        if let error = FileSystem.makeFolders(path.directory, permissions: 0o755) {
            return .failure(.cannotOpen(path, "cannot make its folder \(path.directory): \(error.reason)"))
        }
        var notes: [String] = []
        for attempt in 0..<2 {
            let opened = openPool(path, upgrading: upgrading)
            switch opened {
            case .success(let pool):
                return .success((LibraryDatabase(writer: pool, path: path), notes))
            case .failure(.damaged(let why)) where attempt == 0:
                switch moveAside(path) {
                case .success(let aside):
                    notes.append("\(path): not a library tplayer can read (\(why)); moved aside to \(aside.lastComponent) "
                        + "and a new library begun (tplayer --scan fills it)")
                case .failure(let error):
                    return .failure(.cannotOpen(path, "\(why), and it cannot be moved aside: \(error.reason)"))
                }
            case .failure(.damaged(let why)): return .failure(.cannotOpen(path, why))
            case .failure(.refused(let error)): return .failure(error)
            }
        }
        return .failure(.cannotOpen(path, "it could not be begun anew"))
    }

    /// The library at `path`, read-only and taken as unchanging (SQLite's `immutable`): its
    /// writes (a rating, a play counted) fail and are said where they are tried.
    private static func openReadOnly(_ path: Path) -> Result<LibraryDatabase, LibraryError> {
        var readOnly = configuration()
        readOnly.readonly = true
        // A URI (SQLite here reads `file:` names as URIs): the path's bytes, those that could
        // be read as the URI's own escaped.
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-~".utf8)
        let escaped = path.bytes.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        do {
            let queue = try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: readOnly)
            let migrator = LibrarySchema.migrator
            let (superseded, complete) = try queue.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
            }
            if superseded { return .failure(.newer(path)) }
            guard complete else { return .failure(.cannotOpen(path, "it is read-only, and made by an older tplayer: open it once where it can be written")) }
            return .success(LibraryDatabase(writer: queue, path: path))
        } catch {
            return .failure(.cannotOpen(path, LibraryError.reason(error)))
        }
    }

    private enum OpenFailure: Error {
        case damaged(String)
        case refused(LibraryError)
    }

    /// A library this large is said to be brought up before it is (64 MiB: about 100,000 songs
    /// made by tplayer 0.1.0, two seconds of work).
    static let largeLibrary: Int64 = 64 << 20

    private static func openPool(_ path: Path, upgrading: (String) -> Void) -> Result<DatabasePool, OpenFailure> {
        // What is opened is checked: SQLite would wait forever on a FIFO, and must not write to
        // a device.
        if case .success(let status) = FileSystem.status(of: path), status.kind != .regular {
            return .failure(.refused(.cannotOpen(path, "it is a \(status.kind.rawValue), not a file; move it away")))
        }
        do {
            if let cut = truncation(path) { return .failure(.damaged(cut)) }
            let pool = try DatabasePool(path: "\(path)", configuration: configuration())
            let migrator = LibrarySchema.migrator
            let (superseded, foreign, applied) = try pool.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                let ours = tables.contains("grdb_migrations")
                return (ours ? try migrator.hasBeenSuperseded(db) : false, !ours && !tables.isEmpty,
                        ours ? try migrator.appliedIdentifiers(db) : [])
            }
            if superseded { return .failure(.refused(.newer(path))) }
            if foreign {
                try pool.close()
                return .failure(.damaged("it is another program's database"))
            }
            let large = (try? FileSystem.status(of: path).get().size).map { $0 >= largeLibrary } ?? false
            let (migrating, indexing) = try pool.read { db in
                (try !migrator.hasCompletedMigrations(db), try LibraryDatabase.wordsMade(db) != LibraryDatabase.wordsVersion(db))
            }
            if large, !applied.isEmpty, migrating || indexing {
                upgrading("\(path): " + (migrating ? "bringing it up to this tplayer, once" : "making its search index again, once")
                    + " (a large library takes a while: a million songs, about half a minute)")
            }
            do {
                try migrator.migrate(pool)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL && !applied.isEmpty {
                // Each step is one transaction: the one the disk filled in is rolled back, the
                // library left whole at the step before.
                return .failure(.refused(.cannotOpen(path, "the disk is full, so it could not be brought up to this tplayer; "
                    + "it is whole as it was: make room and run again")))
            }
            // Read before the migrations: a library whose words are made as now (each opening
            // but the first after an upgrade) takes no write; read again only after a migration,
            // which may have changed the note.
            if migrating ? try pool.read({ db in try LibraryDatabase.wordsMade(db) != LibraryDatabase.wordsVersion(db) }) : indexing {
                do {
                    try pool.write { db in try LibraryDatabase.checkWords(db) }
                } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                    return .failure(.refused(.cannotOpen(path, "the disk is full, so its search index could not be made again; "
                        + "the rest is whole: make room and run again")))
                }
            }
            // Then the room an upgrade freed (the old index's too) goes back to the disk.
            if !applied.isEmpty, !applied.contains("paths") { giveBackRoom(pool) }
            return .success(pool)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return .failure(.damaged(error.resultCode == .SQLITE_NOTADB ? "not an SQLite database" : "the file is damaged"))
        } catch {
            return .failure(.refused(.cannotOpen(path, LibraryError.reason(error))))
        }
    }

    /// A library made smaller by a migration gives the room back to the disk (SQLite keeps a
    /// file's freed pages for itself): VACUUM writes it again whole, then the log is emptied
    /// into it. It needs room for a second copy for a moment; without it (a full disk) the
    /// library stays as the migration left it, whole, its freed pages used by what comes next.
    private static func giveBackRoom(_ pool: DatabasePool) {
        try? pool.writeWithoutTransaction { db in
            // Not begun without room for the copy: a nearly full disk is left as it is.
            var disk = statvfs()
            let free = statvfs(pool.path, &disk) == 0 ? Double(disk.f_bavail) * Double(disk.f_frsize) : 0
            let size = Double(try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0)
            if free > 2 * size { try? db.execute(sql: "VACUUM") }
            // The log is emptied into the file whatever VACUUM did (it grows to the library's size).
            try? db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Why the file at `path` is cut short, if it is: its header counts more pages than it
    /// holds, with no write-ahead log that could hold the rest.
    private static func truncation(_ path: Path) -> String? {
        guard let header = FileSystem.peek(path, count: 100), Array(header.prefix(16)) == Array("SQLite format 3\0".utf8) else {
            return nil  // missing, empty or not SQLite's: SQLite itself says
        }
        guard header.count == 100 else { return "cut short before its header's end" }
        var pageSize = Int(header[16]) << 8 | Int(header[17])
        if pageSize == 1 { pageSize = 65536 }
        let pages = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let validFor = header[92..<96].reduce(0) { $0 << 8 | Int($1) }, counter = header[24..<28].reduce(0) { $0 << 8 | Int($1) }
        guard validFor == counter, pages > 0, !FileSystem.exists(Path("\(path)-wal")),
              case .success(let status) = FileSystem.status(of: path) else { return nil }
        let (needed, overflow) = pages.multipliedReportingOverflow(by: pageSize)
        return overflow || Int64(needed) > status.size ? "cut short: \(status.size) of its \(needed) bytes" : nil
    }

    /// Renames the file (and its `-wal` and `-shm`) to `NAME.damaged-N`, the first N free.
    static func moveAside(_ path: Path) -> Result<Path, SystemError> {
        var number = 1
        while FileSystem.exists(Path("\(path).damaged-\(number)")) { number += 1 }
        let aside = Path("\(path).damaged-\(number)")
        for suffix in ["-wal", "-shm", ""] {
            let from = Path("\(path)\(suffix)")
            guard suffix.isEmpty || FileSystem.exists(from) else { continue }
            if case .failure(let error) = FileSystem.rename(from, to: Path("\(aside)\(suffix)")) { return .failure(error) }
        }
        return .success(aside)
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "library"
        return configuration
    }

    /// Runs `body` in one transaction; a failure rolls it back and is said as `.notWritten`.
    func write<T>(_ body: (Database) throws -> T) -> Result<T, LibraryError> {
        do {
            return .success(try writer.write(body))
        } catch {
            noteIfDamage(error)
            return .failure(.notWritten(LibraryError.reason(error)))
        }
    }

    /// Runs `body` on a snapshot (never blocked by a writer).
    func read<T>(_ body: (Database) throws -> T) -> Result<T, LibraryError> {
        do {
            return .success(try writer.read(body))
        } catch {
            noteIfDamage(error)
            return .failure(.notRead(LibraryError.reason(error)))
        }
    }

    /// Leaves a mark beside the library when SQLite found it damaged (`damageMark`), for the
    /// next `--scan` to check it whole and repair it (`openRepairing`).
    private func noteIfDamage(_ error: any Error) {
        guard let error = error as? DatabaseError, error.resultCode == .SQLITE_CORRUPT, let path else { return }
        if case .success(let file) = FileSystem.create(Self.damageMark(path), overwrite: true, permissions: 0o644) { _ = file }
    }

    /// The mark left beside the library at `path` when it was found damaged.
    static func damageMark(_ path: Path) -> Path { Path("\(path).damaged-seen") }
}
