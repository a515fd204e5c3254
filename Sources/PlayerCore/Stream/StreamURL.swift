/// An internet stream named where a path goes (the command line, a playlist's entry, the load
/// prompt, `-R`'s `LOAD`, MPRIS `OpenUri`, a session): `http://` or `https://` and a host, as
/// mpg123 takes them. Anything else is a path. Checked before libcurl sees it: bounded, no
/// control characters or spaces (a space is `%20` in a URL), and a host; what it then
/// connects to and where it is redirected are checked by libcurl's protocol rules
/// (`NetworkStream`).
public struct StreamURL: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    /// The network buffer in front of a stream's decoder: what a stall of the network may
    /// last, and how long a live stream paused goes on from where it paused.
    public static let bufferBytes = 2 << 20

    /// The longest URL taken (browsers take 2,083 to 64 KiB; radio URLs are short).
    public static let maximumLength = 8192

    /// The stream `path` names, or `nil` when it names no stream (a file, or not a well-formed
    /// URL: then it is a path, and "no such file" says so).
    public init?(_ path: Path) {
        let bytes = path.bytes
        guard bytes.count <= Self.maximumLength,
              let scheme = Self.schemes.first(where: { Self.starts(bytes, with: $0) }),
              bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let rest = bytes.dropFirst(scheme.count)
        let host = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard !host.isEmpty, host.first != UInt8(ascii: ":"), host.first != UInt8(ascii: "@") else { return nil }
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `path` starts as a stream's URL does (`http://`, `https://`, in any case), well
    /// formed or not: such a name is never looked for as a file.
    public static func looksLikeURL(_ path: Path) -> Bool {
        schemes.contains { starts(path.bytes, with: $0) }
    }

    static let schemes = [Array("http://".utf8), Array("https://".utf8)]

    private static func starts(_ bytes: [UInt8], with scheme: [UInt8]) -> Bool {
        bytes.count > scheme.count && zip(bytes, scheme).allSatisfy { a, b in a | 0x20 == b || a == b }
    }

    public var description: String { text }
}
