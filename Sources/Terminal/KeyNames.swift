/// How keys are named: in the help, and in a configuration file's `bind` and `unbind`.
extension KeyBindings {
    /// How a key is written in the help and in a configuration file: `space`, `↑`, `Ctrl-N`,
    /// `Alt-x`, `F5`, `Shift-↑`.
    public static func name(_ key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .alt(let character): "Alt-" + name(.character(character))
        case .function(let number): "F\(number)"
        case .left: "←"
        case .right: "→"
        case .up: "↑"
        case .down: "↓"
        case .tab: "Tab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .delete: "Delete"
        case .backspace: "Backspace"
        case .modified(let base, let modifiers):
            (modifiers.contains(.control) ? "Ctrl-" : "") + (modifiers.contains(.alt) ? "Alt-" : "")
                + (modifiers.contains(.shift) ? "Shift-" : "") + name(base)
        case .other: "?"
        }
    }

    /// The key a configuration file names: one character, or a name in any case: `space`,
    /// `tab`, `enter`, `esc`, `up`, `down`, `left`, `right`, `home`, `end`, `pgup`, `pgdn`,
    /// `delete`, `backspace`, `f1` … `f12`; Ctrl and a letter as `ctrl-n`, `ctrl+n`, `c-n` or
    /// `^N` (cmus's, mpv's, Emacs's ways); Alt and a character as `alt-x`, `alt+x`, `m-x` or
    /// `meta-x`; and Shift, Alt or Ctrl with an arrow, Home, End, PgUp, PgDn, Delete or a
    /// function key: `shift-up`, `ctrl+left`, `s-f5`.
    public static func key(named text: String) -> Key? {
        if text.count == 1, let character = text.first, !character.isWhitespace,
           !(character.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false),
           !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .character(character)
        }
        let lower = text.lowercased()
        if let key = keyNames[lower] { return key }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number) { return .function(number) }
        // `^N`: Ctrl-N as cmus and Emacs write it.
        if text.count == 2, text.hasPrefix("^"), let letter = controlLetter(text.dropFirst()) { return .control(letter) }
        // The modifiers before the key, each ended by `-` or `+`.
        var rest = Substring(text)
        var modifiers: Key.Modifiers = []
        while let cut = rest.dropFirst().firstIndex(where: { $0 == "-" || $0 == "+" }) {
            guard let modifier = modifierNames[rest[..<cut].lowercased()] else { return nil }
            modifiers.insert(modifier)
            rest = rest[rest.index(after: cut)...]
        }
        guard !modifiers.isEmpty, !rest.isEmpty else { return nil }
        if modifiers == .control, let letter = controlLetter(rest) { return .control(letter) }
        if modifiers == .alt, rest.count == 1, let character = rest.first, case .character? = key(named: String(character)) {
            return .alt(character)
        }
        guard let base = arrows[String(rest)] ?? key(named: String(rest)), isModifiable(base) else { return nil }
        return .modified(base, modifiers)
    }

    /// Why `text` names no key, where it looks like one a terminal keeps for itself; `nil`
    /// for any other.
    public static func reservedKey(_ text: String) -> String? {
        let lower = text.lowercased()
        let letter = ["ctrl-", "ctrl+", "c-", "^"].first { lower.hasPrefix($0) }.map { String(lower.dropFirst($0.count)) }
        switch letter {
        case "c"?: return "Ctrl-C is the terminal's interrupt (it quits, or cancels a prompt)"
        case "z"?: return "Ctrl-Z is the terminal's suspend"
        case "\\"?: return "Ctrl-\\ is the terminal's quit signal"
        case "h"?: return "Ctrl-H is Backspace"
        case "i"?: return "Ctrl-I is Tab"
        case "j"?, "m"?: return "Ctrl-\(letter?.uppercased() ?? "") is Enter"
        default: return nil
        }
    }

    /// The letter of a Ctrl-letter key a terminal sends as a key (not Backspace, Tab, Enter or
    /// a signal).
    private static func controlLetter(_ text: Substring) -> Character? {
        guard text.count == 1, let letter = text.lowercased().first, letter.isASCII, letter.isLetter,
              !"chijmz".contains(letter) else { return nil }
        return letter
    }

    /// The keys a modifier may come with: xterm says Shift, Alt and Ctrl for these.
    private static func isModifiable(_ key: Key) -> Bool {
        switch key {
        case .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .delete, .function: true
        case .character, .control, .alt, .enter, .escape, .backspace, .tab, .modified, .other: false
        }
    }

    public static let keyNames: [String: Key] = [
        "space": .character(" "), "tab": .tab, "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape,
        "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "delete": .delete, "del": .delete, "backspace": .backspace,
    ]

    /// The arrows as the help writes them, read back after a modifier (`Ctrl-→`).
    static let arrows: [String: Key] = ["←": .left, "→": .right, "↑": .up, "↓": .down]

    static let modifierNames: [String: Key.Modifiers] = [
        "ctrl": .control, "control": .control, "c": .control, "alt": .alt, "meta": .alt, "m": .alt, "a": .alt,
        "shift": .shift, "s": .shift,
    ]
}
