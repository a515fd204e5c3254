import Glibc
import PlayerCore

/// Reads a scripted playlist file and resolves its paths, relative to the script's own folder:
/// the lines to run, or every problem found, each with its line and column. `tplayer --check`
/// prints the problems; `tplayer --script` refuses to play when there is any.
public struct ScriptCompiler {
    public private(set) var lines: [ScriptLine] = []
    public private(set) var problems: [Diagnostic] = []
    /// At most this many problems are listed; a file with more is surely not a script.
    public static let maxProblems = 50

    public init(path: String) {
        let bytes: [UInt8]
        switch FileSystem.readFile(path, limit: FileSystem.maxPlaylistBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            problems.append(Diagnostic(file: path, message: "cannot read script: \(error.reason)"))
            return
        }
        let folder = FileSystem.directory(of: path)
        let parsed = ScriptParser.parse(bytes)
        for problem in parsed.problems {
            problems.append(Diagnostic(file: path, line: problem.line, column: problem.column, message: problem.message))
        }
        for (line, statement) in parsed.statements {
            switch statement {
            case .command(let command):
                lines.append(ScriptLine(line: line, command: command))
            case .path(let location, let column, let playNow):
                let place = Diagnostic(file: path, line: line, column: column, message: "")
                let entries = resolve(location, folder: folder, place: place)
                lines.append(ScriptLine(line: line, command: playNow ? .load(entries) : .add(entries)))
            case .bare(let text, let word):
                let place = Diagnostic(file: path, line: line, column: 1, message: "")
                let resolved = Self.resolved(text, folder: folder)
                if Self.looksLikePath(text) || FileSystem.fileID(resolved) != nil {
                    lines.append(ScriptLine(line: line, command: .add(resolve(text, folder: folder, place: place))))
                } else {
                    let hint = ScriptParser.suggestion(for: word).map { " (did you mean '\($0)'?)" } ?? ""
                    var problem = place
                    problem.message = "unknown command '\(word)'\(hint); a song path needs a / or an extension, or add PATH"
                    problems.append(problem)
                }
            }
        }
        problems.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        if problems.count > Self.maxProblems {
            let more = problems.count - Self.maxProblems
            problems.removeLast(more)
            problems.append(Diagnostic(file: path, message: "\(more) more problems not listed; is it really a script?"))
        }
    }

    /// A bare line is taken as a path when it has a slash or a file extension.
    static func looksLikePath(_ text: String) -> Bool {
        if text.contains("/") { return true }
        guard let dot = text.lastIndex(of: "."), dot != text.startIndex else { return false }
        let ext = text[text.index(after: dot)...]
        return !ext.isEmpty && ext.count <= 5 && ext.allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// `location` made usable: `~/` is the home folder, a relative path is read from the
    /// script's folder.
    static func resolved(_ location: String, folder: String) -> String {
        if location.hasPrefix("~/"), let home = getenv("HOME") {
            return String(cString: home) + location.dropFirst()
        }
        return location.hasPrefix("/") || folder.isEmpty ? location : folder + "/" + location
    }

    /// The songs `location` names; a missing file is a problem at `place`.
    private mutating func resolve(_ location: String, folder: String, place: Diagnostic) -> [Entry] {
        var expander = InputExpander(checksEntries: true)
        let path = Self.resolved(location, folder: folder)
        if FileSystem.fileID(path) == nil {
            var problem = place
            problem.message = "no such file: \(location)"
            problems.append(problem)
            return []
        }
        expander.add(path, title: nil, from: place)
        problems += expander.problems
        return expander.entries
    }
}
