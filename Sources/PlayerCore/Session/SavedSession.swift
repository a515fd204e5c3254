/// Where an interactive run left off: the list, the place in it, the sample in the song, the
/// volume and the modes. `tplayer --resume` picks up from it.
///
/// Stored as text, one field per line, under a first line that names the format. Paths are
/// bytes (they may hold line breaks or be no UTF-8 at all), so every path and title is written
/// percent-encoded. Reading (`Reader`) refuses only a file that is no session (a fresh start,
/// never a half-read list); a field or an entry it cannot take is set right or left out, with
/// a note, and the rest is kept.
public struct SavedSession: Equatable, Sendable {
    public var entries: EntryList
    /// The entry playing (an index into `entries`), if any.
    public var current: Int?
    /// Where in that song (exact to the sample at any MPEG rate: flicks).
    public var position: AudioTime
    public var volume: Int
    public var muted: Bool
    public var repeats: Bool
    public var shuffles: Bool
    /// Shuffled by album (`shuffles` is on too).
    public var shufflesAlbums = false
    /// The play order (`PlayQueue.order`: a permutation of the entry indices), when it is not
    /// list order: a shuffled list, or one with songs loaded to play next.
    public var order: [Int]?
    /// The modes beside repeat and shuffle, and the entries queued to play next, in order.
    public var repeatsOne = false
    public var albumMode = false
    public var stopsAfterEach = false
    public var consumes = false
    /// The entries' priorities (MPD's `prio`), where not 0, by entry.
    public var priorities: [Int: UInt8] = [:]
    public var upNext: [Int] = []

    public init(entries: EntryList, current: Int?, position: AudioTime, volume: Int = 100, muted: Bool = false,
                repeats: Bool = false, shuffles: Bool = false, order: [Int]? = nil) {
        self.entries = entries
        self.current = current
        self.position = position
        self.volume = volume
        self.muted = muted
        self.repeats = repeats
        self.shuffles = shuffles
        self.order = order
    }

    /// What `status` says of the run, to pick up from next time: its song (`current`, one still
    /// loading too, from its start), the volume and the modes, with the list and its play order
    /// (`nil` in list order) and the engine's `position` in the song.
    public init(_ status: PlayerStatus, current: Int?, entries: EntryList, order: [Int]?, position: AudioTime) {
        self.init(entries: entries, current: current, position: position, volume: status.volume, muted: status.muted,
                  repeats: status.repeats, shuffles: status.shuffles, order: order)
        repeatsOne = status.repeatsOne
        albumMode = status.albumMode
        shufflesAlbums = status.shufflesAlbums
        stopsAfterEach = status.stopsAfterEach
        consumes = status.consumes
        upNext = status.upNext
    }

    static let header = "tplayer saved session 1"

    /// The most numbers an `order` line holds (the rest go on the next ones).
    static let orderLineLength = 1000

    public func encoded() -> [UInt8] {
        var text = Self.header + "\n"
        text += "volume \(volume)\nmuted \(muted ? 1 : 0)\nrepeat \(repeats ? 1 : 0)\nshuffle \(shuffles ? 1 : 0)\n"
        if let current { text += "current \(current)\nposition \(position.flicks)\n" }
        // Written only when on (an older tplayer notes a line it does not know, and goes on).
        if repeatsOne { text += "repeat-one 1\n" }
        if albumMode { text += "album-mode 1\n" }
        if shufflesAlbums { text += "shuffle-albums 1\n" }
        if stopsAfterEach { text += "stop-after-each 1\n" }
        if consumes { text += "consume 1\n" }
        if !upNext.isEmpty { text += "queue " + upNext.prefix(Self.orderLineLength).map(String.init).joined(separator: " ") + "\n" }
        // Before the list, so that a reader that stops at its limit has read it; a line holds at
        // most `orderLineLength` numbers, well under `Reader.maximumLineLength`.
        for start in stride(from: 0, to: order?.count ?? 0, by: Self.orderLineLength) {
            text += "order " + order![start..<min(start + Self.orderLineLength, order!.count)].map(String.init).joined(separator: " ") + "\n"
        }
        var bytes = Array(text.utf8)
        for (index, entry) in entries.enumerated() {
            bytes += Array("entry ".utf8) + Self.percentEncoded(entry.path.bytes)
            if let title = entry.title { bytes += [0x20] + Self.percentEncoded(Array(title.utf8)) }
            bytes.append(0x0A)
            // A CUE sheet's track: where it lies in its image, and what the sheet calls it (each
            // field of `SongInfo.Tags.fields`, empty for one the sheet does not give). An older
            // tplayer notes these lines as unknown and plays the whole image.
            if let span = entry.span { bytes += Array("span \(span.start) \(span.end.map(String.init) ?? "-")\n".utf8) }
            if let priority = priorities[index] { bytes += Array("prio \(priority)\n".utf8) }
            if let sheet = entry.sheet { bytes += Array("sheet ".utf8) + Self.percentEncoded(sheet.bytes) + [0x0A] }
            if let tags = entry.sheetTags {
                bytes += Array("tags".utf8)
                for field in SongInfo.Tags.fields { bytes += [0x20] + Self.percentEncoded(Array((tags[keyPath: field] ?? "").utf8)) }
                bytes.append(0x0A)
            }
        }
        bytes += Array("end\n".utf8)
        return bytes
    }

    /// Why a file is not a saved session: the line and what is wrong there.
    public struct Unreadable: Error, Equatable, Sendable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
    }

    /// Decodes a whole file (the tests' and the fuzzer's way in; `Reader` is the file's).
    public static func decode(_ bytes: [UInt8]) -> Result<SavedSession, Unreadable> {
        decodeNoting(bytes).map(\.session)
    }

    /// Decodes a whole file, with what was set right or left out.
    public static func decodeNoting(_ bytes: [UInt8]) -> Result<Reader.Result, Unreadable> {
        var reader = Reader()
        _ = bytes.withUnsafeBufferPointer { reader.feed($0) }
        return reader.finish()
    }

    /// Printable ASCII stays as it is, except `%` and the space; every other byte is `%XX`.
    static func percentEncoded(_ bytes: [UInt8]) -> [UInt8] {
        FileURL.percentEncoded(bytes) { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
    }

    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                guard byte > 0x20 && byte < 0x7F else { return nil }
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
