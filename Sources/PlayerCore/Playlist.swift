/// Reads playlist texts: M3U / M3U8 (`#EXTM3U`, `#EXTINF`) and PLS (`FileN=`, `TitleN=`).
///
/// Parsing is pure: it returns each entry's location as written, with its line and title, and
/// the problems it found. Resolving the locations against the file system is `Inputs`' job.
public enum Playlist {
    public enum Format: Sendable { case m3u, pls }

    /// An entry as the playlist writes it.
    public struct Item: Equatable, Sendable {
        /// A path (relative or absolute) or a `file://` URL already decoded to a path.
        public var location: String
        public var title: String?
        public var line: Int
        public var column: Int
    }

    /// A problem on one line: `(line, column, message)`.
    public struct Problem: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The longest line read; longer ones are reported and skipped (paths are at most 4096 bytes).
    public static let maxLineBytes = 4096

    /// The playlist format `path` names by its extension, if any.
    public static func format(of path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8") { return .m3u }
        if lower.hasSuffix(".pls") { return .pls }
        return nil
    }

    public static func isPlaylist(_ path: String) -> Bool { format(of: path) != nil }

    public static func parse(_ bytes: [UInt8], format: Format) -> (items: [Item], problems: [Problem]) {
        var items: [Item] = []
        var problems: [Problem] = []
        parse(bytes, format: format, item: { items.append($0) }, problem: { problems.append($0) })
        return (items, problems)
    }

    /// Parses, handing each entry and each problem over as it is found (a 100,000-entry list is
    /// never held twice).
    public static func parse(_ bytes: [UInt8], format: Format, item: (Item) -> Void, problem: (Problem) -> Void) {
        switch format {
        case .m3u: parseM3U(bytes, item: item, problem: problem)
        case .pls:
            let (items, problems) = parsePLS(bytes)
            items.forEach(item)
            problems.forEach(problem)
        }
    }

    /// M3U, read at the byte level: only paths and titles become strings.
    private static func parseM3U(_ bytes: [UInt8], item: (Item) -> Void, problem: (Problem) -> Void) {
        let extinf = Array("#EXTINF:".utf8)
        var pendingTitle: String?
        bytes.withUnsafeBufferPointer { buffer in
            TextLines.forEachLine(in: buffer) { number, line in
                let text = TextLines.trimmed(line)
                if text.isEmpty { return }
                if let unreadable = TextLines.unreadable(line) {
                    problem(Problem(line: number, column: 1, message: unreadable))
                    return
                }
                if text.first == UInt8(ascii: "#") {
                    if text.starts(with: extinf), let comma = text.firstIndex(of: UInt8(ascii: ",")) {
                        let title = TextLines.trimmed(UnsafeBufferPointer(rebasing: text[(comma + 1)...]))
                        pendingTitle = title.isEmpty ? nil : TextLines.decode(title)
                    }
                    return
                }
                let column = text.startIndex - line.startIndex + 1
                let written = TextLines.decode(text)
                switch TextLines.mayBeURL(text) ? location(written) : .success(written) {
                case .success(let path):
                    item(Item(location: path, title: pendingTitle, line: number, column: column))
                case .failure(let failure):
                    problem(Problem(line: number, column: column, message: failure.message))
                }
                pendingTitle = nil
            }
        }
    }

    private static func parsePLS(_ bytes: [UInt8]) -> (items: [Item], problems: [Problem]) {
        var files: [Int: Item] = [:]
        var titles: [Int: String] = [:]
        var problems: [Problem] = []
        for line in TextLines.lines(bytes) {
            guard let text = line.text(problems: &problems) else { continue }
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix(";") || trimmed.hasPrefix("#") || trimmed.hasPrefix("[") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problems.append(Problem(line: line.number, column: leadingColumn(text),
                                        message: "not a PLS line (expected FileN=, TitleN= or LengthN=)"))
                continue
            }
            let key = trimmed[..<equals].lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace()
            let valueColumn = leadingColumn(text) + trimmed.distance(from: trimmed.startIndex, to: equals) + 1
            if key.hasPrefix("file"), let number = Int(key.dropFirst(4)) {
                switch location(value) {
                case .success(let path):
                    files[number] = Item(location: path, title: nil, line: line.number, column: valueColumn)
                case .failure(let problem):
                    problems.append(Problem(line: line.number, column: valueColumn, message: problem.message))
                }
            } else if key.hasPrefix("title"), let number = Int(key.dropFirst(5)), !value.isEmpty {
                titles[number] = value
            }
        }
        let items = files.keys.sorted().map { number in
            var item = files[number]!
            item.title = titles[number]
            return item
        }
        return (items, problems)
    }

    private struct LocationProblem: Error { let message: String }

    /// A path as written, or a `file://` URL decoded to one; other URLs are not local files.
    private static func location(_ text: String) -> Result<String, LocationProblem> {
        let lower = text.lowercased()
        if lower.hasPrefix("file://") {
            var rest = Substring(text.dropFirst(7))
            if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst(9) }
            guard rest.hasPrefix("/") else {
                return .failure(LocationProblem(message: "file URL on another host: \(text)"))
            }
            guard let path = percentDecoded(rest) else {
                return .failure(LocationProblem(message: "bad %-escape in URL: \(text)"))
            }
            return .success(path)
        }
        if let colon = lower.firstIndex(of: ":"), lower[colon...].hasPrefix("://"),
           lower[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }) {
            return .failure(LocationProblem(message: "not a local file: \(text); tplayer plays files on this machine"))
        }
        return .success(text)
    }

    /// `%20` and friends decoded as UTF-8 bytes; `nil` for a malformed escape or invalid UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// 1-based column of the first non-blank character.
    private static func leadingColumn(_ text: String) -> Int {
        text.prefix(while: \.isWhitespace).count + 1
    }
}

/// The lines of a text file given as bytes: LF, CRLF or CR line ends, a UTF-8 byte-order mark
/// skipped, and each line decoded as UTF-8 or, when it is not valid UTF-8, as Latin-1 (what
/// older `.m3u` files use). Lines with NUL bytes or over `Playlist.maxLineBytes` are refused.
public enum TextLines {
    public struct Line {
        public let number: Int
        public let decoded: Result<String, Unreadable>

        /// The decoded text, or `nil` after adding why it cannot be read to `problems`.
        public func text(problems: inout [Playlist.Problem]) -> String? {
            switch decoded {
            case .success(let text): return text
            case .failure(let problem):
                problems.append(Playlist.Problem(line: number, column: 1, message: problem.message))
                return nil
            }
        }
    }

    public struct Unreadable: Error { public let message: String }

    /// Every line of `bytes`, decoded (for the small files read line by line: PLS, scripts).
    public static func lines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        bytes.withUnsafeBufferPointer { buffer in
            forEachLine(in: buffer) { number, line in
                let decoded: Result<String, Unreadable> = unreadable(line)
                    .map { .failure(Unreadable(message: $0)) } ?? .success(decode(line))
                lines.append(Line(number: number, decoded: decoded))
            }
        }
        return lines
    }

    /// Calls `body` with each line's number and bytes (without its line end), skipping a
    /// UTF-8 byte-order mark.
    public static func forEachLine(in bytes: UnsafeBufferPointer<UInt8>,
                                   _ body: (Int, Slice<UnsafeBufferPointer<UInt8>>) -> Void) {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            body(number, bytes[start..<end])
            start = end
            if start < bytes.count {
                start += (bytes[start] == 0x0D && start + 1 < bytes.count && bytes[start + 1] == 0x0A) ? 2 : 1
            }
        }
    }

    /// `line` without leading and trailing spaces and tabs.
    public static func trimmed<C: BidirectionalCollection<UInt8>>(_ line: C) -> C.SubSequence {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }
        let body = line.drop(while: isBlank)
        guard let last = body.lastIndex(where: { !isBlank($0) }) else { return body[body.startIndex..<body.startIndex] }
        return body[...last]
    }

    /// Why the line cannot be read as text, if it cannot.
    public static func unreadable<C: Collection<UInt8>>(_ line: C) -> String? {
        if line.count > Playlist.maxLineBytes {
            return "line too long (\(line.count) bytes; at most \(Playlist.maxLineBytes))"
        }
        if line.contains(0) { return "binary data, not text" }
        return nil
    }

    /// UTF-8, or Latin-1 when the bytes are not valid UTF-8.
    public static func decode<C: Collection<UInt8>>(_ bytes: C) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Whether the text could start with a URL scheme (`xyz://`), checked without a String.
    static func mayBeURL<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        guard let colon = bytes.prefix(32).firstIndex(of: UInt8(ascii: ":")) else { return false }
        return bytes[colon...].starts(with: Array("://".utf8))
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
