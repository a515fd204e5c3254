/// A list of entries, held compactly: a list of 1,000,000 songs costs its paths' and titles'
/// bytes and 32 bytes an entry, where an array of `Entry` values cost about 300 (each path and
/// title its own allocation, and every entry room for the fields only a CUE track has).
///
/// The paths and titles are bytes in one buffer; each entry is a record of where its bytes are,
/// the playlist line that named it, and (for the few that have them: CUE tracks, URLs) an index
/// into the rarer fields. An entry is made whole when it is read (`subscript`), so the list is
/// used as an array of `Entry` is; removing or replacing entries leaves their bytes behind,
/// taken back once they are half the buffer.
public struct EntryList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Equatable, Sendable
{
    /// Where an entry's bytes are, and its fields but the rare ones.
    private struct Record: Sendable {
        /// Its path's bytes start here in `bytes`; its title's follow them.
        var start: Int
        var pathCount: UInt32
        /// `UInt32.max`: no title.
        var titleCount: UInt32
        /// The playlist line that named it (`origin`): an index into `files`, and the line; -1: none.
        var file: Int32
        var line: Int32
        /// Its rarer fields: an index into `extras`; -1: none.
        var extra: Int32
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
    private var bytes: [UInt8] = []
    /// The playlists entries came from, each once (entries of one playlist share it).
    private var files: [String] = []
    private var extras: [Extra] = []
    /// Bytes of `bytes` and slots of `extras` no record uses any more.
    private var unusedBytes = 0
    private var unusedExtras = 0

    public init() {}

    public init(arrayLiteral elements: Entry...) {
        self.init(elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(position: Int) -> Entry {
        get { entry(records[position]) }
        set { replaceSubrange(position..<(position + 1), with: CollectionOfOne(newValue)) }
    }

    /// The path of entry `position`, without making the whole entry.
    public func path(at position: Int) -> Path {
        let record = records[position]
        return Path(bytes: bytes[record.start..<(record.start + Int(record.pathCount))])
    }

    /// What the engine opens for entry `position` (`Entry.source`).
    public func source(at position: Int) -> SongSource {
        let record = records[position]
        return SongSource(path(at: position), span: record.extra >= 0 ? extras[Int(record.extra)].span : nil)
    }

    public mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
    }

    public mutating func append(_ entry: Entry) {
        records.append(record(of: entry))  // grows as an array does (replaceSubrange grows it to the size asked)
    }

    public mutating func append<S: Sequence<Entry>>(contentsOf entries: S) {
        for entry in entries { append(entry) }
    }

    public mutating func replaceSubrange<C: Collection<Entry>>(_ range: Range<Int>, with new: C) {
        for record in records[range] {
            unusedBytes += Int(record.pathCount) + (record.titleCount == .max ? 0 : Int(record.titleCount))
            if record.extra >= 0 { unusedExtras += 1 }
        }
        records.replaceSubrange(range, with: new.map { record(of: $0) })
        if unusedBytes > 4096, unusedBytes > bytes.count / 2 || unusedExtras > Swift.max(extras.count / 2, 64) { compact() }
    }

    public static func == (a: EntryList, b: EntryList) -> Bool {
        a.elementsEqual(b)
    }

    /// The entry a record stands for, whole.
    private func entry(_ record: Record) -> Entry {
        let pathEnd = record.start + Int(record.pathCount)
        var entry = Entry(path: Path(bytes: bytes[record.start..<pathEnd]))
        if record.titleCount != .max {
            entry.title = String(decoding: bytes[pathEnd..<(pathEnd + Int(record.titleCount))], as: UTF8.self)
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

    /// A record of `entry`, its bytes put at the end of `bytes`.
    private mutating func record(of entry: Entry) -> Record {
        let start = bytes.count
        bytes += entry.path.bytes
        var titleCount = UInt32.max
        if let title = entry.title {
            let before = bytes.count
            bytes += title.utf8
            titleCount = UInt32(bytes.count - before)
        }
        var record = Record(start: start, pathCount: UInt32(entry.path.bytes.count), titleCount: titleCount, file: -1, line: 0, extra: -1)
        var extra = Extra(written: entry.written, span: entry.span, sheetTags: entry.sheetTags, sheet: entry.sheet)
        if let origin = entry.origin {
            if origin.column == 1, let line = Int32(exactly: origin.line) {
                if files.last != origin.file { files.append(origin.file) }
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
        return record
    }

    /// Takes back the bytes and rare fields no entry uses: each record's bytes are copied, in
    /// order, into a buffer of their size (never the entries made whole: a list of 1,000,000).
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(bytes.count - unusedBytes)
        var kept: [Extra] = []
        for index in records.indices {
            let record = records[index]
            let count = Int(record.pathCount) + (record.titleCount == .max ? 0 : Int(record.titleCount))
            records[index].start = packed.count
            packed += bytes[record.start..<(record.start + count)]
            if record.extra >= 0 {
                records[index].extra = Int32(kept.count)
                kept.append(extras[Int(record.extra)])
            }
        }
        bytes = packed
        extras = kept
        unusedBytes = 0
        unusedExtras = 0
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
