import Glibc
import PlayerCore

/// Songs' values of the tags a `list … group …` or a `count group` groups by (each tag's own,
/// its fallback's when it has none, or the empty value: MPD's `VisitTagWithFallbackOrEmpty`),
/// made into strings once for each different set of them: a million songs' grouping compares
/// their bytes where the catalog holds them (an album's songs one after another, most often),
/// and makes strings for each album once.
struct MpdGroupValues {
    private let catalog: MpdCatalog
    /// Each tag with its fallbacks, in the order they are tried.
    private let candidates: [[MpdTag]]
    /// The last song taken, and which tag each of its values came from (`nil`: none).
    private var lastSong: Int?
    private var lastSources: [MpdTag?] = [], sources: [MpdTag?] = []
    /// Whether each song's values are wanted (`count group`), or only each new set of them
    /// (`list`).
    private let everySong: Bool
    /// The values made, by their bytes (every song's wanted); the bytes seen (only new ones).
    private var known: [Bytes: [[String]]] = [:], seen: Set<Bytes> = []
    /// The song's values of each tag: the last song's (`everySong`), or the last new ones.
    private(set) var values: [[String]] = []

    init(_ catalog: MpdCatalog, _ tags: [MpdTag], everySong: Bool) {
        self.catalog = catalog
        self.everySong = everySong
        candidates = tags.map { [$0] + $0.fallbacks }
    }

    /// Takes song `song`'s values of each tag (`values`): whether no song before had the same.
    mutating func take(_ song: Int) -> Bool {
        sources.removeAll(keepingCapacity: true)
        for tag in candidates.indices {
            var source: MpdTag?
            for candidate in candidates[tag] where catalog.has(song, candidate) {
                source = candidate
                break
            }
            sources.append(source)
        }
        // The last song's, most often (an album's songs come together).
        if let last = lastSong, sources == lastSources,
           sources.allSatisfy({ source in source.map { catalog.same(song, last, of: $0) } ?? true }) {
            lastSong = song
            return false
        }
        swap(&sources, &lastSources)
        lastSong = song
        var bytes: [UInt8] = []
        for source in lastSources {
            bytes.append(source?.place ?? 0xFF)
            guard let source else { continue }
            _ = catalog.anyBytes(song, of: source) { value in
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count).littleEndian) { bytes += $0 }
                bytes += value
                return false
            }
        }
        if everySong, let seen = known[Bytes(bytes)] {
            values = seen
            return false
        }
        if !everySong, !seen.insert(Bytes(bytes)).inserted { return false }
        values = lastSources.map { source in source.map { catalog.values(song, of: $0) } ?? [""] }
        if everySong { known[Bytes(bytes)] = values }
        return true
    }

    /// Bytes hashed whole (an array of bytes is hashed a byte at a time) and compared where
    /// they lie.
    struct Bytes: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Values one after another in a form whose byte order is theirs, one by one (MPD's
        /// order of a `list … group …`'s lines): each value's bytes (a 0 as 0 1), then 0 0.
        init(sorting values: [String]) {
            var bytes: [UInt8] = []
            for var value in values {
                value.withUTF8 { value in
                    guard value.contains(0) else { return bytes += value }
                    for byte in value {
                        bytes.append(byte)
                        if byte == 0 { bytes.append(1) }
                    }
                }
                bytes += [0, 0]
            }
            self.bytes = bytes
        }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        /// Whether these come before `other` in byte order.
        func precedes(_ other: Bytes) -> Bool {
            bytes.withUnsafeBufferPointer { a in
                other.bytes.withUnsafeBufferPointer { b in
                    if let first = a.baseAddress, let second = b.baseAddress, min(a.count, b.count) > 0 {
                        let order = memcmp(first, second, min(a.count, b.count))
                        if order != 0 { return order < 0 }
                    }
                    return a.count < b.count
                }
            }
        }
    }
}
