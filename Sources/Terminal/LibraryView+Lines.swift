import PlayerCore

extension LibraryView {
    /// The view as lines for a screen of `width` × `height`, `bottom` (the status line) last;
    /// only the rows on screen are read.
    public mutating func lines(_ browser: LibraryBrowser, width: Int, height: Int, bottom: StyledLine,
                               waiting: Bool = false) -> [StyledLine] {
        let rows = max(height - 2, 1)
        let first = settle(browser, rows: rows, waiting: waiting)
        let count = self.count
        cursor = min(cursor, max(count - 1, 0))
        if cursor < top { top = cursor }
        if cursor >= top + rows { top = cursor - rows + 1 }
        top = max(min(top, count - rows), 0)
        let room = width - 1
        let what = switch layout {
        case _ where isCounting: "counting…"
        case .tree: "\(count) \(count == 1 ? "row" : "rows") (artists, albums, songs)"
        case .sorted: "\(count) \(count == 1 ? "song" : "songs")"
        case .playlists: "\(playlistRows.playlists.count) \(playlistRows.playlists.count == 1 ? "playlist" : "playlists")"
        }
        let narrowed = filter.isEmpty ? "" : " matching \(TerminalText.safe(filter))"
        var title = StyledLine(TextWidth.fit(" tplayer library: \(what)\(narrowed)", room), .bold)
        if let message {
            title = StyledLine(TextWidth.fit(" " + TerminalText.safe(message), room), .yellow)
        } else {
            let keys = layout == .playlists ? "  ↑↓ Enter ← a e P w r D / t, Esc back" : "  ↑↓ Enter ← a e P / t o u 0-5, Esc back"
            if title.columns + TextWidth.columns(keys) <= room { title.append(keys, .dim) }
        }
        var lines = [title]
        let shown: [(item: LibraryItem, level: Int)]
        if let first {
            shown = first
        } else if layout != .playlists, let drawn = drawnRows, drawn.generation == generation, drawn.top == top, drawn.rows == rows {
            shown = drawn.items
        } else {
            shown = items(from: top, count: rows, browser)
        }
        drawnRows = isCounting ? nil : (generation, top, rows, shown)
        for (offset, shown) in shown.enumerated() {
            lines.append(Self.row(shown.item, level: shown.level, width: room, underCursor: top + offset == cursor))
        }
        if shown.isEmpty, top == 0, !isCounting {
            let empty = layout == .playlists ? "  No playlists yet: w saves the list as one; :playlist smart NAME / QUERY makes a smart one"
                : "  The library is empty: tplayer --scan ~/Music fills it"
            lines.append(StyledLine(filter.isEmpty ? empty : "  Nothing matches", .dim))
        }
        while lines.count < height - 1 { lines.append(StyledLine()) }
        let bottomLine = typing.map { StyledLine($0.rendered(width: room)) } ?? bottom
        return Array(lines.prefix(max(height - 1, 0))) + [bottomLine]
    }

    /// A row's right-hand column in `room` columns: a rating as its stars, or as `4★` where they
    /// do not fit, never cut (three stars of five shown said a wrong rating), then its detail.
    static func detail(_ item: LibraryItem, room: Int) -> String {
        let detail = TerminalText.safe(item.detail)
        guard item.rating > 0 else { return detail }
        let stars = String(repeating: "★", count: item.rating), short = "\(item.rating)★"
        let ways = detail.isEmpty ? [stars, short] : [stars + "  " + detail, short + "  " + detail, short]
        return ways.first { TextWidth.columns($0) <= room } ?? short
    }

    /// One row: indented by its depth, its name, and its detail on the right.
    static func row(_ item: LibraryItem, level: Int, width: Int, underCursor: Bool) -> StyledLine {
        let mark = underCursor ? ">" : " "
        let indent = String(repeating: "  ", count: level)
        let detail = Self.detail(item, room: max(width / 3, 0))
        let detailWidth = min(TextWidth.columns(detail), max(width / 3, 0))
        let nameWidth = max(width - 2 - indent.count - detailWidth - 2, 4)
        let name = TextWidth.pad(TextWidth.fit(TerminalText.safe(item.name), nameWidth), to: nameWidth)
        let text = mark + " " + indent + name + "  " + TextWidth.fit(detail, detailWidth)
        let style: StyledLine.Style = underCursor ? .reverse : item.kind == .artist || item.kind == .playlist ? .bold : .plain
        return StyledLine(TextWidth.fit(text, width), style)
    }
}
