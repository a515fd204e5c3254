import Glibc
import PlayerCore

/// Every song's values of each tag, one run of bytes a tag, in the catalog's order: what a
/// filter reads. A `find` over 100,000 songs reads one tag's run straight through rather than
/// 100,000 songs' objects scattered over the heap, and nothing in it is reference counted.
final class MpdTagColumns: @unchecked Sendable {
    /// One tag's values: memory the columns own, never handed out beyond a test's call.
    fileprivate struct Column {
        /// The values' bytes, one after another.
        let bytes: UnsafeMutablePointer<UInt8>
        /// Where each value ends in `bytes` (the one before's end is its start).
        let ends: UnsafeMutablePointer<UInt32>
        /// Song `s`'s values are `firsts[s] ..< firsts[s + 1]`.
        let firsts: UnsafeMutablePointer<UInt32>
    }

    /// A column a tag, by its place in MPD's table; `nil` where no song has the tag.
    private let columns: UnsafeMutablePointer<Column?>
    private let songCount: Int

    /// Songs' values taken a song at a time, in the catalog's order, then laid out as columns
    /// (`MpdTagColumns(builder)`): nothing else of a song is kept, and each column grows in
    /// memory of its own (`GrowingList`), handed over as it is.
    struct Builder {
        private var bytes = [GrowingList<UInt8>?](repeating: nil, count: MpdTag.allCases.count)
        private var ends = [GrowingList<UInt32>?](repeating: nil, count: MpdTag.allCases.count)
        // A tag's song index starts with its first value (the songs before it have none): a
        // tag no song has costs nothing.
        private var firsts = [GrowingList<UInt32>?](repeating: nil, count: MpdTag.allCases.count)
        private(set) var count = 0
        /// How many songs are coming (a guess: room for them is made at a tag's first value).
        private let expected: Int

        init(expected: Int = 0) {
            self.expected = expected
        }

        /// One of the next song's values, with its tag (each tag's in their order).
        mutating func value(_ tag: MpdTag, _ value: UnsafeBufferPointer<UInt8>) {
            let place = Int(tag.place)
            if bytes[place] == nil {
                let first = GrowingList<UInt32>(expected: max(expected, count) + 1)
                for _ in 0...count { first.append(0) }
                (bytes[place], ends[place], firsts[place]) = (GrowingList(), GrowingList(expected: expected), first)
            }
            guard let column = bytes[place], let valueEnds = ends[place], column.count + value.count <= Int(UInt32.max) else { return }
            column.append(contentsOf: value)
            valueEnds.append(UInt32(column.count))
        }

        /// The song whose values were given is done: the next values are the next song's.
        mutating func endSong() {
            for place in 0..<firsts.count {
                if let first = firsts[place], let valueEnds = ends[place] { first.append(UInt32(valueEnds.count)) }
            }
            count += 1
        }

        /// A tag's column, handed over as it is (each list at its exact size).
        fileprivate mutating func take(_ place: Int) -> Column? {
            defer { (bytes[place], ends[place], firsts[place]) = (nil, nil, nil) }
            guard let column = bytes[place], let valueEnds = ends[place], let first = firsts[place], valueEnds.count > 0 else { return nil }
            return Column(bytes: column.take().baseAddress!, ends: valueEnds.take().baseAddress!, firsts: first.take().baseAddress!)
        }
    }

    init(_ builder: consuming Builder) {
        songCount = builder.count
        let places = MpdTag.allCases.count
        columns = .allocate(capacity: places)
        for place in 0..<places { (columns + place).initialize(to: builder.take(place)) }
    }

    deinit {
        for place in 0..<MpdTag.allCases.count {
            guard let column = columns[place] else { continue }
            free(column.bytes)
            free(column.ends)
            free(column.firsts)
        }
        columns.deinitialize(count: MpdTag.allCases.count)
        columns.deallocate()
    }

    /// Whether one of song `index`'s values of `tag` (`nil`: of any tag, in MPD's table's order)
    /// passes `test`.
    func anyValue(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard index >= 0, index < songCount else { return false }
        if let tag { return Self.anyValue(columns[Int(tag.place)], index, test) }
        for place in 0..<MpdTag.allCases.count where Self.anyValue(columns[place], index, test) { return true }
        return false
    }

    /// Song `index`'s values of `tag`, in their order.
    func values(_ index: Int, of tag: MpdTag) -> [String] {
        var found: [String] = []
        _ = anyValue(index, of: tag) { value in
            found.append(String(decoding: value, as: UTF8.self))
            return false
        }
        return found
    }

    /// Whether song `index` and song `other` have the same values of `tag` (each value's
    /// bytes, in order; none and none are the same), compared where they lie.
    func same(_ index: Int, _ other: Int, of tag: MpdTag) -> Bool {
        guard index >= 0, index < songCount, other >= 0, other < songCount, let column = columns[Int(tag.place)] else { return true }
        let (first, last) = (Int(column.firsts[index]), Int(column.firsts[index + 1]))
        let (otherFirst, otherLast) = (Int(column.firsts[other]), Int(column.firsts[other + 1]))
        guard last - first == otherLast - otherFirst else { return false }
        guard last > first else { return true }
        let start = first == 0 ? 0 : Int(column.ends[first - 1]), otherStart = otherFirst == 0 ? 0 : Int(column.ends[otherFirst - 1])
        for value in 0..<(last - first) where Int(column.ends[first + value]) - start != Int(column.ends[otherFirst + value]) - otherStart {
            return false
        }
        return memcmp(column.bytes + start, column.bytes + otherStart, Int(column.ends[last - 1]) - start) == 0
    }

    /// Whether song `index` has a value of `tag`.
    func has(_ index: Int, _ tag: MpdTag) -> Bool {
        guard index >= 0, index < songCount, let column = columns[Int(tag.place)] else { return false }
        return column.firsts[index + 1] > column.firsts[index]
    }

    private static func anyValue(_ column: Column?, _ index: Int, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard let column else { return false }
        var value = Int(column.firsts[index])
        let last = Int(column.firsts[index + 1])
        var start = value == 0 ? 0 : Int(column.ends[value - 1])
        while value < last {
            let end = Int(column.ends[value])
            if test(UnsafeBufferPointer(start: column.bytes + start, count: end - start)) { return true }
            start = end
            value += 1
        }
        return false
    }
}
