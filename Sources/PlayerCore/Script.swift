/// One command of a scripted playlist file, ready to run.
public enum ScriptCommand: Equatable, Sendable {
    /// Queue songs (a path may name a folder or a playlist, so it can give many).
    case add([Entry])
    /// Queue songs and play the first of them now.
    case load([Entry])
    case play
    case stop
    case next
    case previous
    case quit
    /// Let this much audio time pass.
    case wait(AudioTime)
    /// Wait until the current song ends.
    case waitEnd
    case seek(SeekTarget)
    case volume(Int)
    case setRepeat(Bool)
    case setShuffle(Bool)
}

extension ScriptCommand: CustomStringConvertible {
    /// The command as a script line would write it (a resolved path list as its first entry).
    public var description: String {
        func paths(_ entries: [Entry]) -> String {
            (entries.first?.path ?? "") + (entries.count > 1 ? " (+\(entries.count - 1) more)" : "")
        }
        switch self {
        case .add(let entries): return "add " + paths(entries)
        case .load(let entries): return "load " + paths(entries)
        case .play: return "play"
        case .stop: return "stop"
        case .next: return "next"
        case .previous: return "previous"
        case .quit: return "quit"
        case .wait(let time): return "wait \(time.seconds)s"
        case .waitEnd: return "wait end"
        case .seek(let target): return "seek \(target)"
        case .volume(let percent): return "volume \(percent)%"
        case .setRepeat(let on): return "repeat " + (on ? "on" : "off")
        case .setShuffle(let on): return "shuffle " + (on ? "on" : "off")
        }
    }
}

/// A command with the line it came from (for messages and `--trace`).
public struct ScriptLine: Equatable, Sendable {
    public var line: Int
    public var command: ScriptCommand

    public init(line: Int, command: ScriptCommand) {
        self.line = line
        self.command = command
    }
}

/// Reads the script format. One command per line; `#` starts a comment line; blank lines are
/// skipped; command words are case-insensitive. Paths are the rest of the line (optionally in
/// double quotes) and are resolved by the caller, which knows the file system.
public enum ScriptParser {
    /// A line as parsed, before paths are resolved.
    public enum Statement: Equatable, Sendable {
        case command(ScriptCommand)
        /// `add PATH` (or `load PATH` when `playNow`), with the path's column.
        case path(String, column: Int, playNow: Bool)
        /// A line that starts with no command word: a bare path, or a mistyped command. The
        /// caller decides, since only the file system can tell.
        case bare(String, word: String)
    }

    public struct Parsed: Sendable {
        public var statements: [(line: Int, statement: Statement)] = []
        public var problems: [Playlist.Problem] = []
    }

    public static let commandWords = [
        "add", "load", "play", "stop", "next", "previous", "quit",
        "wait", "seek", "volume", "repeat", "shuffle",
    ]

    public static func parse(_ bytes: [UInt8]) -> Parsed {
        var parsed = Parsed()
        for line in TextLines.lines(bytes) {
            guard let text = line.text(problems: &parsed.problems) else { continue }
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = text.prefix(while: \.isWhitespace).count
            switch statement(trimmed, indent: indent) {
            case .success(let statement): parsed.statements.append((line.number, statement))
            case .failure(let problem):
                parsed.problems.append(Playlist.Problem(line: line.number, column: problem.column, message: problem.message))
            }
        }
        return parsed
    }

    struct Problem: Error {
        let column: Int
        let message: String
    }

    private static func statement(_ text: String, indent: Int) -> Result<Statement, Problem> {
        let word = String(text.prefix { !$0.isWhitespace })
        let rest = text.dropFirst(word.count)
        let argument = rest.trimmingWhitespace()
        let argumentColumn = indent + word.count + rest.prefix(while: \.isWhitespace).count + 1
        let name = word.lowercased()
        func fail(_ message: String, at column: Int = argumentColumn) -> Result<Statement, Problem> {
            .failure(Problem(column: column, message: message))
        }
        func noArgument(_ command: ScriptCommand) -> Result<Statement, Problem> {
            argument.isEmpty ? .success(.command(command)) : fail("\(name) takes no argument (found '\(argument)')")
        }
        switch name {
        case "add", "load":
            var path = argument
            if path.count >= 2, path.hasPrefix("\""), path.hasSuffix("\"") { path = String(path.dropFirst().dropLast()) }
            guard !path.isEmpty else { return fail("\(name) needs a path: \(name) PATH") }
            return .success(.path(path, column: argumentColumn, playNow: name == "load"))
        case "play": return noArgument(.play)
        case "stop": return noArgument(.stop)
        case "next": return noArgument(.next)
        case "previous", "prev": return noArgument(.previous)
        case "quit": return noArgument(.quit)
        case "wait":
            if argument.lowercased() == "end" { return .success(.command(.waitEnd)) }
            guard !argument.isEmpty else { return fail("wait needs a duration or 'end', e.g. wait 1.5s") }
            guard let time = DurationParser.parse(Substring(argument)) else {
                return fail("bad duration '\(argument)': use e.g. 1.5s, 250ms, 2m, 1:30 or end")
            }
            return .success(.command(.wait(time)))
        case "seek":
            guard let target = seekTarget(argument) else {
                return fail("bad seek '\(argument)': use a time (1:30, 90s), +10s, -5s or a percentage (50%)")
            }
            return .success(.command(.seek(target)))
        case "volume":
            let digits = argument.hasSuffix("%") ? argument.dropLast() : Substring(argument)
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit), let percent = Int(digits), percent <= 100 else {
                return fail("bad volume '\(argument)': use 0% to 100%")
            }
            return .success(.command(.volume(percent)))
        case "repeat", "shuffle":
            let on: Bool
            switch argument.lowercased() {
            case "on": on = true
            case "off": on = false
            default: return fail("\(name) needs on or off (found '\(argument)')")
            }
            return .success(.command(name == "repeat" ? .setRepeat(on) : .setShuffle(on)))
        default:
            return .success(.bare(text, word: word))
        }
    }

    /// `1:30`, `90s`, `+10s`, `-5s`, `50%`, `12.5%`.
    public static func seekTarget(_ text: String) -> SeekTarget? {
        if text.hasSuffix("%") {
            let number = text.dropLast()
            let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = pieces.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy(\.isASCIIDigit) else { return nil }
            let fraction = pieces.count == 2 ? pieces[1] : ""
            guard fraction.count <= 2, fraction.allSatisfy(\.isASCIIDigit), pieces.count == 1 || !fraction.isEmpty else { return nil }
            let hundredths = Int64(fraction.isEmpty ? "0" : fraction)! * (fraction.count == 1 ? 10 : 1)
            let permyriad = Int64(whole)! * 100 + hundredths
            return permyriad <= 10_000 ? .fraction(permyriad: permyriad) : nil
        }
        if text.hasPrefix("+") || text.hasPrefix("-") {
            guard let time = DurationParser.parse(text.dropFirst()) else { return nil }
            return .by(text.hasPrefix("-") ? AudioTime(flicks: -time.flicks) : time)
        }
        return DurationParser.parse(Substring(text)).map { .to($0) }
    }

    /// The command word nearest to `word` by edit distance, when it is close (for "did you mean").
    public static func suggestion(for word: String) -> String? {
        let lower = Array(word.lowercased())
        let scored = commandWords.map { ($0, editDistance(lower, Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < lower.count else { return nil }
        return best.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count <= 64 else { return Int.max }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
