/// The order the list is played in, with the repeat and shuffle modes and the songs queued.
///
/// `order` is a permutation of the entry indices: identity normally, shuffled with `shuffle` on.
/// The cursor walks it; past its end a new round starts with `repeat` on (reshuffled, so each
/// round plays every entry once) and the queue is exhausted otherwise. The shuffles come from
/// a seeded generator, so `--seed N` gives the same order on every run.
///
/// Entries queued (`upNext`, cmus's `e`) play next, in the order queued, before the list goes
/// on from the entry it was on: while they play, `listEntry` keeps that place.
public struct PlayQueue: Sendable {
    public private(set) var count = 0
    /// Entry indices in play order.
    public internal(set) var order = RunArray<Int>(step: 1)
    /// Where in `order` the current entry is; `nil` before the first.
    public internal(set) var cursor: Int?
    public var repeats = false
    /// The order is not the list's: shuffled by song or by album (`shuffle`).
    public private(set) var shuffles = false
    /// Shuffled by album: albums in a random order, each one's songs together in disc and track
    /// order (`PlayQueue+Albums`).
    public internal(set) var byAlbum = false
    /// Each entry's album, as far as it is known (kept once one is learnt; empty until then).
    var albumSlots: [AlbumSlot?] = []
    /// The albums' numbers in `albumSlots`.
    var albumNumbers: [AlbumTrack.Group: Int] = [:]
    /// How many entries' albums are not known (of `albumSlots`), and the first entry that may be one.
    var unknownAlbums = 0
    var firstUnknownAlbum = 0
    /// The order is in albums made with every album known: albums learnt later join it as they
    /// stand, the others keep their order.
    var albumsSettled = false
    /// Entries to play next, in the order queued.
    public private(set) var upNext: [Int] = []
    /// A queued entry is playing: the list goes on from `listEntry` (`nil`: before its first).
    public internal(set) var playsQueued = false
    var listEntry: Int?
    private var random: SplitMix64

    public init(count: Int = 0, shuffle: Bool = false, repeats: Bool = false, seed: UInt64) {
        random = SplitMix64(seed: seed)
        self.repeats = repeats
        append(count)
        if shuffle { setShuffle(true) }
    }

    /// A queue that plays in `order`, made before (a resumed session's), with no entry current
    /// yet: `order` must be a permutation of `0..<order.count`.
    public init(order: [Int], shuffle: Bool, repeats: Bool, seed: UInt64, byAlbum: Bool = false) {
        random = SplitMix64(seed: seed)
        self.repeats = repeats
        count = order.count
        self.order = RunArray(order, step: 1)
        shuffles = shuffle
        self.byAlbum = shuffle && byAlbum
        albumsSettled = self.byAlbum  // the saved order: albums learnt again keep it
    }

    /// The entry index under the cursor.
    public var current: Int? { cursor.map { order[$0] } }

    /// Adds `added` entries at the end of the list. With shuffle on they go to random places
    /// among the entries not yet played this round.
    public mutating func append(_ added: Int) {
        let first = count
        count += added
        if !albumSlots.isEmpty {
            albumSlots.append(contentsOf: repeatElement(nil, count: added))
            unknownAlbums += added
            firstUnknownAlbum = min(firstUnknownAlbum, first)
        }
        for entry in first..<count {
            if shuffles {
                let lower = (cursor ?? -1) + 1
                order.insert(entry, at: lower + Int(random.next(below: UInt64(order.count - lower + 1))))
            } else {
                order.append(entry)
            }
        }
    }

    /// Inserts `added` entries into the list at entry index `at` (the entries from there on move
    /// down by `added`). In list order they play where they stand; with shuffle on they go to
    /// random places among the entries not yet played this round. `playNext`: they play right
    /// after the current entry whatever the mode (a song loaded to play now).
    public mutating func insert(_ added: Int, at entry: Int, playNext: Bool = false) {
        precondition(entry >= 0 && entry <= count && added >= 0)
        guard added > 0 else { return }
        order.shift(valuesFrom: entry, by: added)
        for index in upNext.indices where upNext[index] >= entry { upNext[index] += added }
        if let held = listEntry, held >= entry { listEntry = held + added }
        count += added
        if !albumSlots.isEmpty {
            albumSlots.insert(contentsOf: repeatElement(nil, count: added), at: entry)
            unknownAlbums += added
            firstUnknownAlbum = min(firstUnknownAlbum, entry)
        }
        let new = entry..<(entry + added)
        if !shuffles {
            // In list order they play after the entry before them (`order` is 0..<count unless a
            // saved session's order says otherwise); the cursor stays on its entry.
            let place = entry == 0 ? 0 : (order.firstIndex(of: entry - 1) ?? order.count - 1) + 1
            order.insert(contentsOf: new, at: place)
            if let cursor, cursor >= place { self.cursor = cursor + added }
        } else if playNext {
            order.insert(contentsOf: new, at: (cursor ?? -1) + 1)
        } else {
            for index in new {
                let lower = (cursor ?? -1) + 1
                order.insert(index, at: lower + Int(random.next(below: UInt64(order.count - lower + 1))))
            }
        }
    }

    /// Takes entry `entry` out of the list; the entries after it move up by one. When it is the
    /// current entry, the cursor goes back to the one before it in the play order (or before the
    /// first), so that `advance` goes on to the entry that followed it.
    public mutating func remove(_ entry: Int) {
        guard let at = order.firstIndex(of: entry) else { return }
        if listEntry == entry { listEntry = at > 0 ? order[at - 1] : nil }  // the list goes on after it all the same
        order.remove(at: at)
        order.shift(valuesFrom: entry + 1, by: -1)
        upNext.removeAll { $0 == entry }
        for index in upNext.indices where upNext[index] > entry { upNext[index] -= 1 }
        if let held = listEntry, held > entry { listEntry = held - 1 }
        count -= 1
        if !albumSlots.isEmpty {
            if albumSlots.remove(at: entry) == nil { unknownAlbums -= 1 }
            if entry < firstUnknownAlbum { firstUnknownAlbum -= 1 }
        }
        if let cursor, at <= cursor { self.cursor = cursor > 0 ? cursor - 1 : nil }
    }

    /// Entries `a` and `b` swap places in the list (a move up or down). The current entry stays
    /// current; in list order the play order follows the list, with shuffle on it stays as it was.
    public mutating func swap(_ a: Int, _ b: Int) {
        guard a != b, order.indices.contains(a), order.indices.contains(b) else { return }
        func swapped(_ entry: Int) -> Int { entry == a ? b : entry == b ? a : entry }
        upNext = upNext.map(swapped)
        listEntry = listEntry.map(swapped)
        if !albumSlots.isEmpty { albumSlots.swapAt(a, b) }
        if shuffles {
            for index in order.indices {
                if order[index] == a { order[index] = b } else if order[index] == b { order[index] = a }
            }
        } else if let cursor, let playing = current, playing == a || playing == b {
            // The order stays the list's; the cursor goes where the current song now stands.
            self.cursor = order.firstIndex(of: playing == a ? b : a) ?? cursor
        }
    }

    /// Moves to the next entry and returns it: the first queued, else the list's next; `nil` at
    /// the end of a round without repeat.
    public mutating func advance() -> Int? {
        if !upNext.isEmpty {
            let queued = upNext.removeFirst()
            if !playsQueued {
                listEntry = current
                playsQueued = true
            }
            cursor = order.firstIndex(of: queued)
            return queued
        }
        if playsQueued { backToList() }
        let next = (cursor ?? -1) + 1
        if next < order.count {
            cursor = next
        } else if repeats, count > 0 {
            if shuffles { order = RunArray(byAlbum ? albumOrder(Array(0..<count)) : shuffled(Array(0..<count)), step: 1) }
            cursor = 0
        } else {
            return nil
        }
        return current
    }

    /// Moves to the previous entry; at the first entry of the round it stays there (or goes to
    /// the last with repeat on).
    /// While queued entries play, it goes back to the list's own entry.
    public mutating func retreat() -> Int? {
        if playsQueued {
            backToList()
            return cursor == nil ? advance() : current
        }
        guard let cursor else { return advance() }
        if cursor > 0 {
            self.cursor = cursor - 1
        } else if repeats, !order.isEmpty {
            self.cursor = order.count - 1
        }
        return current
    }

    /// Makes `entry` the current one (a jump, e.g. after playing it by its number).
    public mutating func select(_ entry: Int) {
        playsQueued = false
        listEntry = nil
        cursor = order.firstIndex(of: entry)
    }

    /// The list was replaced by one of `count` entries: a new order (shuffled with shuffle on,
    /// by the queue's own generator), no entry current, nothing queued.
    public mutating func replace(count: Int) {
        self.count = count
        albumSlots = []
        albumsSettled = false
        order = shuffles ? RunArray(shuffled(Array(0..<count)), step: 1) : RunArray(counting: count)
        cursor = nil
        upNext = []
        playsQueued = false
        listEntry = nil
    }

    /// Queues `entry` to play next, after those queued before it; one queued already is taken
    /// out of the queue instead (`e` again). Whether it is queued now.
    @discardableResult
    public mutating func toggleQueued(_ entry: Int) -> Bool {
        guard (0..<count).contains(entry) else { return false }
        if let at = upNext.firstIndex(of: entry) {
            upNext.remove(at: at)
            return false
        }
        upNext.append(entry)
        return true
    }

    /// `entry`'s place in the queue, from 1; `nil` when it is not queued.
    public func queuePlace(of entry: Int) -> Int? {
        upNext.firstIndex(of: entry).map { $0 + 1 }
    }

    /// The queued entries have played: the cursor is back on the list's own entry.
    mutating func backToList() {
        playsQueued = false
        cursor = listEntry.flatMap { order.firstIndex(of: $0) }
        listEntry = nil
    }

    /// Shuffle on (by song, unless it shuffles by album already: MPD's `random 1`) or off.
    public mutating func setShuffle(_ on: Bool) {
        guard on != shuffles else { return }
        setShuffle(on ? .songs : .off)
    }

    /// Shuffling by song keeps the current entry first and shuffles the rest after it; by
    /// album, its album's songs stay around it (`PlayQueue+Albums`); turning it off goes back
    /// to list order from the current entry.
    public mutating func setShuffle(_ mode: Shuffle) {
        guard mode != shuffle else { return }
        shuffles = mode != .off
        byAlbum = mode == .albums
        let playing = current
        switch mode {
        case .songs:
            let rest = (0..<count).filter { $0 != playing }
            order = RunArray((playing.map { [$0] } ?? []) + shuffled(rest), step: 1)
            cursor = playing == nil ? nil : 0
        case .albums:
            arrangeAlbums(around: playing)
        case .off:
            order = RunArray(counting: count)
            cursor = playing
        }
    }

    /// A random order of `items`, from the queue's own generator (a list shuffled in place:
    /// MPD's `shuffle`).
    public mutating func randomOrder(_ items: [Int]) -> [Int] {
        shuffled(items)
    }

    /// The entries changed places in the list, `moved` giving each one's new index (a
    /// permutation). The current entry stays current and the queued ones queued; with shuffle
    /// on the same songs play in the same order, in list order the list's new order plays.
    public mutating func permute(_ moved: (Int) -> Int) {
        let playing = current
        upNext = upNext.map(moved)
        listEntry = listEntry.map(moved)
        if !albumSlots.isEmpty {
            var slots = albumSlots
            for (entry, slot) in albumSlots.enumerated() { slots[moved(entry)] = slot }
            albumSlots = slots
        }
        if shuffles {
            order = RunArray(order.map(moved), step: 1)
        } else if let playing {
            cursor = order.firstIndex(of: moved(playing)) ?? cursor
        }
    }

    /// With shuffle on, the entries still to play this round go in order of `priority`, the
    /// highest first, each keeping its random place among those of its own (MPD's `prio`);
    /// one of `raised` played already this round plays again if it now stands above the one
    /// playing. In list order the list plays as it stands.
    public mutating func prioritize(raised: [Int] = [], _ priority: (Int) -> UInt8) {
        guard shuffles else { return }
        if let cursor, let playing = current {
            let again = Set(raised.filter { $0 != playing && priority($0) > priority(playing) })
            let played = order[..<cursor].filter { again.contains($0) }
            if !played.isEmpty {
                order = RunArray(order[..<cursor].filter { !again.contains($0) } + [playing] + played + order[(cursor + 1)...], step: 1)
                self.cursor = cursor - played.count
            }
        }
        let first = (cursor ?? -1) + 1
        guard first < order.count else { return }
        let rest = order[first...].enumerated().sorted { a, b in
            let (pa, pb) = (priority(a.element), priority(b.element))
            return pa != pb ? pa > pb : a.offset < b.offset
        }
        order.replaceSubrange(first..., with: rest.map(\.element))
    }

    /// The shuffles from now on follow `seed`; the order already made stays.
    public mutating func seed(_ seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Fisher–Yates with the queue's own generator.
    mutating func shuffled(_ items: [Int]) -> [Int] {
        var items = items
        guard items.count > 1 else { return items }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, Int(random.next(below: UInt64(index + 1))))
        }
        return items
    }
}

/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64): the same seed gives
/// the same sequence on every platform and Swift version, which `SystemRandomNumberGenerator`
/// and the standard shuffles do not promise.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (Lemire's multiply-and-reject, so no modulo bias).
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        while true {
            let product = next().multipliedFullWidth(by: bound)
            if product.low >= (0 &- bound) % bound { return product.high }
        }
    }
}
