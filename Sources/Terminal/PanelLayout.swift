/// Lays lines out in columns, as `ls` and a shell's completion list do, so that a panel fits the
/// rows a terminal has: the help at 12 rows, forty completions of a path.
public enum PanelLayout {
    /// The narrowest a column is made before the layout gives up on columns and says how many
    /// are left out instead.
    static let narrowest = 12
    static let gap = 2

    /// `items` in at most `rows` lines of at most `width - 1` columns, filled column by column.
    /// `packed`: as many columns as the widest item allows (a completion list); otherwise the
    /// fewest that fit `rows` (the help: one column when it fits). Items are cut with `…` where
    /// the columns are narrower than they are; what does not fit at all is counted on a last
    /// line (`… and 12 more`).
    public static func lines(_ items: [String], width: Int, rows: Int, packed: Bool) -> [String] {
        guard !items.isEmpty else { return [] }
        let room = max(width - 1, narrowest)
        let rows = max(rows, 1)
        let widest = items.map { TextWidth.columns($0) }.max() ?? 0
        let fewest = (items.count + rows - 1) / rows
        // Packed names are never cut to make more columns: the ones that do not fit are counted.
        var count = min(packed ? max((room + gap) / (widest + gap), 1) : fewest, items.count)
        var columnWidth = count == 1 ? room + gap : min(widest + gap, (room + gap) / count)
        if count > 1, columnWidth - gap < narrowest {
            count = max((room + gap) / (narrowest + gap), 1)
            columnWidth = count == 1 ? room + gap : (room + gap) / count
        }
        var perColumn = (items.count + count - 1) / count
        var hidden = 0
        if perColumn > rows {
            perColumn = max(rows - 1, 1)
            hidden = max(items.count - perColumn * count, 0)
        }
        var lines: [String] = []
        for row in 0..<perColumn {
            let cells = (0..<count).map { $0 * perColumn + row }.filter { $0 < items.count }
                .map { TextWidth.fit(items[$0], columnWidth - gap) }
            guard let last = cells.last else { continue }
            lines.append(cells.dropLast().map { TextWidth.pad($0, to: columnWidth) }.joined() + last)
        }
        if hidden > 0 { lines.append("… and \(hidden) more") }
        return lines
    }
}
