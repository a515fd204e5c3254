import PlayerCore

/// The portable listen log, `.scrobbler.log` as Rockbox writes it (AUDIOSCROBBLER/1.1), which
/// scrobbling tools upload: a header, then a line a song, its fields apart by tabs.
///
///     #AUDIOSCROBBLER/1.1
///     #TZ/UTC
///     #CLIENT/tplayer
///     Björk<TAB>Post<TAB>Hyperballad<TAB>2<TAB>321<TAB>L<TAB>1764185000<TAB>
///
/// Fields: artist, album, title, track number, length in seconds, `L` (listened) or `S`
/// (skipped), when it started (Unix time, UTC), MusicBrainz track ID (none here). Only songs
/// with an artist and a title are logged (a scrobble needs both).
public enum ListenLog {
    public static let header = "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/tplayer\n"
    /// How every such log starts, whichever version wrote it: only a file that does (or an
    /// empty one) is written to.
    public static let firstLine = "#AUDIOSCROBBLER/"

    /// The line for `listen`, which started at `started` (Unix seconds); `nil` when the song
    /// has no artist or no title.
    public static func line(_ listen: Listen, started: Int64) -> String? {
        let tags = listen.song.tags
        guard let artist = field(tags.artist), let title = field(tags.title) else { return nil }
        let length = listen.song.totalFrames.map { Int(listen.song.seconds($0).rounded()) }.map(String.init) ?? ""
        let track = SongInfo.Tags.leadingNumber(tags.track).map(String.init) ?? ""
        let rating = listen.kind == .played ? "L" : "S"
        return [artist, field(tags.album) ?? "", title, track, length, rating, String(started), ""].joined(separator: "\t") + "\n"
    }

    /// A tag as one field: tabs and line breaks (which would split the line) and every other
    /// control character are spaces; blank is none.
    static func field(_ text: String?) -> String? {
        guard let text else { return nil }
        var cleaned = String.UnicodeScalarView()
        cleaned.append(contentsOf: text.unicodeScalars.lazy.map { UntrustedText.isControl($0) ? " " : $0 })
        let result = String(cleaned)
        return result.allSatisfy(\.isWhitespace) ? nil : result
    }
}
