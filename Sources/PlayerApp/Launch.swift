import Files
import Inputs
import PlayerCore

/// What a run needs before anything plays, checked: the script read and compiled (one with
/// problems of its own is refused whole; a missing entry in a playlist it names is skipped, as
/// when the playlist is named directly), the inputs expanded into songs, and the `-w` path
/// known to destroy nothing. Nothing is created or changed here.
public struct Launch {
    /// The songs the inputs name, in order.
    public let entries: EntryList
    /// What expanding the inputs and the script's playlists found wrong; said at the start, and
    /// the exit status counts it.
    public let problems: [Diagnostic]
    /// The script's lines, when there is a script.
    public let script: [ScriptLine]?

    /// Why a run does not start: the lines to say and the exit status.
    public struct Refusal: Error, Equatable {
        public let lines: [String]
        public let status: Int32
    }

    /// Exit status when a script or playlist has problems (sysexits' EX_DATAERR).
    public static let problemsFound: Int32 = 65

    public static func prepare(inputs: [Path], script: Path?, writing output: (path: Path, overwrite: Bool)?,
                               files: any FileAccess = SystemFiles()) -> Result<Launch, Refusal> {
        var lines: [ScriptLine]?
        var scriptReads: [Path] = []
        var skipped: [Diagnostic] = []
        if let script {
            let compiled = ScriptCompiler(path: script, files: files)
            guard compiled.problems.isEmpty else {
                return .failure(Refusal(
                    lines: compiled.problems.map(\.located)
                        + ["tplayer: \(script): not run because of the problems above; tplayer --check \(script) lists them"],
                    status: problemsFound))
            }
            lines = compiled.lines
            skipped = compiled.playlistProblems
            scriptReads = [script] + compiled.playlists + compiled.entries.map(\.path)
        }
        let list = InputExpander.expand(inputs, files: files)
        if let output {
            let reads = inputs + list.playlists + scriptReads + list.entries.map(\.path)
            if let refusal = WriteGuard.refusal(output: output.path, overwrite: output.overwrite, inputs: inputs, reads: reads, files: files) {
                return .failure(Refusal(lines: ["tplayer: " + refusal.message], status: refusal.status))
            }
        }
        return .success(Launch(entries: list.entries, problems: list.problems + skipped, script: lines))
    }
}
