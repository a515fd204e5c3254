import PlayerCore

/// The terminal's name for the one sanitiser (`UntrustedText`): every line tplayer writes to a
/// terminal or to stderr/stdout passes through `safe`, which shows control characters visibly
/// and lets the terminal interpret none.
public enum TerminalText {
    /// `text` with every control character shown as an escape (`UntrustedText.shown`).
    public static func safe(_ text: String) -> String {
        UntrustedText.shown(text)
    }
}
