/// The one-line prompt at the bottom of the screen (for `l`: a path to load), with the editing
/// a shell gives: the cursor moves with ←/→/Home/End, Backspace and Delete remove around it,
/// ↑/↓ walk earlier entries, Tab completes.
public struct PromptLine: Equatable {
    public let label: String
    public private(set) var text = ""
    /// Where the cursor is, in characters from the start of `text`.
    public private(set) var cursor = 0
    private let history: [String]
    /// Where in `history` ↑/↓ are (`history.count`: the line being typed).
    private var place: Int
    private var draft = ""

    public init(label: String, history: [String] = []) {
        self.label = label
        self.history = history
        place = history.count
    }

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
            text.insert(character, at: index(cursor))
            cursor += 1
        case .backspace:
            guard cursor > 0 else { break }
            text.remove(at: index(cursor - 1))
            cursor -= 1
        case .delete:
            if cursor < text.count { text.remove(at: index(cursor)) }
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, text.count)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .up: recall(place - 1)
        case .down: recall(place + 1)
        case .tab: return .complete
        case .enter: return .submitted(text)
        case .escape: return .cancelled
        case .other, .pageUp, .pageDown: break
        }
        return .editing
    }

    /// Replaces the text with a completion, the cursor at its end.
    public mutating func complete(to completed: String) {
        text = completed
        cursor = text.count
    }

    /// The prompt as shown, cut to `width` columns so the cursor stays visible, with the cursor
    /// drawn as an underscore.
    public func rendered(width: Int) -> String {
        let before = label + String(text.prefix(cursor))
        let after = String(text.dropFirst(cursor))
        var shown = before + "_" + after
        if TextWidth.columns(shown) > width {
            // Keep the cursor in view: cut from the left, then from the right.
            var left = before
            while TextWidth.columns(left + "_") > width - 1, !left.isEmpty { left.removeFirst() }
            shown = "…" + left + "_" + after
            shown = TextWidth.fit(shown, width)
        }
        return shown
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    private mutating func recall(_ target: Int) {
        guard (0...history.count).contains(target), target != place else { return }
        if place == history.count { draft = text }
        place = target
        text = target == history.count ? draft : history[target]
        cursor = text.count
    }
}
