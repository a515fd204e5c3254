/// What MPD's clients know each entry of the list by, beside the list itself: an id that stays
/// with the entry while it is in the list (however it moves), and the list's version when the
/// entry last changed place or came in (MPD's `plchanges`). Kept in step with the list by each
/// of its edits, as MPD's queue keeps its items (`queue/Queue.cxx`): an entry that moves, and
/// each one shifted by an insertion or a removal, is marked with the version of that edit.
public struct EntryMarks: Equatable, Sendable {
    /// Each entry's id, in list order: from 1, never 0, never two the same.
    public private(set) var ids: [UInt32] = []
    /// The version at which each entry last changed.
    public private(set) var versions: [UInt32] = []
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
        ids.insert(contentsOf: newIDs(count), at: at)
        versions.insert(contentsOf: repeatElement(version, count: count), at: at)
        mark(at..<versions.count, version)
    }

    /// Entry `at` is gone; those after it move up and are marked.
    public mutating func remove(at position: Int, version: UInt32) {
        guard ids.indices.contains(position) else { return }
        ids.remove(at: position)
        versions.remove(at: position)
        mark(position..<versions.count, version)
    }

    /// Entries `a` and `b` change places, both marked.
    public mutating func swapAt(_ a: Int, _ b: Int, version: UInt32) {
        guard ids.indices.contains(a), ids.indices.contains(b) else { return }
        ids.swapAt(a, b)
        versions[a] = version
        versions[b] = version
    }

    /// A new list of `count` entries, each new.
    public mutating func replaceAll(count: Int, version: UInt32) {
        ids = []
        versions = []
        insert(count, at: 0, version: version)
    }

    /// Where the entry with `id` is, if it is in the list.
    public func position(of id: UInt32) -> Int? {
        ids.firstIndex(of: id)
    }

    /// The entries changed after `version`, in list order.
    public func changed(since version: UInt32) -> [Int] {
        versions.indices.filter { versions[$0] > version }
    }

    private mutating func mark(_ range: Range<Int>, _ version: UInt32) {
        for index in range { versions[index] = version }
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
