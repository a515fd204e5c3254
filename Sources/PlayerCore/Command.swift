/// What a person (a key) or a script asks the player to do.
public enum Command: Equatable, Sendable, CustomStringConvertible {
    case play
    case stop
    case toggle
    case next
    case previous
    /// Play what this path names (a song, folder or playlist) now; the list goes on after it.
    case load(Path)
    case quit
    case toggleRepeat
    case toggleShuffle
    case setRepeat(Bool)
    case setShuffle(Bool)
    case seek(SeekTarget)
    /// Software volume in percent, 0–100.
    case volume(Int)
    /// Ask for a path to load (the terminal shows a prompt).
    case promptLoad
    /// Show the key list.
    case help

    /// The command as a script writes it (`repeat on`, `seek +5.0s`).
    public var description: String {
        switch self {
        case .play: "play"
        case .stop: "stop"
        case .toggle: "toggle"
        case .next: "next"
        case .previous: "previous"
        case .load(let path): "load \(path)"
        case .quit: "quit"
        case .toggleRepeat: "repeat toggle"
        case .toggleShuffle: "shuffle toggle"
        case .setRepeat(let on): "repeat " + (on ? "on" : "off")
        case .setShuffle(let on): "shuffle " + (on ? "on" : "off")
        case .seek(let target): "seek \(target)"
        case .volume(let percent): "volume \(percent)%"
        case .promptLoad: "prompt"
        case .help: "help"
        }
    }
}

/// The key map: which key means which command, with the text `h` shows.
public enum KeyBindings {
    public struct Binding: Sendable {
        public let keys: [Character]
        public let command: Command
        public let help: String
    }

    public static let all: [Binding] = [
        Binding(keys: [" "], command: .toggle, help: "play / stop"),
        Binding(keys: ["p"], command: .play, help: "play"),
        Binding(keys: ["s"], command: .stop, help: "stop (keeps the position)"),
        Binding(keys: ["n"], command: .next, help: "next input"),
        Binding(keys: ["b"], command: .previous, help: "previous input"),
        Binding(keys: ["r"], command: .toggleRepeat, help: "repeat the list on / off"),
        Binding(keys: ["z"], command: .toggleShuffle, help: "shuffle on / off"),
        Binding(keys: ["l"], command: .promptLoad, help: "load a song, folder or playlist (Enter plays, Esc cancels)"),
        Binding(keys: ["h", "?"], command: .help, help: "show these keys"),
        Binding(keys: ["q"], command: .quit, help: "quit"),
    ]

    /// The command bound to `key`, if any.
    public static func command(for key: Character) -> Command? {
        all.first { $0.keys.contains(key) }?.command
    }

    /// One line per binding, e.g. `  space  play / stop`.
    public static var helpLines: [String] {
        all.map { binding in
            let keys = binding.keys.map { $0 == " " ? "space" : String($0) }.joined(separator: " ")
            return "  " + keys.padding(toLength: 6) + " " + binding.help
        }
    }
}

extension String {
    /// `self` padded with spaces to at least `length` characters.
    public func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
