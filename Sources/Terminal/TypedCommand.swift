import PlayerCore

/// The command line (`:`, cmus's habit): a line as a scripted playlist file says it (`volume 50`,
/// `seek 1:30`, `repeat on`, `add ~/Music/Post`, `load x.mp3`), run now; and what only a person
/// at the keys asks: `scan` (the library brought up to date, as `--scan`), `scan FOLDER` (the
/// folder added to the library), and in the library view `add FOLDER`, as cmus's `:add` there:
/// what a line typed at `:` asks.
enum TypedCommand: Equatable {
    case command(Command)
    /// The library's folders scanned, this one added to them first.
    case scan(Path?)
    case problem(String)

    /// The words the command line takes, as its problems list them.
    static let words = ScriptParser.commandWords.filter { !["wait", "seed"].contains($0) } + ["scan", "help"]

    /// Reads `text` (a path resolved as the load prompt resolves it).
    static func read(_ text: String, inLibrary: Bool, resolve: (String) -> Path) -> TypedCommand {
        let word = String(text.prefix { $0 != " " && $0 != "\t" }).lowercased()
        let rest = String(text.dropFirst(word.count)).trimmingCharacters(in: " \t")
        switch word {
        case "scan", "update-cache":
            return .scan(rest.isEmpty ? nil : resolve(rest))
        case "add" where inLibrary:
            return rest.isEmpty ? .problem("add needs a folder to add to the library: add ~/Music") : .scan(resolve(rest))
        case "add", "load":
            guard !rest.isEmpty else { return .problem("\(word) needs a path: \(word) PATH") }
            return .command(word == "load" ? .load(resolve(rest)) : .add(resolve(rest), at: Int.max))
        case "help":
            return .command(.help)
        case "wait", "seed":
            return .problem("\(word) is for scripts: a command typed here runs now")
        default:
            let parsed = ScriptParser.parse(Array(text.utf8))
            if let problem = parsed.problems.first { return .problem(problem.message) }
            switch parsed.statements.first?.statement {
            case .command(.perform(let command))?: return .command(command)
            case .bare(_, let typed)?:
                return .problem("\(UntrustedText.shown(String(typed.prefix(40)))): no such command; the commands: "
                                + words.joined(separator: " "))
            case .command?, .path?, nil: return .problem("no command given")
            }
        }
    }
}
