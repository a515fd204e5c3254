import Files
import Glibc
import PlayerCore

/// Watches the library's folders while tplayer runs (inotify) and brings the library up to
/// date with what changes in them, with no command (cmus needs `:update-cache`): a song
/// copied in, retagged, renamed or deleted is in the library, changed or gone a moment later.
///
/// Its folders are listed and watched on its own thread, as it starts. Changes are gathered
/// until the folders have been quiet for `settle` seconds (a copy of an
/// album is many events), then the folders they were in are scanned as `--scan` scans (only
/// what changed is read), on the watcher's own thread: never on the main loop.
public final class LibraryWatcher: @unchecked Sendable {
    // @unchecked: `watches`, `pending` and `fullSaid` are touched only on the watcher's thread;
    // `stop` only writes to the pipe; `watching` is behind its lock.
    private let changes: FolderWatch
    private let stopPipe: SelfPipe
    private let scanner: LibraryScanner
    private let report: @Sendable (String) -> Void
    private let scanned: @Sendable () -> Void
    private let settle: Double
    private var watches: [Int32: Path] = [:]
    private var pending = Set<Path>()
    private var fullSaid = false
    private var thread: pthread_t?
    /// The folders to watch, walked on the watcher's thread when it starts (a library of
    /// thousands of folders is listed there, not while the player starts).
    private let roots: [Path]
    private let watching = Locked(false)

    /// Whether its folders are all watched now (a change before that is found by the next scan).
    public var isWatching: Bool { watching.read { $0 } }

    /// Starts watching `folders` and every folder under them; `nil` when inotify cannot be had.
    /// `report` hears, on the watcher's thread, what goes wrong as it watches, and `scanned`
    /// each scan that brought the library up to date (its songs may have changed).
    public init?(folders: [Path], scanner: LibraryScanner, settle: Double = 1.0, scanned: @escaping @Sendable () -> Void = {},
                 report: @escaping @Sendable (String) -> Void) {
        guard let watch = FolderWatch(), let pipe = try? SelfPipe() else { return nil }
        changes = watch
        stopPipe = pipe
        self.scanner = scanner
        self.report = report
        self.scanned = scanned
        self.settle = settle
        roots = folders
        thread = try? HelperThread.start(name: "library watch") { [self] in run() }
        if thread == nil { return nil }
    }

    /// Stops watching and waits for a scan under way to end.
    public func stop() {
        stopPipe.wake()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    /// Watches `folder` and the folders under it (hidden ones and the system's passed by, as
    /// the scan passes them by).
    private func watchTree(_ folder: Path) {
        guard !FileSystem.isSystemFolder(folder) else { return }
        let added: Int32
        switch changes.add(folder) {
        case .success(let watch): added = watch
        case .failure(let error):
            if error == SystemError(code: ENOSPC), !fullSaid {
                fullSaid = true
                report("\(folder): not watched: the system's limit of watched folders is reached "
                    + "(fs.inotify.max_user_watches); tplayer --scan brings the library up to date")
            }
            return
        }
        if watches[added] != nil { return }  // met before (a link back up)
        watches[added] = folder
        guard case .success(let items) = FileSystem.list(folder) else { return }
        // In the scan's order (`LibraryWalk`): a folder met twice through a link is watched
        // under the path the scan keeps its songs by.
        let folders = items.filter(\.isDirectory).map { folder.appending($0.name) }
        for inner in folders.sorted(by: { ($0.bytes + [0x2F]).lexicographicallyPrecedes($1.bytes + [0x2F]) }) { watchTree(inner) }
    }

    private func run() {
        for folder in roots { watchTree(folder) }
        watching.update { $0 = true }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var fds = [pollfd(fd: changes.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.readFD, events: Int16(POLLIN), revents: 0)]
            // Waiting for the folders to be quiet: a timeout; else for the next change.
            let timeout = pending.isEmpty ? -1 : Int32(settle * 1000)
            let ready = Waiting.poll(&fds, milliseconds: timeout)
            if ready < 0 {
                if SystemError.current == .interrupted { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 {
                rescan()
                continue
            }
            take(changes.take(into: &buffer))
        }
    }

    /// Each folder where something changed is to be scanned; a folder made there is watched too.
    private func take(_ heard: [FolderWatch.Change]) {
        for change in heard {
            guard let folder = watches[change.watch] else { continue }
            if change.ended {
                watches[change.watch] = nil
                continue
            }
            pending.insert(folder)
            if change.isNewFolder, !change.name.isEmpty { watchTree(folder.appending(change.name)) }
        }
    }

    /// Scans the folders that changed, now that they are quiet.
    private func rescan() {
        let folders = Array(pending)
        pending = []
        switch scanner.scan(folders) {
        case .success: scanned()
        case .failure(let error): report("the library is not up to date: \(error)")
        }
    }
}
