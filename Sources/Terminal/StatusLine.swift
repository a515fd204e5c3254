import PlayerCore

/// What the status line shows, read from the session at one moment.
public struct StatusSnapshot: Equatable, Sendable {
    public var state: StateID
    public var song: SongInfo?
    /// Frames played of `song`.
    public var position: Int64
    /// What to call the song when not its tags (a playlist's title for it).
    public var name: String?
    public var list: ListPlace

    /// Where the song is in the list, and the list's modes.
    public struct ListPlace: Equatable, Sendable {
        /// The place in the play order (0-based; shown 1-based as `3/12`) and the list's length.
        public var entry: Int?
        public var count: Int
        public var repeats: Bool
        public var shuffles: Bool

        /// `[repeat shuffle]`, `[repeat]`, `[shuffle]` or nothing.
        var modes: String {
            let on = [repeats ? "repeat" : nil, shuffles ? "shuffle" : nil].compactMap { $0 }
            return on.isEmpty ? "" : " [" + on.joined(separator: " ") + "]"
        }
    }

    public init(state: StateID, song: SongInfo?, position: Int64, entry: Int?, entryCount: Int,
                name: String? = nil, repeats: Bool = false, shuffles: Bool = false) {
        self.state = state
        self.song = song
        self.position = position
        self.name = name
        list = ListPlace(entry: entry, count: entryCount, repeats: repeats, shuffles: shuffles)
    }
}

/// Renders the one-line status: state, elapsed / total, a progress bar sized to the terminal,
/// the list position (`3/12`), the repeat / shuffle modes and "artist – title".
public enum StatusLine {
    public static func render(_ status: StatusSnapshot, width: Int) -> String {
        let columns = max(width - 1, 10)  // never the last column: writing there may wrap
        let label = status.state == .deviceLost ? "No device" : status.state.rawValue
        guard let song = status.song else {
            return fit(label.padding(toLength: 7), columns)
        }
        let elapsed = song.seconds(status.position)
        let total = song.totalFrames.map(song.seconds)
        let times = "\(TimeFormat.clock(elapsed)) / \(total.map(TimeFormat.clock) ?? "?:??")"
        let place = (status.list.entry.map { " \($0 + 1)/\(status.list.count)" } ?? "") + status.list.modes
        let left = "\(label.padding(toLength: 7)) \(times)"
        let name = TerminalText.safe(status.name ?? song.displayName)

        // Room left for the bar (with brackets and spaces) and the name.
        let room = columns - left.count - place.count - 4
        var barWidth = max(room / 2, min(room, 10))
        if barWidth < 5 { barWidth = 0 }
        let nameWidth = room - barWidth + (barWidth == 0 ? 3 : 0)
        var line = left
        if barWidth > 0 {
            let fraction = total.map { $0 > 0 ? min(max(elapsed / $0, 0), 1) : 0 } ?? 0
            let filled = Int((fraction * Double(barWidth)).rounded(.down))
            line += " [" + String(repeating: "=", count: filled)
                + String(repeating: "-", count: barWidth - filled) + "]"
        }
        line += place + " " + fit(name, max(nameWidth, 0))
        return fit(line, columns)
    }

    /// `text` cut to `columns` characters, with an ellipsis when cut.
    static func fit(_ text: String, _ columns: Int) -> String {
        guard text.count > columns else { return text }
        guard columns > 1 else { return String(text.prefix(columns)) }
        return String(text.prefix(columns - 1)) + "…"
    }
}
