/// Writes the list as an M3U8 playlist, as tplayer and every other player read it back.
public enum PlaylistWriter {
    /// `entries` as an M3U8 (UTF-8): `#EXTM3U`, then for each entry its `#EXTINF` title when it
    /// has one and its path, made absolute against `folder`, so the playlist plays from wherever
    /// it is saved. A CUE sheet's tracks are written as their sheet, once for each run of its
    /// tracks. A path with a line break cannot be written on an M3U line: such entries are left
    /// out and returned in `leftOut`. Titles come from files and playlists: controls in them
    /// are written as spaces, so a title can never make a line of its own.
    public static func m3u8(_ entries: [Entry], folder: Path) -> (bytes: [UInt8], leftOut: [Path]) {
        var bytes = Array("#EXTM3U\n".utf8)
        var leftOut: [Path] = []
        var lastSheet: Path?
        for entry in entries {
            var path = entry.path
            var title = entry.title
            if entry.span != nil, let sheet = entry.origin?.file, Path(sheet).lowercasedExtension == "cue" {
                path = Path(sheet)
                title = nil
            } else {
                lastSheet = nil
            }
            if !path.isAbsolute { path = path.resolved(against: folder) }
            if entry.span != nil {
                if path == lastSheet { continue }
                lastSheet = path
            }
            guard !path.bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
                leftOut.append(entry.path)
                continue
            }
            if let title, !title.isEmpty {
                let clean = title.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : String($0) }.joined()
                bytes += Array("#EXTINF:-1,\(clean)\n".utf8)
            }
            bytes += path.bytes + [0x0A]
        }
        return (bytes, leftOut)
    }
}
