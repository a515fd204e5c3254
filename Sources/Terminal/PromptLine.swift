/// The one-line prompt at the bottom of the screen (for `l`: a path to load), with the editing
/// a shell gives: the cursor moves with ←/→/Home/End, Backspace and Delete remove around it,
/// ↑/↓ walk earlier entries, Tab completes.
///
/// The text is kept as the characters a person sees (grapheme clusters), and the cursor is a
/// place between two of them: a combining accent, a skin tone, a flag's second letter or a
/// Hangul jamo typed (or pasted from a file name in NFD) joins the character before it, as the
/// terminal shows it, and the cursor never lands inside one. Each key costs about the same
/// however long the text is, and drawing it is linear: a pasted path of thousands of
/// characters is taken at once.
public struct PromptLine: Equatable {
    public let label: String
    private var characters: [Character] = []
    /// Where the cursor is, in characters from the start of `text`.
    public private(set) var cursor = 0
    private let history: [String]
    /// Where in `history` ↑/↓ are (`history.count`: the line being typed).
    private var place: Int
    private var draft = ""

    /// The most characters it takes: those typed or pasted beyond are left out (`overflowed`).
    private let limit: Int
    /// Whether characters were left out at `limit`.
    public private(set) var overflowed = false
    /// Counts the changes to the text (not the cursor's moves): what is read from it is read
    /// again only when it changed.
    public private(set) var revision = 0

    public init(label: String, history: [String] = [], limit: Int = .max) {
        self.label = label
        self.history = history
        self.limit = limit
        place = history.count
    }

    /// What is typed.
    public var text: String { String(characters) }

    public enum Outcome: Equatable {
        case editing
        case submitted(String)
        case cancelled
        /// Tab was pressed: the caller completes `text` and calls `complete`.
        case complete
    }

    public mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .character(let character):
            insert(character)
        case .backspace:
            guard cursor > 0 else { break }
            revision &+= 1
            characters.remove(at: cursor - 1)
            cursor -= 1
            rejoin()
        case .delete:
            guard cursor < characters.count else { break }
            revision &+= 1
            characters.remove(at: cursor)
            rejoin()
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .up: recall(place - 1)
        case .down: recall(place + 1)
        case .tab: return .complete
        case .enter: return .submitted(text)
        case .escape: return .cancelled
        // Line editing as a shell's (readline's): Ctrl-A and Ctrl-E to the start and end, Ctrl-B
        // and Ctrl-F a character back and on, Ctrl-U what is before the cursor gone, Ctrl-K what
        // is after it, Ctrl-W the word before it; the rest mean nothing here.
        case .control("a"): cursor = 0
        case .control("e"): cursor = characters.count
        case .control("b"): cursor = max(cursor - 1, 0)
        case .control("f"): cursor = min(cursor + 1, characters.count)
        case .control("u"): cut(0..<cursor)
        case .control("k"): cut(cursor..<characters.count)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            cut(start..<cursor)
        case .control, .alt, .function, .modified, .other, .pageUp, .pageDown: break
        }
        return .editing
    }

    /// Takes `range` out, the cursor where it began.
    private mutating func cut(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        revision &+= 1
        characters.removeSubrange(range)
        cursor = range.lowerBound
        rejoin()
    }

    /// Replaces the text with a completion, the cursor at its end.
    public mutating func complete(to completed: String) {
        revision &+= 1
        characters = Array(completed)
        cursor = characters.count
    }

    /// The prompt as shown, cut to `width` columns so the cursor stays visible, with the cursor
    /// drawn as an underscore.
    public func rendered(width: Int) -> String {
        let before = Array(label) + characters[..<cursor]
        let after = characters[cursor...]
        let widths = before.map(TextWidth.columns)
        var used = widths.reduce(0, +) + 1
        guard used + after.reduce(0, { $0 + TextWidth.columns($1) }) > width else {
            return String(before) + "_" + String(after)
        }
        // Keep the cursor in view: cut from the left (an … in place of what is cut), then from
        // the right, where an … takes the last column when anything follows the cursor.
        let room = width - 1 - (after.isEmpty ? 0 : 1)
        var start = 0
        while used > room, start < before.count {
            used -= widths[start]
            start += 1
        }
        return TextWidth.fit("…" + String(before[start...]) + "_" + String(after), width)
    }

    /// Puts `character` at the cursor, joined with its neighbours where they make one
    /// character together; the cursor goes after it.
    private mutating func insert(_ character: Character) {
        guard characters.count < limit else {
            overflowed = true
            return
        }
        revision &+= 1
        // Printable ASCII between ASCII joins nothing: most of what is typed and pasted.
        let plain = { (scalar: Unicode.Scalar?) in scalar.map { (0x20...0x7E).contains($0.value) } ?? true }
        if plain(character.unicodeScalars.first), character.unicodeScalars.count == 1,
           plain(cursor > 0 ? characters[cursor - 1].unicodeScalars.last : nil),
           plain(cursor < characters.count ? characters[cursor].unicodeScalars.first : nil) {
            characters.insert(character, at: cursor)
            cursor += 1
            return
        }
        let start = max(cursor - 1, 0), end = min(cursor + 1, characters.count)
        // Where the typed scalars end, counted from `start`.
        let typedEnd = characters[start..<cursor].reduce(0) { $0 + $1.unicodeScalars.count } + character.unicodeScalars.count
        let joined = Array(String(characters[start..<cursor]) + String(character) + String(characters[cursor..<end]))
        characters.replaceSubrange(start..<end, with: joined)
        cursor = start + Self.charactersUntil(typedEnd, in: joined)
    }

    /// After a removal at the cursor: the characters either side joined where they make one
    /// (an accent left without its letter joins the one before), the cursor after the join.
    private mutating func rejoin() {
        guard cursor > 0, cursor < characters.count else { return }
        let leftEnd = characters[cursor - 1].unicodeScalars.count
        let joined = Array(String(characters[(cursor - 1)...cursor]))
        guard joined.count != 2 else { return }
        characters.replaceSubrange((cursor - 1)...cursor, with: joined)
        cursor = cursor - 1 + Self.charactersUntil(leftEnd, in: joined)
    }

    /// How many of `characters` it takes to cover `scalars` scalars (a character that holds
    /// the boundary counts whole: the cursor goes after it).
    private static func charactersUntil(_ scalars: Int, in characters: [Character]) -> Int {
        var covered = 0, count = 0
        for character in characters where covered < scalars {
            covered += character.unicodeScalars.count
            count += 1
        }
        return count
    }

    private mutating func recall(_ target: Int) {
        guard (0...history.count).contains(target), target != place else { return }
        if place == history.count { draft = text }
        place = target
        revision &+= 1
        characters = Array(target == history.count ? draft : history[target])
        cursor = characters.count
    }
}
