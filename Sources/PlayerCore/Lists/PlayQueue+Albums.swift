/// How the list is shuffled: not at all, by song, or by album.
public enum Shuffle: String, Sendable, CaseIterable {
    case off, songs, albums

    /// `off` → `songs` → `albums` → `off` (the shuffle key).
    public var next: Shuffle {
        switch self {
        case .off: .songs
        case .songs: .albums
        case .albums: .off
        }
    }

    /// `on` (by song), `off`, `songs`, `albums`, as the settings and scripts write it.
    public init?(words text: some StringProtocol) {
        switch text.lowercased() {
        case "on", "songs", "yes", "true", "1": self = .songs
        case "off", "no", "false", "0": self = .off
        case "albums", "album": self = .albums
        default: return nil
        }
    }
}

/// An entry's album, as the queue keeps it: the album's number and the entry's place in it.
struct AlbumSlot: Hashable, Sendable {
    var album: Int
    var place: Int
}

/// Shuffle by album: the albums in a random order, each album's songs together, in disc and
/// track order (cmus's and kew's album shuffle). Each entry's album is learnt as its tags are
/// read (`learnAlbum`); until it is, an entry is an album of its own, and each album learnt puts
/// the songs still to play in order again, the album playing first.
extension PlayQueue {
    /// How it shuffles now.
    public var shuffle: Shuffle { shuffles ? (byAlbum ? .albums : .songs) : .off }

    /// The entries whose album is not known yet, the first `limit` of them in list order (from
    /// the first that may be one: a long list is not walked again for each batch).
    public mutating func entriesWithoutAlbum(limit: Int) -> [Int] {
        guard !albumSlots.isEmpty else { return Array(0..<min(count, limit)) }
        var found: [Int] = []
        var entry = min(firstUnknownAlbum, albumSlots.count)
        while entry < albumSlots.count, found.count < limit {
            if albumSlots[entry] == nil {
                if found.isEmpty { firstUnknownAlbum = entry }
                found.append(entry)
            }
            entry += 1
        }
        if found.isEmpty { firstUnknownAlbum = albumSlots.count }
        return found
    }

    /// Whether every entry's album is known (counted, not looked for: asked at every input).
    public var knowsEveryAlbum: Bool {
        count == 0 || albumSlots.count == count && unknownAlbums == 0
    }

    /// `entry`'s album is `track`'s: kept (shuffled by album, `regroup` puts the songs still to
    /// play in album order with it, once a batch is learnt).
    public mutating func learnAlbum(_ track: AlbumTrack, of entry: Int) {
        guard (0..<count).contains(entry) else { return }
        if albumSlots.count != count {
            albumSlots = Array(repeating: nil, count: count)
            (unknownAlbums, firstUnknownAlbum) = (count, 0)
        }
        let group = track.group
        let number = albumNumbers[group] ?? {
            let new = albumNumbers.count
            albumNumbers[group] = new
            return new
        }()
        if albumSlots[entry] == nil { unknownAlbums -= 1 }
        albumSlots[entry] = AlbumSlot(album: number, place: track.place)
    }

    /// Shuffled by album, the entries still to play this round are put in album order again:
    /// the rest of the album playing (the list's own entry, while queued ones play) first, then
    /// the other albums: in a random order the first time every album is known, else as they
    /// stand (albums learnt later join them where they are: an `add` reshuffles nothing).
    public mutating func regroup() {
        guard byAlbum else { return }
        let playing = current
        defer {
            albumsSettled = true
            if let playing { cursor = order.firstIndex(of: playing) }
        }
        guard let anchor = playsQueued ? listEntry : playing, let at = order.firstIndex(of: anchor) else {
            order = RunArray(albumsSettled ? albumsAsTheyStand(order.array) : albumOrder(order.array), step: 1)
            return
        }
        let rest = Array(order[(at + 1)...])
        let own = rest.filter { sameAlbum($0, anchor) }, others = rest.filter { !sameAlbum($0, anchor) }
        order.replaceSubrange((at + 1)..., with: inPlaceOrder(own) + (albumsSettled ? albumsAsTheyStand(others) : albumOrder(others)))
    }

    /// `entries` as albums in the order each first comes, each album's songs in place order.
    private func albumsAsTheyStand(_ entries: [Int]) -> [Int] {
        albumGroups(entries).flatMap(inPlaceOrder)
    }

    /// The order shuffled by album from scratch: the album of `playing` (if any) first, from
    /// its first song, the cursor on `playing`; the other albums in a random order.
    mutating func arrangeAlbums(around playing: Int?) {
        albumsSettled = knowsEveryAlbum
        guard let playing else {
            order = RunArray(albumOrder(Array(0..<count)), step: 1)
            cursor = nil
            return
        }
        let own = slot(of: playing) == nil ? [playing] : inPlaceOrder((0..<count).filter { sameAlbum($0, playing) })
        let ownSet = Set(own)
        order = RunArray(own + albumOrder((0..<count).filter { !ownSet.contains($0) }), step: 1)
        cursor = own.firstIndex(of: playing)
    }

    /// `entries` as albums in a random order (by the queue's generator), each album's songs in
    /// place order; an entry whose album is not known is an album of its own.
    mutating func albumOrder(_ entries: [Int]) -> [Int] {
        // The albums in a fixed order before the shuffle: the same seed, the same order.
        let albums = albumGroups(entries.sorted())
        return shuffled(Array(albums.indices)).flatMap { inPlaceOrder(albums[$0]) }
    }

    /// `entries` grouped by album, the albums in the order each first comes (an entry whose
    /// album is not known alone).
    private func albumGroups(_ entries: [Int]) -> [[Int]] {
        var albums: [[Int]] = []
        var index: [Int: Int] = [:]
        for entry in entries {
            guard let album = slot(of: entry)?.album else {
                albums.append([entry])
                continue
            }
            if let at = index[album] {
                albums[at].append(entry)
            } else {
                index[album] = albums.count
                albums.append([entry])
            }
        }
        return albums
    }

    /// `entries` by their place in their album (disc, then track), ties in list order.
    private func inPlaceOrder(_ entries: [Int]) -> [Int] {
        entries.sorted { a, b in
            let (pa, pb) = (slot(of: a)?.place ?? 0, slot(of: b)?.place ?? 0)
            return pa != pb ? pa < pb : a < b
        }
    }

    private func slot(of entry: Int) -> AlbumSlot? {
        albumSlots.indices.contains(entry) ? albumSlots[entry] : nil
    }

    /// Whether `a` and `b` are on one known album.
    private func sameAlbum(_ a: Int, _ b: Int) -> Bool {
        guard let album = slot(of: a)?.album else { return false }
        return slot(of: b)?.album == album
    }

    /// Moves to the first entry of the next album in the play order (the songs queued are
    /// stay queued) and returns it; `nil` at the end of a round without repeat.
    public mutating func advanceAlbum() -> Int? {
        if playsQueued { backToList() }
        guard let cursor, let playing = current else { return advance() }
        if let next = order[(cursor + 1)...].firstIndex(where: { !sameAlbum($0, playing) }) {
            self.cursor = next
            return current
        }
        guard repeats, count > 0 else { return nil }
        self.cursor = order.count - 1
        return advance()  // a new round (shuffled anew)
    }

    /// Moves to the first entry of the album before the one playing in the play order and
    /// returns it; at the first album of the round it stays where it is (or goes to the last
    /// album with repeat on) and returns `nil`.
    public mutating func retreatAlbum() -> Int? {
        if playsQueued { backToList() }
        guard let cursor, let playing = current else { return nil }
        var start = cursor
        while start > 0, sameAlbum(order[start - 1], playing) { start -= 1 }
        var before = start - 1
        if before < 0 {
            // The first album of the round: the last one with repeat (unless it is the only one).
            guard repeats, !sameAlbum(order[order.count - 1], playing), order[order.count - 1] != playing else { return nil }
            before = order.count - 1
        }
        let album = order[before]
        while before > 0, sameAlbum(order[before - 1], album) { before -= 1 }
        self.cursor = before
        return current
    }
}
