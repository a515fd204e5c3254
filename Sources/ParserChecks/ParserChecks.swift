import PlayerCore

/// The promises tplayer's parsers make, checked on any input: what the fuzz targets assert on
/// every input libFuzzer makes up, and what the tests assert on the saved cases.
///
/// Each check returns the promises broken (empty when all hold); a parser that traps fails
/// by crashing, which is what the fuzzer looks for first.
public enum ParserChecks {
    /// What a fuzz target does with libFuzzer's input: run `check` on it and stop the run, naming
    /// the promise, when one is broken.
    public static func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) -> [String]) -> Int32 {
        let broken = check(Array(UnsafeBufferPointer(start: data, count: size)))
        if let first = broken.first { fatalError("promise broken: \(first)") }
        return 0
    }

    /// M3U and PLS: entries are real paths, problems are located and one line each, a file
    /// with many problems is cut off, and chunks of any size parse as the whole.
    public static func playlist(_ bytes: [UInt8], format: Playlist.Format) -> [String] {
        var broken: [String] = []
        let whole = Playlist.parse(bytes, format: format)
        let lines = lineCount(bytes)
        for item in whole.items {
            let place = item.location
            if item.path.isEmpty { broken.append("an entry with an empty path at line \(place.line)") }
            if item.path.hasNUL { broken.append("an entry with a NUL byte at line \(place.line)") }
            if !(1...max(lines, 1)).contains(place.line) || place.column < 1 {
                broken.append("an entry at \(place.line):\(place.column), outside the \(lines) lines")
            }
        }
        broken += located(whole.problems, lines: lines)
        if whole.problems.count > Playlist.maxProblems + 1 {
            broken.append("\(whole.problems.count) problems; the cap is \(Playlist.maxProblems) and one more")
        }
        // Fed in two pieces split where the input says, and byte by byte when it is short.
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        for sizes in [[split, bytes.count - split]] + (bytes.count <= 256 ? [Array(repeating: 1, count: bytes.count)] : []) {
            var parser = Playlist.Parser(format: format)
            var items: [Playlist.Item] = []
            var problems: [Diagnostic] = []
            var start = 0
            for size in sizes {
                bytes[start..<(start + size)].withUnsafeBufferPointer {
                    _ = parser.feed($0, item: { items.append($0) }, problem: { problems.append($0) })
                }
                start += size
            }
            parser.finish(item: { items.append($0) }, problem: { problems.append($0) })
            if items != whole.items || problems != whole.problems {
                broken.append("chunks of \(sizes.prefix(2)) parse differently from the whole")
            }
        }
        return broken
    }

    /// Scripts: every statement and problem is at a real line, problems are located and one
    /// line each, waits are never negative.
    public static func script(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let parsed = ScriptParser.parse(bytes)
        let lines = lineCount(bytes)
        var last = 0
        for (place, statement) in parsed.statements {
            let line = place.line
            if line <= last || line > lines { broken.append("a statement at line \(line) after \(last), of \(lines)") }
            last = line
            switch statement {
            case .command(.wait(let time)) where time < .zero: broken.append("a negative wait at line \(line)")
            case .path(let path, let column, _):
                if path.isEmpty || path.hasNUL || column < 1 { broken.append("a bad path at line \(line)") }
            case .bare(let path, _):
                if path.isEmpty || path.hasNUL { broken.append("a bad bare path at line \(line)") }
            default: break
            }
        }
        broken += located(parsed.problems, lines: lines)
        return broken
    }

    /// Durations: never a trap, never negative, too long said apart from malformed, a bare
    /// number the same as that many seconds.
    public static func duration(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        let parsed = DurationParser.parse(Substring(text))
        if case .success(let time) = parsed, time < .zero { broken.append("'\(text)' parsed as a negative time") }
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
           DurationParser.parse(Substring(text + "s")) != parsed {
            broken.append("'\(text)' and '\(text)s' parse differently")
        }
        return broken
    }

    /// Seek targets: never a trap, a percentage in range, a time never negative, an offset
    /// that goes the way its sign says, and too long exactly when the duration is.
    public static func seekTarget(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        let parsed = ScriptParser.seekTarget(text)
        switch parsed {
        case .success(.fraction(let permyriad)) where !(0...10_000).contains(permyriad):
            broken.append("'\(text)' is a percentage out of range: \(permyriad)")
        case .success(.to(let time)) where time < .zero:
            broken.append("'\(text)' seeks to a negative time")
        case .success(.by(let offset)) where offset.flicks != 0 && (offset.flicks < 0) != text.hasPrefix("-"):
            broken.append("'\(text)' seeks the wrong way")
        default: break
        }
        if text.hasPrefix("+") || text.hasPrefix("-"),
           (parsed == .failure(.tooLong)) != (DurationParser.parse(text.dropFirst()) == .failure(.tooLong)) {
            broken.append("'\(text)' is too long as a seek but not as a duration, or the other way")
        }
        return broken
    }

    /// Remote protocol lines: never a trap; a line too long or with control bytes is refused;
    /// a load's path is the rest of the line, byte for byte; and no reply made from the line's
    /// text (a tag, a path) can hold a line break or a control character.
    public static func remoteLine(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let parsed = RemoteCommand.parse(bytes)
        let hasControl = bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        if bytes.count > RemoteCommand.maximumLineLength || hasControl {
            if case .invalid = parsed {} else { broken.append("a long or binary line was taken as \(String(describing: parsed))") }
        }
        if case .load(let path) = parsed, let blank = bytes.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }),
           path.bytes != Array(bytes[(blank + 1)...]) {
            broken.append("LOAD's path is not the rest of the line")
        }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let unsafe: (String) -> Bool = { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }
        if unsafe(RemoteReplies.line(text)) { broken.append("a reply line holds a control character") }
        if RemoteReplies.split(text).contains(where: unsafe) { broken.append("a tag's lines hold a control character") }
        return broken
    }

    /// Saved sessions: never a trap; what decodes encodes back to the same bytes' meaning.
    public static func savedSession(_ bytes: [UInt8]) -> [String] {
        guard case .success(let session) = SavedSession.decode(bytes) else { return [] }
        return SavedSession.decode(session.encoded()) == .success(session) ? [] : ["a decoded session does not survive encoding"]
    }

    /// Problems at real lines (0 for the whole file), at column 1 or more, with a message of one
    /// non-empty line.
    private static func located(_ problems: [Diagnostic], lines: Int) -> [String] {
        problems.compactMap { problem in
            let place = problem.location
            if !(0...max(lines, 1)).contains(place.line) || place.column < 1 {
                return "a problem at \(place.line):\(place.column), outside the \(lines) lines"
            }
            // Other controls are the sanitiser's to show; a line end would split the message.
            if problem.message.isEmpty || problem.message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                return "a problem message that is not one line: \(problem.message.debugDescription)"
            }
            return nil
        }
    }

    private static func lineCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        LineSplitter.forEachLine(in: bytes) { _ in count += 1 }
        return count
    }
}
