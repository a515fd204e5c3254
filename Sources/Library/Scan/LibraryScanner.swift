import Files
import Foundation
import PlayerCore

/// Brings the library up to date with its folders: reads the tags of each file that is new or
/// changed (its size or modification time differs from when it was read), on every core, and
/// takes out what is gone. A file moved or renamed keeps its play count, skips and rating: a
/// file of the same size, length, title, artists and album as one gone, with none of its own,
/// takes them over, whether this scan read it or one stopped before its end did (each batch of
/// new files is kept as it is read; the gone ones are taken out only at a scan's end: a move
/// scanned in two goes lost its ratings when only the second scan's files were matched).
///
/// Tags are read by `makeReader`'s readers (the player's own decoders, opened without decoding):
/// the library holds the very tags the player shows when it plays.
public struct LibraryScanner: Sendable {
    public typealias Reader = (Path) -> Result<SongInfo, LoadFailure>
    typealias Known = LibraryDatabase.Known

    let database: LibraryDatabase
    let makeReader: @Sendable () -> Reader
    let workers: Int
    /// How far the walk runs ahead of the reading, in files found to read: what a scan holds
    /// (its progress's total is those found so far, until the walk ends).
    let ahead: Int

    public init(database: LibraryDatabase, workers: Int = ProcessInfo.processInfo.activeProcessorCount, ahead: Int = 20_000,
                makeReader: @escaping @Sendable () -> Reader) {
        self.database = database
        self.makeReader = makeReader
        self.workers = max(1, min(workers, 64))
        self.ahead = max(ahead, 1)
    }

    public struct Summary: Sendable {
        public var counts = LibraryDatabase.Counts(songs: 0, albums: 0, artists: 0)
        /// Files whose tags were read (new or changed), unchanged, taken out, and moved.
        public var read = 0
        public var unchanged = 0
        public var removed = 0
        public var moved = 0
        /// Each file that could not be read, and why (one line each).
        public var failures: [String] = []
        /// Folders that could not be walked.
        public var problems: [String] = []
        /// Whether it was stopped before its end (what was written stays).
        public var cancelled = false
    }

    /// Songs read and written a batch at a time: memory stays bounded however large the library.
    public static let batch = 500

    /// Scans `folders`; `progress` hears how many of the files to read are read, of those
    /// found so far, and whether the walk is still finding more.
    ///
    /// Each folder is walked in the library's order of paths (`SongPlace`) beside a page at a
    /// time of the library's rows under it, in the same order (`knownFiles(under:after:limit:)`):
    /// a file found with no row is new, a row passed by with no file is gone. A rescan holds the
    /// folders on the way down, a page of rows and the files found to read, never a list of the
    /// whole library (a million files held 329 MB).
    public func scan(_ folders: [Path], progress: @escaping (_ done: Int, _ total: Int, _ finding: Bool) -> Void = { _, _, _ in },
                     isCancelled: @escaping @Sendable () -> Bool = { false }) -> Result<Summary, LibraryError> {
        var summary = Summary()
        var walk = LibraryWalk()
        // The files found to read, from `head` on.
        var pending: [LibraryWalk.Found] = []
        var head = 0
        var gone: [(path: Path, size: Int64)] = []
        var done = 0
        var roots = Self.outermost(folders)
        // Rows put in after this (another scan's: the watcher's, `:scan`, another tplayer) are
        // not this walk's to judge: a file moved meanwhile is one this walk may not have met.
        let lastBefore: Int64
        switch database.lastRow() {
        case .success(let last): lastBefore = last
        case .failure(let error): return .failure(error)
        }
        /// The first `count` of `pending` read and put in.
        func readPending(_ count: Int) -> LibraryError? {
            let part = Array(pending[head..<min(head + count, pending.count)])
            head += part.count
            if head >= ahead / 2 || head == pending.count {
                pending.removeFirst(head)
                head = 0
            }
            var songs: [LibrarySong] = []
            for (found, result) in zip(part, read(part, isCancelled: isCancelled)) {
                switch result {
                case .success(let song)?: songs.append(song)
                case .failure(let failure)?: summary.failures.append("\(found.path): \(failure)")
                case nil: summary.cancelled = true
                }
            }
            if case .failure(let error) = database.put(songs) { return error }
            summary.read += songs.count
            done += part.count
            return nil
        }
        var walked = 0
        while walked < roots.count {
            let root = roots[walked]
            walked += 1
            walk.start(root)
            var known = KnownPages(database: database, folder: root)
            // Another root inside this one (behind a hidden folder, which this walk passes by)
            // is walked on its own: its rows are not this walk's.
            let inner = roots.filter { $0 != root && LibraryWalk.isUnder($0, root) }
            func passBy(below place: SongPlace?) -> LibraryError? {
                while true {
                    let row: Known.Row?
                    switch known.peek() {
                    case .success(let next): row = next
                    case .failure(let error): return error
                    }
                    guard let row, place.map({ row.place < $0 }) ?? true else { return nil }
                    // Under a folder that could not be listed: kept, as it was.
                    let kept = walk.unlisted.filter { LibraryWalk.isUnder($0, root) } + inner
                    if row.id <= lastBefore, !kept.contains(where: { LibraryWalk.isUnder(row.place.path, $0) }) {
                        gone.append((row.place.path, row.known.size))
                    }
                    known.advance()
                }
            }
            while let found = walk.next(isCancelled: isCancelled) {
                let place = SongPlace(found.path)
                if let error = passBy(below: place) { return .failure(error) }
                if case .success(let row?) = known.peek(), row.place == place {
                    known.advance()
                    if row.known == Known(size: found.size, modified: found.modified) {
                        summary.unchanged += 1
                        continue
                    }
                }
                pending.append(found)
                if pending.count - head >= ahead {
                    if let error = readPending(Self.batch) { return .failure(error) }
                    progress(done, done + pending.count - head, true)
                }
            }
            // A walk cut short saw only part of the folder: nothing is taken out for what it missed.
            if isCancelled() {
                summary.cancelled = true
                break
            }
            if let error = passBy(below: nil) { return .failure(error) }
            // A root inside a folder that could not be listed is walked on its own.
            if walked == roots.count {
                roots += folders.filter { folder in
                    !roots.contains(folder) && walk.unlisted.contains { LibraryWalk.isUnder(folder, $0) && folder != $0 }
                }
            }
        }
        summary.problems = walk.problems
        while head < pending.count, !summary.cancelled {
            if isCancelled() {
                summary.cancelled = true
                break
            }
            if let error = readPending(Self.batch) { return .failure(error) }
            progress(done, done + pending.count - head, false)
        }
        if !summary.cancelled {
            switch arrivals(gone, roots: roots, unlisted: walk.unlisted).flatMap({ retire(gone.map(\.path), arrived: $0) }) {
            case .success(let moved): summary.moved = moved
            case .failure(let error): return .failure(error)
            }
            summary.removed = gone.count - summary.moved
        }
        switch database.counts() {
        case .success(let counts): summary.counts = counts
        case .failure(let error): return .failure(error)
        }
        return .success(summary)
    }

    /// `folders` less those the walk of another of them walks (a folder named twice, or inside
    /// another, would be walked once and its songs seen as gone in the other's walk), in their
    /// order. One inside another behind a hidden folder (`~/.music` in `~`) is kept: the other's
    /// walk passes hidden folders by.
    static func outermost(_ folders: [Path]) -> [Path] {
        var kept: [Path] = []
        for (index, folder) in folders.enumerated() {
            let inOther = folders.enumerated().contains { other, outer in
                other != index && LibraryWalk.isUnder(folder, outer) && (folder != outer ? !isHidden(folder, under: outer) : other < index)
            }
            if !inOther { kept.append(folder) }
        }
        return kept
    }

    /// Whether a name on the way from `outer` down to `folder` starts with a dot.
    static func isHidden(_ folder: Path, under outer: Path) -> Bool {
        let rest = folder.bytes.dropFirst(outer.bytes.count)
        return rest.split(separator: UInt8(ascii: "/")).contains { $0.first == UInt8(ascii: ".") }
    }

    /// A move's new file is one of a gone file's size that holds no plays or rating of its own:
    /// read by this scan, or held already (a scan stopped before its end put it in); the newest
    /// last, taken first (`retire`): of two files alike, the one just come is the one moved.
    /// A lookup that fails fails the scan: taken out with no place to carry their statistics
    /// to, the moved songs' plays would be lost.
    private func arrivals(_ gone: [(path: Path, size: Int64)], roots: [Path], unlisted: [Path]) -> Result<[Path], LibraryError> {
        guard !gone.isEmpty else { return .success([]) }
        let sizes = Set(gone.map(\.size)), leaving = Set(gone.map(\.path))
        var found: [Path] = []
        for root in roots {
            switch database.files(under: root, ofSizes: sizes) {
            case .failure(let error): return .failure(error)
            case .success(let paths):
                found += paths.filter { path in !leaving.contains(path) && !unlisted.contains { LibraryWalk.isUnder(path, $0) } }
            }
        }
        return .success(found)
    }

    /// The library's rows under one folder, a page at a time, in the library's order of paths.
    private struct KnownPages {
        let database: LibraryDatabase
        let folder: Path
        private var page: [Known.Row] = []
        private var index = 0
        private var finished = false
        static let size = 2048

        init(database: LibraryDatabase, folder: Path) {
            self.database = database
            self.folder = folder
        }

        /// The next row, read with its page when it is the first of one.
        mutating func peek() -> Result<Known.Row?, LibraryError> {
            if index < page.count { return .success(page[index]) }
            guard !finished else { return .success(nil) }
            switch database.knownFiles(under: folder, after: page.last?.place, limit: Self.size) {
            case .failure(let error): return .failure(error)
            case .success(let next):
                finished = next.count < Self.size
                page = next
                index = 0
                return .success(page.first)
            }
        }

        mutating func advance() {
            index += 1
        }
    }

    /// Takes `gone` out, the statistics of each carried to a file that arrived in its place:
    /// one of the same `MoveKey` that holds none of its own, each taken once.
    private func retire(_ gone: [Path], arrived: [Path]) -> Result<Int, LibraryError> {
        guard !gone.isEmpty else { return .success(0) }
        var carried: [(from: LibrarySong, to: Path)] = []
        if !arrived.isEmpty {
            let goneSongs: [LibrarySong], candidates: [LibrarySong]
            switch (database.songs(at: gone), database.songs(at: arrived)) {
            case (.success(let was), .success(let now)): (goneSongs, candidates) = (was, now)
            case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
            }
            var free: [MoveKey: [Path]] = [:]
            for song in candidates where !song.hasStatistics { free[MoveKey(song), default: []].append(song.path) }
            for song in goneSongs where song.hasStatistics {
                guard let path = free[MoveKey(song)]?.popLast() else { continue }
                carried.append((song, path))
            }
        }
        return database.retire(gone, carrying: carried).map { carried.count }
    }

    /// The songs in `files`, read by `workers` threads each with its own reader; `nil` for
    /// those not read before a cancel.
    private func read(_ files: [LibraryWalk.Found], isCancelled: @escaping @Sendable () -> Bool)
        -> [Result<LibrarySong, LoadFailure>?] {
        let next = Locked(0)
        let results = Locked([Result<LibrarySong, LoadFailure>?](repeating: nil, count: files.count))
        let makeReader = makeReader
        DispatchQueue.concurrentPerform(iterations: min(workers, files.count)) { _ in
            let reader = makeReader()
            while !isCancelled() {
                let index = next.update { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < files.count else { return }
                let found = files[index]
                let result = found.cue.map { track in reader(track.image).map { LibrarySong(track, at: found.path, in: $0, size: found.size, modified: found.modified) } }
                    ?? reader(found.path).map { LibrarySong($0, size: found.size, modified: found.modified) }
                results.update { $0[index] = result }
            }
        }
        return results.read { $0 }
    }

    /// What tells a moved file from a new one: the same size, length, title, artists and album.
    struct MoveKey: Hashable {
        let size: Int64
        let seconds: Double?
        let title: String?
        let artists: [String]
        let album: String?

        init(_ song: LibrarySong) {
            size = song.size
            seconds = song.seconds
            title = song.title
            artists = song.artists
            album = song.album
        }
    }
}

extension LibraryDatabase.Known {
    /// A row of the library as a scan meets it (`knownFiles(under:after:limit:)`).
    typealias Row = (place: SongPlace, known: LibraryDatabase.Known, id: Int64)
}
