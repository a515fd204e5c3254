import PlayerCore

/// The now-playing view, full screen: the song's cover and fields at the top, its lyrics in the
/// middle (the line sung highlighted and kept centred, the enhanced form's words lit as they are
/// sung), the next songs, a spectrum, and the status line at the bottom.
///
/// It lays out what the console hands it (the song's lyrics come taken apart, with the song);
/// what it keeps is its own: the cover drawn for the box the last layout gave it.
public struct NowPlayingView {
    /// What the view shows besides the song: set from the settings.
    public struct Options: Equatable, Sendable {
        /// How the cover is drawn (`nil`: no cover, `cover = off`).
        public var cover: CoverStyle?
        /// The spectrum's bars (`nil`: no spectrum, the default).
        public var spectrum: SpectrumStyle?
        /// Whether the screen draws no styles (NO_COLOR, `colours = off`): the line sung is then
        /// marked by glyphs (`▶ line ◀`), as the list view marks its cursor.
        public var plain = false

        public init(cover: CoverStyle? = .symbols(.indexed256), spectrum: SpectrumStyle? = nil) {
            (self.cover, self.spectrum) = (cover, spectrum)
        }
    }

    public var options: Options
    /// The cover drawn for the song and box last asked for.
    public var cover: CoverArt?
    /// The spectrum's bars now, each 0 to 1.
    public var spectrum: [Double] = []
    /// The next songs' names, in the order they will play.
    public var next: [String] = []
    /// Whether the list plays shuffled after the queued songs (the next are not known).
    public var shuffled = false
    /// Said on the row above the status line until the next key.
    public var message: String?

    /// The box the last layout gave the cover: what `coverRequest` asks to have drawn.
    public private(set) var coverBox: (columns: Int, rows: Int)?
    /// A cover in the terminal's own graphics (kitty's, iTerm2's, sixel), placed by the last
    /// layout: its cells are left blank in the frame, and the screen draws it over them.
    public private(set) var graphic: ScreenGraphic?

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Where each part goes at a size. When the terminal is small the parts give way in this
    /// order: the cover first (below 50 columns or 12 rows), then the next songs, then the
    /// spectrum, then the song's fields fold into one line; the lyrics keep what is left, and
    /// the status line is always the bottom row.
    struct Layout: Equatable {
        var cover: (columns: Int, rows: Int)?
        /// The song's fields: 5 lines, 1, or none.
        var fields: Int
        /// The rows above the lyrics: the cover and fields, and a blank row after them.
        var top: Int
        var next: Int
        var spectrum: Int
        var lyrics: Int

        static func == (a: Layout, b: Layout) -> Bool {
            a.cover?.columns == b.cover?.columns && a.cover?.rows == b.cover?.rows && a.fields == b.fields && a.top == b.top
                && a.next == b.next && a.spectrum == b.spectrum && a.lyrics == b.lyrics
        }
    }

    static func layout(width: Int, height: Int, cover: Bool, spectrum: Bool, next: Int) -> Layout {
        let body = max(height - 1, 0)
        let fields = body >= 8 ? 5 : body >= 3 ? 1 : 0
        var box: (columns: Int, rows: Int)?
        if cover, width >= 50, body >= 12 {
            let rows = min(max(body * 2 / 5, 6), 24)
            box = (min(rows * 2, width / 2 - 2), rows)
        }
        let top = fields == 0 ? 0 : max(box?.rows ?? 0, fields) + 1
        let spectrumRows = spectrum && body - top >= 8 ? (height >= 40 ? 6 : 3) : 0
        let nextRows = next > 0 && body - top - spectrumRows >= 10 ? min(next, 5) + 1 : 0
        let lyrics = max(body - top - spectrumRows - nextRows, 0)
        return Layout(cover: box, fields: fields, top: top, next: nextRows, spectrum: spectrumRows, lyrics: lyrics)
    }

    /// The cover to draw for the song playing at the box the layout gives it, when the one
    /// drawn is for another song or size; `nil` when none is wanted.
    /// `cell`: a cell's size in pixels, when the terminal says.
    public func coverRequest(for song: SongInfo?, cell: (width: Int, height: Int)? = nil) -> CoverRequest? {
        guard let song, let style = options.cover, let box = coverBox else { return nil }
        var request = CoverRequest(song: song.path, album: song.tags.album, columns: box.columns, rows: box.rows, style: style)
        request.isStream = song.isStream
        if style.isGraphics, let cell { (request.cellWidth, request.cellHeight) = cell }
        return cover?.request == request ? nil : request
    }

    /// Whether `song` is the song `request` asked for, or one of its album.
    static func sameAlbum(_ request: CoverRequest, _ song: SongInfo) -> Bool {
        request.song == song.path
            || request.album != nil && request.album == song.tags.album && request.song.directory == song.path.directory
    }

    /// The whole screen: `height` lines of at most `width - 1` columns, the last `bottom`.
    public mutating func lines(_ status: StatusSnapshot?, width: Int, height: Int, bottom: StyledLine) -> [StyledLine] {
        guard height > 0 else { return [] }
        let song = status?.song
        // No box for a song known to have no picture: a stream, or a song of an album (its folder
        // and album tag, as the covers are kept) already looked at and found to have none.
        let pictured = song.map { song in
            !song.isStream && !(cover.map { $0.missing && Self.sameAlbum($0.request, song) } ?? false)
        } ?? false
        let layout = Self.layout(width: width, height: height, cover: options.cover != nil && pictured, spectrum: options.spectrum != nil,
                                 next: next.count + (shuffled ? 1 : 0))
        coverBox = layout.cover
        graphic = nil
        if let box = layout.cover, let cover, cover.failure == nil, cover.request.style.isGraphics,
           cover.request.columns == box.columns, cover.request.rows == box.rows, let text = cover.lines.first {
            graphic = ScreenGraphic(row: (box.rows - cover.rows) / 2, column: (box.columns - cover.columns) / 2, rows: cover.rows,
                                    text: text, kitty: cover.request.style == .kitty)
        }
        let room = max(width - 1, 1)
        var frame: [StyledLine] = []
        frame += top(status, layout, room: room)
        frame += lyricLines(status, rows: layout.lyrics, room: room)
        frame += nextLines(rows: layout.next, room: room)
        if layout.spectrum > 0, let style = options.spectrum {
            frame += Spectrum.lines(spectrum, style: style, rows: layout.spectrum, columns: room)
        }
        frame = frame.prefix(height - 1).map { $0.columns > room ? fitted($0, room) : $0 }
        frame += Array(repeating: StyledLine(), count: height - 1 - frame.count)
        // A message on the row above the status line (never under the cover).
        if let message, !frame.isEmpty { frame[frame.count - 1] = StyledLine(TextWidth.fit(message, room), .yellow) }
        return frame + [bottom]
    }

    /// The cover's box and, beside it, the song's fields.
    private func top(_ status: StatusSnapshot?, _ layout: Layout, room: Int) -> [StyledLine] {
        guard layout.top > 0 else { return [] }
        let fields = fieldLines(status, count: layout.fields)
        guard let box = layout.cover else { return fields.map { fitted($0, room) } + [StyledLine()] }
        let drawing = coverLines(box)
        let beside = room - box.columns - 2
        return (0..<layout.top).map { row in
            var line = row < drawing.count ? drawing[row] : StyledLine(String(repeating: " ", count: box.columns))
            if row < fields.count {
                line.append("  ")
                for part in fitted(fields[row], beside).parts { line.append(part.text, part.style) }
            }
            return line
        }
    }

    /// The cover drawn in its box, a line a row, each `box.columns` wide; or why there is none.
    private func coverLines(_ box: (columns: Int, rows: Int)) -> [StyledLine] {
        let blank = String(repeating: " ", count: box.columns)
        guard let cover, cover.request.columns == box.columns, cover.request.rows == box.rows else {
            return Array(repeating: StyledLine(blank), count: box.rows)
        }
        if cover.failure == nil, cover.request.style.isGraphics { return Array(repeating: StyledLine(blank), count: box.rows) }
        guard cover.failure == nil else {
            // Why, in dim words wrapped to the box, in its middle.
            let words = Self.wrap(cover.failure ?? "", width: box.columns).prefix(box.rows)
            let first = (box.rows - words.count) / 2
            return (0..<box.rows).map { row in
                let index = row - first
                guard index >= 0, index < words.count else { return StyledLine(blank) }
                return StyledLine(TextWidth.pad(words[index], to: box.columns), .dim)
            }
        }
        let left = (box.columns - cover.columns) / 2
        let above = (box.rows - cover.rows) / 2
        return (0..<box.rows).map { row in
            let index = row - above
            guard index >= 0, index < cover.lines.count else { return StyledLine(blank) }
            var line = StyledLine(String(repeating: " ", count: left))
            line.appendDrawing(cover.lines[index], columns: cover.columns)
            line.append(String(repeating: " ", count: box.columns - left - cover.columns))
            return line
        }
    }

    /// The song's fields: title, artist, album and year, its format, and what reaches the output.
    private func fieldLines(_ status: StatusSnapshot?, count: Int) -> [StyledLine] {
        guard count > 0 else { return [] }
        guard let status, let song = status.song else {
            return [StyledLine(status?.name ?? "Nothing is playing.", .bold)] + Array(repeating: StyledLine(), count: count - 1)
        }
        let tags = song.tags
        let title = status.stream?.title ?? tags.title ?? status.name ?? song.displayName
        let artist = status.stream?.station?.name ?? tags.artist
        guard count > 1 else {
            var line = StyledLine(title, .bold)
            if let artist { line.append(" – " + artist) }
            return [line]
        }
        let album = [tags.album, tags.year.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        let format = SongDetails.format(song)
        return [StyledLine(title, .bold), StyledLine(artist ?? "", .cyan), StyledLine(album), StyledLine(format, .dim),
                StyledLine(song.played.map { "→ " + $0 } ?? "", .dim)]
    }

    /// The lyrics for `rows` rows: the line sung on the middle row, those before above it and
    /// those to come below; unsynced lyrics as text from the top.
    private func lyricLines(_ status: StatusSnapshot?, rows: Int, room: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        let blank = Array(repeating: StyledLine(), count: rows)
        guard let song = status?.song else { return blank }
        let lyrics = song.lyrics?.parsed ?? Lyrics()
        guard lyrics.isSynced else {
            guard !lyrics.unsynced.isEmpty else {
                // A stream has none to look for: nothing is said.
                guard !song.isStream else { return blank }
                let note = song.lyrics.map { $0.refusal ?? "lyrics with no line in them" }
                    ?? "no lyrics: a .lrc beside the song, or its LYRICS tag, would show here"
                var lines = blank
                lines[rows / 2] = Self.centred(StyledLine(note, .dim), room)
                return lines
            }
            return (0..<rows).map { $0 < lyrics.unsynced.count ? Self.centred(StyledLine(lyrics.unsynced[$0]), room) : StyledLine() }
        }
        let now = Lyrics.milliseconds(frames: status?.position ?? 0, rate: song.sampleRate)
        let current = lyrics.lineIndex(at: now)
        let middle = rows / 2
        // Before the first line: the first ones wait below the middle.
        let first = (current ?? -1) - middle
        return (0..<rows).map { row in
            let index = first + row
            guard index >= 0, index < lyrics.lines.count else { return StyledLine() }
            let line = lyrics.lines[index]
            guard index == current else { return Self.centred(StyledLine(line.text, index < (current ?? 0) ? .dim : .plain), room) }
            return Self.centred(options.plain ? StyledLine("▶ " + line.text + " ◀") : Self.sung(line, at: now), room)
        }
    }

    /// The line being sung: the enhanced form's words already sung lit, the rest bold.
    static func sung(_ line: Lyrics.Line, at now: Int64) -> StyledLine {
        let joined = line.words.map(\.text).joined()
        guard !line.words.isEmpty, line.text.hasSuffix(joined) else { return StyledLine(line.text, .reverse) }
        var styled = StyledLine(String(line.text.dropLast(joined.count)), .yellow)
        // A line sung again (`[00:10][01:30]<00:10>Hel…`): its words' times move with it.
        let shift = max(line.time - (line.words.first?.time ?? line.time), 0)
        for word in line.words { styled.append(word.text, word.time + shift <= now ? .yellow : .bold) }
        return styled
    }

    private func nextLines(rows: Int, room: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        let heading = StyledLine(next.isEmpty ? "Next: shuffled" : "Next:", .dim)
        var lines = [heading] + next.prefix(rows - 1).map { fitted(StyledLine("  " + $0), room) }
        if shuffled, !next.isEmpty, lines.count < rows { lines.append(StyledLine("  then shuffled", .dim)) }
        return lines + Array(repeating: StyledLine(), count: rows - lines.count)
    }

    private func fitted(_ line: StyledLine, _ columns: Int) -> StyledLine {
        StatusLine.fitted(line, max(columns, 0))
    }

    static func centred(_ line: StyledLine, _ room: Int) -> StyledLine {
        let shown = StatusLine.fitted(line, room)
        var padded = StyledLine(String(repeating: " ", count: max((room - shown.columns) / 2, 0)))
        for part in shown.parts { padded.append(part.text, part.style) }
        return padded
    }

    /// `text` in lines of at most `width` columns, broken at spaces where it can be.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in TerminalText.safe(text).split(separator: " ") {
            var word = String(word)
            while TextWidth.columns(word) > width {
                if !line.isEmpty { lines.append(line); line = "" }
                var piece = "", used = 0
                for character in word {
                    let columns = TextWidth.columns(character)
                    if used + columns > width, !piece.isEmpty { break }
                    piece.append(character)
                    used += columns
                }
                lines.append(piece)
                word = String(word.dropFirst(piece.count))
            }
            if line.isEmpty { line = word } else if TextWidth.columns(line) + 1 + TextWidth.columns(word) <= width { line += " " + word } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// A picture in a terminal's own graphics, drawn by the screen at a cell: `text` is the whole
/// sequence (kitty's, iTerm2's or sixel), `rows` the rows it covers from `row`.
public struct ScreenGraphic: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var rows: Int
    public var text: String
    /// kitty's: its images are deleted before it is drawn again (they are kept, not overwritten).
    public var kitty: Bool
}

extension CoverStyle {
    /// Whether it is a terminal's own graphics rather than text.
    var isGraphics: Bool {
        if case .symbols = self { false } else { true }
    }
}
