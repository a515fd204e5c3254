/// One song in the list: its path, and the title a playlist gave it (shown when the file has
/// no tags).
public struct Entry: Equatable, Hashable, Sendable {
    public var path: Path
    public var title: String?
    /// The playlist line that named it, for messages about it.
    public var origin: Origin?

    public struct Origin: Equatable, Hashable, Sendable {
        public var file: String
        public var line: Int

        public init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }

    public init(path: Path, title: String? = nil, origin: Origin? = nil) {
        self.path = path
        self.title = title
        self.origin = origin
    }

    /// A load failure about this entry: `list.m3u:12: no such file: x.mp3` when a playlist named
    /// it, else `x.mp3: no such file`.
    public func describe(_ error: LoadError) -> String {
        guard let origin else { return error.description }
        return "\(origin.file):\(origin.line): \(error.reason): \(path)"
    }
}

/// A problem found in a file tplayer reads (a playlist or a script), with where it is.
public struct Diagnostic: Equatable, Sendable, Error {
    public var file: String
    /// 1-based; 0 when the problem is about the whole file.
    public var line: Int
    /// 1-based, in characters.
    public var column: Int
    public var message: String

    public init(file: String, line: Int = 0, column: Int = 1, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `list.m3u:12: no such file: x.mp3`: how a run reports it.
    public var brief: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }

    /// `list.m3u:12:1: no such file: x.mp3`: how `--check` reports it (what editors jump to).
    public var located: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}
