/// Reads the entries of an M3U playlist.
public enum Playlist {
    /// The paths an M3U text names, in order: comments (`#...`) and blank lines are skipped,
    /// CRLF line ends and a UTF-8 byte-order mark are accepted, and relative paths are resolved
    /// against `directory`, the playlist's own folder.
    public static func m3uEntries(_ text: String, directory: String) -> [String] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        return body.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { $0.hasPrefix("/") || directory.isEmpty ? $0 : directory + "/" + $0 }
    }

    /// Whether `path` names a playlist by its extension.
    public static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
