/// Where an interactive run left off: the list, the place in it, the sample in the song, the
/// volume and the modes. `tplayer --resume` picks up from it.
///
/// Stored as text, one field per line, under a first line that names the format. Paths are
/// bytes (they may hold line breaks or be no UTF-8 at all), so every path and title is written
/// percent-encoded; reading accepts nothing else, and any line it cannot take makes the whole
/// file "not a saved session": a fresh start, never a half-read list.
public struct SavedSession: Equatable, Sendable {
    public var entries: [Entry]
    /// The entry playing (an index into `entries`), if any.
    public var current: Int?
    /// Where in that song (exact to the sample at any MPEG rate: flicks).
    public var position: AudioTime
    public var volume: Int
    public var muted: Bool
    public var repeats: Bool
    public var shuffles: Bool

    public init(entries: [Entry], current: Int?, position: AudioTime, volume: Int = 100, muted: Bool = false,
                repeats: Bool = false, shuffles: Bool = false) {
        self.entries = entries
        self.current = current
        self.position = position
        self.volume = volume
        self.muted = muted
        self.repeats = repeats
        self.shuffles = shuffles
    }

    static let header = "tplayer saved session 1"

    public func encoded() -> [UInt8] {
        var text = Self.header + "\n"
        text += "volume \(volume)\nmuted \(muted ? 1 : 0)\nrepeat \(repeats ? 1 : 0)\nshuffle \(shuffles ? 1 : 0)\n"
        if let current { text += "current \(current)\nposition \(position.flicks)\n" }
        var bytes = Array(text.utf8)
        for entry in entries {
            bytes += Array("entry ".utf8) + Self.percentEncoded(entry.path.bytes)
            if let title = entry.title { bytes += [0x20] + Self.percentEncoded(Array(title.utf8)) }
            bytes.append(0x0A)
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
        var reader = Reader()
        _ = bytes.withUnsafeBufferPointer { reader.feed($0) }
        return reader.finish().map(\.session)
    }

    /// Reads a saved session a piece at a time, as playlists are read: memory stays bounded
    /// however large the file, and the list stops at `limit` (`Entry.listLimit`; the rest of the
    /// file is then not read).
    public struct Reader {
        private var session = SavedSession(entries: [], current: nil, position: .zero)
        private var seen = Set<String>()
        /// The start of a line whose end has not been read yet.
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var ended = false
        private var full = false
        private var failure: Unreadable?

        /// The longest line taken: a path and a title, each percent-encoded (three bytes a byte).
        public static let maximumLineLength = 64 << 10

        /// The most entries kept.
        private let limit: Int

        public init(limit: Int = Entry.listLimit) {
            self.limit = limit
        }

        /// What was read, and whether the list was cut at the limit (the rest of the file was
        /// then not read).
        public struct Result {
            public var session: SavedSession
            public var cut: Bool
        }

        /// Reads the next piece of the file; false once nothing more is wanted (a problem was
        /// found, or the list is full).
        public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
            var start = 0
            while failure == nil, !full, let end = chunk[start...].firstIndex(of: 0x0A) {
                if partial.isEmpty {
                    line(chunk[start..<end])
                } else {
                    partial += chunk[start..<end]
                    let whole = partial
                    partial = []
                    line(whole[...])
                }
                start = end + 1
            }
            guard failure == nil, !full else { return false }
            partial += chunk[start...]
            if partial.count > Self.maximumLineLength {
                failure = Unreadable(line: lineNumber + 1, reason: "a line longer than \(Self.maximumLineLength) bytes")
            }
            return failure == nil
        }

        /// The session read, or why the file is not one.
        public mutating func finish() -> Swift.Result<Result, Unreadable> {
            if let failure { return .failure(failure) }
            if !full {
                guard partial.isEmpty else { return .failure(Unreadable(line: 0, reason: "cut short (no final line break)")) }
                guard lineNumber > 0 else { return .failure(Unreadable(line: 1, reason: "not a tplayer saved session")) }
                guard ended else { return .failure(Unreadable(line: 0, reason: "cut short (no end line)")) }
            }
            if session.current == nil, seen.contains("position") {
                return .failure(Unreadable(line: 0, reason: "a position with no current entry"))
            }
            var read = session
            if let current = read.current, current >= read.entries.count {
                // A list cut at the limit may have left its current song out: start at the first.
                guard full else { return .failure(Unreadable(line: 0, reason: "its current entry is not in its list")) }
                read.current = nil
                read.position = .zero
            }
            return .success(Result(session: read, cut: full))
        }

        private mutating func line<Bytes: Collection<UInt8>>(_ line: Bytes) where Bytes.Index == Int {
            lineNumber += 1
            let number = lineNumber
            func fail(_ reason: String) { failure = Unreadable(line: number, reason: reason) }
            if number == 1 {
                if !line.elementsEqual(header.utf8) { fail("not a tplayer saved session") }
                return
            }
            guard !ended else { return fail("text after the end line") }
            if line.elementsEqual("end".utf8) {
                ended = true
                return
            }
            let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            let key = String(decoding: parts[0], as: UTF8.self)
            if key == "entry" {
                guard parts.count >= 2, let path = percentDecoded(Array(parts[1])), !path.isEmpty else {
                    return fail("an entry without a valid path")
                }
                var title: String?
                if parts.count == 3 {
                    guard let decoded = percentDecoded(Array(parts[2])), let text = String(validating: decoded, as: UTF8.self) else {
                        return fail("an entry with an invalid title")
                    }
                    title = text
                }
                guard session.entries.count < limit else {
                    full = true
                    return
                }
                session.entries.append(Entry(path: Path(bytes: path), title: title))
                return
            }
            guard parts.count == 2, seen.insert(key).inserted,
                  let value = Int64(String(decoding: parts[1], as: UTF8.self)), value >= 0 else {
                return fail("not a field tplayer writes")
            }
            switch key {
            case "volume" where value <= 100: session.volume = Int(value)
            case "muted" where value <= 1: session.muted = value == 1
            case "repeat" where value <= 1: session.repeats = value == 1
            case "shuffle" where value <= 1: session.shuffles = value == 1
            case "current" where value < Int64(Int32.max): session.current = Int(value)
            case "position" where value < 1 << 60: session.position = AudioTime(flicks: value)
            default: fail("not a field tplayer writes")
            }
        }
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
