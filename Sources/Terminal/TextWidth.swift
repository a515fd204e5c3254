/// How many terminal columns text takes: what fitting a line to the terminal is measured in.
///
/// Characters (grapheme clusters) are counted as terminals draw them: East Asian wide and
/// fullwidth characters and emoji take two columns, combining marks and other zero-width
/// scalars none, everything else one. Controls never reach here (`TerminalText` shows them
/// as escapes first).
public enum TextWidth {
    /// The columns `text` takes.
    public static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    /// The columns one character takes: 0, 1 or 2.
    public static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return 1 }
        // An emoji shown as one (by default, or asked for with VS16), or a sequence of them.
        if first.properties.isEmojiPresentation
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}"))
            || scalars.contains(where: { (0x1F1E6...0x1F1FF).contains($0.value) }) {  // a flag
            return 2
        }
        if isWide(first.value) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    /// `text` cut to at most `limit` columns, ending in `…` when it was cut. Never splits a
    /// character, so the result may be a column short when a wide one does not fit.
    public static func fit(_ text: String, _ limit: Int) -> String {
        guard limit > 0 else { return "" }
        guard columns(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = columns(character)
            if used + width > limit - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(width - columns(text), 0))
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value)  // ZWSP, Hangul medial jamo
        }
    }

    /// East Asian Wide and Fullwidth (Unicode's EastAsianWidth.txt, W and F), in ranges.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F260...0x1F265,
             0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
