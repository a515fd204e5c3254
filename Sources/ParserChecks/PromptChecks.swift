import PlayerCore
import Terminal

extension ParserChecks {
    /// The prompt line (`l`, and `/`, `l`, `w` in the list view) under any keys: what a person
    /// types, pastes and edits, with the characters that join the one before (combining marks,
    /// skin tones, a flag's letters, Hangul jamo, ZWJ sequences), wide ones and controls. No key
    /// traps, the cursor stays within the text, the line drawn fits its width with the cursor
    /// in it, and Enter gives the text shown.
    ///
    /// The bytes are a little program: each operation takes a byte (and what it names the next
    /// ones): a character from a pool, an editing key, a paste of many characters, or raw bytes
    /// through the terminal's key decoder.
    public static func promptLine(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        var reader = ByteReader(bytes)
        var prompt = PromptLine(label: "Load: ", history: ["earlier/song.mp3", "e\u{301}te\u{301}.flac"])
        var decoder = KeyDecoder()
        var typed = 0
        func check(_ when: String) {
            if prompt.cursor > prompt.text.unicodeScalars.count {
                broken.append("\(when): the cursor at \(prompt.cursor), past \(prompt.text.unicodeScalars.count) scalars")
            }
            for width in [1, 3, 4, 9, 80] {
                let shown = prompt.rendered(width: width)
                if TextWidth.columns(shown) > width { broken.append("\(when): \(TextWidth.columns(shown)) columns drawn in \(width)") }
                // Scalars: the cursor's _ may join a mark that follows it (a lone accent at the start).
                if width >= 4, !shown.unicodeScalars.contains("_") { broken.append("\(when): the cursor is not drawn in \(width) columns: \(shown.debugDescription)") }
            }
        }
        while !reader.rest.isEmpty, typed < 8_000 {
            let operation = reader.byte()
            switch operation % 16 {
            case 0..<6:
                _ = prompt.apply(.character(promptCharacter(reader.byte(), reader.byte())))
                typed += 1
            case 6: _ = prompt.apply(.backspace)
            case 7: _ = prompt.apply(.delete)
            case 8: _ = prompt.apply(.left)
            case 9: _ = prompt.apply(.right)
            case 10: _ = prompt.apply(.home)
            case 11: _ = prompt.apply(.end)
            case 12: _ = prompt.apply(.up)
            case 13: _ = prompt.apply(.down)
            case 14:
                // A paste: one or a few characters again and again.
                let count = Int(reader.byte()) * 4 + 1
                let pattern = (0..<Int(reader.byte() % 4 + 1)).map { _ in promptCharacter(reader.byte(), reader.byte()) }
                for index in 0..<count { _ = prompt.apply(.character(pattern[index % pattern.count])) }
                typed += count
                check("after a paste of \(count)")
            default:
                let raw = (0..<Int(reader.byte() % 32)).map { _ in reader.byte() }
                for key in decoder.decode(raw) where key != .enter && key != .escape && key != .tab {
                    _ = prompt.apply(key)
                }
                typed += raw.count
            }
        }
        check("at the end")
        let text = prompt.text
        if prompt.apply(.enter) != .submitted(text) { broken.append("Enter did not give the text shown") }
        return broken
    }

    /// A character from the pool `pool` names: ASCII, combining marks, skin tones, regional
    /// indicators, Hangul jamo (leading, vowel, trailing), ZWJ and VS16, CJK and emoji, controls
    /// and C1, Latin-1 and anything at all.
    static func promptCharacter(_ pool: UInt8, _ pick: UInt8) -> Character {
        let value: UInt32
        switch pool % 10 {
        case 0: value = 0x20 + UInt32(pick % 95)
        case 1: value = 0x300 + UInt32(pick % 0x70)
        case 2: value = 0x1F3FB + UInt32(pick % 5)
        case 3: value = 0x1F1E6 + UInt32(pick % 26)
        case 4: value = [0x1100, 0x1161, 0x11A8, 0x1112, 0x1175, 0x11AB][Int(pick % 6)]
        case 5: value = [0x200D, 0xFE0F, 0x200B, 0x202E, 0x20E3, 0x1F468, 0x1F469, 0x2764][Int(pick % 8)]
        case 6: value = 0x4E00 + UInt32(pick) * 37
        case 7: value = 0x1F300 + UInt32(pick)
        case 8: value = UInt32(pick % 0x20) + (pick & 0x80 != 0 ? 0x80 : 0)
        default: value = 0xA0 + UInt32(pick) * 131
        }
        return Character(Unicode.Scalar(value) ?? "?")
    }
}
