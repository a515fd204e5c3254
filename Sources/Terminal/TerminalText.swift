/// The one gate between text tplayer did not write and the terminal.
///
/// Tags, file names, playlist titles and the paths inside error messages come from files, and
/// a terminal acts on some characters instead of showing them: `ESC ]2;…BEL` retitles the
/// window, `ESC [2J` clears the screen, a newline splits a one-line message, a right-to-left
/// override makes `evil.mp3` look like `3pm.live`. Every line tplayer writes to a terminal or to
/// stderr/stdout passes through `safe`, which shows those characters visibly and interprets none.
public enum TerminalText {
    /// `text` with every control character shown as an escape: `\e` for ESC, `\n`, `\r`, `\t`,
    /// `\xHH` for the other C0 controls and DEL, `\u{HH}` for the C1 controls and the
    /// bidirectional overrides and isolates.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x1B: shown += "\\e"
            case 0x0A: shown += "\\n"
            case 0x0D: shown += "\\r"
            case 0x09: shown += "\\t"
            case ..<0x80: shown += "\\x" + hex(scalar.value, digits: 2)
            default: shown += "\\u{" + hex(scalar.value, digits: 2) + "}"
            }
        }
        return shown
    }

    /// Whether a terminal might act on `scalar` rather than show it.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates, and the Arabic letter mark: they
        // reorder what follows them on the line.
        case 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}
