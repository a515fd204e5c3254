/// The one gate between text tplayer did not write (tags, file names, playlist titles, the
/// paths inside messages) and every door it leaves by: the terminal and stderr, `-R`'s
/// replies, MPRIS's properties.
///
/// A terminal acts on some characters instead of showing them: `ESC ]2;…BEL` retitles the
/// window, `ESC [2J` clears the screen, a line break splits a one-line message or a reply, a
/// right-to-left override makes `evil.mp3` look like `3pm.live`. Whatever reads `-R` or MPRIS
/// (a front-end, `playerctl` in a terminal) shows what it gets, so those characters never leave
/// as they came: `shown` writes them as escapes (for people), `flattened` as spaces (for a
/// protocol's one-line field).
public enum UntrustedText {
    /// Whether a terminal might act on `scalar` rather than show it, or a reader of a line take
    /// it for a line's end.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates, and the Arabic letter mark: they
        // reorder what follows them on the line.
        case 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        // The line and paragraph separators: a line's end to many readers.
        case 0x2028, 0x2029: true
        default: false
        }
    }

    /// `text` with every control character shown as an escape: `\e` for ESC, `\n`, `\r`, `\t`,
    /// `\xHH` for the other C0 controls and DEL, `\u{HH}` for the C1 controls, the bidirectional
    /// overrides and isolates and the line separators.
    public static func shown(_ text: String) -> String {
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

    /// `text` made one plain line: every control character becomes a space.
    public static func flattened(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}
