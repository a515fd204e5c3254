import Files
import Glibc
import PlayerCore

/// A path as a person types it at the load prompt: surrounding spaces and a pair of quotes
/// (from a shell habit or a paste) removed, `~/` as the home folder; and Tab completion.
public enum TypedPath {
    /// The path `text` means.
    public static func resolve(_ text: String) -> Path {
        var typed = Substring(text).drop { $0 == " " || $0 == "\t" }
        while let last = typed.last, last == " " || last == "\t" { typed = typed.dropLast() }
        if typed.count >= 2, let first = typed.first, first == "'" || first == "\"", typed.last == first {
            typed = typed.dropFirst().dropLast()
        }
        if typed == "~" || typed.hasPrefix("~/"), let home = getenv("HOME") {
            let rest = typed.dropFirst(2)
            return rest.isEmpty ? Path(cString: home) : Path(cString: home).appending(Path(String(rest)))
        }
        return Path(String(typed))
    }

    /// `text` completed as far as the names in its folder agree (a folder gets its `/`), and
    /// the names that still match when there are several. Hidden names are offered only when
    /// the typed part starts with a dot.
    public static func complete(_ text: String, files: any FileAccess = SystemFiles(),
                                isCancelled: () -> Bool = { false }) -> (text: String, choices: [String]) {
        let typedFolder = text.lastIndex(of: "/").map { String(text[...$0]) } ?? ""
        let partial = String(text.dropFirst(typedFolder.count))
        let folder = typedFolder.isEmpty ? Path(".") : resolve(typedFolder)
        guard case .success(let items) = files.list(folder, includingHidden: partial.hasPrefix("."), isCancelled: isCancelled) else {
            return (text, [])
        }
        let matches = items.filter { $0.name.description.hasPrefix(partial) }
            .map { $0.name.description + ($0.isDirectory ? "/" : "") }
            .sorted(by: NaturalOrder.less)
        guard let first = matches.first else { return (text, []) }
        var common = first
        for match in matches.dropFirst() {
            while !match.hasPrefix(common) { common.removeLast() }
        }
        return (typedFolder + common, matches.count > 1 ? matches : [])
    }
}
