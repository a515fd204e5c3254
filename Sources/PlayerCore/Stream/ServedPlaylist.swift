/// A playlist served over http (a radio's `listen.pls`, a directory's `.m3u`): told by its
/// `Content-Type`, by its first bytes, or by its name when the server calls it text; its entries
/// take its place in the list when it is opened (`Session.adopt`).
///
/// Its entries are streams only: a relative one is resolved against the playlist's URL, as a
/// browser resolves a link (`stream.mp3`, `/live`, `//host/x`); one naming a file on this
/// machine (`file:///…`) or another scheme is said and left out. A server can never make the
/// player open a local file.
public struct ServedPlaylist: Equatable, Sendable {
    public var url: String
    public var format: Playlist.Format
    public var entries: [Entry]
    public var problems: [Diagnostic]

    public init(url: String, format: Playlist.Format, entries: [Entry], problems: [Diagnostic]) {
        self.url = url
        self.format = format
        self.entries = entries
        self.problems = problems
    }

    /// A served playlist larger than this is refused (a radio's is a few hundred bytes).
    public static let maxBytes = 1 << 20
    /// Served playlists naming served playlists nest at most this deep.
    public static let maxDepth = 16

    /// What is said of playlists that name each other: `chain`, outermost first, ending with
    /// the one it comes back to.
    public static func cycle(_ chain: [String]) -> String {
        "playlist cycle: \(chain.joined(separator: " -> ")); not followed"
    }

    /// What is said of playlists nested past `maxDepth`.
    public static let tooDeep = "playlists nested more than \(maxDepth) deep; not followed"

    /// The playlist format a served body is in, if it is a playlist: its `Content-Type` says so
    /// (`audio/x-scpls`, `audio/x-mpegurl`…), or its first bytes (`[playlist]`, `#EXTM3U`), or
    /// its URL's name (`.pls`, `.m3u`, `.m3u8`) when the type is text or not said.
    public static func format(contentType: String?, head: some Collection<UInt8>, url: String) -> Playlist.Format? {
        let type = contentType.map(FileContent.mediaType)
        switch type {
        case "audio/x-scpls", "audio/scpls", "application/pls+xml", "application/pls": return .pls
        case "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/mpegurl",
             "application/vnd.apple.mpegurl", "audio/x-m3u", "audio/m3u":
            return .m3u
        default: break
        }
        switch FileContent.sniff(head) {
        case .m3u?: return .m3u
        case .pls?: return .pls
        case nil: break
        case _?: return nil
        }
        guard type == nil || type!.hasPrefix("text/") || type == "application/octet-stream" else { return nil }
        return Playlist.format(of: Path(path(of: url)))
    }

    /// The path part of `url` (no query, no fragment).
    static func path(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let rest = afterScheme.drop { $0 != "/" }
        return String(rest.prefix { $0 != "?" && $0 != "#" })
    }

    /// Whether `body` is an HLS playlist (`#EXT-X-` tags): a list of segments, not of streams.
    public static func isHLS(_ body: [UInt8]) -> Bool {
        let tag = Array("#EXT-X-".utf8)
        return body.indices.contains { at in
            (at == 0 || body[at - 1] == 0x0A) && body[at...].starts(with: tag)
        }
    }

    /// The entries of `body`, a playlist in `format` served at `url`.
    public static func parse(_ body: [UInt8], format: Playlist.Format, url: String) -> ServedPlaylist {
        let read = Playlist.parse(body, format: format, file: url)
        var served = ServedPlaylist(url: url, format: format, entries: [], problems: read.problems)
        for item in read.items {
            let written = item.written ?? String(decoding: item.path.bytes, as: UTF8.self)
            if FileURL.isFileURL(written) {
                served.problems.append(Diagnostic(item.location, "a playlist from the network names streams, not files on this "
                                                      + "machine: \(written); not played"))
            } else if let stream = StreamURL.resolve(written, against: url) {
                served.entries.append(Entry(path: Path(stream.text), title: item.title, origin: item.location))
            } else {
                served.problems.append(Diagnostic(item.location, "not a stream's URL: \(written); not played"))
            }
        }
        return served
    }
}

extension StreamURL {
    /// `reference` (a link in a page served at `base`) made a whole URL, as RFC 3986 resolves
    /// it: a URL of its own, `//host/x`, `/x`, `?q` or a path beside the page's; bytes a URL
    /// cannot hold (spaces, non-ASCII) escaped. `nil` when it is no http or https stream.
    public static func resolve(_ reference: String, against base: String) -> StreamURL? {
        let escaped = escape(String(reference[...].trimmed))
        guard !escaped.isEmpty, let baseURL = StreamURL(Path(base)) else { return nil }
        if looksLikeURL(Path(escaped)) { return StreamURL(Path(escaped)) }
        // Another scheme (`ftp:`, `file:`): not followed. A colon before any slash is a scheme's.
        let beforeSlash = escaped.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !beforeSlash.contains(":") else { return nil }
        let text = baseURL.text
        guard let schemeEnd = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound]
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let basePath = ServedPlaylist.path(of: text)
        let resolvedPath: String
        if escaped.hasPrefix("//") {
            return StreamURL(Path("\(scheme):\(escaped)"))
        } else if escaped.hasPrefix("/") {
            resolvedPath = removingDotSegments(escaped)
        } else if escaped.hasPrefix("?") {
            resolvedPath = (basePath.isEmpty ? "/" : basePath) + escaped
        } else {
            let folder = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            resolvedPath = removingDotSegments(folder + escaped)
        }
        return StreamURL(Path("\(scheme)://\(authority)\(resolvedPath)"))
    }

    /// Bytes outside printable ASCII (and `%` not starting an escape is left: it may be one)
    /// as `%XX`.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte > 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// `/a/b/../c/./d` → `/a/c/d` (RFC 3986, 5.2.4), the query and fragment left as they are.
    static func removingDotSegments(_ path: String) -> String {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        var out: [Substring] = []
        let segments = path[..<end].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".": if isLast { out.append("") }
            case "..":
                if !out.isEmpty { out.removeLast() }
                if isLast { out.append("") }
            default: out.append(segment)
            }
        }
        return "/" + out.joined(separator: "/") + path[end...]
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(width - count, 0)) + self }
}

extension Substring {
    /// Without the blanks (spaces, tabs) at either end.
    var trimmed: Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
