/// One line of mpg123's generic remote protocol (`mpg123 -R`, version 10), parsed.
///
/// mpg123's `src/control_generic.c` and `doc/README.remote` are the specification: a command is
/// one line, its name case-insensitive, in a long and often a short form (`LOAD` / `L`); a command
/// that takes no argument must be the whole line; one that takes an argument is separated from it
/// by one space or tab, and the rest of the line, as it is, is the argument (a path may hold
/// spaces). Parsing is pure and total: any bytes give a command or a reason to answer `@E`.
public enum RemoteCommand: Equatable, Sendable {
    case load(Path)
    case loadPaused(Path)
    /// `LOADLIST <entry> <list>`: list the playlist's entries, and play entry `entry` (1-based;
    /// 0 the last one; below 0 none).
    case loadList(entry: Int, Path)
    case pause
    case stop
    /// `JUMP`: to an MPEG frame or by frames, or to / by seconds (converted to whole frames, as
    /// mpg123 does).
    case jump(Jump)
    /// `SEEK`: to a sample or by samples.
    case seek(to: Int64, relative: Bool)
    /// `VOLUME`: percent, a decimal number.
    case volume(Double)
    case mute
    case unmute
    case silence
    case progress
    case sample
    case format
    case state
    case tag
    case help
    case quit
    /// `PITCH <value>`: play faster (+0.01 is 1 % faster) or slower, higher or lower, by
    /// playing at another rate, as mpg123 does. The value is where the pitch goes, not a step.
    case pitch(Double)
    /// `SLEEP <time|album|off>` (tplayer's own): the sleep timer, as `--sleep` sets it.
    case sleep(SleepTimer.Request)
    /// `EQ <channel> <band> <value>` and the other equaliser commands: answered as mpg123
    /// answers them; the bands reach libmpg123's equaliser (`RemoteControl`).
    case equalizer(channel: Int, band: Int, value: Double)
    case simpleEqualizer(bass: Double, mid: Double, treble: Double)
    case equalizerFile(Path)
    case showEqualizer
    /// `RVA <mode>`: the word as given (mpg123 keeps its mode for a word it does not know).
    case rva(String)
    /// `SCAN`: tplayer builds the seek index itself when a track opens; answered at once.
    case scan
    /// Not a command, or one missing its argument: the `@E` line to answer.
    case invalid(String)

    public enum Jump: Equatable, Sendable {
        case frames(Int64, relative: Bool)
        case seconds(Double, relative: Bool)
    }

    /// The longest line taken; a longer one is answered with one `@E` line and dropped.
    public static let maximumLineLength = 2048

    /// Largest frame or sample number taken (2^40: hours beyond any song), so that no count a
    /// front-end sends can overflow the arithmetic after it.
    static let numberLimit: Int64 = 1 << 40

    /// Parses one line, without its line end. `nil` for an empty line (mpg123 ignores those).
    public static func parse(_ line: [UInt8]) -> RemoteCommand? {
        guard !line.isEmpty else { return nil }
        if line.count > maximumLineLength {
            // The reader keeps no more of a line than it must to know it is too long: its whole
            // length is not known, only that it is over the limit.
            return .invalid("line too long (longer than \(maximumLineLength) bytes): ignored")
        }
        if line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return .invalid("binary data in a command line (control bytes): ignored")
        }
        let whole = String(decoding: line, as: UTF8.self).uppercased()
        switch whole {
        case "P", "PAUSE": return .pause
        case "S", "STOP": return .stop
        case "SILENCE": return .silence
        case "PROGRESS": return .progress
        case "MUTE": return .mute
        case "UNMUTE": return .unmute
        case "T", "TAG": return .tag
        case "Q", "QUIT": return .quit
        case "H", "HELP": return .help
        case "SAMPLE": return .sample
        case "FORMAT": return .format
        case "STATE": return .state
        case "SCAN": return .scan
        case "SHOWEQ": return .showEqualizer
        default: break
        }
        // A command with an argument: blanks before it skipped, the name up to the next blank,
        // and after that one blank the rest as it is (`  V   50 ` is VOLUME with `  50 `, as
        // mpg123 reads it).
        let command = line.drop(while: isBlank)
        guard let blank = command.firstIndex(where: isBlank) else {
            return .invalid("Unknown command or no arguments: \(String(decoding: line, as: UTF8.self))")
        }
        let written = String(decoding: command[..<blank], as: UTF8.self)
        let name = written.uppercased()
        let argumentBytes = Array(command[(blank + 1)...])
        let argument = String(decoding: argumentBytes, as: UTF8.self)
        guard !argumentBytes.isEmpty else {
            return .invalid("Unknown command or no arguments: \(written)")
        }
        switch name {
        case "L", "LOAD": return .load(Path(bytes: withoutFileScheme(argumentBytes)))
        case "LP", "LOADPAUSED": return .loadPaused(Path(bytes: withoutFileScheme(argumentBytes)))
        case "LL", "LOADLIST":
            // `<entry> <list>`, blanks around both.
            var rest = argumentBytes[...].drop(while: isBlank)
            let number = rest.prefix { !isBlank($0) }
            rest = rest.dropFirst(number.count).drop(while: isBlank)
            guard !rest.isEmpty else { return .invalid("empty list name") }
            let entry = Int(clamping: leadingInteger(String(decoding: number, as: UTF8.self)))
            return .loadList(entry: entry, Path(bytes: rest))
        case "J", "JUMP":
            let text = argument.trimmingBlanks
            let relative = text.first == "+" || text.first == "-"
            if text.hasSuffix("s") || text.hasSuffix("S") {
                guard let seconds = Double(text.dropLast()), seconds.isFinite, abs(seconds) < 1e9 else {
                    return .invalid("invalid arguments for JUMP: \(argument) (a frame number, +N or -N frames, or seconds as 12.5s, +5s, -5s)")
                }
                return .jump(.seconds(seconds, relative: relative))
            }
            guard let frames = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
                return .invalid("invalid arguments for JUMP: \(argument) (a frame number, +N or -N frames, or seconds as 12.5s, +5s, -5s)")
            }
            return .jump(.frames(clamp(frames), relative: relative))
        case "K", "SEEK":
            let text = argument.trimmingBlanks
            let relative = text.first == "+" || text.first == "-"
            guard let samples = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
                return .invalid("invalid arguments for SEEK: \(argument) (a sample number, or +N or -N samples)")
            }
            return .seek(to: clamp(samples), relative: relative)
        case "V", "VOLUME":
            guard let percent = Double(argument.trimmingBlanks), percent.isFinite else {
                return .invalid("invalid arguments for VOLUME: \(argument) (a percentage, 0 to 100)")
            }
            return .volume(percent)
        case "E", "EQ":
            let numbers = leadingNumbers(argument, count: 3)
            guard numbers.count == 3, let channel = Int(exactly: numbers[0].rounded(.towardZero)),
                  let band = Int(exactly: numbers[1].rounded(.towardZero)) else {
                return .invalid("invalid arguments for EQ: \(argument)")
            }
            return .equalizer(channel: channel, band: band, value: numbers[2])
        case "SEQ":
            let numbers = leadingNumbers(argument, count: 3)
            guard numbers.count == 3 else { return .invalid("invalid arguments for SEQ: \(argument)") }
            return .simpleEqualizer(bass: numbers[0], mid: numbers[1], treble: numbers[2])
        case "EQFILE": return .equalizerFile(Path(bytes: argumentBytes))
        case "PITCH":
            guard let value = leadingNumbers(argument, count: 1).first else {
                return .invalid("invalid arguments for PITCH: \(argument)")
            }
            return .pitch(value)
        case "RVA": return .rva(argument)
        case "SLEEP":
            guard let request = SleepTimer.parse(argument) else { return .invalid("invalid arguments for SLEEP: \(argument)") }
            return .sleep(request)
        default:
            // mpg123's words for a name it does not know that came with arguments.
            return .invalid("Unknown command with arguments: \(written) \(argument)")
        }
    }

    /// A space or a tab: what separates a command from its argument.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// A track named as a `file://` URL is the path after it, as mpg123 reads it (the scheme
    /// in any case; the rest taken as it is, `%` and all).
    static func withoutFileScheme(_ bytes: [UInt8]) -> [UInt8] {
        let scheme = Array("file://".utf8)
        // `| 0x20` lowercases the letters and leaves `:` and `/` as they are.
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return bytes }
        return Array(bytes[scheme.count...])
    }

    /// The first `count` numbers of `text`, each read from the start of a blank-separated word as
    /// C's `sscanf("%lf")` reads it; fewer when a word does not start with one.
    static func leadingNumbers(_ text: String, count: Int) -> [Double] {
        var numbers: [Double] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(count) {
            let characters = Array(word.prefix(64))
            guard let number = (1...characters.count).reversed().lazy
                .compactMap({ Double(String(characters[..<$0])) }).first(where: { $0.isFinite }) else { break }
            numbers.append(number)
        }
        return numbers
    }

    private static func clamp(_ value: Int64) -> Int64 {
        min(max(value, -numberLimit), numberLimit)
    }

    /// The integer at the start of `text`, as C's `atol` reads it (0 when there is none).
    private static func leadingInteger(_ text: String) -> Int64 {
        var digits = Substring(text)
        var sign: Int64 = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        let number = digits.prefix { $0.isASCII && $0.isNumber }.prefix(12)
        return sign * (Int64(number) ?? 0)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[start...end])
    }
}
