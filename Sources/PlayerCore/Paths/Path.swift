/// A file-system path as Linux has it: bytes, not text.
///
/// A file name may hold any byte but `/` and NUL, and old disks and archives are full of names
/// in Latin-1 or worse. Keeping the bytes end to end means such a file can be found, opened and
/// played; only its display (`description`) is repaired, with U+FFFD for each invalid sequence,
/// and that display still goes through `TerminalText` before it reaches a terminal.
public struct Path: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public private(set) var bytes: [UInt8]

    /// The bytes hashed in one go, not one `combine` each (a list of 100,000 songs is looked up
    /// by path at every search and redraw).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// The bytes of a C string (argv, `getenv`, `realpath`), however they are encoded.
    public init(cString: UnsafePointer<CChar>) {
        var bytes: [UInt8] = []
        var next = cString
        while next.pointee != 0 {
            bytes.append(UInt8(bitPattern: next.pointee))
            next += 1
        }
        self.bytes = bytes
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path for people: UTF-8, with invalid sequences shown as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The path for a message, shortened in the middle (`deep/dddd…dddd/song.mp3`) when it is
    /// longer than `limit` characters: a path can be 4 KB, a message should stay readable.
    public func abbreviated(_ limit: Int = 160) -> String {
        let text = description
        guard text.count > limit else { return text }
        let half = max((limit - 1) / 2, 1)
        return text.prefix(half) + "…" + text.suffix(half)
    }

    /// The path as text, when its bytes are valid UTF-8.
    public var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The same name read as Latin-1 and written as UTF-8, when the bytes are not UTF-8: what
    /// an old playlist's line names once the files themselves were renamed to UTF-8.
    public var latin1AsUTF8: Path? {
        text == nil ? Path(TextLines.decode(bytes)) : nil
    }

    public var isEmpty: Bool { bytes.isEmpty }
    public var isAbsolute: Bool { bytes.first == Self.slash }
    /// Whether the path holds a NUL byte, which no file name can: such a path names nothing.
    public var hasNUL: Bool { bytes.contains(0) }

    /// `self` and `component` joined by exactly one `/`.
    public func appending(_ component: Path) -> Path {
        guard !bytes.isEmpty else { return component }
        var joined = bytes
        if joined.last != Self.slash { joined.append(Self.slash) }
        joined += component.bytes.drop { $0 == Self.slash }
        return Path(bytes: joined)
    }

    /// `self` read from `folder` when it is relative; as it is when absolute or `folder` is empty.
    public func resolved(against folder: Path) -> Path {
        isAbsolute || folder.isEmpty ? self : folder.appending(self)
    }

    /// The folder part: empty for a bare name, `/` for a file at the root.
    public var directory: Path {
        guard let slash = bytes.lastIndex(of: Self.slash) else { return Path(bytes: []) }
        return slash == 0 ? Path("/") : Path(bytes: bytes[..<slash])
    }

    /// The last component, without trailing slashes (the whole path when it has none).
    public var lastComponent: Path {
        var end = bytes.count
        while end > 0, bytes[end - 1] == Self.slash { end -= 1 }
        let trimmed = bytes[..<end]
        guard let slash = trimmed.lastIndex(of: Self.slash) else { return Path(bytes: trimmed) }
        return Path(bytes: trimmed[(slash + 1)...])
    }

    /// The extension of the last component, lowercased (ASCII), without the dot; `nil` when the
    /// name has none or is only an extension (`.mp3` is a hidden file, not an MP3).
    public var lowercasedExtension: String? {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < name.count else { return nil }
        let ext = name[(dot + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return String(decoding: ext, as: UTF8.self)
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var cString = bytes.map { CChar(bitPattern: $0) }
        cString.append(0)
        return try body(cString)
    }

    private static let slash = UInt8(ascii: "/")
}

extension Path: Comparable {
    /// Byte order: a total order, used only as a tie-break (natural order is for people).
    public static func < (lhs: Path, rhs: Path) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
