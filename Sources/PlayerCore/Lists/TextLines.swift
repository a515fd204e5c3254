/// Splits text that arrives in chunks into lines, as bytes: LF, CRLF or CR line ends (also when
/// a CRLF is split between two chunks), a UTF-8 byte-order mark skipped.
///
/// Memory stays bounded whatever the input: a line is passed on straight from the chunk it is
/// in, and only a line split between chunks is copied, up to `maxLineBytes + 1` bytes; the rest
/// of an over-long line is counted, not kept. A 2 GB file with no line end costs 4 KB.
public struct LineSplitter {
    /// The longest line read; longer ones are reported and skipped (paths are at most 4096 bytes).
    public static let maxLineBytes = 4096

    /// One line: its 1-based number and its bytes, valid only during the call that receives it.
    public struct Line {
        public let number: Int
        /// The line without its end; cut at `maxLineBytes + 1` bytes when it is longer.
        public let bytes: UnsafeBufferPointer<UInt8>
        /// The line's true length in bytes.
        public let length: Int

        /// Why the line cannot be read as text, if it cannot: too long, or holding a NUL byte.
        public var unreadable: String? {
            if length > LineSplitter.maxLineBytes {
                return "line too long (\(length) bytes; at most \(LineSplitter.maxLineBytes))"
            }
            if bytes.contains(0) { return "binary data, not text" }
            return nil
        }
    }

    private var pending: [UInt8] = []
    private var pendingLength = 0
    private var hasPending = false
    private var number = 0
    /// The previous chunk ended in CR: an LF starting this one belongs to that line end.
    private var afterCR = false

    public init() {}

    /// Splits `chunk`, calling `body` for each line it completes.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Line) -> Void) {
        var start = 0
        if afterCR, !chunk.isEmpty {
            afterCR = false
            if chunk[0] == 0x0A { start = 1 }
        }
        while start < chunk.count {
            var end = start
            while end < chunk.count, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<end])
            guard end < chunk.count else {
                keep(piece)  // the line goes on in the next chunk
                return
            }
            if hasPending {
                keep(piece)
                emitPending(body)
            } else {
                emit(piece, length: piece.count, body)
            }
            if chunk[end] == 0x0D {
                if end + 1 < chunk.count {
                    if chunk[end + 1] == 0x0A { end += 1 }
                } else {
                    afterCR = true
                }
            }
            start = end + 1
        }
    }

    /// Ends the input: a last line with no line end is passed on.
    public mutating func finish(_ body: (Line) -> Void) {
        if hasPending { emitPending(body) }
    }

    /// Every line of `bytes`, for input that is already whole.
    public static func forEachLine(in bytes: [UInt8], _ body: (Line) -> Void) {
        var splitter = LineSplitter()
        bytes.withUnsafeBufferPointer { splitter.feed($0, body) }
        splitter.finish(body)
    }

    private mutating func keep(_ piece: UnsafeBufferPointer<UInt8>) {
        hasPending = true
        pendingLength += piece.count
        let room = Self.maxLineBytes + 1 - pending.count
        if room > 0 { pending += piece.prefix(room) }
    }

    private mutating func emitPending(_ body: (Line) -> Void) {
        let length = pendingLength
        pending.withUnsafeBufferPointer { emit($0, length: length, body) }
        pending.removeAll(keepingCapacity: true)
        pendingLength = 0
        hasPending = false
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>, length: Int, _ body: (Line) -> Void) {
        number += 1
        var bytes = bytes
        var length = length
        if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            length -= 3
        }
        body(Line(number: number, bytes: bytes, length: length))
    }
}

/// Helpers for the bytes of one line of a text file.
public enum TextLines {
    /// How much of the start of a file is looked at to tell text from binary data.
    public static let sniffBytes = 8192

    /// Whether `prefix` (the start of a file) is binary data rather than text: text files hold
    /// no NUL bytes (UTF-16 files, which do, are not playlists or scripts tplayer reads).
    public static func looksBinary(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        prefix.prefix(sniffBytes).contains(0)
    }

    /// Text in UTF-16 with its byte-order mark (what some Windows programs save a CUE sheet
    /// in), as UTF-8 (an unpaired surrogate repaired as U+FFFD); `nil` for anything else.
    public static func utf8(fromUTF16 bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 2 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): little = true
        case (0xFE, 0xFF): little = false
        default: return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (low, high) = little ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Whether `bytes` look like UTF-16 without a byte-order mark: a NUL in every other byte
    /// of their first line, as ASCII written in UTF-16 has.
    public static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool {
        let head = Array(bytes.prefix(64))
        guard head.count >= 8 else { return false }
        let even = stride(from: 0, to: head.count - 1, by: 2).map { head[$0] }
        let odd = stride(from: 1, to: head.count, by: 2).map { head[$0] }
        return (odd.allSatisfy { $0 == 0 } && !even.contains(0)) || (even.allSatisfy { $0 == 0 } && !odd.contains(0))
    }

    /// `line` without leading and trailing spaces and tabs.
    public static func trimmed<C: BidirectionalCollection<UInt8>>(_ line: C) -> C.SubSequence {
        let body = line.drop(while: isBlank)
        guard let last = body.lastIndex(where: { !isBlank($0) }) else { return body[body.startIndex..<body.startIndex] }
        return body[...last]
    }

    /// Space, tab, vertical tab or form feed.
    public static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
    }

    /// UTF-8, or Latin-1 when the bytes are not valid UTF-8 (what older `.m3u` files use).
    public static func decode<C: Collection<UInt8>>(_ bytes: C) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Windows-1252 (what Windows rippers write CUE sheets in): Latin-1 but for 0x80–0x9F, which
    /// hold printable signs (`€ ‘ ’ “ ”`); the five it leaves undefined stay the C1 code points
    /// of the same value, as web browsers decode them.
    public static func windows1252<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(String.UnicodeScalarView(bytes.map { byte in
            guard (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(windows1252High[Int(byte) - 0x80]) else {
                return Unicode.Scalar(byte)
            }
            return scalar
        }))
    }

    /// Windows-1252's 0x80–0x9F as Unicode (the C1 code point itself where it defines none).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// A line as a message quotes it: its first 60 bytes (the terminal's gate, `TerminalText`,
    /// shows what is not printable).
    public static func shown<C: Collection<UInt8>>(_ line: C) -> String {
        let text = String(decoding: line.prefix(60), as: UTF8.self)
        return line.count > 60 ? text + "…" : text
    }

    /// The 1-based column, in characters, of the byte at `offset` in `line`.
    public static func column<C: Collection<UInt8>>(of offset: Int, in line: C) -> Int {
        decode(line.prefix(offset)).count + 1
    }

    /// Whether the text could start with a URL scheme (`xyz://`), checked without a String.
    static func mayBeURL<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        guard let colon = bytes.prefix(32).firstIndex(of: UInt8(ascii: ":")) else { return false }
        return bytes[colon...].starts(with: Array("://".utf8))
    }
}
