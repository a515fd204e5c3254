import Files
import PlayerCore

/// A song's lyrics, found where players look for them: a sidecar `.lrc`, else its tags.
enum LyricsReader {
    /// The lyrics of the song at `path`: its `.lrc` (a regular file, bounded; beside it, else in
    /// `lyrics/` beside it), else the lyrics its tags hold: a `LYRICS` or `UNSYNCEDLYRICS` tag
    /// (Vorbis comments; MP4's `©lyr`, as FFmpeg names it; `lyrics-eng`, FFmpeg's name for an ID3
    /// chunk's `USLT`), ID3's synchronised `SYLT` or 2.2's `SLT` (in a tag at the file's start,
    /// read from `source`, the song's own open file; never over the network), or its `USLT`.
    static func lyrics(of path: Path, song: SongInfo, in source: ByteSource?) -> SongLyrics? {
        var refused: SongLyrics?
        for sidecar in song.isStream ? [] : Lyrics.sidecars(of: path) where refused == nil {
            switch SystemFiles().readAll(sidecar, limit: Lyrics.maxBytes) {
            case .success(let bytes): return SongLyrics(file: "\(sidecar)", bytes: bytes)
            case .failure(.system(let error)) where error == .noSuchFileOrDirectory || error == .notDirectory: break  // none there
            case .failure(let error):
                let limit = "tplayer reads lyrics of up to \(Lyrics.maxBytes >> 20) MB"
                let why = if case .tooLarge = error { "\(error); \(limit)" } else { "\(error)" }
                refused = SongLyrics(file: "\(sidecar)", bytes: [], refusal: "\(sidecar.lastComponent): \(why)")
            }
        }
        // FFmpeg names an ID3 USLT by its language (`lyrics-eng`).
        if let tag = ["LYRICS", "UNSYNCEDLYRICS"].lazy.compactMap({ song.comments?.first($0) }).first
            ?? song.comments?.fields.first(where: { $0.name.uppercased().hasPrefix("LYRICS-") })?.value {
            return SongLyrics(file: "\(path)", bytes: Array(tag.utf8))
        }
        // SYLT, looked for in any ID3v2 tag at the file's start (libmpg123 lists a tag only when it
        // has text frames): it may count time in MPEG frames, 1152 samples each, 576 in MPEG 2
        // layer III, 384 in layer I.
        let perFrame = Double(song.stream?.samplesPerFrame ?? 1152)
        if let source, !song.isStream, let body = ID3Frame.content("SYLT", in: source),
           let synced = SyncedLyricsFrame.lyrics(body, framesPerSecond: Double(song.sampleRate) / perFrame) {
            return SongLyrics(file: "\(path)", parsed: synced)
        }
        if let unsynced = song.id3.v2?.frames.first(where: { $0.id == "USLT" }) {
            return SongLyrics(file: "\(path)", bytes: Array(unsynced.text.utf8))
        }
        return refused
    }
}
