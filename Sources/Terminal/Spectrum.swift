import PlayerCore

/// The spectrum's bars drawn in rows of text: each bar a column (or a few) of eighths of a row
/// (`▁▂▃▄▅▆▇█`), or of `.:|` in ASCII, centred across the width.
enum Spectrum {
    static func lines(_ levels: [Double], style: SpectrumStyle, rows: Int, columns: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        let count = min(levels.count, columns)
        guard count > 0 else { return Array(repeating: StyledLine(), count: rows) }
        // Each bar as wide as the room gives, with a gap after it when there is room for one.
        let gap = count * 2 <= columns ? 1 : 0
        let width = max((columns + gap) / count - gap, 1)
        let used = count * (width + gap) - gap
        let indent = String(repeating: " ", count: max((columns - used) / 2, 0))
        let glyphs: [Character] = switch style.glyphs {
        case .blocks: [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        case .ascii: [" ", ".", ".", ".", ":", ":", ":", ":", "|"]
        }
        return (0..<rows).map { row in
            let floor = (rows - 1 - row) * 8
            var text = indent
            for bar in 0..<count {
                let level = levels[bar].isFinite ? min(max(levels[bar], 0), 1) : 0
                let eighths = Int((level * Double(rows * 8)).rounded())
                let glyph = glyphs[min(max(eighths - floor, 0), 8)]
                text += String(repeating: String(glyph), count: width)
                if gap > 0, bar + 1 < count { text += " " }
            }
            return StyledLine(text, .green)
        }
    }
}
