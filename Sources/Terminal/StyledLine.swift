/// A line of text in parts, each with a style: what the screen draws, sanitising each part's
/// text and adding the colours only when the terminal is to have them.
public struct StyledLine: Equatable, Sendable, ExpressibleByStringLiteral {
    public enum Style: Equatable, Sendable {
        case plain, bold, dim, green, yellow, red, cyan, reverse

        /// The SGR parameters that start the style.
        var code: String {
            switch self {
            case .plain: "0"
            case .bold: "1"
            case .dim: "2"
            case .green: "32"
            case .yellow: "33"
            case .red: "31"
            case .cyan: "36"
            case .reverse: "7"
            }
        }
    }

    public struct Part: Equatable, Sendable {
        public var text: String
        public var style: Style
        /// A drawing's own terminal text (a cover drawn by libchafa, its colours included): written
        /// as it is, taking this many columns (without colours: blank, unless it is symbols
        /// alone). `nil`: text, measured and sanitised.
        var drawnColumns: Int?
    }

    public private(set) var parts: [Part] = []

    public init() {}

    public init(_ text: String, _ style: Style = .plain) {
        append(text, style)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public mutating func append(_ text: String, _ style: Style = .plain) {
        guard !text.isEmpty else { return }
        parts.append(Part(text: text, style: style))
    }

    /// Appends terminal text tplayer drew itself (never text from outside), `columns` wide:
    /// written as it is, its escape sequences included.
    mutating func appendDrawing(_ text: String, columns: Int) {
        parts.append(Part(text: text, style: .plain, drawnColumns: columns))
    }

    /// The text without styles.
    public var text: String { parts.map(\.text).joined() }

    /// The columns it takes on a terminal.
    public var columns: Int { parts.reduce(0) { $0 + ($1.drawnColumns ?? TextWidth.columns($1.text)) } }

    /// What to write: every part's text through `TerminalText`, with SGR colours when `colours`.
    func rendered(colours: Bool) -> String {
        parts.map { part in
            if let columns = part.drawnColumns {
                // A drawing in colours is blank cells without them; one of symbols alone is drawn.
                if colours { return part.text }
                return part.text.utf8.contains(0x1B) ? String(repeating: " ", count: columns) : TerminalText.safe(part.text)
            }
            let text = TerminalText.safe(part.text)
            guard colours, part.style != .plain else { return text }
            return "\u{1B}[\(part.style.code)m" + text + "\u{1B}[0m"
        }.joined()
    }
}
