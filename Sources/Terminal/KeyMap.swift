import PlayerCore

/// The key map: which key means which command, with the text the help shows. The main loop,
/// the `h` help and the README's key table all come from it.
public enum KeyMap {
    public struct Binding: Sendable {
        public let keys: [Key]
        public let command: Command
        public let help: String
    }

    public static let all: [Binding] = {
        var bindings = [
            Binding(keys: [.character(" ")], command: .toggle, help: "play / pause"),
            Binding(keys: [.character("p")], command: .play, help: "play"),
            Binding(keys: [.character("s")], command: .stop, help: "pause (the place is kept)"),
            Binding(keys: [.right], command: .seek(.by(.seconds(5))), help: "5 s forward (past the end: the next song)"),
            Binding(keys: [.left], command: .seek(.by(.seconds(-5))), help: "5 s back"),
            Binding(keys: [.up], command: .seek(.by(.seconds(60))), help: "a minute forward"),
            Binding(keys: [.down], command: .seek(.by(.seconds(-60))), help: "a minute back"),
            Binding(keys: [.character("g")], command: .seek(.to(.zero)), help: "back to the start of the song"),
        ]
        for digit in 0...9 {
            bindings.append(Binding(keys: [.character(Character("\(digit)"))],
                                    command: .seek(.fraction(permyriad: Int64(digit) * 1000)),
                                    help: "jump to \(digit * 10) % of the song"))
        }
        bindings += [
            Binding(keys: [.character("n")], command: .next, help: "next in the list"),
            Binding(keys: [.character("b")], command: .previous, help: "previous in the list"),
            Binding(keys: [.character("+"), .character("=")], command: .changeVolume(by: 5), help: "volume up 5 %"),
            Binding(keys: [.character("-")], command: .changeVolume(by: -5), help: "volume down 5 %"),
            Binding(keys: [.character("m")], command: .toggleMute, help: "mute on / off"),
            Binding(keys: [.character("r")], command: .toggleRepeat, help: "repeat the list on / off"),
            Binding(keys: [.character("z")], command: .toggleShuffle, help: "shuffle on / off"),
            Binding(keys: [.character("i")], command: .info, help: "the song's details (tags, stream, length, path)"),
            Binding(keys: [.character("l")], command: .promptLoad,
                    help: "load a song, folder or playlist (Tab completes, Esc cancels)"),
            Binding(keys: [.tab, .character("v")], command: .listView,
                    help: "the list view, full screen (Tab, v or Esc goes back)"),
            Binding(keys: [.character("h"), .character("?")], command: .help, help: "show these keys"),
            Binding(keys: [.character("q")], command: .quit, help: "quit"),
        ]
        return bindings
    }()

    /// The command bound to `key`, if any.
    public static func command(for key: Key) -> Command? {
        all.first { $0.keys.contains(key) }?.command
    }

    /// How a key is written in the help.
    static func name(_ key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .left: "←"
        case .right: "→"
        case .up: "↑"
        case .down: "↓"
        case .tab: "Tab"
        default: "?"
        }
    }

    /// Every key: the bindings, then the list view's own under their heading (`--help`, the
    /// README's table).
    private static var rows: [(keys: String, help: String)] {
        bindingRows + [("", "In the list view:")] + listRows
    }

    /// The bindings; the digits share one line in the help and the table.
    private static var bindingRows: [(keys: String, help: String)] {
        var rows: [(String, String)] = []
        for binding in all {
            if case .seek(.fraction(let permyriad)) = binding.command {
                if permyriad == 0 { rows.append(("0 … 9", "jump to 0 %, 10 %, … 90 % of the song")) }
                continue
            }
            rows.append((binding.keys.map(name).joined(separator: " "), binding.help))
        }
        return rows
    }

    /// The list view's own keys (`ListView`), shown after the rest.
    static let listRows: [(keys: String, help: String)] = [
        ("↑ ↓", "move the cursor (in the list view arrows move, they do not seek)"),
        ("PgUp PgDn", "a page up, down"),
        ("Home End", "the first, the last entry"),
        ("Enter", "play the entry under the cursor"),
        ("/", "search as you type (title, artist, album, path; any case or accent)"),
        ("n N", "the next, the previous match"),
        ("d Delete", "take the entry out of the list (the playing one: the next plays)"),
        ("K J", "move the entry up, down"),
        ("l", "add a song, folder or playlist after the entry (Tab completes)"),
        ("w", "save the list as a new .m3u8 playlist (never over a file)"),
    ]

    /// One line per binding, e.g. `  space   play / pause`.
    public static var helpLines: [String] { lines(rows) }

    /// What `h` shows: outside the list view, the keys that work there; in it, its own keys
    /// first, then the rest under their heading.
    public static func helpLines(inListView: Bool) -> [String] {
        inListView ? lines(listRows + [("", "Everywhere:")] + bindingRows) : lines(bindingRows)
    }

    private static func lines(_ rows: [(keys: String, help: String)]) -> [String] {
        rows.map { $0.keys.isEmpty ? $0.help : "  " + $0.keys.padding(toLength: 9) + " " + $0.help }
    }

    /// The bindings as a Markdown table: what the README shows.
    public static var markdownTable: String {
        (["| key | does |", "| --- | --- |"] + rows.map { $0.keys.isEmpty ? "| | *\($0.help)* |" : "| \($0.keys) | \($0.help) |" })
            .joined(separator: "\n") + "\n"
    }
}
