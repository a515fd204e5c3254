/// How MPD's clients name songs: by a URI relative to the music folder (`Artist/Album/01.flac`),
/// as MPD gives them. With several library folders each is a top folder of its own, under its
/// last name (`Music/…`, `Archive/…`; a second of the same name gets `-2`). A song outside
/// them is named by its absolute path, a stream by its URL, as MPD names them.
public struct MpdRoots: Equatable, Sendable {
    /// The library folders, absolute, and what each is called (empty: the only one, the root).
    public let folders: [(path: Path, name: String)]

    public static func == (a: MpdRoots, b: MpdRoots) -> Bool {
        a.folders.map(\.path) == b.folders.map(\.path) && a.folders.map(\.name) == b.folders.map(\.name)
    }

    public init(_ folders: [Path]) {
        let paths = folders.map { Path(bytes: $0.bytes.count > 1 && $0.bytes.last == 0x2F ? $0.bytes.dropLast() : $0.bytes[...]) }
        guard paths.count > 1 else {
            self.folders = paths.map { ($0, "") }
            return
        }
        var used: [String: Int] = [:]
        self.folders = paths.map { path in
            let base = "\(path.lastComponent)".isEmpty ? "root" : "\(path.lastComponent)"
            used[base, default: 0] += 1
            let count = used[base] ?? 1
            return (path, count == 1 ? base : "\(base)-\(count)")
        }
    }

    /// The URI a client knows `path` by.
    public func uri(of path: Path) -> String {
        for folder in folders {
            guard let relative = Self.relative(path, to: folder.path) else { continue }
            if folder.name.isEmpty { return relative }
            return relative.isEmpty ? folder.name : folder.name + "/" + relative
        }
        return "\(path)"
    }

    /// `path` under `folder`, relative to it (empty: the folder itself); `nil` when outside.
    private static func relative(_ path: Path, to folder: Path) -> String? {
        let inner = folder.bytes == [0x2F] ? [] : folder.bytes
        guard path.bytes.starts(with: inner) else { return nil }
        let rest = path.bytes.dropFirst(inner.count)
        if rest.isEmpty { return "" }
        guard rest.first == 0x2F else { return nil }
        return String(decoding: rest.dropFirst(), as: UTF8.self)
    }

    /// What a client's URI names in the library: a path under one of the folders (`""` and
    /// `"/"` are the root); `nil` when it names none (a `..` or `.` among its parts, an empty
    /// part, a folder name that is not there).
    public func path(of uri: String) -> Path? {
        var parts = uri.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        if parts.first == "" { parts.removeFirst() }
        guard !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty || $0.contains("\0") }) else { return nil }
        guard let root = folders.first else { return nil }
        var base = root.path
        if !root.name.isEmpty {
            guard let first = parts.first, let named = folders.first(where: { $0.name == first }) else { return nil }
            base = named.path
            parts.removeFirst()
        }
        return parts.reduce(base) { $0.appending(Path($1)) }
    }

    /// Whether the URI names the root of all the folders (several folders: the folder list).
    public func isTop(_ uri: String) -> Bool {
        uri.isEmpty || uri == "/"
    }
}
