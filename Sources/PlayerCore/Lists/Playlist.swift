/// Reads playlist texts: M3U / M3U8 (`#EXTM3U`, `#EXTINF`) and PLS (`FileN=`, `TitleN=`).
///
/// Parsing is pure: it returns each entry's location as written (as bytes: a path is whatever
/// bytes the file system holds), with its line and title, and the problems it found. Resolving
/// the locations against the file system is `Inputs`' job. Input may arrive in chunks
/// (`Parser`), so a playlist is never held whole in memory.
public enum Playlist {
    public enum Format: Sendable { case m3u, pls }

    /// An entry as the playlist writes it.
    public struct Item: Equatable, Sendable {
        /// A path (relative or absolute) or a `file://` URL already decoded to a path.
        public var path: Path
        public var title: String?
        /// Where the playlist names it.
        public var location: SourceLocation
        /// The entry as the playlist wrote it, when that was a URL (`file://…`, `http://…`).
        public var written: String? = nil
    }

    /// A playlist with more problems than this is not read further: it is surely not a playlist.
    public static let maxProblems = 50

    /// The playlist format `path` names by its extension, if any.
    public static func format(of path: Path) -> Format? {
        switch path.lowercasedExtension {
        case "m3u", "m3u8": .m3u
        case "pls": .pls
        default: nil
        }
    }

    public static func isPlaylist(_ path: Path) -> Bool { format(of: path) != nil }

    /// Parses a whole playlist held in memory; `file` names it in locations.
    public static func parse(_ bytes: [UInt8], format: Format, file: String = "") -> (items: [Item], problems: [Diagnostic]) {
        var items: [Item] = []
        var problems: [Diagnostic] = []
        var parser = Parser(format: format, file: file)
        bytes.withUnsafeBufferPointer { _ = parser.feed($0, item: { items.append($0) }, problem: { problems.append($0) }) }
        parser.finish(item: { items.append($0) }, problem: { problems.append($0) })
        return (items, problems)
    }

    /// A playlist parser fed in chunks. Entries and problems are handed over as they are found
    /// (PLS entries at the end, in number order); a binary file is refused from its first bytes.
    public struct Parser {
        public let format: Format
        /// The playlist's name in locations.
        public let file: String
        private var splitter = LineSplitter()
        /// The start of the file, held until it is known to be text; `nil` once it is.
        private var head: [UInt8]? = []
        private var problemCount = 0
        private var stopped = false
        /// M3U: the `#EXTINF` title waiting for its entry.
        private var pendingTitle: String?
        /// PLS: entries and titles by number, sorted at the end.
        private var files: [Int: Item] = [:]
        private var titles: [Int: String] = [:]
        /// An entry that names no local file (`http://…`) is an item, kept as written (for
        /// mpg123's `LOADLIST`, which numbers every entry), rather than a problem.
        public var keepsURLs = false

        public init(format: Format, file: String = "") {
            self.format = format
            self.file = file
        }

        /// Parses `chunk`; returns false once the parser has stopped reading (binary data, or
        /// too many problems), so the caller need not read on.
        public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, item: (Item) -> Void,
                                  problem: (Diagnostic) -> Void) -> Bool {
            guard !stopped else { return false }
            guard var held = head else {
                split(chunk, item: item, problem: problem)
                return !stopped
            }
            // Nothing is parsed until the start of the file is known to be text, so chunks of
            // any size give the same entries.
            let taken = min(TextLines.sniffBytes - held.count, chunk.count)
            held += chunk.prefix(taken)
            guard held.count == TextLines.sniffBytes else {
                head = held
                return true
            }
            head = nil
            release(held, item: item, problem: problem)
            if !stopped { split(UnsafeBufferPointer(rebasing: chunk[taken...]), item: item, problem: problem) }
            return !stopped
        }

        /// Ends the input: the last line, and for PLS every entry, in number order.
        public mutating func finish(item: (Item) -> Void, problem: (Diagnostic) -> Void) {
            if let held = head {
                head = nil
                release(held, item: item, problem: problem)
            }
            guard !stopped else { return }
            var splitter = LineSplitter()
            swap(&splitter, &self.splitter)
            splitter.finish { line in take(line, item: item, problem: problem) }
            guard format == .pls else { return }
            for number in files.keys.sorted() {
                guard var entry = files[number] else { continue }
                entry.title = titles[number]
                item(entry)
            }
        }

        /// Parses the held start of the file, or refuses the file when it is binary.
        private mutating func release(_ held: [UInt8], item: (Item) -> Void, problem: (Diagnostic) -> Void) {
            let binary = held.withUnsafeBufferPointer(TextLines.looksBinary)
            guard !binary else {
                stopped = true
                return problem(Diagnostic(place(line: 0), "binary data, not a playlist"))
            }
            held.withUnsafeBufferPointer { split($0, item: item, problem: problem) }
        }

        private mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, item: (Item) -> Void, problem: (Diagnostic) -> Void) {
            var splitter = LineSplitter()
            swap(&splitter, &self.splitter)
            splitter.feed(bytes) { line in take(line, item: item, problem: problem) }
            swap(&splitter, &self.splitter)
        }

        private func place(line: Int, column: Int = 1) -> SourceLocation {
            SourceLocation(file: file, line: line, column: column)
        }

        /// What one line holds.
        private enum Found {
            case nothing
            case item(Item)
            case problem(Diagnostic)
        }

        private mutating func take(_ line: LineSplitter.Line, item: (Item) -> Void, problem: (Diagnostic) -> Void) {
            guard !stopped else { return }
            switch found(in: line) {
            case .nothing: break
            case .item(let entry): item(entry)
            case .problem(let found):
                problemCount += 1
                guard problemCount <= maxProblems else {
                    stopped = true
                    return problem(Diagnostic(place(line: line.number),
                                              "more than \(maxProblems) problems; the rest is not read: is it really a playlist?"))
                }
                problem(found)
            }
        }

        private mutating func found(in line: LineSplitter.Line) -> Found {
            let text = TextLines.trimmed(line.bytes)
            if text.isEmpty { return .nothing }
            if let unreadable = line.unreadable {
                return .problem(Diagnostic(place(line: line.number), unreadable))
            }
            switch format {
            case .m3u: return m3u(text, line: line)
            case .pls: return pls(text, line: line)
            }
        }

        private mutating func m3u(_ text: Slice<UnsafeBufferPointer<UInt8>>, line: LineSplitter.Line) -> Found {
            if text.first == UInt8(ascii: "#") {
                if text.starts(with: "#EXTINF:".utf8), let comma = text.firstIndex(of: UInt8(ascii: ",")) {
                    let title = TextLines.trimmed(text[(comma + 1)...])
                    pendingTitle = title.isEmpty ? nil : TextLines.decode(title)
                }
                return .nothing
            }
            let title = pendingTitle
            pendingTitle = nil
            let column = TextLines.column(of: text.startIndex - line.bytes.startIndex, in: line.bytes)
            let here = place(line: line.number, column: column)
            switch location(text, keepingURLs: keepsURLs) {
            case .success(let found): return .item(Item(path: found.path, title: title, location: here, written: found.written))
            case .failure(let failure): return .problem(Diagnostic(here, failure.message))
            }
        }

        private mutating func pls(_ text: Slice<UnsafeBufferPointer<UInt8>>, line: LineSplitter.Line) -> Found {
            if [";", "#", "["].contains(where: { text.first == UInt8(ascii: $0) }) { return .nothing }
            guard let equals = text.firstIndex(of: UInt8(ascii: "=")) else {
                let column = TextLines.column(of: text.startIndex - line.bytes.startIndex, in: line.bytes)
                return .problem(Diagnostic(place(line: line.number, column: column),
                                           "not a PLS line (expected FileN=, TitleN= or LengthN=)"))
            }
            let key = String(decoding: TextLines.trimmed(text[..<equals]), as: UTF8.self)
            let value = TextLines.trimmed(text[(equals + 1)...])
            let valueColumn = TextLines.column(of: (value.isEmpty ? equals + 1 : value.startIndex) - line.bytes.startIndex,
                                               in: line.bytes)
            let here = place(line: line.number, column: valueColumn)
            let lowerKey = key.lowercased()
            if lowerKey.hasPrefix("file"), let number = Int(lowerKey.dropFirst(4)) {
                guard !value.isEmpty else {
                    return .problem(Diagnostic(here, "empty entry (\(key)=); skipped"))
                }
                switch location(value, keepingURLs: keepsURLs) {
                case .success(let found):
                    files[number] = Item(path: found.path, title: nil, location: here, written: found.written)
                case .failure(let failure):
                    return .problem(Diagnostic(here, failure.message))
                }
            } else if lowerKey.hasPrefix("title"), let number = Int(lowerKey.dropFirst(5)), !value.isEmpty {
                titles[number] = TextLines.decode(value)
            }
            return .nothing
        }
    }

    private struct LocationProblem: Error { let message: String }

    /// A path as written, or a `file://` URL decoded to one (`written`: the URL, when not too
    /// long to keep); an http or https stream's URL as written; other URLs are not local files: a
    /// problem, or with `keepingURLs` an entry whose path is the URL as written.
    private static func location<C: Collection<UInt8>>(_ bytes: C, keepingURLs: Bool)
        -> Result<(path: Path, written: String?), LocationProblem>
    {
        guard TextLines.mayBeURL(bytes) else { return .success((Path(bytes: bytes), nil)) }
        let text = TextLines.decode(bytes)
        let written = bytes.count < 8192 ? text : nil
        let lower = text.lowercased()
        if FileURL.isFileURL(text) {
            switch FileURL.path(text) {
            case .success(let path): return .success((path, written))
            case .failure(.otherHost): return .failure(LocationProblem(message: "file URL on another host: \(text)"))
            case .failure: return .failure(LocationProblem(message: "bad %-escape in URL: \(text)"))
            }
        }
        // An internet stream plays from where it is (`StreamURL`); opening it says what is wrong.
        if StreamURL.looksLikeURL(Path(bytes: bytes)) { return .success((Path(bytes: bytes), written)) }
        if let colon = lower.firstIndex(of: ":"), lower[colon...].hasPrefix("://"),
           lower[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }) {
            guard keepingURLs else {
                return .failure(LocationProblem(message: "not a local file or an http stream: \(text); tplayer plays files on this "
                                                    + "machine and http:// or https:// streams"))
            }
            return .success((Path(bytes: bytes), written))
        }
        return .success((Path(bytes: bytes), nil))
    }
}
