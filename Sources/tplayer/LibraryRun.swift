import AudioEngine
import Files
import Glibc
import Library
import PlayerApp
import PlayerCore
import Terminal

/// `tplayer --scan [FOLDER...]` and `tplayer --find QUERY`: the library from the command line.
struct LibraryRun {
    let settings: Settings

    /// The environment the library's places are read from.
    private static var environment: [String: String] {
        ProcessEnvironment.values(of: ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_MUSIC_DIR", "HOME"])
    }

    /// The library's database, opened (and made) where it lives; `nil` after one line saying why not.
    private func open(repairing: Bool = false, say: (String) -> Void = printError) -> LibraryDatabase? {
        guard let path = LibraryPlaces.database(environment: Self.environment) else {
            say("tplayer: no place for the library: set HOME or XDG_DATA_HOME")
            return nil
        }
        let upgrading = { (line: String) in say("tplayer: " + line) }
        switch repairing ? LibraryDatabase.openRepairing(at: path, upgrading: upgrading) : LibraryDatabase.open(at: path, upgrading: upgrading) {
        case .success(let (database, notes)):
            notes.forEach { say("tplayer: " + $0) }
            return database
        case .failure(let error):
            say("tplayer: \(error)")
            return nil
        }
    }

    /// The library, when there is one (a run that only plays never makes it); `nil` without a
    /// word when there is none or it cannot be opened (the player plays as before).
    static func existingLibrary() -> LibraryDatabase? {
        // GRDB's queues start libdispatch's event loop, which traps (SIGILL) when it cannot have
        // a descriptor: with few left (`ulimit -n`), the run goes on without its library.
        guard descriptorsFree(8) else { return nil }
        guard let path = LibraryPlaces.database(environment: environment), FileSystem.exists(path),
              case .success(let (database, _)) = LibraryDatabase.open(at: path, upgrading: { printError("tplayer: " + $0) }) else { return nil }
        return database
    }

    /// Whether `count` more descriptors can be opened now.
    static func descriptorsFree(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { opened.forEach { _ = close($0) } }
        for _ in 0..<count {
            let fd = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            opened.append(fd)
        }
        return true
    }

    /// Whether `library` is there with a song in it: what plain `tplayer` opens.
    static func holdsSongs(_ library: LibraryDatabase?) -> Bool {
        guard case .success(let songs) = library?.songs(LibraryQuery(), offset: 0, limit: 1) else { return false }
        return !songs.isEmpty
    }

    /// A path from the settings: `~/` is the home folder's; a relative one is not taken.
    static func expanded(_ text: String) -> Path? {
        if text.hasPrefix("~/"), let home = environment["HOME"], home.hasPrefix("/") {
            return Path(home).appending(Path(String(text.dropFirst(2))))
        }
        return text.hasPrefix("/") ? Path(text) : nil
    }

    /// A watcher of the library's folders for a run that plays, when there is a library: it
    /// keeps the library up to date as files come, change and go. What it says while the run
    /// plays (from its own thread) is kept for `said`, said when the run ends.
    func watcher(_ database: LibraryDatabase, scanned: @escaping @Sendable () -> Void, say: @escaping (String) -> Void) -> LibraryWatcher? {
        let folders = self.folders(database)
        guard !folders.isEmpty else { return nil }
        let later = laterLines
        let watcher = LibraryWatcher(folders: folders, scanner: Self.scanner(database), scanned: scanned) { line in
            later.update { $0.append("tplayer: " + line) }
        }
        guard let watcher else {
            say("tplayer: the library's folders are not watched (inotify: \(SystemError.current.reason)); tplayer --scan brings it up to date")
            return nil
        }
        return watcher
    }

    /// A scanner of `database` reading tags with the player's own decoders, a checker a thread.
    private static func scanner(_ database: LibraryDatabase) -> LibraryScanner {
        LibraryScanner(database: database) {
            let checker = SongChecker()
            return { checker.tags(SongSource($0)) }
        }
    }

    /// What the watcher said while the run played.
    let laterLines = Locked<[String]>([])

    /// The folders of the settings (or the music folder), and those earlier scans were given.
    func folders(_ database: LibraryDatabase) -> [Path] {
        let environment = Self.environment
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? Path($0) : nil }
            ?? environment["HOME"].map { Path($0).appending(".config") }
        let userDirs = config.flatMap { try? FileSystem.readAll($0.appending("user-dirs.dirs"), limit: 1 << 16).get() }
        let configured = LibraryPlaces.folders(configured: settings.libraryFolders, environment: environment, userDirs: userDirs,
                                               isFolder: FileSystem.isDirectory)
        let kept = (try? database.folders().get()) ?? []
        return configured + kept.filter { !configured.contains($0) }
    }

    func scan(_ named: [Path], verbose: Bool) -> Int32 {
        var bar = ProgressBar(fd: STDERR_FILENO, enabled: isatty(STDERR_FILENO) == 1)
        defer { bar.clear() }
        return scan(named, verbose: verbose, say: printError, summary: printOutput, progress: { done, total, finding in
            bar.show(done: done, total: total, name: finding ? "reading tags (finding more)" : "reading tags")
        })
    }

    /// `:scan [FOLDER]` while the player runs (off its main loop): the library's folders (and
    /// `folder`, kept from then on) scanned as `--scan` scans them; the lines it says, the
    /// summary last.
    func scanWhilePlaying(adding folder: Path?, isCancelled: @escaping @Sendable () -> Bool) -> [String] {
        var lines: [String] = []
        _ = scan(folder.map { [$0] } ?? [], verbose: false, say: { lines.append($0) }, summary: { lines.append("tplayer: library: " + $0) },
                 isCancelled: isCancelled)
        return lines
    }

    /// The scan of the library's folders and `named` (added to them): what goes wrong to
    /// `say`, the summary to `summary`; the exit status.
    private func scan(_ named: [Path], verbose: Bool, say: (String) -> Void, summary: (String) -> Void,
                      progress: @escaping (_ done: Int, _ total: Int, _ finding: Bool) -> Void = { _, _, _ in },
                      isCancelled: @escaping @Sendable () -> Bool = { false }) -> Int32 {
        var added: [Path] = []
        for folder in named {
            guard FileSystem.isDirectory(folder), let real = FileSystem.canonicalPath(folder) else {
                say("tplayer: \(folder): no such folder; name a folder of music to add to the library")
                return 66
            }
            added.append(real)
        }
        guard let database = open(repairing: true, say: say) else { return 74 }
        if case .failure(let error) = database.add(folders: added) {
            say("tplayer: \(error)")
            return 74
        }
        let folders = self.folders(database)
        guard !folders.isEmpty else {
            say("tplayer: no library folders: name one (tplayer --scan ~/Music, or :scan ~/Music while playing) "
                + "or add `library = PATH` to the settings")
            return 66
        }
        let started = ContinuousClock.now
        let result = Self.scanner(database).scan(folders, progress: progress, isCancelled: isCancelled)
        let elapsed = ContinuousClock.now - started
        switch result {
        case .success(let scanned):
            scanned.problems.forEach { say("tplayer: " + $0) }
            if verbose { scanned.failures.forEach { say("tplayer: " + $0) } }
            summary(scanned.line(seconds: elapsed.inSeconds, verbose: verbose))
            return 0
        case .failure(let error):
            say("tplayer: \(error); what was indexed before it is kept")
            return 74
        }
    }

    /// The songs of the library that `text` matches, in album order; the exit status after one
    /// line saying why there are none (1), or why the query cannot be read (64) or the library
    /// opened (74).
    func songs(matching text: String, for option: String) -> Result<[Path], ExitStatus> {
        var paths: [Path] = []
        return eachSong(matching: text, for: option) { path in
            paths.append(path)
            return true
        }.map { _ in paths }
    }

    /// The same songs, each handed to `each` as the library reads it (`false` stops), and how
    /// many were handed.
    func eachSong(matching text: String, for option: String, _ each: (Path) -> Bool) -> Result<Int, ExitStatus> {
        let query: LibraryQuery
        switch LibraryQuery.parse(text) {
        case .success(let parsed): query = parsed
        case .failure(let error):
            printError("tplayer: \(option): \(error)")
            return .failure(ExitStatus(code: 64))
        }
        guard let database = open() else { return .failure(ExitStatus(code: 74)) }
        switch database.find(query, each: each) {
        case .success(0):
            let empty = (try? database.counts().get().songs) == 0
            printError("tplayer: " + (empty ? "the library is empty: tplayer --scan fills it" : "no song in the library matches \(text)"))
            return .failure(ExitStatus(code: 1))
        case .success(let handed):
            return .success(handed)
        case .failure(let error):
            printError("tplayer: \(error)")
            return .failure(ExitStatus(code: 74))
        }
    }

    struct ExitStatus: Error {
        let code: Int32
    }

    /// `--find`: the matching songs' paths, one a line, written as the library reads them (a
    /// million-song answer holds one at a time).
    func find(_ text: String) -> Int32 {
        let terminal = isatty(STDOUT_FILENO) == 1
        var listed = 0, failedWrite = false
        // Written 64 KB at a time (a write a path made a million-song answer a million calls).
        var pending: [UInt8] = []
        func flush() -> Bool {
            defer { pending.removeAll(keepingCapacity: true) }
            failedWrite = failedWrite || !(pending.isEmpty || writeAll(STDOUT_FILENO, bytes: pending))
            return !failedWrite
        }
        let found = eachSong(matching: text, for: "--find") { path in
            // To a pipe, the path's own bytes (what a script opens); a name with a line break
            // would be two lines, so it is left out and said.
            if terminal {
                printOutput(path.description)
            } else if path.bytes.contains(UInt8(ascii: "\n")) {
                printError("tplayer: \(path): a name with a line break; left out of the list")
                return true
            } else {
                pending += path.bytes
                pending.append(UInt8(ascii: "\n"))
                if pending.count >= 1 << 16, !flush() { return false }
            }
            listed += 1
            return true
        }
        _ = flush()
        switch found {
        case .failure(let status): return status.code
        case .success:
            if failedWrite { return 74 }
            // Every match left out: none listed, as when none matches.
            return listed > 0 ? 0 : 1
        }
    }
}
