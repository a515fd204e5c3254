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
/// - An entry that does not exist is reported (`list.m3u:12: no such file: x.mp3`) and skipped:
///   by the loader when it is reached, or here already with `checksEntries` (`--check`, scripts).
///   Not checking here keeps a 100,000-entry list from costing 100,000 `stat` calls at start.
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

    /// Whether every playlist entry is checked for existence while expanding.
    public var checksEntries: Bool

    public init(checksEntries: Bool = false) {
        self.checksEntries = checksEntries
    }

    /// Expands every input, in order.
    public static func expand(_ inputs: [String], checksEntries: Bool = false) -> InputExpander {
        var expander = InputExpander(checksEntries: checksEntries)
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
            entries.append(Entry(path: location, title: title,
                                 origin: place.map { Entry.Origin(file: $0.file, line: $0.line) }))
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
        let prefix = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
        Playlist.parse(bytes, format: format, item: { item in
            let resolved = item.location.hasPrefix("/") ? item.location : prefix + item.location
            if !checksEntries, Self.isAudioFile(item.location) {
                // The common case, without a system call: the loader reports it if it is missing.
                entries.append(Entry(path: resolved, title: item.title, origin: Entry.Origin(file: path, line: item.line)))
            } else {
                add(resolved, title: item.title, from: Diagnostic(file: path, line: item.line, column: item.column, message: ""))
            }
        }, problem: { problem in
            problems.append(Diagnostic(file: path, line: problem.line, column: problem.column, message: problem.message))
        })
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

    /// Whether `name` ends in an audio extension, any case (checked on the bytes: it runs once
    /// per playlist entry).
    public static func isAudioFile(_ name: String) -> Bool {
        var utf8 = name.utf8.reversed().prefix(6).makeIterator()
        var ext: [UInt8] = []
        while let byte = utf8.next() {
            if byte == UInt8(ascii: ".") {
                guard ext.count >= 3, ext.count + 1 < name.utf8.count else { return false }  // a name before the dot
                return audioExtensions.contains(String(decoding: ext.reversed().map { $0 | 0x20 }, as: UTF8.self))
            }
            if byte == UInt8(ascii: "/") { return false }
            ext.append(byte)
        }
        return false
    }
}
