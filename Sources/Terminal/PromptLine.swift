/// The one-line prompt at the bottom of the screen (for `l`: a path to load).
public struct PromptLine: Equatable {
    public let label: String
    public private(set) var text = ""

    public init(label: String) {
        self.label = label
    }

    public enum Outcome: Equatable {
        case editing
        case submitted(String)
        case cancelled
    }

    /// Applies one key: text is typed, Backspace deletes, Enter submits, Esc cancels.
    public mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .character(let character): text.append(character)
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .enter: return .submitted(text)
        case .escape: return .cancelled
        default: break
        }
        return .editing
    }

    /// The prompt as shown, cut to `width` columns from the left so the cursor end stays visible.
    public func rendered(width: Int) -> String {
        let line = "\(label)\(text)_"
        return line.count <= width ? line : "…" + String(line.suffix(max(width - 1, 0)))
    }
}
