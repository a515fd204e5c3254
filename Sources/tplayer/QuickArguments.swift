import PlayerCore

/// Reads the usual command lines without the argument parser.
///
/// The argument parser learns tplayer's options by reflecting on `TPlayer`, and every
/// reflected type costs the Swift runtime a scan of the binary's 6,000 protocol conformances:
/// half of a start-up's CPU time. This reads only forms whose meaning is plain (each option by
/// its own name, once; `--name value`, `--name=value`, `-o value`; inputs that do not start with
/// `-`) and gives up, returning nil, on anything else: help, `--version`, a repeated or joined
/// option, `--`, a value the parser might read differently. What it gives up on, the argument
/// parser reads, with its messages; what it reads, it reads as the argument parser does (a test
/// holds the two to the same values).
enum QuickArguments {
    static func parse(_ arguments: [String]) -> Invocation? {
        var invocation = Invocation()
        var seen: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                // `help` may be the argument parser's own word for help.
                guard argument != "help" else { return nil }
                invocation.inputs.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
                guard attached?.isEmpty == false else { return nil }
            } else if !argument.hasPrefix("--"), argument.utf8.count != 2 {
                return nil  // `-`, `-qR`, `-opulse`: the argument parser's to read
            }
            let key = longName(name)
            guard !seen.contains(key) else { return nil }
            seen.append(key)
            /// The option's value: after `=`, else the next argument when it is not an option.
            func value() -> String? {
                if let attached { return attached }
                guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
                index += 1
                return arguments[index - 1]
            }
            if setFlag(key, in: &invocation) {
                guard attached == nil else { return nil }
                continue
            }
            guard let text = value() else { return nil }
            switch key {
            case "--output": invocation.output = text
            case "--write": invocation.write = text
            case "--volume": invocation.volume = text
            case "--start": invocation.start = text
            case "--script": invocation.script = text
            case "--find": invocation.find = text
            case "--play-find": invocation.playFind = text
            case "--fifo": invocation.fifo = text
            case "--config": invocation.config = text
            case "--replaygain":
                guard let mode = ReplayGainMode(rawValue: text) else { return nil }
                invocation.replaygain = mode
            case "--replaygain-preamp":
                guard let preamp = Double(text) else { return nil }
                invocation.replaygainPreamp = preamp
            case "--seed":
                guard let seed = UInt64(text) else { return nil }
                invocation.seed = seed
            case "--speed": invocation.speed = text
            case "--bits":
                guard let bits = Int(text) else { return nil }
                invocation.bits = bits
            default:
                return nil
            }
        }
        return invocation
    }

    /// A short option's long name; a long one as it is. (Switches, not tables: a table's
    /// types cost the runtime more to set up than this whole parse.)
    static func longName(_ name: String) -> String {
        switch name {
        case "-o": "--output"
        case "-w": "--write"
        case "-q": "--quiet"
        case "-R": "--remote"
        default: name
        }
    }

    /// Sets the flag named `name` (long); false when `name` is not a flag.
    static func setFlag(_ name: String, in invocation: inout Invocation) -> Bool {
        switch name {
        case "--force": invocation.force = true
        case "--list-outputs": invocation.listOutputs = true
        case "--quiet": invocation.quiet = true
        case "--no-fade": invocation.noFade = true
        case "--keep-open": invocation.keepOpen = true
        case "--repeat": invocation.repeats = true
        case "--shuffle": invocation.shuffle = true
        case "--check": invocation.check = true
        case "--scan": invocation.scan = true
        case "--verbose": invocation.verbose = true
        case "--no-mpris": invocation.noMpris = true
        case "--resume": invocation.resume = true
        case "--remote": invocation.remote = true
        case "--remote-err": invocation.remoteErr = true
        case "--no-config": invocation.noConfig = true
        case "--trace": invocation.trace = true
        case "--print-states": invocation.printStates = true
        default: return false
        }
        return true
    }

    /// Every option this reads, by its long name (for the test that holds it to the argument
    /// parser's).
    static let flagNames = ["--force", "--list-outputs", "--quiet", "--no-fade", "--keep-open", "--repeat", "--shuffle",
                            "--check", "--scan", "--verbose", "--no-mpris", "--resume", "--remote", "--remote-err",
                            "--no-config", "--trace", "--print-states"]
    static let valuedNames = ["--output", "--write", "--volume", "--start", "--script", "--find", "--play-find", "--fifo",
                              "--config", "--replaygain", "--replaygain-preamp", "--seed", "--bits", "--speed"]
}
