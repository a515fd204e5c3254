import PlayerCore

/// Every entry's folded text for the list view's search, in chunks: 16 bytes an entry and its
/// text's bytes (a list of 100,000 held 13 MB as an array an entry), and nothing held is ever
/// copied to grow (a new chunk is begun when the last is full). A text made again (its tags
/// known since) is put at the end, and the old one left behind is taken back once it is half
/// of what is held.
struct FoldedTexts {
    /// The list's `edits` the texts were made for.
    private(set) var edits = -1
    private var chunks: [[UInt8]] = []
    private var slots: [Slot] = []
    private var held = 0
    private var unused = 0
    /// Entries whose text is not made yet.
    private(set) var missing = 0

    static let chunkSize = 256 << 10

    private struct Slot {
        /// Where its text is: a chunk (`.max`: not made) and a place in it.
        var chunk: UInt32 = .max
        var offset: UInt32 = 0
        var count: UInt32 = 0
        /// How many songs' tags were known when it was made without its own; `.max`: its own
        /// were known (never made again).
        var known: UInt32 = .max
    }

    /// What is known of an entry's text.
    enum State {
        case notMade
        case made(ArraySlice<UInt8>)
        /// Made without its tags, when fewer songs' tags were known than now.
        case madeBeforeMoreWereKnown(ArraySlice<UInt8>)
    }

    init() {}

    init(edits: Int, count: Int) {
        self.edits = edits
        slots = Array(repeating: Slot(), count: count)
        missing = count
    }

    var count: Int { slots.count }

    func isMade(_ entry: Int) -> Bool { slots[entry].chunk != .max }

    private func text(_ slot: Slot) -> ArraySlice<UInt8> {
        chunks[Int(slot.chunk)][Int(slot.offset)..<(Int(slot.offset) + Int(slot.count))]
    }

    func state(of entry: Int, known: Int) -> State {
        let slot = slots[entry]
        guard slot.chunk != .max else { return .notMade }
        return slot.known == .max || slot.known == Self.counted(known) ? .made(text(slot)) : .madeBeforeMoreWereKnown(text(slot))
    }

    private static func counted(_ known: Int) -> UInt32 { UInt32(clamping: min(known, Int(UInt32.max - 1))) }

    /// The text made before is still the entry's with `known` songs' tags known.
    mutating func checked(_ entry: Int, known: Int) {
        slots[entry].known = Self.counted(known)
    }

    /// Keeps `text` as the entry's; `known`: how many songs' tags were known, when its own were
    /// not. Returns the text as kept.
    mutating func store(_ entry: Int, _ text: [UInt8], known: Int?) -> ArraySlice<UInt8> {
        if slots[entry].chunk != .max {
            unused += Int(slots[entry].count)
        } else {
            missing -= 1
        }
        slots[entry] = put(text[...])
        slots[entry].known = known.map(Self.counted) ?? .max
        if unused > 65_536, unused > held / 2 { compact() }
        return self.text(slots[entry])
    }

    /// `text` put at the end of the last chunk (or of a new one), and where it is.
    private mutating func put(_ text: ArraySlice<UInt8>) -> Slot {
        if chunks.isEmpty || (!chunks[chunks.count - 1].isEmpty && chunks[chunks.count - 1].count + text.count > Self.chunkSize) {
            chunks.append([])
        }
        let last = chunks.count - 1
        let slot = Slot(chunk: UInt32(last), offset: UInt32(chunks[last].count), count: UInt32(text.count))
        chunks[last] += text
        held += text.count
        return slot
    }

    /// Takes back the bytes of texts made again.
    private mutating func compact() {
        let old = chunks
        chunks = []
        held = 0
        for index in slots.indices where slots[index].chunk != .max {
            let slot = slots[index]
            var moved = put(old[Int(slot.chunk)][Int(slot.offset)..<(Int(slot.offset) + Int(slot.count))])
            moved.known = slot.known
            slots[index] = moved
        }
        unused = 0
    }
}
