import PlayerCore

/// Named playlists: `NAME.m3u` files in one folder of tplayer's own
/// (`$XDG_DATA_HOME/tplayer/playlists`), each an M3U8 of absolute paths that any player reads;
/// MPD's clients' stored playlists are the same files. A smart playlist is one that holds its
/// query (`#TPLAYER-QUERY:rating:4.. played:>90d`, after `#EXTM3U`): filled with the library's
/// songs the query matches when it is opened, and written with them, so that another player or
/// an MPD client sees its songs as they last were.
///
/// Every write makes the file whole or leaves it as it was (a new file beside it, renamed or
/// linked in); only regular files of that folder are ever written, renamed or removed, and a
/// name that could lead out of it or break a line is refused.
public struct NamedPlaylists: Sendable {
    public let folder: Path

    public init(folder: Path) {
        self.folder = folder
    }

    public enum Failure: Error, Equatable, Sendable {
        case noSuch
        case exists
        /// Why the name cannot be a playlist's.
        case badName(String)
        case system(String)
    }

    /// The line that starts a smart playlist's query.
    static let queryMark = "#TPLAYER-QUERY:"
    /// The longest name, in bytes (a file name holds 255, with `.m3u`).
    public static let longestName = 200

    /// Why `name` cannot name a playlist (`nil`: it can): empty, `.` or `..`, a `/`, a control
    /// character (a line break would end an M3U line or a protocol's reply), too long.
    public static func refusal(_ name: String) -> String? {
        if name.isEmpty { return "a playlist needs a name" }
        if name == "." || name == ".." { return "a playlist cannot be called \(name)" }
        if name.contains("/") { return "a playlist name cannot hold /" }
        if name.unicodeScalars.contains(where: UntrustedText.isControl) { return "a playlist name cannot hold control characters" }
        if name.utf8.count > longestName { return "a playlist name of more than \(longestName) bytes" }
        return nil
    }

    public func path(_ name: String) -> Result<Path, Failure> {
        if let why = Self.refusal(name) { return .failure(.badName(why)) }
        return .success(folder.appending(Path(name + ".m3u")))
    }

    /// Every playlist's name and when it last changed (seconds since 1970), by name.
    public func all() -> [(name: String, modified: Int64)] {
        listed().map { ($0.name, $0.status.modified / 1_000_000_000) }
    }

    /// Every playlist's name and its file's status (size and time: what tells a reader that
    /// has it already that it is the same), by name.
    public func listed() -> [(name: String, status: FileStatus)] {
        guard case .success(let items) = FileSystem.list(folder, includingHidden: true) else { return [] }
        return items.compactMap { item -> (String, FileStatus)? in
            guard !item.isDirectory, let name = item.name.text, name.hasSuffix(".m3u"), name.count > 4,
                  case .success(let status) = FileSystem.status(of: folder.appending(item.name)), status.kind == .regular else { return nil }
            return (String(name.dropLast(4)), status)
        }.sorted { $0.0 < $1.0 }
    }

    /// The songs of playlist `name`, in order, and its query if it is a smart one.
    public func read(_ name: String) -> Result<(songs: [Path], query: String?), Failure> {
        path(name).flatMap { file in
            guard case .success(let status) = FileSystem.status(of: file), status.kind == .regular,
                  case .success(let bytes) = FileSystem.readAll(file, limit: 256 << 20) else { return .failure(.noSuch) }
            let items = Playlist.parse(bytes, format: .m3u, file: "\(file)").items.prefix(Entry.listLimit)
            let songs = items.map { item in item.written.map { Path($0) } ?? (item.path.isAbsolute ? item.path : item.path.resolved(against: folder)) }
            return .success((songs, Self.query(in: bytes)))
        }
    }

    /// The songs of playlist `name`, in order.
    public func songs(_ name: String) -> Result<[Path], Failure> {
        read(name).map(\.songs)
    }

    /// A smart playlist's query: its `#TPLAYER-QUERY:` line among the first lines.
    static func query(in bytes: [UInt8]) -> String? {
        for line in bytes.prefix(4096).split(separator: 0x0A, omittingEmptySubsequences: false).prefix(4) {
            var text = String(decoding: line, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            if text.hasPrefix(queryMark) { return String(text.dropFirst(queryMark.count)) }
        }
        return nil
    }

    /// Writes playlist `name` as `songs` (a smart one with its `query`): a new one only when
    /// `new` (else one there is replaced).
    public func write(_ name: String, _ songs: [Path], new: Bool, query: String? = nil) -> Result<Void, Failure> {
        path(name).flatMap { file in
            if let failure = FileSystem.makeFolders(folder, permissions: 0o755) {
                return .failure(.system("cannot make \(folder): \(failure.reason)"))
            }
            var bytes = PlaylistWriter.m3u8(EntryList(paths: songs), folder: folder).bytes
            if let query {
                // One line, whatever was typed: a control character is a space, as the query reads it.
                let line = String(String.UnicodeScalarView(query.unicodeScalars.map { UntrustedText.isControl($0) ? " " : $0 }))
                bytes.insert(contentsOf: Array((Self.queryMark + line + "\n").utf8), at: "#EXTM3U\n".utf8.count)
            }
            if new {
                if let failure = FileSystem.publish(file, bytes: bytes, permissions: 0o644) {
                    return .failure(failure == .fileExists ? .exists : .system(failure.reason))
                }
            } else if let failure = FileSystem.replace(file, with: bytes, permissions: 0o644) {
                return .failure(.system("\(failure)"))
            }
            return .success(())
        }
    }

    /// Changes playlist `name` (made empty when it is not there and `creates`); a smart one
    /// keeps its query.
    public func change<Failing: Error>(_ name: String, creates: Bool = false, _ edit: (inout [Path]) -> Result<Void, Failing>,
                                       failure: (Failure) -> Failing) -> Result<Void, Failing> {
        var found: (songs: [Path], query: String?)
        switch read(name) {
        case .success(let read): found = read
        case .failure(.noSuch) where creates: found = ([], nil)
        case .failure(let why): return .failure(failure(why))
        }
        return edit(&found.songs).flatMap { write(name, found.songs, new: false, query: found.query).mapError(failure) }
    }

    public func remove(_ name: String) -> Result<Void, Failure> {
        path(name).flatMap { file in FileSystem.removeFile(file) == nil ? .success(()) : .failure(.noSuch) }
    }

    public func rename(_ name: String, to new: String) -> Result<Void, Failure> {
        path(name).flatMap { from in
            path(new).flatMap { to in
                guard case .success(let status) = FileSystem.linkStatus(of: from), status.kind == .regular else { return .failure(.noSuch) }
                guard !FileSystem.exists(to) else { return .failure(.exists) }
                return FileSystem.rename(from, to: to).mapError { .system($0.reason) }
            }
        }
    }
}

extension NamedPlaylists.Failure {
    /// As one line about playlist `name`.
    public func said(about name: String) -> String {
        let shown = UntrustedText.shown(name)
        return switch self {
        case .noSuch: "no playlist called \(shown)"
        case .exists: "a playlist called \(shown) is there already: give another name, or delete it first"
        case .badName(let why): "\(shown): \(why)"
        case .system(let why): "playlist \(shown): \(why)"
        }
    }
}
