/// A list of entries, held compactly: a list of 1,000,000 songs costs its paths' and titles'
/// bytes and 28 bytes an entry, where an array of `Entry` values cost about 300 (each path and
/// title its own allocation, and every entry room for the fields only a CUE track has).
///
/// The list is a run of segments. In each, the paths and titles are bytes in chunks of
/// up to `chunkSize`, and each entry is a record of where its bytes are, the playlist line that named
/// it, and (for the few that have them: CUE tracks, URLs) an index into the rarer fields. A path
/// in its playlist's folder is kept as the part after the folder (the folder is the playlist's,
/// kept once). An entry is made whole when it is read (`subscript`), so the list is used as an
/// array of `Entry` is.
///
/// Nothing held is ever copied to grow: bytes go into a new chunk when the last is full, and a
/// list appended to another joins it as segments of its own (`append(contentsOf:)`), so a long
/// list read in pieces is never held twice. An edit changes the one segment it falls in.
/// Removing or replacing entries leaves their bytes behind, taken back once they are half of
/// what the segment holds.
public struct EntryList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Equatable, Sendable
{
    /// A new chunk holds this many bytes (more for an entry longer than that).
    static let chunkSize = 256 << 10
    /// Past this many segments they are joined into one (their records copied, their chunks kept).
    static let segmentLimit = 64

    private var segments: [Segment] = []
    /// Where each segment's entries start in the list; the list's length at the end.
    private var starts: [Int] = [0]

    public init() {}

    public init(arrayLiteral elements: Entry...) {
        self.init(elements)
    }

    /// An entry for each path, untitled (songs chosen in the library).
    public init(paths: [Path]) {
        self.init(paths.map { Entry(path: $0) })
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts[starts.count - 1] }

    /// The segment holding entry `position`, and the entry's place in it.
    private func locate(_ position: Int) -> (segment: Int, offset: Int) {
        precondition(position >= 0 && position < endIndex, "EntryList index out of range")
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }

    public subscript(position: Int) -> Entry {
        get {
            let (segment, offset) = locate(position)
            return segments[segment].entry(at: offset)
        }
        set { replaceSubrange(position..<(position + 1), with: CollectionOfOne(newValue)) }
    }

    /// The path of entry `position`, without making the whole entry.
    public func path(at position: Int) -> Path {
        let (segment, offset) = locate(position)
        return segments[segment].path(at: offset)
    }

    /// What the engine opens for entry `position` (`Entry.source`).
    public func source(at position: Int) -> SongSource {
        let (segment, offset) = locate(position)
        return segments[segment].source(at: offset)
    }

    public mutating func reserveCapacity(_ count: Int) {}

    public mutating func append(_ entry: Entry) {
        if segments.isEmpty { addFirstSegment() }
        segments[segments.count - 1].append(entry)
        starts[starts.count - 1] += 1
    }

    public mutating func append<S: Sequence<Entry>>(contentsOf entries: S) {
        for entry in entries { append(entry) }
    }

    /// Appends `other`'s entries as they are held: its segments join this list's, and nothing
    /// is copied or made whole. A long list read in pieces grows at no cost but its own.
    public mutating func append(contentsOf other: EntryList) {
        for segment in other.segments where segment.count > 0 {
            segments.append(segment)
            starts.append(starts[starts.count - 1] + segment.count)
        }
        if segments.count > Self.segmentLimit { join(0..<segments.count) }
    }

    public mutating func replaceSubrange<C: Collection<Entry>>(_ range: Range<Int>, with new: C) {
        precondition(range.lowerBound >= 0 && range.upperBound <= endIndex, "EntryList range out of bounds")
        if segments.isEmpty {
            guard !new.isEmpty else { return }
            addFirstSegment()
        }
        // The segment the edit falls in: the one holding its first entry (an insertion at a
        // segment's start goes into it; at the end of the list, into the last). An edit across
        // segments joins them first.
        let first = range.lowerBound == endIndex ? segments.count - 1 : locate(range.lowerBound).segment
        let last = range.isEmpty ? first : locate(range.upperBound - 1).segment
        join(first..<(last + 1))
        let base = starts[first]
        segments[first].replaceSubrange((range.lowerBound - base)..<(range.upperBound - base), with: new)
        let change = new.count - range.count
        if change != 0 {
            for index in (first + 1)..<starts.count { starts[index] += change }
        }
        if segments[first].count == 0, segments.count > 1 {
            segments.remove(at: first)
            starts.remove(at: first)
        }
    }

    private mutating func addFirstSegment() {
        segments = [Segment()]
        starts = [0, 0]
    }

    /// Joins segments `range` into one: records copied, chunks kept.
    private mutating func join(_ range: Range<Int>) {
        guard range.count > 1 else { return }
        var joined = segments[range.lowerBound]
        segments[range.lowerBound] = Segment()  // the one reference: appended to in place
        joined.reserveCapacity(range.reduce(0) { $0 + segments[$1].count })  // once: each record is copied once
        for index in range.dropFirst() { joined.append(contentsOf: segments[index]) }
        segments.replaceSubrange(range, with: CollectionOfOne(joined))
        starts.removeSubrange((range.lowerBound + 1)..<range.upperBound)
    }

    public static func == (a: EntryList, b: EntryList) -> Bool {
        a.elementsEqual(b)
    }

    /// A stretch of the list, held compactly (the list's storage before it had segments).
    private struct Segment: Sendable {
        /// Where an entry's bytes are, and its fields but the rare ones.
        private struct Record: Sendable {
            /// Its path's bytes start at `offset` in chunk `chunk`; its title's follow them.
            var chunk: UInt32
            var offset: UInt32
            /// The path's bytes held (after its playlist's folder when `inFolder`).
            var pathCount: UInt32
            /// `UInt32.max`: no title.
            var titleCount: UInt32
            /// The playlist line that named it (`origin`): an index into `files`, and the line; -1: none.
            var file: Int32
            var line: Int32
            /// Its rarer fields: an index into `extras`; -1: none.
            var extra: Int32

            /// The path is its playlist's folder (`folders[file]`) followed by the bytes held.
            static let inFolder: UInt32 = 1 << 31
            var held: Int { Int(pathCount & ~Self.inFolder) + (titleCount == .max ? 0 : Int(titleCount)) }
        }

        /// What only some entries have: a CUE track's span, tags and sheet, a URL as written, a
        /// column or a line past Int32's.
        private struct Extra: Sendable {
            var origin: SourceLocation?
            var written: String?
            var span: TrackSpan?
            var sheetTags: SongInfo.Tags?
            var sheet: Path?
        }

        private var records: [Record] = []
        private var chunks: [[UInt8]] = []
        /// The playlists entries came from, each once (entries of one playlist share it), and each
        /// one's folder as the bytes its entries' paths start with (with the last `/`).
        private var files: [String] = []
        private var folders: [[UInt8]] = []
        private var extras: [Extra] = []
        /// Bytes of `chunks` and slots of `extras` no record uses any more.
        private var unusedBytes = 0
        private var heldBytes = 0
        private var unusedExtras = 0

        var count: Int { records.count }

        func entry(at position: Int) -> Entry {
            entry(records[position])
        }

        func path(at position: Int) -> Path {
            path(of: records[position])
        }

        func source(at position: Int) -> SongSource {
            let record = records[position]
            return SongSource(path(of: record), span: record.extra >= 0 ? extras[Int(record.extra)].span : nil)
        }

        mutating func reserveCapacity(_ count: Int) {
            records.reserveCapacity(count)
        }

        mutating func append(_ entry: Entry) {
            records.append(record(of: entry))  // grows as an array does (replaceSubrange grows it to the size asked)
        }

        /// Appends `other`'s entries as they are held: its chunks become this segment's, its
        /// records are copied (28 bytes an entry), and no entry is made whole.
        mutating func append(contentsOf other: Segment) {
            guard other.count > 0 else { return }
            let chunkBase = UInt32(chunks.count), extraBase = Int32(extras.count)
            chunks += other.chunks
            extras += other.extras
            heldBytes += other.heldBytes
            unusedBytes += other.unusedBytes
            unusedExtras += other.unusedExtras
            var fileIndex: [Int32: Int32] = [:]
            for (index, name) in other.files.enumerated() {
                // By bytes: names equal only as Strings (NFC and NFD) are two folders on Linux.
                if files.last.map({ $0.utf8.elementsEqual(name.utf8) }) != true {
                    files.append(name)
                    folders.append(other.folders[index])
                }
                fileIndex[Int32(index)] = Int32(files.count - 1)
            }
            for var record in other.records {
                record.chunk += chunkBase
                if record.extra >= 0 { record.extra += extraBase }
                if record.file >= 0 { record.file = fileIndex[record.file] ?? -1 }
                records.append(record)
            }
        }

        mutating func replaceSubrange<C: Collection<Entry>>(_ range: Range<Int>, with new: C) {
            for record in records[range] {
                unusedBytes += record.held
                if record.extra >= 0 { unusedExtras += 1 }
            }
            records.replaceSubrange(range, with: new.map { record(of: $0) })
            if unusedBytes > 4096, unusedBytes > heldBytes / 2 || unusedExtras > Swift.max(extras.count / 2, 64) { compact() }
        }

        private func path(of record: Record) -> Path {
            let chunk = chunks[Int(record.chunk)], start = Int(record.offset)
            let held = chunk[start..<(start + Int(record.pathCount & ~Record.inFolder))]
            guard record.pathCount & Record.inFolder != 0 else { return Path(bytes: held) }
            return Path(bytes: folders[Int(record.file)] + held)
        }

        /// The entry a record stands for, whole.
        private func entry(_ record: Record) -> Entry {
            var entry = Entry(path: path(of: record))
            if record.titleCount != .max {
                let start = Int(record.offset) + Int(record.pathCount & ~Record.inFolder)
                entry.title = String(decoding: chunks[Int(record.chunk)][start..<(start + Int(record.titleCount))], as: UTF8.self)
            }
            if record.file >= 0 { entry.origin = SourceLocation(file: files[Int(record.file)], line: Int(record.line)) }
            if record.extra >= 0 {
                let extra = extras[Int(record.extra)]
                if let origin = extra.origin { entry.origin = origin }
                entry.written = extra.written
                entry.span = extra.span
                entry.sheetTags = extra.sheetTags
                entry.sheet = extra.sheet
            }
            return entry
        }

        /// A record of `entry`, its bytes put at the end of the last chunk (or of a new one).
        private mutating func record(of entry: Entry) -> Record {
            var record = Record(chunk: 0, offset: 0, pathCount: 0, titleCount: .max, file: -1, line: 0, extra: -1)
            var extra = Extra(written: entry.written, span: entry.span, sheetTags: entry.sheetTags, sheet: entry.sheet)
            if let origin = entry.origin {
                if origin.column == 1, let line = Int32(exactly: origin.line) {
                    if files.last.map({ $0.utf8.elementsEqual(origin.file.utf8) }) != true {
                        files.append(origin.file)
                        let name = Array(origin.file.utf8)
                        folders.append(name.lastIndex(of: UInt8(ascii: "/")).map { Array(name[...$0]) } ?? [])
                    }
                    record.file = Int32(files.count - 1)
                    record.line = line
                } else {
                    extra.origin = origin
                }
            }
            if extra.origin != nil || extra.written != nil || extra.span != nil || extra.sheetTags != nil || extra.sheet != nil {
                record.extra = Int32(extras.count)
                extras.append(extra)
            }
            var path = entry.path.bytes[...]
            if record.file >= 0, case let folder = folders[Int(record.file)], !folder.isEmpty, path.count > folder.count,
               path.starts(with: folder) {
                path = path.dropFirst(folder.count)
                record.pathCount = Record.inFolder
            }
            let title = entry.title.map { $0.utf8 }
            let count = path.count + (title?.count ?? 0)
            // A chunk grows as an array does up to `chunkSize` (a short list stays small), then
            // the next one begins.
            if chunks.isEmpty || (!chunks[chunks.count - 1].isEmpty && chunks[chunks.count - 1].count + count > EntryList.chunkSize) {
                chunks.append([])
            }
            let last = chunks.count - 1
            record.chunk = UInt32(last)
            record.offset = UInt32(chunks[last].count)
            record.pathCount |= UInt32(path.count)
            chunks[last] += path
            if let title {
                record.titleCount = UInt32(title.count)
                chunks[last] += title
            }
            heldBytes += count
            return record
        }

        /// Takes back the bytes and rare fields no entry uses: each record's bytes are copied, in
        /// order, into fresh chunks (never the entries made whole: a list of 1,000,000).
        private mutating func compact() {
            var packed: [[UInt8]] = []
            var kept: [Extra] = []
            heldBytes = 0
            for index in records.indices {
                let record = records[index]
                let count = record.held
                if packed.isEmpty || (!packed[packed.count - 1].isEmpty && packed[packed.count - 1].count + count > EntryList.chunkSize) {
                    packed.append([])
                }
                let start = Int(record.offset)
                records[index].chunk = UInt32(packed.count - 1)
                records[index].offset = UInt32(packed[packed.count - 1].count)
                packed[packed.count - 1] += chunks[Int(record.chunk)][start..<(start + count)]
                heldBytes += count
                if record.extra >= 0 {
                    records[index].extra = Int32(kept.count)
                    kept.append(extras[Int(record.extra)])
                }
            }
            chunks = packed
            extras = kept
            unusedBytes = 0
            unusedExtras = 0
        }
    }
}

extension EntryList: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// A list handed from the thread that read it to the one that plays it, once: whoever takes it
/// holds the only reference, so the list is put in place as it is, never copied (a list of
/// 1,000,000 entries read for `l` or MPRIS's `OpenUri` was held twice while it went in).
public final class ListHandoff: @unchecked Sendable {
    // `@unchecked Sendable`: made on one thread and taken on another after a lock or a pipe
    // has passed it (`BackgroundWork`), never touched by both at once.
    private var list: EntryList?

    public init(_ list: consuming EntryList) {
        self.list = list
    }

    /// The list, the first time; empty after that.
    public func take() -> EntryList {
        defer { list = nil }
        return list ?? EntryList()
    }
}
