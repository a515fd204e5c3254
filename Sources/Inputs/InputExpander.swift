import Glibc
import PlayerCore

/// Turns what the user names (files, directories, playlists, in any mix) into the list of songs.
///
/// - A directory gives its audio files (`.mp3 .mp2 .mp1 .mpga`, any case), recursively, in
///   natural order (`track2` before `track10`), hidden entries skipped; a directory reached
///   twice through symbolic links is walked once.
/// - A playlist (M3U, M3U8, PLS) gives its entries, resolved against its own folder; an entry
///   may be another playlist or a directory. A playlist that includes itself, directly or not,
///   is reported at the line that would close the cycle and not followed.
/// - An entry that does not exist is reported (`list.m3u:12: no such file: x.mp3`) and skipped.
///
/// Songs named directly are not checked here: loading them reports what is wrong.
public struct InputExpander {
    public private(set) var entries: [Entry] = []
    public private(set) var problems: [Diagnostic] = []
    /// Playlists being read, outermost first, as canonical paths: the cycle check.
    private var openPlaylists: [String] = []
    /// Playlists nest at most this deep (a guard against absurd but acyclic chains).
    public static let maxDepth = 32

    public static let audioExtensions: Set<String> = ["mp3", "mp2", "mp1", "mpga"]

    public init() {}

    /// Expands every input, in order.
    public static func expand(_ inputs: [String]) -> InputExpander {
        var expander = InputExpander()
        for input in inputs { expander.add(input) }
        return expander
    }

    /// Adds what `input` names, as typed on the command line (relative to the working folder).
    public mutating func add(_ input: String) {
        add(input, title: nil, from: nil)
    }

    /// Adds what `location` names; `place` is the playlist line it came from, if any.
    public mutating func add(_ location: String, title: String?, from place: Diagnostic?) {
        var info = stat()
        let exists = stat(location, &info) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            addDirectory(location, from: place)
        } else if let format = Playlist.format(of: location), exists {
            addPlaylist(location, format: format, from: place)
        } else if let place, !exists {
            report(place, "no such file: \(location)")
        } else {
            entries.append(Entry(path: location, title: title))
        }
    }

    private mutating func report(_ place: Diagnostic, _ message: String) {
        var problem = place
        problem.message = message
        problems.append(problem)
    }

    // MARK: Playlists

    private mutating func addPlaylist(_ path: String, format: Playlist.Format, from place: Diagnostic?) {
        let whole = place ?? Diagnostic(file: path, message: "")
        let canonical = FileSystem.canonicalPath(path) ?? path
        if openPlaylists.contains(canonical) {
            let chain = (openPlaylists.drop { $0 != canonical } + [canonical]).map(FileSystem.lastComponent)
            report(whole, "playlist cycle: \(chain.joined(separator: " -> ")); not followed")
            return
        }
        guard openPlaylists.count < Self.maxDepth else {
            report(whole, "playlists nested more than \(Self.maxDepth) deep; not followed")
            return
        }
        let bytes: [UInt8]
        switch FileSystem.readFile(path, limit: FileSystem.maxPlaylistBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            report(whole, "cannot read playlist \(path): \(error.reason)")
            return
        }
        openPlaylists.append(canonical)
        defer { openPlaylists.removeLast() }
        let folder = FileSystem.directory(of: path)
        let (items, lineProblems) = Playlist.parse(bytes, format: format)
        for problem in lineProblems {
            problems.append(Diagnostic(file: path, line: problem.line, column: problem.column, message: problem.message))
        }
        for item in items {
            let resolved = item.location.hasPrefix("/") || folder.isEmpty ? item.location : folder + "/" + item.location
            add(resolved, title: item.title,
                from: Diagnostic(file: path, line: item.line, column: item.column, message: ""))
        }
    }

    // MARK: Directories

    private mutating func addDirectory(_ path: String, from place: Diagnostic?) {
        var visited = Set<FileSystem.FileID>()
        let before = entries.count
        walk(path, visited: &visited, place: place)
        if entries.count == before {
            let whole = place ?? Diagnostic(file: path, message: "")
            let what = place == nil ? "no audio files in it" : "no audio files in \(path)"
            report(whole, "\(what) (looked for .mp3 .mp2 .mp1 .mpga)")
        }
    }

    private mutating func walk(_ path: String, visited: inout Set<FileSystem.FileID>, place: Diagnostic?) {
        guard let id = FileSystem.fileID(path), visited.insert(id).inserted else { return }
        let names: [FileSystem.DirectoryItem]
        switch FileSystem.list(path) {
        case .success(let items): names = items
        case .failure(let error):
            report(place ?? Diagnostic(file: path, message: ""), "cannot read folder \(path): \(error.reason)")
            return
        }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        for item in names.sorted(by: { NaturalOrder.less($0.name, $1.name) }) {
            let child = base + "/" + item.name
            if item.isDirectory {
                walk(child, visited: &visited, place: place)
            } else if Self.isAudioFile(item.name) {
                entries.append(Entry(path: child))
            }
        }
    }

    public static func isAudioFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return audioExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
