import PlayerCore

/// The command line (`:`, cmus's habit): a line as a scripted playlist file says it (`volume 50`,
/// `seek 1:30`, `repeat on`, `add ~/Music/Post`, `load x.mp3`), run now; and what only a person
/// at the keys asks: `scan` (the library brought up to date, as `--scan`), `scan FOLDER` (the
/// folder added to the library), and in the library view `add FOLDER`, as cmus's `:add` there.
extension Console {
    /// What a line typed at `:` asks.
    enum CommandLine: Equatable {
        case commands([Command])
        /// The library's folders scanned, this one added to them first.
        case scan(Path?)
        case problem(String)
    }

    /// The words the command line takes, as its problems list them.
    static let commandWords = ScriptParser.commandWords.filter { !["wait", "seed"].contains($0) } + ["scan", "help"]

    /// Reads `text` (a path resolved as the load prompt resolves it).
    static func commandLine(_ text: String, inLibrary: Bool, resolve: (String) -> Path) -> CommandLine {
        let word = String(text.prefix { $0 != " " && $0 != "\t" }).lowercased()
        let rest = String(text.dropFirst(word.count)).trimmingCharacters(in: " \t")
        switch word {
        case "scan", "update-cache":
            return .scan(rest.isEmpty ? nil : resolve(rest))
        case "add" where inLibrary:
            return rest.isEmpty ? .problem("add needs a folder to add to the library: add ~/Music") : .scan(resolve(rest))
        case "add", "load":
            guard !rest.isEmpty else { return .problem("\(word) needs a path: \(word) PATH") }
            return .commands([word == "load" ? .load(resolve(rest)) : .add(resolve(rest), at: Int.max)])
        case "help":
            return .commands([.help])
        case "wait", "seed":
            return .problem("\(word) is for scripts: a command typed here runs now")
        default:
            let parsed = ScriptParser.parse(Array(text.utf8))
            if let problem = parsed.problems.first { return .problem(problem.message) }
            switch parsed.statements.first?.statement {
            case .command(.perform(let command))?: return .commands([command])
            case .bare(_, let typed)?:
                return .problem("\(UntrustedText.shown(String(typed.prefix(40)))): no such command; the commands: "
                                + commandWords.joined(separator: " "))
            case .command?, .path?, nil: return .problem("no command given")
            }
        }
    }

    /// Runs the line typed at `:`: the command it gives (for the player), or a scan started, or
    /// its problem said.
    func run(commandLine text: String) -> Command? {
        switch Self.commandLine(text, inLibrary: showsLibrary, resolve: paths.resolve) {
        case .commands(let commands): return commands.first
        case .scan(let folder):
            guard let scanLibrary else {
                print("tplayer: the library cannot be scanned from here")
                return nil
            }
            scanLibrary(folder)
            print("tplayer: library: scanning" + (folder.map { " (\($0) added)" } ?? "") + "…")
        case .problem(let problem):
            print("tplayer: :\(UntrustedText.shown(String(text.prefix(60)))): \(problem)")
        }
        return nil
    }
}
