import Files
import PlayerCore
import Terminal

/// What the configuration file sets (`~/.config/tplayer/config`). What it leaves out is
/// tplayer's default; the command line wins over it.
public struct Settings: Equatable, Sendable {
    /// The live output driver (`-o`): `pulse`, `ao`, `alsa`…
    public var output: String?
    /// The device and Snapcast's server (`Settings+Outputs`).
    public var outputSetup = OutputSetup()
    /// The volume a run starts at, 0–100 (a resumed session keeps its own).
    public var volume: Int?
    public var steps = Steps()
    public var replayGain: ReplayGainMode?
    public var replayGainPreamp: Double?
    /// Colours on the status line and in the list view: `false` never, `true` where the
    /// terminal has them and NO_COLOR is unset (the default).
    public var colours = true
    /// Whether `tplayer` with no inputs in a terminal picks up the saved session.
    public var resume = true
    public var bindings = KeyBindings.standard
    /// The library's folders (`library = PATH`, one line each), as written: `~/` is the home
    /// folder's. None: the XDG music folder, else ~/Music.
    public var libraryFolders: [String] = []
    /// The view open at start (`view = library` or `now-playing`; `view = status`, the default:
    /// the status line).
    public var view = StartView.status
    /// How the now-playing view draws the cover (`cover = auto`, the default: what the terminal
    /// says it has; `symbols`, `kitty`, `sixel`, `iterm`, or `off`).
    public var cover: CoverChoice = .auto
    /// The now-playing view's spectrum (`spectrum = on`, or its number of bars; off by default)
    /// and its glyphs (`spectrum-style = blocks` or `ascii`).
    public var spectrum: SpectrumStyle?
    public var spectrumGlyphs = SpectrumStyle.Glyphs.blocks

    public enum StartView: String, Equatable, Sendable, CaseIterable {
        case status, library
        case nowPlaying = "now-playing"
    }

    public enum CoverChoice: String, Equatable, Sendable, CaseIterable {
        case auto, symbols, kitty, sixel, iterm, off
    }

    /// Album mode at start (`album-mode = on`): the list stops at the end of each album.
    public var albumMode = false
    /// Shuffle at start (`shuffle = songs`, `albums` or `off`; `on`: songs); `nil`: not set.
    public var shuffle: Shuffle?
    /// The library's sorted view's order (`sort = albumartist date album disc track`).
    public var librarySort = LibrarySort.albumOrder
    /// Where songs heard are logged (`listen-log = PATH`, `.scrobbler.log`'s format); `nil`: none.
    public var listenLog: String?
    /// The graphic equaliser's 10 bands in dB, 31 Hz to 16 kHz (`equalizer = 0 0 2 …` or
    /// `equalizer-preset = rock`): on at start when set; `E` turns it on and off.
    public var equalizer: [Double]?
    /// How many times as fast songs play at their own pitch (`speed = 1.25`), 0.25 to 4.
    public var speed: Double?
    /// `crossfade = 5` (seconds, 0 to 60; 0: off) and a skip's fade while on (`crossfade-skip = 1`).
    public var crossfade: Double?, skipFade: Double?
    /// How many times in a row a dropped internet stream is connected to again before it is
    /// given up (`reconnect = 10`, 0 to 100; 0: never).
    public var reconnects: Int?
    /// Each line of a song's `.lrc` said as it is sung (`lyrics = on`; default off).
    public var lyrics = false
    /// Where `--mpd` alone serves MPD's protocol (`mpd = 127.0.0.1:6600`, one line each).
    public var mpd: [SocketAddress] = []
    /// The passwords MPD's clients give (`mpd-password = SECRET[@read,add,control,admin,player]`,
    /// one line each); with any, a client without one may do nothing.
    public var mpdPasswords: [MpdPassword] = []
    /// The most MPD clients at once (`mpd-max-connections`, as MPD's `max_connections`).
    public var mpdMaxConnections = 100

    public init() {}

    /// The settings and each line's problem.
    public struct Parsed: Sendable {
        public var settings: Settings
        public var problems: [Diagnostic]
    }

    /// The most problems said for one file (then one line says how many more there are).
    public static let maxProblems = 20

    /// Every setting's name, as the file writes it.
    public static let names = ["output", "volume", "volume-step", "seek-step", "long-seek-step", "replaygain",
                               "replaygain-preamp", "colours", "colors", "resume", "keys", "library", "listen-log", "view", "album-mode", "shuffle", "sort",
                               "equalizer", "equalizer-preset", "speed", "crossfade", "crossfade-skip", "reconnect", "lyrics", "cover", "spectrum", "spectrum-style",
                               "mpd", "mpd-password", "mpd-max-connections"] + outputNames

    /// Reads a configuration file: one setting a line (`volume = 80`), `bind KEY ACTION`,
    /// `unbind KEY`, `#` comments and blank lines. A line that cannot be read is a located
    /// problem (`config:12:6: unknown action "nxt"; did you mean "next"?`) and the rest is
    /// read: a typo never costs the other settings. `keys = PRESET` starts the bindings
    /// wherever it is; `bind` and `unbind` change them in the order they come. `outputs`: the
    /// output drivers there are, to check `output =` against (asked only when it is there).
    public static func parse(_ bytes: [UInt8], file: String, outputs: () -> [String]) -> Parsed {
        var settings = Settings()
        var problems: [Diagnostic] = []
        var preset: KeyBindings?
        var changes: [(key: Key, action: Action?)] = []
        LineSplitter.forEachLine(in: bytes) { line in
            let at = { (column: Int) in SourceLocation(file: file, line: line.number, column: column) }
            if let why = line.unreadable { return problems.append(Diagnostic(at(1), why)) }
            guard var text = String(validating: line.bytes, as: UTF8.self) else {
                return problems.append(Diagnostic(at(1), "not UTF-8 text; write the line again in UTF-8"))
            }
            var words = Self.words(text)
            // A word starting with `#` starts a comment, but a bound key: `bind # quit`.
            if let comment = words.indices.first(where: { words[$0].text.hasPrefix("#") && !($0 == 1 && ["bind", "unbind"].contains(words[0].text)) }) {
                text = String(text.prefix(words[comment].column - 1))
                words = Array(words[..<comment])
            }
            guard let first = words.first else { return }
            switch first.text {
            case "bind", "unbind":
                let unbinding = first.text == "unbind"
                guard words.count >= 2 else {
                    return problems.append(Diagnostic(at(first.column), unbinding ? "unbind needs a key: unbind KEY" : "bind needs a key and an action: bind KEY ACTION"))
                }
                guard let key = KeyBindings.key(named: words[1].text) else {
                    if let reserved = KeyBindings.reservedKey(words[1].text) {
                        return problems.append(Diagnostic(at(words[1].column), "\(quoted(words[1].text)): \(reserved); bind another key"))
                    }
                    return problems.append(Diagnostic(at(words[1].column), "unknown key \(quoted(words[1].text))"
                        + suggestion(words[1].text, among: Array(KeyBindings.keyNames.keys))
                        + "; a key is one character or a name such as space, enter, up, pgdn, f5, ctrl-n, alt-x, shift-up"))
                }
                if unbinding {
                    if words.count > 2 { return problems.append(Diagnostic(at(words[2].column), "unbind takes one key")) }
                    return changes.append((key, nil))
                }
                guard words.count >= 3 else {
                    return problems.append(Diagnostic(at(words[1].column), "bind \(words[1].text): which action? e.g. bind \(words[1].text) next"))
                }
                let name = words[2...].map(\.text).joined(separator: " ")
                guard let action = Action.named(name) else {
                    return problems.append(Diagnostic(at(words[2].column), "unknown action \(quoted(name))"
                        + suggestion(name, among: Action.plain.map(\.name) + ["jump 50%"])))
                }
                changes.append((key, action))
            default:
                guard let equals = text.firstIndex(of: "=") else {
                    return problems.append(Diagnostic(at(first.column), "cannot read this line; write \"setting = value\", \"bind KEY ACTION\" or \"unbind KEY\""))
                }
                let name = trimmed(text[..<equals])
                let value = trimmed(text[text.index(after: equals)...])
                let valueColumn = text[..<equals].count + 2 + (text[text.index(after: equals)...].prefix { $0 == " " || $0 == "\t" }.count)
                guard Self.names.contains(name) else {
                    return problems.append(Diagnostic(at(first.column), "unknown setting \(quoted(name))" + suggestion(name, among: Self.names)))
                }
                if let problem = settings.set(name, to: value, outputs: outputs, preset: &preset) {
                    problems.append(Diagnostic(at(valueColumn), "\(name) = \(Self.shown(Self.withoutSecret(name, value))): \(problem)"))
                }
            }
        }
        var bindings = preset ?? .standard
        for change in changes {
            if let action = change.action { bindings.bind(change.key, to: action) } else { bindings.unbind(change.key) }
        }
        // No key left to quit with: said, once; Ctrl-C still quits (and the help says so).
        if bindings.firstKey(for: .quit) == nil {
            problems.append(Diagnostic(SourceLocation(file: file), "no key quits now; Ctrl-C still does (bind q quit to have one)"))
        }
        settings.bindings = bindings
        if problems.count > maxProblems {
            let more = problems.count - maxProblems
            problems = Array(problems.prefix(maxProblems)) + [Diagnostic(SourceLocation(file: file), "\(more) more problems not shown")]
        }
        return Parsed(settings: settings, problems: problems)
    }

    /// Sets `name` from `value`; why it cannot be, when it cannot.
    private mutating func set(_ name: String, to value: String, outputs: () -> [String], preset: inout KeyBindings?) -> String? {
        switch name {
        case "output":
            // `pulse` or `pulse, snapcast`: the first keeps the time, the others follow it.
            let names = value.split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed($0) }
            let known = outputs()
            if let unknown = names.first(where: { !known.contains($0) }) {
                return "no such output here" + (unknown == value ? "" : ": \"\(unknown)\"") + Self.suggestion(unknown, among: known)
                    + "; tplayer --list-outputs lists them"
            }
            guard Set(names).count == names.count else { return "each output once" }
            if let follower = names.dropFirst().first(where: { !Self.followers.contains($0) }) {
                return "\(follower) cannot play beside \(names[0]): only snapcast and icecast follow the first output (a sound device comes first)"
            }
            output = names[0]
            outputSetup.also = Array(names.dropFirst())
        case "volume":
            guard let percent = Int(value.hasSuffix("%") ? String(value.dropLast()) : value), (0...100).contains(percent) else {
                return "give a volume from 0 to 100"
            }
            volume = percent
        case "volume-step":
            guard let step = Int(value.hasSuffix("%") ? String(value.dropLast()) : value), (1...100).contains(step) else {
                return "give a step from 1 to 100 (percentage points)"
            }
            steps.volume = step
        case "seek-step", "long-seek-step":
            let number = value.hasSuffix("s") ? String(value.dropLast()) : value
            guard let seconds = Double(Self.trimmed(number[...])), seconds.isFinite, (0.1...3600).contains(seconds) else {
                return "give seconds from 0.1 to 3600, e.g. 5 or 2.5"
            }
            if name == "seek-step" { steps.seek = seconds } else { steps.longSeek = seconds }
        case "replaygain":
            guard let mode = ReplayGainMode(rawValue: value) else {
                return "give off, track, album or auto" + Self.suggestion(value, among: ReplayGainMode.allCases.map(\.rawValue))
            }
            replayGain = mode
        case "replaygain-preamp":
            let number = value.lowercased().hasSuffix("db") ? String(value.dropLast(2)) : value
            guard let decibels = Double(Self.trimmed(number[...])), decibels.isFinite, (-15...15).contains(decibels) else {
                return "give dB from -15 to 15"
            }
            replayGainPreamp = decibels
        case "colours", "colors", "resume", "album-mode", "lyrics":
            guard let on = Self.boolean(value) else { return "give on or off" }
            switch name {
            case "resume": resume = on
            case "album-mode": albumMode = on
            case "lyrics": lyrics = on
            default: colours = on
            }
        case "shuffle":
            guard let mode = Shuffle(words: value) else { return "give songs, albums or off" + Self.suggestion(value, among: Shuffle.allCases.map(\.rawValue)) }
            shuffle = mode
        case "keys":
            guard let chosen = KeyBindings.preset(value) else {
                return "no such set of keys" + Self.suggestion(value, among: KeyBindings.presetNames) + "; give tplayer, mpv or cmus"
            }
            preset = chosen
        case "library":
            guard !value.isEmpty else { return "give a folder of music, e.g. library = ~/Music" }
            libraryFolders.append(value)
        case "sort":
            switch LibrarySort.parse(value) {
            case .success(let sort): librarySort = sort
            case .failure(let error): return error.description
            }
        case "view":
            return Self.choose(value, into: &view)
        case "cover":
            return Self.choose(value, into: &cover)
        case "spectrum":
            let range = SpectrumStyle.barRange
            if value == "off" {
                spectrum = nil
            } else if value == "on" {
                spectrum = SpectrumStyle()
            } else if let bars = Int(value), range.contains(bars) {
                spectrum = SpectrumStyle(bars: bars)
            } else {
                return "give on, off or the number of bars (\(range.lowerBound) to \(range.upperBound)), e.g. spectrum = 32"
            }
        case "spectrum-style":
            return Self.choose(value, into: &spectrumGlyphs, separator: " or ")
        case "listen-log":
            guard !value.isEmpty else { return "give the log's path, e.g. listen-log = ~/.scrobbler.log" }
            listenLog = value == "off" ? nil : value
        case "equalizer":
            guard let gains = EqualizerPresets.parse(value) else {
                return "give 10 gains in dB from -12 to 12, 31 Hz to 16 kHz, e.g. equalizer = 4 3 2 0 0 0 0 1 2 3"
            }
            equalizer = gains
        case "equalizer-preset":
            guard let gains = EqualizerPresets.gains(value) else {
                let names = EqualizerPresets.names
                return "no such preset" + Self.suggestion(value, among: names) + "; give " + names.joined(separator: ", ")
            }
            equalizer = gains
        case "speed":
            guard let value = SpeedValue.parse(value) else { return SpeedValue.hint }
            speed = value
        case "crossfade", "crossfade-skip":
            guard let seconds = CrossfadeSetting.parse(value) else { return "give the seconds, 0 to 60 (e.g. 5 or 2.5; 0: off)" }
            if name == "crossfade" { crossfade = seconds } else { skipFade = seconds }
        case "reconnect":
            guard let tries = Int(value), (0...100).contains(tries) else { return "give the tries in a row, 0 to 100 (0: never)" }
            reconnects = tries
        case "mpd":
            switch SocketAddress.parse(value, defaultPort: 6600) {
            case .success(let address): mpd.append(address)
            case .failure(let problem): return problem.reason + ", e.g. mpd = 127.0.0.1:6600"
            }
        case "mpd-password":
            switch MpdPassword.parse(value) {
            case .success(let password): mpdPasswords.append(password)
            case .failure(let problem): return problem.reason
            }
        case "mpd-max-connections":
            guard let most = Int(value), (1...10_000).contains(most) else { return "give the most clients at once, 1 to 10000" }
            mpdMaxConnections = most
        default:
            if let outcome = setOutputSetting(name, to: value) { return outcome }
            return "unknown setting"
        }
        return nil
    }

    private static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "yes", "true", "1": true
        case "off", "no", "false", "0": false
        default: nil
        }
    }

    /// The line's words (split at spaces and tabs) with their 1-based columns.
    /// The words of a line, split at each space and tab scalar (a combining mark after a space
    /// is a word of its own, `bind ◌́ next`, not part of the space), and the column (in
    /// characters) where each starts.
    private static func words(_ text: String) -> [(text: String, column: Int)] {
        var found: [(text: String, scalar: Int)] = []
        var current = String.UnicodeScalarView()
        var start = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == " " || scalar == "\t" {
                if !current.isEmpty { found.append((String(current), start)) }
                current = String.UnicodeScalarView()
            } else {
                if current.isEmpty { start = offset }
                current.append(scalar)
            }
        }
        if !current.isEmpty { found.append((String(current), start)) }
        // Columns in characters: the character that holds each word's first scalar, in one pass.
        var words: [(String, Int)] = []
        var scalars = 0, column = 0, next = 0
        for character in text {
            let end = scalars + character.unicodeScalars.count
            while next < found.count, found[next].scalar < end {
                words.append((found[next].text, column + 1))
                next += 1
            }
            scalars = end
            column += 1
        }
        return words
    }

    /// A value as a message shows it: at most 60 characters (a 4 KB value was echoed whole).
    private static func shown(_ value: String) -> String {
        value.count > 60 ? String(value.prefix(59)) + "…" : value
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// `"nxt"`: what the user wrote, quoted and shown safely (a control shown as an escape).
    private static func quoted(_ text: String) -> String {
        "\"" + String(text.prefix(60)).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }

    /// Sets `choice` to the case named `value`; else the line saying which to give (their names
    /// joined by `separator`, and the nearest).
    private static func choose<Choice: CaseIterable & RawRepresentable>(_ value: String, into choice: inout Choice,
                                                                         separator: String = ", ") -> String? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        guard let chosen = Choice(rawValue: value) else { return "give " + names.joined(separator: separator) + suggestion(value, among: names) }
        choice = chosen
        return nil
    }

    /// `; did you mean "next"?` for the nearest of `names` within two edits, else nothing.
    static func suggestion(_ text: String, among names: [String]) -> String {
        let typed = Array(text.lowercased().prefix(40))
        let best = names.map { (name: $0, distance: distance(typed, Array($0))) }.min { $0.distance < $1.distance }
        guard let best, best.distance <= 2, best.distance < max(typed.count, 1) else { return "" }
        return "; did you mean \"\(best.name)\"?"
    }

    /// Levenshtein's distance between two short strings.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
