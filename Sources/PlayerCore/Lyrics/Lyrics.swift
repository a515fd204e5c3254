/// A song's lyrics as an LRC file gives them (`song.lrc` beside `song.flac`): lines with time
/// tags (`[01:02.50]`, several on a line for a chorus sung again, fractions of 1 to 3 digits),
/// the enhanced form's word times (`<01:02.80>`), an `[offset:+250]` (milliseconds: a positive
/// offset shows the lines sooner), the ID tags (`[ar:]`, `[ti:]`, `[al:]`, `[length:]`…); lines
/// without a time tag are lyrics unsynced. Bounded: `maxBytes`, `maxLines`. Every problem is at
/// its line and column; the rest is read.
public struct Lyrics: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        /// When it is sung, in milliseconds from the song's start (the offset applied, never
        /// below 0).
        public var time: Int64
        /// The line as shown: the word tags taken out. Untrusted text (it leaves through the
        /// one sanitiser).
        public var text: String
        /// The enhanced form's words, each with its time; empty for a plain line.
        public var words: [Word]
    }

    public struct Word: Equatable, Sendable {
        public var time: Int64
        public var text: String
    }

    /// The synced lines in time order (lines of the same time in file order).
    public var lines: [Line] = []
    /// Lines with no time tag, in file order: lyrics to show as text.
    public var unsynced: [String] = []
    /// The ID tags, by their name in lower case (`ar`, `ti`, `al`, `by`, `length`…).
    public var tags: [String: String] = [:]
    /// `[offset:]`, in milliseconds.
    public var offset: Int64 = 0
    public var problems: [Diagnostic] = []

    /// A `.lrc` larger than this is refused before it is read (a song's lyrics are a few KB).
    public static let maxBytes = 1 << 20
    /// Synced and unsynced lines kept, at most.
    public static let maxLines = 20_000
    /// The latest time taken: 100 hours.
    static let maxMilliseconds: Int64 = 100 * 3600 * 1000

    public var isSynced: Bool { !lines.isEmpty }

    /// The words as text, a line each (the synced lines in time order, else the unsynced), each
    /// line flattened by the sanitiser: MPRIS's `xesam:asText`.
    public var text: String {
        (isSynced ? lines.map(\.text) : unsynced).map(UntrustedText.flattened).joined(separator: "\n")
    }

    /// Where a song's `.lrc` may be, in order: beside it (`song.flac` → `song.lrc`), then in a
    /// `lyrics` folder beside it (`lyrics/song.lrc`). For a file: a stream has none, and its
    /// reader does not ask.
    public static func sidecars(of song: Path) -> [Path] {
        guard !song.lastComponent.isEmpty else { return [] }
        var name = song.lastComponent.bytes
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 { name.removeLast(name.count - dot) }
        let file = Path(bytes: name + Array(".lrc".utf8))
        let folder = song.directory
        return [file.resolved(against: folder), Path("lyrics").appending(file).resolved(against: folder)]
    }

    public init() {}

    /// `frames` at `rate` in milliseconds, without overflow (frames may be any Int64).
    public static func milliseconds(frames: Int64, rate: Int) -> Int64 {
        guard rate > 0 else { return 0 }
        let rate = Int64(rate)
        let (whole, overflow) = (frames / rate).multipliedReportingOverflow(by: 1000)
        let (sum, past) = whole.addingReportingOverflow(frames % rate * 1000 / rate)
        return overflow || past ? (frames < 0 ? Int64.min : Int64.max) : sum
    }

    /// The line being sung at `milliseconds`: the last whose time has come; `nil` before the
    /// first.
    public func lineIndex(at milliseconds: Int64) -> Int? {
        var low = 0, high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].time <= milliseconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The lyrics in `bytes`, an LRC file named `file` in messages: UTF-8 (a byte order mark
    /// or not), or UTF-16 with its byte order mark, as Windows tools save CJK lyrics.
    public static func parse(_ bytes: [UInt8], file: String) -> Lyrics {
        let bytes = utf8(bytes)
        var lyrics = Lyrics()
        var timed: [(time: Int64, order: Int, text: String, words: [Word])] = []
        LineSplitter.forEachLine(in: bytes) { line in
            guard timed.count + lyrics.unsynced.count < maxLines, lyrics.problems.count < Playlist.maxProblems else { return }
            let place = { (offset: Int) in SourceLocation(file: file, line: line.number, column: TextLines.column(of: offset, in: line.bytes)) }
            if let why = line.unreadable { return lyrics.problems.append(Diagnostic(place(0), why)) }
            var parsed = LRCLine(Array(line.bytes))
            for problem in parsed.problems where lyrics.problems.count < Playlist.maxProblems {
                lyrics.problems.append(Diagnostic(place(problem.offset), problem.message))
            }
            for (name, value) in parsed.tags {
                if name == "offset" {
                    guard let milliseconds = Int64(value.filter { $0 != " " }), (-600_000...600_000).contains(milliseconds) else {
                        lyrics.problems.append(Diagnostic(place(0), "[offset:\(value)]: give milliseconds, -600000 to 600000"))
                        continue
                    }
                    lyrics.offset = milliseconds
                } else {
                    lyrics.tags[name] = value
                }
            }
            if parsed.times.isEmpty {
                if !parsed.text.isEmpty, parsed.tags.isEmpty { lyrics.unsynced.append(parsed.text) }
                return
            }
            parsed.times.sort()
            for time in parsed.times { timed.append((time, timed.count, parsed.text, parsed.words)) }
        }
        timed.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        let shift = lyrics.offset
        lyrics.lines = timed.prefix(maxLines).map { entry in
            let at = { (time: Int64) in max(time - shift, 0) }
            return Line(time: at(entry.time), text: entry.text, words: entry.words.map { Word(time: at($0.time), text: $0.text) })
        }
        return lyrics
    }
}

extension Lyrics {
    /// `bytes` as UTF-8: UTF-16 (little- or big-endian, told by its byte order mark) transcoded,
    /// unpaired surrogates repaired (U+FFFD); anything else as it is.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 2, let littleEndian = [[0xFF, 0xFE]: true, [0xFE, 0xFF]: false][Array(bytes.prefix(2))] else { return bytes }
        let units = stride(from: 2, to: bytes.count - 1, by: 2).map { at in
            littleEndian ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
}

/// A song's lyrics as found when it opened (its `.lrc`, else a tag that holds them): what they
/// are, and what names them in messages. Read off the main loop, with the song.
public struct SongLyrics: Equatable, Sendable {
    public var file: String
    /// The lyrics, taken apart once, where they are read (the decoder's thread, never the main
    /// loop): each of their readers (the view, `lyrics = on`, MPRIS) takes them as they are.
    public var parsed: Lyrics
    /// Why the song's `.lrc` was not read (a named pipe, over `Lyrics.maxBytes`), in a line.
    public var refusal: String?

    /// The lyrics an `.lrc` or a tag holds, in LRC's form.
    public init(file: String, bytes: [UInt8], refusal: String? = nil) {
        self.init(file: file, parsed: Lyrics.parse(bytes, file: file), refusal: refusal)
    }

    /// Lyrics read from a tag that is not text (ID3's `SYLT`), already taken apart.
    public init(file: String, parsed: Lyrics, refusal: String? = nil) {
        (self.file, self.parsed, self.refusal) = (file, parsed, refusal)
    }
}

/// One line of an LRC file taken apart: its time tags, its ID tags, its text and word times.
struct LRCLine {
    var times: [Int64] = []
    var tags: [(String, String)] = []
    var text = ""
    var words: [Lyrics.Word] = []
    /// Each problem with the byte offset it is at.
    var problems: [(offset: Int, message: String)] = []

    init(_ bytes: [UInt8]) {
        var at = bytes.prefix(while: TextLines.isBlank).count
        // The tags at its start: times, or one ID tag (`[ar:Artist]`).
        while at < bytes.count, bytes[at] == UInt8(ascii: "[") {
            guard let close = bytes[at...].firstIndex(of: UInt8(ascii: "]")) else {
                problems.append((at, "no ] closing the tag"))
                return
            }
            let inside = Array(bytes[(at + 1)..<close])
            if times.count + problems.count + tags.count >= Self.maxTags {
                break  // a line of `[][][]…` is not a song's: the rest is text
            } else if let time = Self.time(inside) {
                times.append(time)
            } else if let colon = inside.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                      inside[..<colon].allSatisfy({ Self.isLetter($0) || $0 == UInt8(ascii: "#") }) {
                let name = TextLines.decode(inside[..<colon]).lowercased()
                tags.append((name, TextLines.decode(TextLines.trimmed(inside[(colon + 1)...]))))
            } else if inside.first.map(Self.isDigit) == true || inside.isEmpty {
                problems.append((at, "[\(TextLines.shown(inside))]: not a time; write [mm:ss.xx]"))
            } else {
                break  // text that starts with a bracket
            }
            at = close + 1
        }
        parseText(Array(bytes[at...]))
    }

    /// The text after the tags, the enhanced form's word times (`<mm:ss.xx>`) taken out.
    private mutating func parseText(_ bytes: [UInt8]) {
        var shown: [UInt8] = []
        var word: [UInt8] = []
        var wordTime: Int64?
        var at = 0
        func endWord() {
            if let time = wordTime { words.append(Lyrics.Word(time: time, text: TextLines.decode(word))) }
            word = []
        }
        while at < bytes.count {
            // A word's time is at most 12 bytes (`<mmmm:ss.fff>`): looked for no further.
            if bytes[at] == UInt8(ascii: "<"), let close = bytes[at..<min(at + 14, bytes.count)].firstIndex(of: UInt8(ascii: ">")),
               let time = Self.time(Array(bytes[(at + 1)..<close])) {
                endWord()
                wordTime = time
                at = close + 1
                continue
            }
            shown.append(bytes[at])
            word.append(bytes[at])
            at += 1
        }
        endWord()
        text = TextLines.decode(TextLines.trimmed(shown))
    }

    /// `mm:ss`, `mm:ss.f`, `mm:ss.ff`, `mm:ss.fff` (also `mm:ss:ff`) in milliseconds; `nil` when
    /// it is not a time, or past `Lyrics.maxMilliseconds`.
    static func time(_ bytes: [UInt8]) -> Int64? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let minutes = bytes[..<colon], rest = bytes[(colon + 1)...]
        let separator = rest.firstIndex { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") } ?? rest.endIndex
        let seconds = rest[..<separator], fraction = separator < rest.endIndex ? rest[(separator + 1)...] : []
        guard (1...4).contains(minutes.count), (1...2).contains(seconds.count), fraction.count <= 3,
              separator == rest.endIndex || !fraction.isEmpty,
              [minutes, seconds, fraction].allSatisfy({ $0.allSatisfy(isDigit) }) else { return nil }
        let number = { (digits: ArraySlice<UInt8>) in digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) } }
        guard number(seconds) < 60 else { return nil }
        var milliseconds = number(fraction)
        for _ in fraction.count..<3 { milliseconds *= 10 }
        let total = (number(minutes) * 60 + number(seconds)) * 1000 + milliseconds
        return total <= Lyrics.maxMilliseconds ? total : nil
    }

    /// Time tags (and bad ones) read at the start of a line, at most.
    static let maxTags = 64

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte | 0x20) }
}
