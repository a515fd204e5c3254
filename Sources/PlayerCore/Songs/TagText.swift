/// What tplayer keeps of the text a song's tags hold, whatever the format: one cap for every
/// library (libmpg123's ID3, libFLAC's and the Ogg libraries' Vorbis comments, FFmpeg's
/// metadata), so that a 16 MB title costs no more than a line of a playlist does.
///
/// A value is kept to `valueBytes` bytes, cut at the start of a character and ended with …
/// when it was longer; a song keeps at most `fieldLimit` fields. Invalid UTF-8 is repaired
/// (U+FFFD). What is kept is still untrusted: it reaches people only through `UntrustedText`.
public enum TagText {
    /// As long as a playlist's line may be (`LineSplitter.maxLineBytes`).
    public static let valueBytes = LineSplitter.maxLineBytes
    public static let fieldLimit = 512

    /// The value of `bytes`, as kept.
    public static func value(_ bytes: some Collection<UInt8>) -> String {
        guard bytes.count > valueBytes else { return String(decoding: bytes, as: UTF8.self) }
        var kept = Array(bytes.prefix(valueBytes))
        // Back to the start of a character: a continuation byte is 10xxxxxx.
        var end = kept.count
        while end > 0, kept[end - 1] & 0xC0 == 0x80 { end -= 1 }
        if end > 0, kept[end - 1] >= 0xC0 { end -= 1 }  // a lead byte whose character was cut
        else { end = kept.count }
        kept.removeSubrange(end...)
        return String(decoding: kept, as: UTF8.self) + "…"
    }

    /// The value of a C string of which only the first `valueBytes` + 1 bytes are read (so
    /// that a cut is seen), however long it is.
    public static func value(cString pointer: UnsafePointer<CChar>) -> String {
        var count = 0
        while count <= valueBytes, pointer[count] != 0 { count += 1 }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) { value(UnsafeBufferPointer(start: $0, count: count)) }
    }
}
