/// An array of integers held as runs of values going up by `step` (1: 7, 8, 9…; 0: the same
/// value again), used as an array is. A list's play order, its entries' ids and the versions
/// they were marked with are such runs: 16 bytes a run, where an array takes 8 bytes an entry
/// (a 1,000,000-entry list played in order held 8 MB of order and 9 MB of marks).
///
/// Every value is held exactly, whatever `step` is; `step` only makes the runs long. Past
/// `runLimit` runs (a shuffled order) the values are held plainly, as an array, so no edit
/// costs more than an array's edit and the walk over `runLimit` runs.
public struct RunArray<Element: FixedWidthInteger & Sendable>: RandomAccessCollection, MutableCollection,
    RangeReplaceableCollection, ExpressibleByArrayLiteral, Equatable, Sendable
{
    /// Past this many runs, the values are held plainly (fewer in tests, to reach it).
    var runLimit = 1024

    /// How values go up in a run.
    public private(set) var step: Element = 0
    /// Where each run starts, and its first value.
    private var starts: [Int] = []
    private var firsts: [Element] = []
    /// The values, when held plainly (`isPlain`).
    private var values: [Element] = []
    private(set) var isPlain = false
    public private(set) var endIndex = 0

    public var startIndex: Int { 0 }

    public init() {}

    public init(step: Element) {
        self.step = step
    }

    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// `values`, in runs going up by `step` when they make few runs.
    public init<S: Sequence<Element>>(_ values: S, step: Element) {
        self.step = step
        append(contentsOf: values)
    }

    /// `start, start + 1, …`, `count` values: one run.
    public init(counting count: Int, from start: Element = 0) {
        step = 1
        guard count > 0 else { return }
        precondition(Element(exactly: count - 1).map { !start.addingReportingOverflow($0).overflow } == true, "RunArray counting past its type")
        starts = [0]
        firsts = [start]
        endIndex = count
    }

    /// The values, as an array.
    public var array: [Element] { isPlain ? values : Array(self) }

    /// How many runs hold the values (0 when held plainly): what the tests look at.
    var runCount: Int { isPlain ? 0 : starts.count }

    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < endIndex, "RunArray index out of range")
            if isPlain { return values[position] }
            let run = self.run(containing: position)
            return firsts[run] &+ Element(truncatingIfNeeded: position - starts[run]) &* step
        }
        set {
            precondition(position >= 0 && position < endIndex, "RunArray index out of range")
            if isPlain {
                values[position] = newValue
            } else if self[position] != newValue {
                replaceSubrange(position..<(position + 1), with: CollectionOfOne(newValue))
            }
        }
    }

    public mutating func replaceSubrange<C: Collection<Element>>(_ range: Range<Int>, with new: C) {
        precondition(range.lowerBound >= 0 && range.upperBound <= endIndex, "RunArray range out of bounds")
        if isPlain {
            values.replaceSubrange(range, with: new)
            endIndex = values.count
            return
        }
        // The new values' runs.
        var newStarts: [Int] = [], newFirsts: [Element] = []
        var next: Element?
        var index = range.lowerBound
        for value in new {
            if value != next {
                newStarts.append(index)
                newFirsts.append(value)
            }
            let (following, overflow) = value.addingReportingOverflow(step)
            next = overflow ? nil : following
            index += 1
        }
        let change = (index - range.lowerBound) - range.count
        let low = split(at: range.lowerBound)
        let high = split(at: range.upperBound)
        starts.replaceSubrange(low..<high, with: newStarts)
        firsts.replaceSubrange(low..<high, with: newFirsts)
        let after = low + newStarts.count
        if change != 0 {
            for run in after..<starts.count { starts[run] += change }
        }
        endIndex += change
        // Runs that now go on from the one before them are one.
        joinIfContinued(after)
        joinIfContinued(low)
        if starts.count > runLimit { holdPlainly() }
    }

    public mutating func append(_ value: Element) {
        if isPlain {
            values.append(value)
        } else if let last = last, case (let next, false) = last.addingReportingOverflow(step), next == value {
            // The last run goes on.
        } else {
            starts.append(endIndex)
            firsts.append(value)
        }
        endIndex += 1
        if starts.count > runLimit { holdPlainly() }
    }

    public mutating func append<S: Sequence<Element>>(contentsOf values: S) {
        for value in values { append(value) }
    }

    /// Where `value` first is: a look at each run, not at each value.
    public func firstIndex(of value: Element) -> Int? {
        if isPlain { return values.firstIndex(of: value) }
        for run in starts.indices {
            let length = (run + 1 < starts.count ? starts[run + 1] : endIndex) - starts[run]
            if step == 0 {
                if firsts[run] == value { return starts[run] }
                continue
            }
            // value = first + k × step, for a k in the run: the distance taken as a magnitude, which
            // a signed type's difference may not fit (-100 to 100 in Int8).
            let ascending = step > 0
            guard ascending ? value >= firsts[run] : value <= firsts[run] else { continue }
            let distance = ascending ? Element.Magnitude(truncatingIfNeeded: value &- firsts[run])
                : Element.Magnitude(truncatingIfNeeded: firsts[run] &- value)
            let stride = step.magnitude
            guard distance % stride == 0, let k = Int(exactly: distance / stride), k < length else { continue }
            return starts[run] + k
        }
        return nil
    }

    /// The values in order, a run at a time.
    public func makeIterator() -> Iterator {
        Iterator(array: self)
    }

    public struct Iterator: IteratorProtocol {
        let array: RunArray
        var position = 0
        var run = 0
        var value: Element = 0

        public mutating func next() -> Element? {
            guard position < array.endIndex else { return nil }
            defer { position += 1 }
            if array.isPlain { return array.values[position] }
            if position == array.starts[run] {
                value = array.firsts[run]
            } else {
                value &+= array.step
            }
            if run + 1 < array.starts.count, array.starts[run + 1] == position + 1 { run += 1 }
            return value
        }
    }

    /// Adds `delta` to every value from `threshold` up, as a list's order does when entries are
    /// inserted or removed before others: a run split where its values reach `threshold`, not
    /// a value at a time.
    public mutating func shift(valuesFrom threshold: Element, by delta: Element) {
        if isPlain || step < 0 {
            for index in indices where self[index] >= threshold { self[index] += delta }
            return
        }
        var run = 0
        while run < starts.count {
            let first = firsts[run]
            let length = (run + 1 < starts.count ? starts[run + 1] : endIndex) - starts[run]
            if first >= threshold {
                // Its last value too must stay in the type, as an array's would trap.
                let last = firsts[run] &+ Element(truncatingIfNeeded: length - 1) &* step
                precondition(!last.addingReportingOverflow(delta).overflow, "RunArray value out of range")
                firsts[run] = first + delta
            } else if step > 0, let steps = Int(exactly: step) {
                // The run reaches `threshold` at its k-th value, if it is that long.
                let span: Int?
                if Element.bitWidth < Int.bitWidth {
                    span = Int(threshold) - Int(first)
                } else {
                    let (difference, overflow) = threshold.subtractingReportingOverflow(first)
                    span = overflow ? nil : Int(exactly: difference)
                }
                if let span, case let k = (span - 1) / steps + 1, k < length {
                    starts.insert(starts[run] + k, at: run + 1)
                    firsts.insert(first &+ Element(truncatingIfNeeded: k) &* step, at: run + 1)
                }
            }
            run += 1
        }
        for run in stride(from: starts.count - 1, to: 0, by: -1) { joinIfContinued(run) }
    }

    private mutating func holdPlainly() {
        values = Array(self)
        starts = []
        firsts = []
        isPlain = true
    }

    /// The run holding `position` (which is in the array).
    private func run(containing position: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Makes a run start at `position`, and says which; the end: the number of runs.
    private mutating func split(at position: Int) -> Int {
        guard position < endIndex else { return starts.count }
        let run = run(containing: position)
        guard starts[run] != position else { return run }
        starts.insert(position, at: run + 1)
        firsts.insert(firsts[run] &+ Element(truncatingIfNeeded: position - starts[run]) &* step, at: run + 1)
        return run + 1
    }

    /// Joins run `run` to the one before it when its values go on from that one's.
    private mutating func joinIfContinued(_ run: Int) {
        guard run > 0, run < starts.count else { return }
        // No run's values pass the type's ends, so its last is its first and the steps, wrapping.
        let last = firsts[run - 1] &+ Element(truncatingIfNeeded: starts[run] - 1 - starts[run - 1]) &* step
        guard case (let next, false) = last.addingReportingOverflow(step), next == firsts[run] else { return }
        starts.remove(at: run)
        firsts.remove(at: run)
    }

    public static func == (a: RunArray, b: RunArray) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    public static func == (a: RunArray, b: [Element]) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }
}
