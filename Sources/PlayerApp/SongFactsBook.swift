import PlayerCore
import Terminal

/// What the list view knows of songs (tags, length): those opened this run, and those it showed,
/// read off the main loop a batch at a time; at most `limit` of them.
struct SongFactsBook {
    static let limit = 20_000
    /// How many songs a read takes: about a screenful.
    static let batch = 64

    private(set) var known: [SongSource: SongFacts] = [:]
    /// Songs the list view asked about, still to be read.
    private var toRead: [SongSource] = []

    subscript(source: SongSource) -> SongFacts? {
        get { known[source] }
        set { known[source] = newValue }
    }

    /// The list view asks about `sources`.
    mutating func ask(_ sources: [SongSource]) {
        toRead += sources
    }

    /// The next songs to read, taken off what was asked; `nil` when none wait.
    mutating func nextBatch() -> [SongSource]? {
        guard !toRead.isEmpty else { return nil }
        let batch = Array(toRead.prefix(Self.batch))
        toRead.removeFirst(batch.count)
        return batch
    }

    /// What a read found, kept beside what is known (what is known already stays).
    mutating func learn(_ facts: [SongSource: SongFacts]) {
        if known.count + facts.count > Self.limit { known = [:] }
        known.merge(facts) { old, _ in old }
    }
}
