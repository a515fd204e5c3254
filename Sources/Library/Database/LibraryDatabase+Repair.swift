import Foundation
import Glibc
import Files
import GRDB
import PlayerCore

/// A library damaged where its header cannot tell: in the middle of its file, or in its search
/// index. Where SQLite meets damage, a mark is left beside the library (`damageMark`), and the
/// next `--scan` checks the whole file (`openRepairing`; a damaged search index it finds itself):
/// a damaged file is moved aside, never deleted, with every song that can still be read (its
/// plays and rating with it) carried into a new one.
extension LibraryDatabase {
    /// What `check` found.
    enum Soundness: Equatable {
        case sound
        /// The search index's words do not match its rows (FTS5's own check).
        case searchDamaged
        /// SQLite's `quick_check` found the file damaged: its first finding.
        case damaged(String)
    }

    /// The search index's structure, the songs' words and the folders', read as any search
    /// reads them first (a damaged one fails every search): microseconds, done by every `--scan`.
    func searchOpens() -> Bool {
        do {
            _ = try writer.read { db in
                _ = try Int64.fetchOne(db, sql: "SELECT rowid FROM song_search WHERE song_search MATCH 'a*' LIMIT 1")
                _ = try Int64.fetchOne(db, sql: "SELECT rowid FROM dir_search WHERE dir_search MATCH 'a*' LIMIT 1")
            }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            return false
        } catch {
            return true
        }
    }

    /// SQLite's quick check of the whole file (every page read once), then the search index's
    /// own (0.55 s for 100,000 songs: done when damage was met, `damageMark`).
    func check() -> Soundness {
        do {
            let findings = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(1)") }
            if findings != ["ok"] { return .damaged(findings.first ?? "quick_check said nothing") }
        } catch {
            return .damaged(LibraryError.reason(error))
        }
        do {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO song_search (song_search) VALUES ('integrity-check')")
                try db.execute(sql: "INSERT INTO dir_search (dir_search) VALUES ('integrity-check')")
            }
            return .sound
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_CORRUPT_VTAB].contains(error.extendedResultCode)
                                                  || error.resultCode == .SQLITE_CORRUPT {
            return .searchDamaged
        } catch {
            return .sound  // not a finding (busy, read-only): the scan says what it meets
        }
    }

    /// Closes the file (before it is moved aside).
    func close() {
        try? (writer as? DatabasePool)?.close()
    }

    /// The songs that can still be read, in the order of their rows, up to the first that
    /// cannot; each with its folder's path, if that can be read (a song whose folder cannot be
    /// is left out, not the songs after it).
    func readableSongs() -> [LibrarySong] {
        var songs: [LibrarySong] = []
        _ = try? writer.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM song ORDER BY id")
            let folder = try db.makeStatement(sql: "SELECT path FROM dir WHERE id = ?")
            var folders: [Int64: Data?] = [:]
            while let row = try rows.next() {
                let id: Int64 = row["dirid"]
                if folders[id] == nil { folders[id] = .some(try? Data.fetchOne(folder, arguments: [id])) }
                guard let path = folders[id] ?? nil else { continue }
                var song = LibrarySong(row: row)
                song.path = SongPlace(folder: path, name: row["name"]).path
                songs.append(song)
            }
        }
        return songs
    }

    /// The history's rows and when each song came, as far as they can still be read, by path.
    struct History {
        var listens: [(path: Path, at: Int64, heard: Double, skipped: Bool)] = []
        var added: [(path: Path, added: Int64)] = []
    }

    func readableHistory() -> History {
        var history = History()
        _ = try? writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT dir.path, song.name, listen.at, listen.heard, listen.skipped FROM listen JOIN song ON song.id = listen.song
                  JOIN dir ON dir.id = song.dirid ORDER BY listen.rowid
                """)
            while let row = try rows.next() {
                history.listens.append((path: SongPlace(folder: row[0], name: row[1]).path, at: row[2], heard: row[3], skipped: row[4]))
            }
        }
        _ = try? writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT dir.path, song.name, added FROM song JOIN dir ON dir.id = song.dirid WHERE added IS NOT NULL ORDER BY song.id
                """)
            while let row = try rows.next() { history.added.append((path: SongPlace(folder: row[0], name: row[1]).path, added: row[2])) }
        }
        return history
    }

    /// Puts back what `readableHistory` read, for the songs held.
    func restore(_ history: History) -> Result<Void, LibraryError> {
        write { db in
            let added = try db.cachedStatement(sql: "UPDATE song SET added = ? WHERE id = ?")
            for song in history.added {
                if let id = try Self.songID(at: song.path, in: db) { try added.execute(arguments: [song.added, id]) }
            }
            let listen = try db.cachedStatement(sql: "INSERT INTO listen (song, at, heard, skipped) VALUES (?, ?, ?, ?)")
            for row in history.listens {
                if let id = try Self.songID(at: row.path, in: db) { try listen.execute(arguments: [id, row.at, row.heard, row.skipped]) }
            }
        }
    }

    /// The library at `path` as `open` gives it, checked first (`--scan`'s): one found damaged
    /// is moved aside and a new one made of what it still holds (its folders, and the songs
    /// that can be read, their plays, ratings, history and when they came with them), with a
    /// line for `notes`.
    public static func openRepairing(at path: Path, upgrading: (String) -> Void = { _ in })
        -> Result<(database: LibraryDatabase, notes: [String]), LibraryError> {
        let opened = open(at: path, upgrading: upgrading)
        guard case .success(let (database, notes)) = opened else { return opened }
        let mark = damageMark(path)
        let soundness: Soundness
        if !database.searchOpens() {
            soundness = .searchDamaged
        } else if FileSystem.exists(mark) {
            soundness = database.check()
        } else {
            return opened
        }
        let what: String
        switch soundness {
        case .sound:
            _ = mark.withCString { unlink($0) }
            return opened
        // Its words cannot be made again in place: SQLite cannot even drop an index whose
        // structure is damaged.
        case .searchDamaged: what = "its search index is damaged"
        case .damaged(let why): what = "damaged (\(why))"
        }
        let songs = database.readableSongs()
        let history = database.readableHistory()
        let folders = (try? database.folders().get()) ?? []
        database.close()
        let aside: Path
        switch moveAside(path) {
        case .success(let moved): aside = moved
        case .failure(let error): return .failure(.cannotOpen(path, "\(what), and it cannot be moved aside: \(error.reason)"))
        }
        let fresh: LibraryDatabase
        switch open(at: path) {
        case .success(let (database, _)): fresh = database
        case .failure(let error): return .failure(error)
        }
        if case .failure(let error) = fresh.add(folders: folders) { return .failure(error) }
        if case .failure(let error) = fresh.put(songs) { return .failure(error) }
        if case .failure(let error) = fresh.restore(history) { return .failure(error) }
        _ = mark.withCString { unlink($0) }
        let kept = songs.filter(\.hasStatistics).count
        return .success((fresh, notes + ["\(path): \(what); moved aside to \(aside.lastComponent), and its \(songs.count) readable songs "
            + "(\(kept) with plays or a rating) carried into a new library (--scan reads the rest)"]))
    }
}
