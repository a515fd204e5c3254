/// One command of a scripted playlist file, ready to run: what a key can ask (`Command`), or
/// what only a script does (queue songs, wait).
public enum ScriptCommand: Equatable, Sendable, CustomStringConvertible {
    /// A command a key could give: play, stop, next, previous, seek, volume, repeat, shuffle, quit.
    case perform(Command)
    /// Queue songs (a path may name a folder or a playlist, so it can give many); with
    /// `playNow` (`load`), play the first of them now.
    case add(EntryList, playNow: Bool)
    /// Let this much audio time pass.
    case wait(AudioTime)
    /// Wait until the current song ends.
    case waitEnd
    /// Seed the shuffles that follow, so a script that shuffles plays the same order every run.
    case seed(UInt64)

    /// The command as a script line would write it (a resolved path list as its first entry).
    public var description: String {
        switch self {
        case .perform(let command): return command.description
        case .add(let entries, let playNow):
            let more = entries.count > 1 ? " (+\(entries.count - 1) more)" : ""
            return (playNow ? "load " : "add ") + (entries.first.map { "\($0.path)" } ?? "") + more
        case .wait(let time): return "wait \(time.seconds)s"
        case .waitEnd: return "wait end"
        case .seed(let seed): return "seed \(seed)"
        }
    }
}

/// A command with the place it came from (for messages and `--trace`).
public struct ScriptLine: Equatable, Sendable {
    public var location: SourceLocation
    public var command: ScriptCommand

    public init(_ location: SourceLocation, _ command: ScriptCommand) {
        self.location = location
        self.command = command
    }
}

/// Reads the script format. One command per line; `#` starts a comment line; blank lines are
/// skipped; command words are case-insensitive. Paths are the rest of the line (optionally in
/// double quotes), kept as bytes, and are resolved by the caller, which knows the file system.
public enum ScriptParser {
    /// A line as parsed, before paths are resolved.
    public enum Statement: Equatable, Sendable {
        case command(ScriptCommand)
        /// `add PATH` (or `load PATH` when `playNow`), with the path's column.
        case path(Path, column: Int, playNow: Bool)
        /// A line that starts with no command word: a bare path, or a mistyped command. The
        /// caller decides, since only the file system can tell.
        case bare(Path, word: String)
    }

    public struct Parsed: Sendable {
        public var statements: [(location: SourceLocation, statement: Statement)] = []
        public var problems: [Diagnostic] = []
    }

    public static let commandWords = [
        "add", "load", "play", "stop", "next", "previous", "next-album", "previous-album", "quit",
        "wait", "seek", "volume", "repeat", "shuffle", "seed", "repeat-one", "stop-after", "album-mode", "queue",
        "equalizer", "speed", "crossfade", "sleep", "playlist", "playlists",
    ]

    /// Parses a script; `file` names it in locations.
    public static func parse(_ bytes: [UInt8], file: String = "") -> Parsed {
        var parsed = Parsed()
        let binary = bytes.withUnsafeBufferPointer { TextLines.looksBinary($0) }
        guard !binary else {
            parsed.problems.append(Diagnostic(SourceLocation(file: file),
                                              "binary data, not a script (an audio file? play it with tplayer FILE)"))
            return parsed
        }
        LineSplitter.forEachLine(in: bytes) { line in
            let text = TextLines.trimmed(line.bytes)
            if text.isEmpty || text.first == UInt8(ascii: "#") { return }
            let start = SourceLocation(file: file, line: line.number)
            if let unreadable = line.unreadable {
                parsed.problems.append(Diagnostic(start, unreadable))
                return
            }
            switch statement(text, in: line.bytes) {
            case .success(let statement): parsed.statements.append((start, statement))
            case .failure(let problem):
                parsed.problems.append(Diagnostic(SourceLocation(file: file, line: line.number, column: problem.column), problem.message))
            }
        }
        return parsed
    }

    struct Problem: Error {
        let column: Int
        let message: String
    }

    private static func statement(_ text: Slice<UnsafeBufferPointer<UInt8>>,
                                  in line: UnsafeBufferPointer<UInt8>) -> Result<Statement, Problem> {
        let wordEnd = text.firstIndex(where: TextLines.isBlank) ?? text.endIndex
        let word = TextLines.decode(text[..<wordEnd])
        let argumentBytes = TextLines.trimmed(text[wordEnd...])
        let argument = TextLines.decode(argumentBytes)
        let argumentColumn = TextLines.column(of: argumentBytes.isEmpty ? wordEnd : argumentBytes.startIndex, in: line)
        let name = word.lowercased()
        func fail(_ message: String, at column: Int = argumentColumn) -> Result<Statement, Problem> {
            .failure(Problem(column: column, message: message))
        }
        func noArgument(_ command: Command) -> Result<Statement, Problem> {
            argument.isEmpty ? .success(.command(.perform(command))) : fail("\(name) takes no argument (found '\(argument)')")
        }
        switch name {
        case "add", "load":
            var path = argumentBytes
            if path.count >= 2, path.first == UInt8(ascii: "\""), path.last == UInt8(ascii: "\"") {
                path = path.dropFirst().dropLast()
            }
            guard !path.isEmpty else { return fail("\(name) needs a path: \(name) PATH") }
            return .success(.path(Path(bytes: path), column: argumentColumn, playNow: name == "load"))
        case "play": return noArgument(.play)
        case "stop": return noArgument(.stop)
        case "next": return noArgument(.next)
        case "previous", "prev": return noArgument(.previous)
        case "next-album": return noArgument(.nextAlbum)
        case "playlist":
            switch PlaylistRequest.parse(argument) {
            case .success(let request): return .success(.command(.perform(.playlist(request))))
            case .failure(let refusal): return fail(refusal.message)
            }
        case "playlists": return noArgument(.playlist(.list))
        case "previous-album": return noArgument(.previousAlbum)
        case "quit": return noArgument(.quit)
        case "wait":
            if argument.lowercased() == "end" { return .success(.command(.waitEnd)) }
            guard !argument.isEmpty else { return fail("wait needs a duration or 'end', e.g. wait 1.5s") }
            switch DurationParser.parse(Substring(argument)) {
            case .success(let time): return .success(.command(.wait(time)))
            case .failure(.tooLong): return fail("duration too long: '\(argument)'")
            case .failure(.malformed): return fail("bad duration '\(argument)': use e.g. 1.5s, 250ms, 2m, 1:30 or end")
            }
        case "seek":
            switch seekTarget(argument) {
            case .success(let target): return .success(.command(.perform(.seek(target))))
            case .failure(.tooLong): return fail("duration too long: '\(argument)'")
            case .failure(.malformed):
                return fail("bad seek '\(argument)': use a time (1:30, 90s), +10s, -5s or a percentage (50%)")
            }
        case "volume":
            let digits = argument.hasSuffix("%") ? argument.dropLast() : Substring(argument)
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit), let percent = Int(digits), percent <= 100 else {
                return fail("bad volume '\(argument)': use 0% to 100%")
            }
            return .success(.command(.perform(.volume(percent))))
        case "shuffle":
            switch argument.lowercased() {
            case "on": return .success(.command(.perform(.setShuffle(true))))
            case "off": return .success(.command(.perform(.setShuffle(false))))
            case "songs": return .success(.command(.perform(.setShuffleMode(.songs))))
            case "albums": return .success(.command(.perform(.setShuffleMode(.albums))))
            default: return fail("shuffle needs on, off, songs or albums (found '\(argument)')")
            }
        case "repeat", "repeat-one", "stop-after", "album-mode":
            let on: Bool
            switch argument.lowercased() {
            case "on": on = true
            case "off": on = false
            default: return fail("\(name) needs on or off (found '\(argument)')")
            }
            let commands: [String: Command] = ["repeat": .setRepeat(on), "repeat-one": .setRepeatOne(on),
                                               "stop-after": .setStopAfter(on), "album-mode": .setAlbumMode(on)]
            return .success(.command(.perform(commands[name] ?? .setRepeat(on))))
        case "equalizer":
            // on, off, a preset's name, or ten gains in dB.
            switch argument.lowercased() {
            case "on": return .success(.command(.perform(.setEqualizerOn(true))))
            case "off": return .success(.command(.perform(.setEqualizerOn(false))))
            default:
                guard let gains = EqualizerPresets.gains(argument) ?? EqualizerPresets.parse(argument) else {
                    return fail("equalizer needs on, off, a preset (\(EqualizerPresets.names.joined(separator: ", "))) "
                        + "or 10 gains in dB from -12 to 12 (found '\(argument)')")
                }
                return .success(.command(.perform(.setGraphicEqualizer(gains, on: true))))
            }
        case "speed":
            guard let speed = SpeedValue.parse(argument) else { return fail("speed: \(SpeedValue.hint) (found '\(argument)')") }
            return .success(.command(.perform(.speed(speed))))
        case "crossfade":
            guard let seconds = CrossfadeSetting.parse(argument) else { return fail("crossfade needs the seconds, 0 to 60 (found '\(argument)')") }
            return .success(.command(.perform(.setCrossfade(seconds))))
        case "sleep":
            guard let request = SleepTimer.parse(argument) else {
                return fail("sleep needs a time (30m, 1h30m, 90s; minutes alone: 45), at most a day, album or off (found '\(argument)')")
            }
            return .success(.command(.perform(.setSleep(request))))
        case "queue":
            guard !argument.isEmpty, argument.count <= 9, argument.allSatisfy(\.isASCIIDigit), let place = Int(argument), place > 0 else {
                return fail("queue needs the number of an entry of the list, from 1 (found '\(argument)')")
            }
            return .success(.command(.perform(.queueEntry(place - 1))))
        case "seed":
            guard !argument.isEmpty, argument.count <= 20, argument.allSatisfy(\.isASCIIDigit), let seed = UInt64(argument) else {
                return fail("seed needs a whole number from 0 to \(UInt64.max) (found '\(argument)')")
            }
            return .success(.command(.seed(seed)))
        default:
            return .success(.bare(Path(bytes: text), word: word))
        }
    }

    /// `1:30`, `90s`, `+10s`, `-5s`, `50%`, `12.5%`.
    public static func seekTarget(_ text: String) -> Result<SeekTarget, DurationParser.Failure> {
        if text.hasSuffix("%") {
            let number = text.dropLast()
            let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = pieces.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy(\.isASCIIDigit),
                  let wholeValue = Int64(whole)
            else { return .failure(.malformed) }
            let fraction = pieces.count == 2 ? pieces[1] : ""
            guard fraction.count <= 2, fraction.allSatisfy(\.isASCIIDigit), pieces.count == 1 || !fraction.isEmpty,
                  let fractionValue = Int64(fraction.isEmpty ? "0" : fraction)
            else { return .failure(.malformed) }
            let permyriad = wholeValue * 100 + fractionValue * (fraction.count == 1 ? 10 : 1)
            return permyriad <= 10_000 ? .success(.fraction(permyriad: permyriad)) : .failure(.malformed)
        }
        if text.hasPrefix("+") || text.hasPrefix("-") {
            return DurationParser.parse(text.dropFirst()).map { time in
                .by(text.hasPrefix("-") ? AudioTime(flicks: -time.flicks) : time)
            }
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
