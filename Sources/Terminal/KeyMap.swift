import PlayerCore

/// The keys as the help and the README show them, from the bindings in force (`KeyBindings`):
/// the main loop, the `h` help, `--help` and the README's key table all come from them.
public enum KeyMap {
    /// The command tplayer's own keys give `key` (outside the list view), if any.
    public static func command(for key: Key) -> Command? {
        KeyBindings.standard.action(for: key)?.command(Steps())
    }

    /// Every key of tplayer's own set, one line each (`--help`), e.g. `  space     play / pause`.
    public static var helpLines: [String] { lines(KeyBindings.standard.rows(Steps())) }

    /// What `h` shows: outside the list and library views, the keys that work there; in one,
    /// its own keys first, then the rest under their heading.
    public static func helpLines(inListView: Bool, inLibraryView: Bool = false, bindings: KeyBindings = .standard,
                                 steps: Steps = Steps()) -> [String] {
        lines(bindings.rows(steps, inListView: inListView, inLibraryView: inLibraryView))
    }

    /// tplayer's own keys as a Markdown table: what the README shows.
    public static var markdownTable: String {
        (["| key | does |", "| --- | --- |"] + KeyBindings.standard.rows(Steps()).map {
            $0.keys.isEmpty ? "| | *\($0.help)* |" : "| \($0.keys) | \($0.help) |"
        }).joined(separator: "\n") + "\n"
    }

    /// tplayer's own keys as the mdoc lists the manual page `tplayer(1)` shows (its KEYS
    /// section holds exactly this).
    public static var manualList: String {
        let list = ".Bl -tag -width \"PgUp PgDn\" -compact"
        var lines = [list]
        for row in KeyBindings.standard.rows(Steps()) {
            if row.keys.isEmpty {
                lines += [".El", ".Pp", roff(row.help), list]
            } else {
                lines += [".It \"" + String(roff(row.keys).flatMap { $0 == "\"" ? "\"\"" : String($0) }) + "\"", roff(row.help)]
            }
        }
        return (lines + [".El"]).joined(separator: "\n") + "\n"
    }

    /// Text as a roff text line: backslashes escaped, and no line begun with `.` or `'`.
    private static func roff(_ text: String) -> String {
        let escaped = String(text.flatMap { $0 == "\\" ? "\\e" : String($0) })
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    private static func lines(_ rows: [(keys: String, help: String)]) -> [String] {
        rows.map { $0.keys.isEmpty ? $0.help : "  " + $0.keys.padding(toLength: 9) + " " + $0.help }
    }
}
