import Files
import Glibc
import PlayerCore

/// Reads a scripted playlist file and resolves its paths, relative to the script's own folder:
/// the lines to run, and every problem found, each with its line and column. The script's own
/// problems (a line not understood, a path that is not there) are kept apart from those inside
/// the playlists it names (an entry missing): `tplayer --check` prints them all.
public struct ScriptCompiler {
    public private(set) var lines: [ScriptLine] = []
    /// What is wrong in the script itself, in line order.
    public private(set) var problems: [Diagnostic] = []
    /// What is wrong inside the playlists the script names (an entry missing, a line not
    /// understood), in the order found; the entries are left out of `lines`.
    public private(set) var playlistProblems: [Diagnostic] = []
    /// Every playlist the script's paths led to (read while checking them).
    public private(set) var playlists: [Path] = []
    /// At most this many problems are listed; a file with more is surely not a script.
    public static let maxProblems = 50

    /// A script larger than this is refused before it is read: scripts are written by hand.
    public static let maxScriptBytes = 1 << 20

    /// Where the script, its songs and its playlists are read from.
    private let files: any FileAccess

    public init(path: Path, files: any FileAccess = SystemFiles()) {
        self.files = files
        let file = "\(path)"
        let bytes: [UInt8]
        switch files.readAll(path, limit: Self.maxScriptBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            let reason = error == .tooLarge(limit: Self.maxScriptBytes) ? "\(error); is it really a script?" : "\(error)"
            problems.append(Diagnostic(SourceLocation(file: file), "cannot read script: \(reason)"))
            return
        }
        let folder = path.directory
        let parsed = ScriptParser.parse(bytes, file: file)
        problems = parsed.problems
        for (start, statement) in parsed.statements {
            switch statement {
            case .command(let command):
                lines.append(ScriptLine(start, command))
            case .path(let location, let column, let playNow):
                let place = SourceLocation(file: file, line: start.line, column: column)
                lines.append(ScriptLine(start, .add(resolve(location, folder: folder, place: place), playNow: playNow)))
            case .bare(let text, let word):
                if Self.looksLikePath(text) || files.exists(Self.resolved(text, folder: folder)) {
                    lines.append(ScriptLine(start, .add(resolve(text, folder: folder, place: start), playNow: false)))
                } else {
                    let hint = ScriptParser.suggestion(for: word).map { " (did you mean '\($0)'?)" } ?? ""
                    problems.append(Diagnostic(start, "unknown command '\(word)'\(hint); a song path needs a / or an extension, or add PATH"))
                }
            }
        }
        problems.sort(by: Self.inPlaceOrder)
        if problems.count > Self.maxProblems {
            let more = problems.count - Self.maxProblems
            problems.removeLast(more)
            problems.append(Diagnostic(SourceLocation(file: file), "\(more) more problems not listed; is it really a script?"))
        }
    }

    /// Every problem, the script's and its playlists', in file and line order (a note that more
    /// of the script's were not listed stays last): what `--check` lists.
    public var allProblems: [Diagnostic] {
        guard !playlistProblems.isEmpty else { return problems }
        let listed = problems.prefix(Self.maxProblems)
        return (listed + playlistProblems).sorted(by: Self.inPlaceOrder) + problems.dropFirst(listed.count)
    }

    /// Whether `a` comes before `b`: by file, then line, then column.
    static func inPlaceOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.location.file, a.location.line, a.location.column) < (b.location.file, b.location.line, b.location.column)
    }

    /// Every song the script's lines name.
    public var entries: EntryList {
        var all = EntryList()
        for line in lines {
            if case .add(let entries, _) = line.command { all.append(contentsOf: entries) }
        }
        return all
    }

    /// A bare line is taken as a path when it has a slash or a file extension.
    static func looksLikePath(_ text: Path) -> Bool {
        if text.bytes.contains(UInt8(ascii: "/")) { return true }
        guard let ext = text.lowercasedExtension else { return false }
        return ext.count <= 5 && ext.allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// `location` made usable: `~/` is the home folder, a relative path is read from the
    /// script's folder.
    static func resolved(_ location: Path, folder: Path) -> Path {
        if location.bytes.starts(with: "~/".utf8), let home = getenv("HOME") {
            return Path(cString: home).appending(Path(bytes: location.bytes.dropFirst(2)))
        }
        return location.resolved(against: folder)
    }

    /// The songs `location` names; a missing file is a problem at `place`. What is wrong there
    /// (a folder with no audio, a playlist that cannot be read) is the script's problem; what is
    /// wrong further in, inside a playlist, is the playlist's.
    private mutating func resolve(_ location: Path, folder: Path, place: SourceLocation) -> EntryList {
        // An internet stream is never looked for on the disk: opening it says what is wrong.
        if StreamURL.looksLikeURL(location) {
            guard StreamURL(location) != nil else {
                problems.append(Diagnostic(place, "not a URL tplayer can open (http:// or https://, a host, no spaces): \(location)"))
                return []
            }
            return [Entry(path: location, origin: place)]
        }
        var expander = InputExpander(checksEntries: true, files: files)
        let path = Self.resolved(location, folder: folder)
        if case .failure(let error) = files.status(of: path) {
            problems.append(Diagnostic(place, "\(error.reason): \(location)"))
            return []
        }
        expander.add(path, title: nil, from: place)
        problems += expander.problems.filter { $0.location == place }
        playlistProblems += expander.problems.filter { $0.location != place }
        playlists += expander.playlists
        return expander.entries
    }
}
