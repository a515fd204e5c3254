/// A list of entries, held compactly: each entry is written as bytes (a byte of flags, a few
/// numbers, its path's and title's bytes) and found by an 8-byte place, where an array of
/// `Entry` values cost about 300 bytes an entry (each path and title its own allocation, and
/// every entry room for the fields only a CUE track has). A path in its playlist's folder is
/// written as the part after the folder (the folder is held once), and an entry shares its
/// path's and title's first bytes with one written whole before it, so the songs of one folder
/// hold only what differs: a 100,000-entry playlist of `songs/track0042.mp3` and
/// `Bench Band - Song 42` takes about 20 bytes an entry besides its place. The rarer fields
/// (CUE tracks, URLs) are held beside the bytes. An entry is made whole when it is read
/// (`subscript`), so the list is used as an array of `Entry` is.
///
/// The list is a run of segments (`Segment`), each with its chunks of bytes (`Chunk`, up to
/// `chunkSize`). Nothing held is ever copied to grow: bytes go into a new chunk when the last is
/// full, and a list appended to another joins it as segments of its own
/// (`append(contentsOf:)`), so a long list read in pieces is never held twice. An edit changes
/// the one segment it falls in. Removing or replacing entries leaves their bytes behind, taken
/// back once they are half of what the segment holds.
public struct EntryList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Equatable, Sendable
{
    /// A new chunk holds this many bytes (more for an entry longer than that).
    static let chunkSize = 256 << 10
    /// Past this many segments they are joined into one (their places copied, their chunks kept).
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

    /// Joins segments `range` into one: places copied, chunks kept.
    private mutating func join(_ range: Range<Int>) {
        guard range.count > 1 else { return }
        var joined = segments[range.lowerBound]
        segments[range.lowerBound] = Segment()  // the one reference: appended to in place
        joined.reserveCapacity(range.reduce(0) { $0 + segments[$1].count })  // once: each place is copied once
        for index in range.dropFirst() { joined.append(contentsOf: segments[index]) }
        segments.replaceSubrange(range, with: CollectionOfOne(joined))
        starts.removeSubrange((range.lowerBound + 1)..<range.upperBound)
    }

    /// The bytes its entries are written in, over all segments; and those its chunks hold.
    var bytesHeld: Int { segments.reduce(0) { $0 + $1.bytesHeld } }
    var bytesWritten: Int { segments.reduce(0) { $0 + $1.bytesWritten } }

    public static func == (a: EntryList, b: EntryList) -> Bool {
        a.elementsEqual(b)
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
