import Inputs
import PlayerCore

/// `tplayer --check FILE`: a script or a playlist checked without playing anything.
public struct Check: Equatable {
    /// Every problem as `FILE:LINE:COLUMN: message` (for stderr).
    public let problems: [String]
    /// `FILE: ok, N commands` when there are none (for stdout).
    public let summary: String?
    /// 0 when clean, 65 when there is any problem.
    public let status: Int32

    public static func run(_ path: Path) -> Check {
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
            return Check(problems: problems.map(\.located), summary: nil, status: Launch.problemsFound)
        }
        return Check(problems: [], summary: summary, status: 0)
    }
}
