/// Writes the list as an M3U8 playlist, as tplayer and every other player read it back.
public enum PlaylistWriter {
    /// What was written, and what could not be as it was.
    public struct Written: Equatable, Sendable {
        public var bytes: [UInt8]
        /// Entries whose path holds a line break: an M3U line cannot name them; left out.
        public var leftOut: [Path] = []
        /// Images of CUE tracks whose sheet is not known (a list resumed from an older tplayer):
        /// M3U cannot name a track of a file, so each run of its tracks is the whole image.
        public var wholeImages: [Path] = []
    }

    /// `entries` as an M3U8 (UTF-8): `#EXTM3U`, then for each entry its `#EXTINF` title when it
    /// has one and its path, made absolute against `folder`, so the playlist plays from wherever
    /// it is saved. A CUE sheet's tracks are written as their sheet (its path's own bytes), once
    /// for each run of its tracks. A path with a line break cannot be written on an M3U line:
    /// such entries are left out and returned in `leftOut`. Titles come from files and
    /// playlists: controls in them are written as spaces, so a title can never make a line of
    /// its own.
    public static func m3u8(_ entries: some Sequence<Entry>, folder: Path) -> Written {
        var written = Written(bytes: Array("#EXTM3U\n".utf8))
        var lastRun: Path?
        for entry in entries {
            var path = entry.path
            var title = entry.title
            if entry.span != nil {
                // A track: its sheet, or (not known) its image, once for each run of them.
                if let sheet = entry.sheet { path = sheet }
                title = nil
            }
            // A stream's URL as it was named; a file's path made absolute.
            if !path.isAbsolute, !entry.source.isStream { path = path.resolved(against: folder) }
            guard entry.span == nil || path != lastRun else { continue }
            lastRun = entry.span == nil ? nil : path
            guard !path.bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
                written.leftOut.append(entry.path)
                continue
            }
            if entry.span != nil, entry.sheet == nil { written.wholeImages.append(path) }
            if let title, !title.isEmpty {
                written.bytes += Array("#EXTINF:-1,\(UntrustedText.flattened(title))\n".utf8)
            }
            written.bytes += path.bytes + [0x0A]
        }
        return written
    }
}
