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

    let database: LibraryDatabase
    let makeReader: @Sendable () -> Reader
    let workers: Int

    public init(database: LibraryDatabase, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                makeReader: @escaping @Sendable () -> Reader) {
        self.database = database
        self.makeReader = makeReader
        self.workers = max(1, min(workers, 64))
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

    /// Scans `folders`; `progress` hears how many of the files to read are read.
    public func scan(_ folders: [Path], progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in },
                     isCancelled: @escaping @Sendable () -> Bool = { false }) -> Result<Summary, LibraryError> {
        let known: [Path: LibraryDatabase.Known]
        switch database.knownFiles(under: folders) {
        case .success(let files): known = files
        case .failure(let error): return .failure(error)
        }
        let walk = LibraryWalk.walk(folders, isCancelled: isCancelled)
        var summary = Summary(problems: walk.problems)
        // A walk cut short saw only part of the folders: nothing is taken out for what it missed.
        if isCancelled() { summary.cancelled = true }
        let changed = walk.files.filter { known[$0.path] != LibraryDatabase.Known(size: $0.size, modified: $0.modified) }
        summary.unchanged = walk.files.count - changed.count
        let present = Set(walk.files.lazy.map(\.path))
        // Every file known is under the folders walked (`knownFiles(under:)`).
        let gone = known.keys.filter { path in
            !present.contains(path) && !walk.unlisted.contains { LibraryWalk.isUnder(path, $0) }
        }
        // A move's new file is one of a gone file's size that holds no plays or rating of its
        // own: read by this scan, or held already (a scan stopped before its end put it in).
        let goneSizes = Set(gone.compactMap { known[$0]?.size })
        var arrived = known.compactMap { path, file in goneSizes.contains(file.size) && present.contains(path) ? path : nil }
        var start = 0
        while start < changed.count {
            if isCancelled() {
                summary.cancelled = true
                break
            }
            let part = Array(changed[start..<min(start + Self.batch, changed.count)])
            let results = read(part, isCancelled: isCancelled)
            var songs: [LibrarySong] = []
            for (found, result) in zip(part, results) {
                switch result {
                case .success(let song)?:
                    songs.append(song)
                    if goneSizes.contains(song.size), known[found.path] == nil { arrived.append(song.path) }
                case .failure(let failure)?: summary.failures.append("\(found.path): \(failure)")
                case nil: summary.cancelled = true
                }
            }
            if case .failure(let error) = database.put(songs) { return .failure(error) }
            summary.read += songs.count
            start += part.count
            progress(start, changed.count)
        }
        if !summary.cancelled {
            switch retire(gone, arrived: arrived) {
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
