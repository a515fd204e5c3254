import Inputs
import PlayerCore
import Terminal

/// `tplayer --check FILE`: a script or a playlist checked without playing anything.
enum ScriptCheck {
    /// Exit status when a script or playlist has problems (sysexits' EX_DATAERR).
    static let problemsFound: Int32 = 65

    /// Prints every problem as `FILE:LINE:COLUMN: message` on stderr and returns 65 when there
    /// is any; otherwise prints a one-line summary on stdout and returns 0.
    static func run(_ path: Path) -> Int32 {
        let problems: [Diagnostic]
        let summary: String
        if Playlist.isPlaylist(path) {
            let expanded = InputExpander.expand([path], checksEntries: true)
            problems = expanded.problems + (expanded.entries.isEmpty && expanded.problems.isEmpty
                ? [Diagnostic(SourceLocation(file: "\(path)"), "no entries in it")] : [])
            summary = "\(path): ok, \(expanded.entries.count) songs"
        } else {
            let script = ScriptCompiler(path: path)
            problems = script.problems
            summary = "\(path): ok, \(script.lines.count) commands"
        }
        guard problems.isEmpty else {
            problems.forEach { printError($0.located) }
            return problemsFound
        }
        printOutput(summary)
        return 0
    }
}
