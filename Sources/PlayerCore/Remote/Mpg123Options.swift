/// mpg123's command-line options, as front-ends start "mpg123 -R" with them
/// (Audio::Play::MPG123 passes `--aggressive`, the npm `mpg123` package `-a DEVICE`), read for
/// `tplayer -R` so that such a front-end runs tplayer unchanged. Those that mean something here
/// are honoured (`-a` the device, `-f` / `-g` the starting volume, `-o dummy` the null output);
/// the rest are left out with one line each; none ends the run. tplayer's own options pass
/// through to its parser.
public enum Mpg123Options {
    public struct Translation: Equatable, Sendable {
        /// What tplayer's own parser is given.
        public var arguments: [String] = []
        /// `-a`: the device to play on (a PulseAudio sink's name).
        public var device: String?
        /// `-f N` (a scale of 32768) or `-g N` (percent): the volume to start at, in percent.
        public var volume: Int?
        /// One line for each option left out (without `tplayer: `).
        public var notes: [String] = []
        public init() {}
    }

    /// tplayer's own options that take a value, and those that do not: passed on as they are.
    static let ownWithValue: Set<String> = ["-o", "--output", "-w", "--write", "--fifo"]
    static let ownFlags: Set<String> = ["-R", "--remote", "--remote-err", "--trace", "--no-fade", "--force", "-q", "--quiet",
                                        "--no-mpris", "--keep-open", "--help", "--version"]
    /// mpg123's options that take a value (short ones as one letter after `-`).
    static let withValue: Set<String> = [
        "-k", "--skip", "-n", "--frames", "-p", "--proxy", "--network", "-u", "--auth", "--auth-file", "-@", "--list",
        "-l", "--listentry", "--loop", "--timeout", "--index-size", "--preframes", "--resync-limit", "--streamdump",
        "--icy-interval", "-a", "--audiodevice", "-O", "--outfile", "--wav", "--au", "--cdr", "--cpu", "-g", "--gain",
        "-f", "--scale", "-r", "--rate", "--resample", "--pitch", "-e", "--encoding", "-d", "--doublespeed", "-h",
        "--halfspeed", "--equalizer", "-D", "--delay", "-b", "--buffer", "--preload", "--devbuffer", "--ctrlusr1",
        "--ctrlusr2", "--pauseloop", "--name",
    ]
    /// mpg123's options that take none.
    static let flags: Set<String> = [
        "--skip-id3v2", "--fuzzy", "-y", "--no-resync", "--resync", "-F", "--no-frankenstein", "--ignore-mime",
        "--no-seekbuffer", "--continue", "-z", "--shuffle", "-Z", "--random", "--no-icy-meta", "-i", "--index",
        "--ignore-streamlength", "--list-modules", "--list-devices", "-s", "--stdout", "--reopen", "--test-cpu",
        "--list-cpu", "--rva-mix", "--rva-radio", "--rva-album", "--rva-audiophile", "-0", "--left", "--single0", "-1",
        "--right", "--single1", "-m", "--mono", "--mix", "--stereo", "-2", "--2to1", "-4", "--4to1", "--8bit", "--float",
        "--gapless", "--no-gapless", "--no-infoframe", "--headphones", "--speaker", "--lineout", "--smooth", "-t",
        "--test", "-c", "--check", "-v", "--verbose", "-C", "--control", "--no-control", "--no-visual", "--title",
        "--long-tag", "--lyrics", "--utf8", "--aggressive", "-T", "--realtime", "-?", "--longhelp",
    ]

    /// Whether `arguments` ask for mpg123's remote interface (`-R`, `--remote`, or `-R` among
    /// other short options in one word, as `-Rq`).
    public static func asksForRemote(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--remote" { return true }
            if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.dropFirst().contains("R") { return true }
        }
        return false
    }

    /// Reads `arguments` (without the program name). `isOutput` says whether tplayer has an
    /// output driver by that name.
    public static func translate(_ arguments: [String], isOutput: (String) -> Bool) -> Translation {
        var result = Translation()
        var words = arguments[...]
        while let word = words.popFirst() {
            if word == "--" || !word.hasPrefix("-") || word == "-" {
                if word == "--" { result.arguments += [word] + words; break }
                result.arguments.append(word)
                continue
            }
            let (name, attached) = split(word)
            if attached == nil, !word.hasPrefix("--"), word.count > 2, !withValue.contains(name), !ownWithValue.contains(name) {
                // Short options run together (`-Rq`, `-vvv`): each on its own.
                words.insert(contentsOf: word.dropFirst().map { "-\($0)" }, at: words.startIndex)
                continue
            }
            if ownWithValue.contains(name) || withValue.contains(name) {
                guard let value = attached ?? words.popFirst() else {
                    result.notes.append("-R: \(name) needs a value; ignored")
                    continue
                }
                take(name, value, into: &result, isOutput: isOutput)
            } else if ownFlags.contains(name) {
                result.arguments.append(word)
            } else if flags.contains(name) {
                let note = "-R: mpg123's \(name) has no meaning for tplayer; ignored"
                if !result.notes.contains(note) { result.notes.append(note) }  // `-vvv`: once
            } else {
                result.notes.append("-R: \(name) is an option of neither tplayer nor mpg123; ignored")
            }
        }
        return result
    }

    /// `--name=value` and `-kVALUE` as name and value; otherwise the word and `nil`.
    private static func split(_ word: String) -> (String, String?) {
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            return (String(word[..<equals]), String(word[word.index(after: equals)...]))
        }
        if !word.hasPrefix("--"), word.count > 2 {
            let name = String(word.prefix(2))
            if withValue.contains(name) || ownWithValue.contains(name) { return (name, String(word.dropFirst(2))) }
        }
        return (word, nil)
    }

    private static func take(_ name: String, _ value: String, into result: inout Translation, isOutput: (String) -> Bool) {
        switch name {
        case "-o", "--output":
            // mpg123's module names: `dummy` is tplayer's null device; others by tplayer's name.
            let driver = value == "dummy" ? "null" : value
            if isOutput(driver) {
                result.arguments += ["-o", driver]
            } else {
                result.notes.append("-R: -o \(value): not an output tplayer has (see tplayer --list-outputs); the default is used")
            }
        case "-w", "--write", "--wav", "--fifo":
            result.arguments += [name == "--wav" ? "-w" : name, value]
        case "-a", "--audiodevice":
            result.device = value
        case "-f", "--scale":
            guard let scale = Double(value), scale.isFinite else { return result.notes.append("-R: \(name) \(value): not a number; ignored") }
            result.volume = Int((min(max(scale, 0), 32768) / 32768 * 100).rounded())
        case "-g", "--gain":
            guard let gain = Double(value), gain.isFinite else { return result.notes.append("-R: \(name) \(value): not a number; ignored") }
            result.volume = Int(min(max(gain, 0), 100).rounded())
        case "-k", "--skip":
            // mpg123 -R loads every track at its start whatever -k says; so does tplayer.
            result.notes.append("-R: \(name) \(value): as in mpg123 -R, every track loads at its start; ignored")
        default:
            result.notes.append("-R: mpg123's \(name) \(value) has no meaning for tplayer; ignored")
        }
    }
}
