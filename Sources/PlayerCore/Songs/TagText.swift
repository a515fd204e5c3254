/// What tplayer keeps of the text a song's tags hold, whatever the format: one cap for every
/// library (libmpg123's ID3, libFLAC's and the Ogg libraries' Vorbis comments, FFmpeg's
/// metadata), so that a 16 MB title costs no more than a line of a playlist does.
///
/// A value is kept to `valueBytes` bytes (a song's lyrics to `lyricsBytes`), cut at the start of
/// a character and ended with … when it was longer; a song keeps at most `fieldLimit` fields.
/// Invalid UTF-8 is repaired (U+FFFD). What is kept is still untrusted: it reaches people only
/// through `UntrustedText`.
public enum TagText {
    /// As long as a playlist's line may be (`LineSplitter.maxLineBytes`).
    public static let valueBytes = LineSplitter.maxLineBytes
    public static let fieldLimit = 512
    /// As long as a `.lrc` may be: a song's timed lyrics often pass 4 KB (the enhanced form's
    /// word times triple them).
    public static let lyricsBytes = Lyrics.maxBytes

    /// The most bytes kept of the field `name`'s value: lyrics (Vorbis's `LYRICS` and
    /// `UNSYNCEDLYRICS`, FFmpeg's `lyrics` and `lyrics-eng`, ID3's `USLT`) to `lyricsBytes`.
    public static func limit(forField name: some StringProtocol) -> Int {
        let upper = name.uppercased()
        return ["LYRICS", "UNSYNCEDLYRICS", "USLT"].contains(upper) || upper.hasPrefix("LYRICS-") ? lyricsBytes : valueBytes
    }

    /// One song's fields as they are kept: lyrics to `lyricsBytes`, and to 2 MB in all (a file
    /// of many lyrics fields keeps the rest as it keeps any other field).
    public struct Song {
        private var lyricsLeft = 2 << 20

        public init() {}

        public mutating func value(_ bytes: some Collection<UInt8>, field name: some StringProtocol) -> String {
            kept(field: name) { TagText.value(bytes, limit: $0) }
        }

        public mutating func value(cString pointer: UnsafePointer<CChar>, field name: some StringProtocol) -> String {
            kept(field: name) { TagText.value(cString: pointer, limit: $0) }
        }

        /// What `read` keeps at the field's limit (lyrics within what is left of the budget).
        private mutating func kept(field name: some StringProtocol, _ read: (Int) -> String) -> String {
            let limit = TagText.limit(forField: name)
            guard limit > TagText.valueBytes else { return read(limit) }
            let value = read(max(min(limit, lyricsLeft), TagText.valueBytes))
            lyricsLeft -= value.utf8.count
            return value
        }
    }

    /// The value of `bytes`, as kept.
    public static func value(_ bytes: some Collection<UInt8>, limit: Int = valueBytes) -> String {
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        var kept = Array(bytes.prefix(limit))
        // Back to the start of a character: a continuation byte is 10xxxxxx.
        var end = kept.count
        while end > 0, kept[end - 1] & 0xC0 == 0x80 { end -= 1 }
        if end > 0, kept[end - 1] >= 0xC0 { end -= 1 }  // a lead byte whose character was cut
        else { end = kept.count }
        kept.removeSubrange(end...)
        return String(decoding: kept, as: UTF8.self) + "…"
    }

    /// The value of a C string of which only the first `limit` + 1 bytes are read (so that a
    /// cut is seen), however long it is.
    public static func value(cString pointer: UnsafePointer<CChar>, limit: Int = valueBytes) -> String {
        var count = 0
        while count <= limit, pointer[count] != 0 { count += 1 }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            value(UnsafeBufferPointer(start: $0, count: count), limit: limit)
        }
    }
}
