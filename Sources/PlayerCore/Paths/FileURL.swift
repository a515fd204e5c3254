/// `file://` URLs: how playlists and MPRIS's `OpenUri` may name a song, and how MPRIS names the
/// one playing. Paths are bytes, so a name that is not UTF-8 travels as `%XX` escapes.
public enum FileURL {
    /// Why a URL names no local file.
    public enum Problem: Error, Equatable {
        case notFileURL
        case otherHost
        /// A malformed `%` escape, or an escaped NUL.
        case badEscape
    }

    /// Whether `text` starts as a `file:` URL does (any case).
    public static func isFileURL(_ text: String) -> Bool {
        text.lowercased().hasPrefix("file://")
    }

    /// The local path `text` names: `file:///a%20b.mp3` → `/a b.mp3`, `file://localhost/…` too.
    public static func path(_ text: String) -> Result<Path, Problem> {
        guard isFileURL(text) else { return .failure(.notFileURL) }
        var rest = Substring(text.dropFirst(7))
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst(9) }
        guard rest.hasPrefix("/") else { return .failure(.otherHost) }
        guard let path = percentDecoded(rest) else { return .failure(.badEscape) }
        return .success(path)
    }

    /// `file://` and `path`, every byte outside the unreserved set and `/` escaped, so the URL
    /// is ASCII whatever the name's bytes.
    public static func string(for path: Path) -> String {
        let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8))
        return "file://" + String(decoding: percentEncoded(path.bytes, keeping: unreserved.contains), as: UTF8.self)
    }

    /// `bytes` with every byte `keep` refuses written as `%XX` (upper-case hex).
    public static func percentEncoded(_ bytes: [UInt8], keeping keep: (UInt8) -> Bool) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if keep(byte) { out.append(byte) } else { out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        }
        return out
    }

    /// `%20` and friends decoded to bytes (a `%FF` is a byte of a name that is not UTF-8);
    /// `nil` for a malformed escape or an escaped NUL.
    static func percentDecoded(_ text: Substring) -> Path? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue),
                  high | low != 0
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return Path(bytes: bytes)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
