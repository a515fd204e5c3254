/// What MPD's clients know each entry of the list by, beside the list itself: an id that stays
/// with the entry while it is in the list (however it moves), and the list's version when the
/// entry last changed place or came in (MPD's `plchanges`). Kept in step with the list by each
/// of its edits, as MPD's queue keeps its items (`queue/Queue.cxx`): an entry that moves, and
/// each one shifted by an insertion or a removal, is marked with the version of that edit.
public struct EntryMarks: Equatable, Sendable {
    /// Each entry's id, in list order: from 1, never 0, never two the same. Held as runs (a list
    /// read at once has ids 1, 2, 3…: one run), as are the versions and priorities.
    public private(set) var ids = RunArray<UInt32>(step: 1)
    /// The version at which each entry last changed.
    public private(set) var versions = RunArray<UInt32>(step: 0)
    /// Each entry's priority (MPD's `prio`, 0–255): with shuffle on, the higher play first.
    public private(set) var priorities = RunArray<UInt8>(step: 0)
    /// How many entries have a priority above 0 (none: the order needs no sorting by them).
    public private(set) var prioritized = 0
    /// Tags a client gave an entry (MPD's `addtagid`, for streams), by id, in the order given.
    public private(set) var addedTags: [UInt32: [EntryTag]] = [:]
    var nextID: UInt32 = 1
    /// The ids have run past `idLimit` once: each new one is checked against those in use.
    private var wrapped = false
    /// Ids stay below this (MPD's versions and ids are 31-bit); past it they start again at 1,
    /// skipping those in use.
    static let idLimit: UInt32 = 1 << 31 - 1

    public init() {}

    /// Marks for a list of `count` entries, as first read.
    public init(count: Int, version: UInt32) {
        insert(count, at: 0, version: version)
    }

    public var count: Int { ids.count }

    /// `count` new entries at `at`; they and every entry after them are marked.
    public mutating func insert(_ count: Int, at: Int, version: UInt32) {
        guard count > 0, (0...ids.count).contains(at) else { return }
        if !wrapped, count < Int(Self.idLimit), nextID <= Self.idLimit - UInt32(count) {
            ids.insert(contentsOf: nextID..<(nextID + UInt32(count)), at: at)  // never held as an array
            nextID += UInt32(count)
        } else {
            ids.insert(contentsOf: newIDs(count), at: at)
        }
        versions.insert(contentsOf: repeatElement(version, count: count), at: at)
        priorities.insert(contentsOf: repeatElement(0, count: count), at: at)
        mark(at..<versions.count, version)
    }

    /// Entry `at` is gone; those after it move up and are marked.
    public mutating func remove(at position: Int, version: UInt32) {
        guard ids.indices.contains(position) else { return }
        addedTags[ids.remove(at: position)] = nil
        versions.remove(at: position)
        if priorities.remove(at: position) != 0 { prioritized -= 1 }
        mark(position..<versions.count, version)
    }

    /// The entries of `range` have priority `priority` from now on, each marked when it changes:
    /// one edit of the runs, not one an entry (MPD's `prio 1 0:1000000`).
    public mutating func setPriority(_ priority: UInt8, in range: Range<Int>, version: UInt32) {
        guard range.lowerBound >= 0, range.upperBound <= priorities.count, !range.isEmpty else { return }
        let old = Array(priorities[range])
        guard old.contains(where: { $0 != priority }) else { return }
        versions.replaceSubrange(range, with: zip(old, versions[range]).map { $0.0 != priority ? version : $0.1 })
        for value in old where (value == 0) != (priority == 0) { prioritized += priority == 0 ? -1 : 1 }
        priorities.replaceSubrange(range, with: repeatElement(priority, count: range.count))
    }

    /// Entries `a` and `b` change places, both marked.
    public mutating func swapAt(_ a: Int, _ b: Int, version: UInt32) {
        guard ids.indices.contains(a), ids.indices.contains(b) else { return }
        ids.swapAt(a, b)
        priorities.swapAt(a, b)
        versions[a] = version
        versions[b] = version
    }

    /// A new list of `count` entries, each new.
    public mutating func replaceAll(count: Int, version: UInt32) {
        ids = RunArray(step: 1)
        versions = RunArray(step: 0)
        priorities = RunArray(step: 0)
        prioritized = 0
        addedTags = [:]
        insert(count, at: 0, version: version)
    }

    /// The entries of `range` put in a new order: the one at `range.lowerBound + k` is the one
    /// that was at `order[k]` (a permutation of `range`); each is marked.
    public mutating func permute(_ range: Range<Int>, into order: [Int], version: UInt32) {
        guard range.lowerBound >= 0, range.upperBound <= ids.count, order.count == range.count,
              Set(order) == Set(range) else { return }
        let (oldIDs, oldPriorities) = (ids, priorities)
        ids.replaceSubrange(range, with: order.map { oldIDs[$0] })
        priorities.replaceSubrange(range, with: order.map { oldPriorities[$0] })
        mark(range, version)
    }

    /// Entry `at` changed in place (its part of the file).
    public mutating func touch(_ position: Int, version: UInt32) {
        guard versions.indices.contains(position) else { return }
        versions[position] = version
    }

    /// Entry `at` has priority `priority` from now on (marked when it changes).
    public mutating func setPriority(_ priority: UInt8, at position: Int, version: UInt32) {
        guard position >= 0, position < Int.max else { return }
        setPriority(priority, in: position..<(position + 1), version: version)
    }

    /// Entry `at` is tagged `name: value` besides its own tags (`value` nil: every tag `name`
    /// it was given goes; `name` nil too: every tag it was given). Marked when it changes.
    public mutating func tag(_ position: Int, name: String?, value: String?, version: UInt32) {
        guard ids.indices.contains(position) else { return }
        let id = ids[position]
        var tags = addedTags[id] ?? []
        if let name, let value {
            // As MPD's tags hold them: at most 255 a song, each a line of its own.
            guard tags.count < 255 else { return }
            tags.append(EntryTag(name: name, value: value))
        } else if let name {
            tags.removeAll { $0.name == name }
        } else {
            tags = []
        }
        guard tags != addedTags[id] ?? [] else { return }
        addedTags[id] = tags.isEmpty ? nil : tags
        versions[position] = version
    }

    /// Where the entry with `id` is, if it is in the list.
    public func position(of id: UInt32) -> Int? {
        ids.firstIndex(of: id)
    }

    /// The entries changed after `version`, in list order.
    public func changed(since version: UInt32) -> [Int] {
        versions.enumerated().filter { $0.element > version }.map(\.offset)
    }

    private mutating func mark(_ range: Range<Int>, _ version: UInt32) {
        versions.replaceSubrange(range, with: repeatElement(version, count: range.count))
    }

    private mutating func newIDs(_ count: Int) -> [UInt32] {
        var made: [UInt32] = []
        made.reserveCapacity(count)
        var inUse: Set<UInt32>? = wrapped ? Set(ids) : nil
        while made.count < count {
            if nextID >= Self.idLimit {
                nextID = 1
                wrapped = true
                inUse = Set(ids)
            }
            let id = nextID
            nextID += 1
            if inUse?.contains(id) != true { made.append(id) }
        }
        return made
    }
}

/// A tag a client gave an entry of the list (MPD's `addtagid`): MPD's name for it, and its value.
public struct EntryTag: Equatable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
