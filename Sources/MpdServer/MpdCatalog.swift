import Files
import Glibc
import Library
import PlayerCore

/// The library as MPD's clients see it: every song by its URI, in URI order, and the folders
/// they make. Held small, as a filter needs it: each song's URI, row, time, format and length,
/// and its tags' values one run of bytes a tag (`MpdTagColumns`); a song's lines are made from
/// its row as a reply is written (`texts`). Read off the main loop a song at a time when the
/// server starts and again after the library changes (MPD holds its database in memory the
/// same way); the one before serves meanwhile.
public final class MpdCatalog: @unchecked Sendable {
    let roots: MpdRoots
    /// Where the songs' rows are read (`nil`: a catalog made from records, a `file:` line each).
    private let library: LibraryDatabase?
    /// The songs' URIs' bytes, by row (the order they were read in): row `r`'s are
    /// `uriEnds[r - 1] ..< uriEnds[r]`. Their bytes are their paths' (`path`).
    /// Each list is memory the catalog owns (`GrowingList.take`), freed with it.
    private let uriBytes: UnsafeMutableBufferPointer<UInt8>
    private let uriEnds: UnsafeMutableBufferPointer<UInt32>
    private let ids: UnsafeMutableBufferPointer<Int64>
    /// Seconds since 1970.
    private let times: UnsafeMutableBufferPointer<Int64>
    /// Rate, bits (`0xFFFF`: floating point) and channels, packed; 0: not known.
    private let formats: UnsafeMutableBufferPointer<UInt64>
    /// The songs' lengths in seconds (NaN: not known).
    private let lengths: UnsafeMutableBufferPointer<Double>
    /// Index → row: the rows in URI order; `nil` when they were read in it.
    private let order: [UInt32]?
    /// The songs' tags laid out for filters (`select`), by row.
    private let columns: MpdTagColumns
    /// What `stats` says of them: the artists and albums, each name once, and their length.
    let totals: (artists: Int, albums: Int, seconds: Double)

    init(_ builder: consuming Builder, library: LibraryDatabase?) {
        roots = builder.roots
        self.library = library
        (uriBytes, uriEnds, ids, times) = (builder.uriBytes.take(), builder.uriEnds.take(), builder.ids.take(), builder.times.take())
        (formats, lengths) = (builder.formats.take(), builder.lengths.take())
        totals = (builder.artists.count, builder.albums.count, builder.seconds)
        columns = MpdTagColumns(builder.columns)
        order = Self.order(uriBytes, uriEnds)
    }

    deinit {
        for list in [UnsafeMutableRawPointer(uriBytes.baseAddress), UnsafeMutableRawPointer(uriEnds.baseAddress),
                     UnsafeMutableRawPointer(ids.baseAddress), UnsafeMutableRawPointer(times.baseAddress),
                     UnsafeMutableRawPointer(formats.baseAddress), UnsafeMutableRawPointer(lengths.baseAddress)] { free(list) }
    }

    /// A catalog of `records` alone (no library to read their lines from: a `file:` line each).
    convenience init(_ records: [LibrarySong], roots: MpdRoots) {
        var builder = Builder(roots: roots, expected: records.count)
        for (row, record) in records.enumerated() {
            for folder in roots.folders { builder.add(record, id: Int64(row), in: folder) }
        }
        self.init(builder, library: nil)
    }

    /// The library read a song at a time, as clients see it; `nil` when there is none or it
    /// cannot be read. Each library folder in the order of its name (its URIs'), its songs in
    /// the library's order (within one folder, URI order but where a folder's songs sort after
    /// a folder in it).
    public static func read(_ library: LibraryDatabase?, roots: MpdRoots) -> MpdCatalog? {
        guard let library, let catalog = read(library, roots: roots) else { return nil }
        // What was held while it was read goes back to the system (glibc keeps what a thread
        // frees for it: a million songs' lists, as they grew, left 100 MB).
        MemoryLimit.returnFreeHeap()
        return catalog
    }

    private static func read(_ library: LibraryDatabase, roots: MpdRoots) -> MpdCatalog? {
        let expected = (try? library.counts().get())?.songs ?? 0
        var builder = Builder(roots: roots, expected: min(max(expected, 0), 1 << 24))
        let folders = roots.folders.sorted { ($0.name + "/").utf8.lexicographicallyPrecedes(($1.name + "/").utf8) }
        for folder in folders {
            guard case .success = library.eachRow(under: folder.path, { builder.add($0, in: folder) }) else { return nil }
        }
        return MpdCatalog(builder, library: library)
    }

    /// The rows in URI order, `nil` when they are in it.
    private static func order(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ ends: UnsafeMutableBufferPointer<UInt32>) -> [UInt32]? {
        func uri(_ row: Int) -> UnsafeBufferPointer<UInt8> {
            let start = row == 0 ? 0 : Int(ends[row - 1])
            return UnsafeBufferPointer(rebasing: bytes[start..<Int(ends[row])])
        }
        let sorted = ends.indices.dropFirst().allSatisfy { !uri($0).lexicographicallyPrecedes(uri($0 - 1)) }
        guard !sorted else { return nil }
        return ends.indices.map(UInt32.init).sorted { uri(Int($0)).lexicographicallyPrecedes(uri(Int($1))) }
    }

    private func row(_ index: Int) -> Int { order.map { Int($0[index]) } ?? index }

    /// Song `index`'s URI's bytes, handed to `body`.
    private func withURI<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let row = row(index)
        let start = row == 0 ? 0 : Int(uriEnds[row - 1])
        return body(UnsafeBufferPointer(rebasing: uriBytes[start..<Int(uriEnds[row])]))
    }

    /// Song `index`'s file, as the library holds it (its very bytes).
    func path(_ index: Int) -> Path {
        withURI(index) { uri in
            guard let first = roots.folders.first else { return Path(bytes: uri) }
            guard roots.folders.count > 1 else { return first.path.appending(Path(bytes: uri)) }
            let slash = uri.firstIndex(of: 0x2F) ?? uri.endIndex
            let name = String(decoding: UnsafeBufferPointer(rebasing: uri[..<slash]), as: UTF8.self)
            let folder = roots.folders.first { $0.name == name }?.path ?? first.path
            return folder.appending(Path(bytes: uri[slash...]))
        }
    }

    func seconds(_ index: Int) -> Double? {
        let length = lengths[row(index)]
        return length.isNaN ? nil : length
    }

    /// Song `index`'s values of `tag`, in their order.
    func values(_ index: Int, of tag: MpdTag) -> [String] { columns.values(row(index), of: tag) }

    /// Whether song `index` has a value of `tag`.
    public func has(_ index: Int, _ tag: MpdTag) -> Bool { columns.has(row(index), tag) }

    /// Whether songs `index` and `other` have the same values of `tag`.
    func same(_ index: Int, _ other: Int, of tag: MpdTag) -> Bool { columns.same(row(index), row(other), of: tag) }

    /// The lines of the songs at `indices`, in their order, with the tags `wanted`, each made
    /// from its row as the library holds it now (`MpdRowText`): one read for them all. A song
    /// whose row is gone since the catalog was read, or now holds another file, is left out.
    func texts(_ indices: some Collection<Int>, _ wanted: Set<MpdTag>) -> String {
        guard let library else { return indices.map { "file: \(UntrustedText.shown(uri($0)))\n" }.joined() }
        let asked = Array(indices)
        // Each song's row id with its place among those asked, by id: the rows come by id
        // (most often), and each is found at the next place, or else by a binary search.
        let byID = asked.enumerated().map { (id: ids[row($0.element)], place: $0.offset) }.sorted { ($0.id, $0.place) < ($1.id, $1.place) }
        let distinct = byID.map(\.id)
        let writer = MpdRowText(wanted)
        var made: [UInt8] = []
        made.reserveCapacity(asked.count * 256)
        var spans = [Range<Int>?](repeating: nil, count: asked.count)
        var next = 0, last = -1, inOrder = true
        _ = library.eachRow(ids: Self.withoutRepeats(distinct)) { song in
            guard let id = song.integer(.id), let folder = song.bytes(.folder), let name = song.bytes(.name) else { return }
            if next >= byID.count || byID[next].id != id {
                var (low, high) = (0, byID.count)
                while low < high {
                    let middle = (low + high) / 2
                    if byID[middle].id < id { low = middle + 1 } else { high = middle }
                }
                next = low
            }
            // Each place the song was asked at (a song may be asked twice).
            while next < byID.count, byID[next].id == id {
                let place = byID[next].place
                next += 1
                guard spans[place] == nil, isPath(asked[place], folder, name) else { continue }
                if place < last { inOrder = false }
                last = place
                let start = made.count
                withURI(asked[place]) { writer.append(song, uri: $0, to: &made) }
                spans[place] = start..<made.count
            }
        }
        guard !inOrder else { return String(decoding: made, as: UTF8.self) }
        var text: [UInt8] = []
        text.reserveCapacity(made.count)
        for span in spans { if let span { text += made[span] } }
        return String(decoding: text, as: UTF8.self)
    }

    /// `sorted` without its repeats.
    private static func withoutRepeats(_ sorted: [Int64]) -> [Int64] {
        var kept: [Int64] = []
        kept.reserveCapacity(sorted.count)
        for id in sorted where kept.last != id { kept.append(id) }
        return kept
    }

    /// Whether song `index`'s file is `folder` then `name` (a row's).
    private func isPath(_ index: Int, _ folder: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard roots.folders.count == 1, let root = roots.folders.first else {
            let path = path(index).bytes
            return path.count == folder.count + name.count && path.starts(with: folder) && path[folder.count...].elementsEqual(name)
        }
        // The library folder, "/", then the URI.
        let top = root.path.bytes == [0x2F] ? [] : root.path.bytes
        return withURI(index) { uri in
            guard top.count + 1 + uri.count == folder.count + name.count, folder.count > top.count,
                  folder.starts(with: top), folder[top.count] == 0x2F else { return false }
            let inner = folder.count - top.count - 1
            return uri.prefix(inner).elementsEqual(folder.suffix(inner)) && uri.dropFirst(inner).elementsEqual(name)
        }
    }

    /// The songs under the folder `uri` (`""`: all), whatever their depth: a range of indices.
    func under(_ uri: String) -> Range<Int> {
        guard !uri.isEmpty else { return 0..<count }
        let prefix = Array((uri + "/").utf8)
        let start = first { withURI($0) { !$0.lexicographicallyPrecedes(prefix) } }
        var end = start
        while end < count, withURI(end, { $0.starts(with: prefix) }) { end += 1 }
        return start..<end
    }

    /// The song at `uri`, if the library holds one there.
    func song(_ uri: String) -> Int? {
        let bytes = Array(uri.utf8)
        let index = first { withURI($0) { !$0.lexicographicallyPrecedes(bytes) } }
        return index < count && withURI(index, { $0.elementsEqual(bytes) }) ? index : nil
    }

    /// The first index whose song is not before where `isAtOrAfter` says (a binary search).
    private func first(where isAtOrAfter: (Int) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// What the folder `uri` holds directly: its folders' URIs (in order) and its songs.
    func children(of uri: String) -> (folders: [String], songs: [Int]) {
        let depth = uri.isEmpty ? 0 : uri.utf8.count + 1
        var folders: [String] = []
        var direct: [Int] = []
        let range = under(uri)
        var index = range.lowerBound
        while index < range.upperBound {
            let folder: [UInt8]? = withURI(index) { whole in
                let rest = whole.dropFirst(depth)
                return rest.firstIndex(of: 0x2F).map { Array(whole[...$0]) }
            }
            guard let folder else {
                direct.append(index)
                index += 1
                continue
            }
            folders.append(String(decoding: folder.dropLast(), as: UTF8.self))
            // Past what the folder holds, whatever its depth (a run of URIs: a binary search).
            var (low, high) = (index + 1, range.upperBound)
            while low < high {
                let middle = (low + high) / 2
                if withURI(middle, { $0.starts(with: folder) }) { low = middle + 1 } else { high = middle }
            }
            index = low
        }
        return (folders, direct)
    }

    /// When the folder `uri` last changed, as its file system says (seconds since 1970).
    func folderModified(_ uri: String) -> Int64? {
        guard let path = roots.path(of: uri), case .success(let status) = FileSystem.status(of: path) else { return nil }
        return status.modified / 1_000_000_000
    }
}

extension MpdCatalog: MpdFilterableSongs {
    public var count: Int { ids.count }
    public func uri(_ index: Int) -> String { withURI(index) { String(decoding: $0, as: UTF8.self) } }
    public func modified(_ index: Int) -> Int64 { times[row(index)] }

    public func audioFormat(_ index: Int) -> (rate: Int, bits: Int?, channels: Int)? {
        let packed = formats[row(index)]
        guard packed != 0 else { return nil }
        let bits = Int(packed >> 16 & 0xFFFF)
        return (Int(packed >> 32), bits == 0xFFFF ? nil : bits, Int(packed & 0xFFFF))
    }

    public func anyBytes(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        columns.anyValue(row(index), of: tag, test)
    }
}
