import PlayerCore

/// What the status line shows, read from the session at one moment.
public struct StatusSnapshot: Equatable, Sendable {
    public var state: StateID
    public var song: SongInfo?
    /// Frames played of `song`.
    public var position: Int64
    /// What to call the song when not its tags (a playlist's title for it).
    public var name: String?
    public var list: ListFacts
    /// Software volume in percent, and whether it is muted.
    public var volume = 100
    public var muted = false
    /// The outputs turned off, of several (`i` shows them).
    public var outputsOff: Set<Int> = []
    /// The list has played to its end (and waits, with its last song rewound).
    public var atEndOfList = false
    /// With no song open: why the last load failed (`Idle` keeps it), as one line.
    public var failure: String?
    /// Says `h: keys` at the end where there is room: an interactive run before its first key.
    public var keysHint = false
    /// The key that shows the keys (`h`, unless the settings bind another).
    public var helpKey = "h"
    /// Stopped and rewound (MPRIS `Stop`), rather than paused where it was.
    public var stoppedAtStart = false
    /// No device could be opened, and the songs play silently in real time (said once when it
    /// happened; the line keeps saying it).
    public var silent = false
    /// An internet stream whose connection dropped: the try to make it again (1, 2…) under way.
    public var reconnecting: Int?
    /// What an internet stream has said (its station, its title), for `i`.
    public var stream: StreamState?

    /// Where the song is in the list, and the list's modes.
    public struct ListFacts: Equatable, Sendable {
        /// The place in the play order (0-based; shown 1-based as `3/12`) and the list's length.
        public var entry: Int?
        public var count: Int
        /// More of the list is still being read: the count is shown as `12+`.
        public var isGrowing = false
        public var repeats: Bool
        public var shuffles: Bool
        /// Shuffled by album (`shuffle albums`), not by song.
        public var shufflesAlbums = false
        /// The song playing plays again when it ends.
        public var repeatsOne = false
        /// The list stops when the song playing ends.
        public var stopsAfter = false
        /// The list stops at the end of each album.
        public var albumMode = false
        /// Songs queued to play next.
        public var queued = 0
        /// The graphic equaliser is on.
        public var equalizer = false
        /// Its bands in dB, when it is on.
        public var equalizerBands: [Double]?
        /// How many times as fast the songs play (`[` `]`), shown when not 1.
        public var speed = 1.0
        /// The crossfade at a song's end in seconds (`X`), shown when on.
        public var crossfade = 0.0
        /// The sleep timer as it says itself (`sleep 29:41`), when set.
        public var sleep: String?

        /// The list's length as shown: `12`, or `12+` while more is being read.
        var counted: String { isGrowing ? "\(count)+" : "\(count)" }

        /// `[repeat shuffle]`, `[repeat one]`, `[shuffle 2 queued stop after]`… or nothing.
        var modes: String {
            let on = [repeatsOne ? "repeat one" : repeats ? "repeat" : nil, shuffles ? (shufflesAlbums ? "shuffle albums" : "shuffle") : nil,
                      albumMode ? "album" : nil, queued > 0 ? "\(queued) queued" : nil, stopsAfter ? "stop after" : nil,
                      equalizer ? "eq" : nil, crossfade > 0 ? "xfade " + CrossfadeSetting.describe(crossfade) : nil,
                      speed != 1 ? Self.speedName(speed) : nil, sleep].compactMap { $0 }
            return on.isEmpty ? "" : " [" + on.joined(separator: " ") + "]"
        }

        /// `1.5×`, `0.83×`: the speed to the hundredth, as the keys make it.
        static func speedName(_ speed: Double) -> String {
            var text = String(Int((speed * 100).rounded()))
            while text.count < 3 { text = "0" + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -2))
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text + "×"
        }

        /// The widest `modes` can be as repeat and shuffle are toggled (the rarer modes as they
        /// are): the bar keeps its width while a key toggles those.
        var widestModes: String {
            var all = self
            (all.repeats, all.shuffles, all.shufflesAlbums) = (true, true, true)
            return all.modes
        }
    }

    /// What the status line shows of the player's `status`, `position` frames into its song.
    public init(_ status: PlayerStatus, position: Int64) {
        self.init(state: status.state, song: status.song, position: position, entry: status.entry, entryCount: status.entryCount,
                  name: status.name, repeats: status.repeats, shuffles: status.shuffles)
        list.shufflesAlbums = status.shufflesAlbums
        volume = status.volume
        muted = status.muted
        outputsOff = status.outputsOff
        atEndOfList = status.atEndOfList
        failure = status.failure
        stoppedAtStart = status.stoppedAtStart
        reconnecting = status.stream?.reconnecting?.attempt
        stream = status.stream
        list.isGrowing = status.listIsComing
        list.repeatsOne = status.repeatsOne
        list.stopsAfter = status.stopsAfter
        list.albumMode = status.albumMode
        list.queued = status.upNext.count
        list.equalizer = status.equalizerOn
        list.equalizerBands = status.equalizerOn ? status.equalizerBands : nil
        list.speed = status.speed
        list.crossfade = status.crossfade.seconds
        list.sleep = status.sleep.describe(at: .now)
    }

    public init(state: StateID, song: SongInfo?, position: Int64, entry: Int?, entryCount: Int,
                name: String? = nil, repeats: Bool = false, shuffles: Bool = false) {
        self.state = state
        self.song = song
        self.position = position
        self.name = name
        list = ListFacts(entry: entry, count: entryCount, repeats: repeats, shuffles: shuffles)
    }
}

/// Renders the one-line status: the state as a person reads it, elapsed / total, a progress
/// bar when there is room, the place in the list (`3/12`), the volume, the repeat / shuffle
/// modes and "artist – title".
///
/// Everything is measured in terminal columns and the line stays short of the last one, so it
/// never wraps. The title gets its room before the progress bar does: the bar is drawn only
/// where the whole title fits beside it, and at narrow widths the modes, the volume, the place
/// and the total time give way before the title is cut (with `…`).
public enum StatusLine {
    /// What the state is called on screen.
    public static func label(_ status: StatusSnapshot) -> (String, StyledLine.Style) {
        if status.atEndOfList { return ("End of list", .cyan) }
        return switch status.state {
        case .idle: ("Idle", .plain)
        case .loading: ("Loading", .plain)
        case .prepare: ("Ready", .plain)
        case .play where status.reconnecting != nil: ("Reconnecting (\(status.reconnecting ?? 0))…", .yellow)
        case .play: status.silent ? ("Silent", .red) : ("Playing", .green)
        // Stopped with its place kept: what a person (and cmus and mpv) calls paused.
        case .stop: status.stoppedAtStart ? ("Stopped", .yellow) : ("Paused", .yellow)
        case .deviceLost: ("No device", .red)
        }
    }

    public static func render(_ status: StatusSnapshot, width: Int) -> StyledLine {
        let columns = max(width - 1, 10)  // never the last column: writing there may wrap
        let (label, style) = label(status)
        var line = StyledLine(label.padding(toLength: 8), style)
        guard let song = status.song else {
            if let failure = status.failure {
                line.append(" " + TextWidth.fit(TerminalText.safe(failure), max(columns - line.columns - 1, 0)), .red)
            } else {
                // Loading: where in the list and what, at once (the tags come when it opens).
                line.append(status.list.entry.map { " \($0 + 1)/\(status.list.counted)" } ?? "")
                line.append(status.name.map { "  " + TerminalText.safe($0) } ?? "")
            }
            return fitted(line, columns)
        }
        let layout = Layout(status, song: song, columns: columns - line.columns)
        line.append(layout.times)
        if let bar = layout.bar {
            let fraction = layout.total.map { $0 > 0 ? layout.elapsed / $0 : 0 } ?? 0
            line.append(" " + Self.bar(fraction, width: bar), .dim)
        }
        line.append(layout.extras)
        line.append("  ")
        line.append(TextWidth.fit(layout.name, max(columns - line.columns, 0)), .bold)
        let hint = "  \(status.helpKey): keys"
        if status.keysHint, columns - line.columns >= TextWidth.columns(hint) {
            line.append(hint, .cyan)
        }
        return fitted(line, columns)
    }

    /// Where the room after the state's name goes. The title gets it first; then the place,
    /// the volume and the modes; then the bar, drawn only where the whole title and the widest
    /// the rest can be (the place at the list's last entry, `vol 100%`, both modes) fit beside
    /// it, so that it keeps its width while they change, and gives way first. Without a bar,
    /// the modes, the volume, the place and the total time give way, one at a time, until the
    /// whole title fits; a title too long to fit even then is cut, and keeps what leaves it
    /// half the line (never fewer than 20 columns): a long title does not wipe out the rest.
    struct Layout {
        let elapsed: Double
        let total: Double?
        let name: String
        var times: String
        var bar: Int?
        var extras = ""

        init(_ status: StatusSnapshot, song: SongInfo, columns: Int) {
            elapsed = song.seconds(status.position)
            total = song.totalFrames.map(song.seconds)
            name = TerminalText.safe(status.name ?? song.displayName)
            let nameColumns = TextWidth.columns(name)
            let elapsedText = TimeFormat.clock(elapsed)
            // No length (a live stream): the time listened alone, and no bar.
            let full = total.map { total in
                let totalText = TimeFormat.clock(total)
                let padding = String(repeating: " ", count: max(TextWidth.columns(totalText) - elapsedText.count, 0))
                return " " + padding + elapsedText + " / " + totalText
            } ?? " " + elapsedText
            times = full
            let place = status.list.entry.map { "  \($0 + 1)/\(status.list.counted)" } ?? ""
            let volume = status.muted ? "  muted" : "  vol \(status.volume)%"
            let modes = status.list.modes
            let widest = (status.list.entry == nil ? 0 : 4 + 2 * String(status.list.count).count)
                + TextWidth.columns("  vol 100%") + TextWidth.columns(status.list.widestModes)
            let barRoom = columns - TextWidth.columns(full) - 1 - widest - 2 - nameColumns - 2
            if barRoom >= 8, total != nil {
                bar = min(barRoom, 40)
                extras = place + volume + modes
                return
            }
            let choices = [(full, place + volume + modes), (full, place + volume), (full, place), (full, ""), (" " + elapsedText, "")]
            let room = { (choice: (String, String)) in columns - TextWidth.columns(choice.0) - TextWidth.columns(choice.1) - 2 }
            let share = max(20, columns / 2)
            let chosen = choices.first { room($0) >= nameColumns } ?? choices.first { room($0) >= share } ?? choices[choices.count - 1]
            (times, extras) = chosen
        }
    }

    /// `[=====-----]`: `fraction` (0 to 1) of `width` columns filled.
    public static func bar(_ fraction: Double, width: Int) -> String {
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
        return "[" + String(repeating: "=", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// `line` cut to `columns` (a last resort: `render` lays it out to fit).
    static func fitted(_ line: StyledLine, _ columns: Int) -> StyledLine {
        guard line.columns > columns else { return line }
        var cut = StyledLine()
        var used = 0
        for part in line.parts {
            let left = columns - used
            guard left > 0 else { break }
            let text = TextWidth.columns(part.text) <= left ? part.text : TextWidth.fit(part.text, left)
            cut.append(text, part.style)
            used += TextWidth.columns(text)
        }
        return cut
    }
}
