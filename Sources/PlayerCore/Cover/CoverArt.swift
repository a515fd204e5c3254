/// A song's cover as the now-playing view asks for it: drawn for a box of `columns` × `rows`
/// cells, in the terminal's way of drawing.
public struct CoverRequest: Hashable, Sendable {
    public var song: Path
    /// The song's album, when its tags name one: songs of one album share its cover.
    public var album: String?
    public var columns: Int
    public var rows: Int
    public var style: CoverStyle
    /// A cell's size in pixels, when the terminal says (sixel draws in pixels); 0: not known.
    public var cellWidth = 0
    public var cellHeight = 0
    /// The song is an internet stream (`SongInfo.isStream`): it has no cover to look for.
    public var isStream = false

    public init(song: Path, album: String?, columns: Int, rows: Int, style: CoverStyle) {
        (self.song, self.album, self.columns, self.rows, self.style) = (song, album, columns, rows, style)
    }
}

/// How a cover is drawn: Unicode block symbols in colour (every terminal, tmux included), or a
/// terminal's own graphics.
public enum CoverStyle: Hashable, Sendable {
    case symbols(CoverColours)
    case kitty
    case sixel
    case iterm

    /// The style the terminal the environment describes draws best: kitty's, iTerm2's or sixel
    /// graphics where it says it has them (never inside tmux, which passes none of them on), else
    /// symbols in as many colours as it says it has.
    public static func detect(_ environment: [String: String]) -> CoverStyle {
        let term = environment["TERM"] ?? ""
        let colours = CoverColours.detect(environment)
        guard environment["TMUX"] == nil, !term.hasPrefix("screen"), !term.hasPrefix("tmux") else { return .symbols(colours) }
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .kitty }
        if environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if ["mlterm", "foot", "yaft-256color"].contains(term) || term.hasPrefix("foot") || term.hasSuffix("-sixel") { return .sixel }
        return .symbols(colours)
    }
}

public enum CoverColours: Hashable, Sendable {
    case truecolor, indexed256, indexed16
    /// No colours (NO_COLOR, `colours = off`, a terminal without them): the picture in the
    /// symbols' shapes alone, its light parts inked, as on a dark terminal…
    case monochrome
    /// …or its dark parts, on a terminal that says its background is light (`COLORFGBG`).
    case monochromeOnLight

    /// Without colours: as the terminal's background wants. `COLORFGBG` (rxvt's, Konsole's:
    /// `15;0`, `0;default;15`) gives the background's colour last; 7 and 9 to 15 are light.
    public static func monochrome(_ environment: [String: String]) -> CoverColours {
        guard let background = environment["COLORFGBG"]?.split(separator: ";").last.flatMap({ Int($0) }) else { return .monochrome }
        return background == 7 || (9...15).contains(background) ? .monochromeOnLight : .monochrome
    }

    /// The colours the terminal says it has: `COLORTERM=truecolor`, a `TERM` of 256 colours, or 16.
    public static func detect(_ environment: [String: String]) -> CoverColours {
        ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "") ? .truecolor
            : (environment["TERM"] ?? "").contains("256") ? .indexed256 : .indexed16
    }
}

/// A cover drawn: the terminal text for its box, or why there is none.
public struct CoverArt: Equatable, Sendable {
    public var request: CoverRequest
    /// Symbols: one line of text a row (colours included), each `columns` cells wide. Graphics:
    /// the one sequence that draws the picture at the cursor.
    public var lines: [String]
    /// The cells the drawing takes (at most the box's): it is centred in the box.
    public var columns: Int
    public var rows: Int
    /// Where the picture came from (`embedded`, `cover.jpg`), or why there is none, in a line.
    public var source: String
    public var failure: String?

    public init(request: CoverRequest, lines: [String], columns: Int, rows: Int, source: String, failure: String? = nil) {
        (self.request, self.lines, self.columns, self.rows, self.source, self.failure) = (request, lines, columns, rows, source, failure)
    }

    /// Whether the song has no picture at all (nor its folder): the view gives its box back.
    public var missing = false

    public static func none(_ request: CoverRequest, _ why: String, missing: Bool = false) -> CoverArt {
        var art = CoverArt(request: request, lines: [], columns: 0, rows: 0, source: "", failure: why)
        art.missing = missing
        return art
    }
}
