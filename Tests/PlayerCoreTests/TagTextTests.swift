import Testing
@testable import PlayerCore

/// The one cap on tags: a value is cut at a character's start and ends with …; short values
/// and invalid bytes are as before.
struct TagTextTests {
    @Test func aLongValueIsCutAtACharacter() {
        #expect(TagText.value(Array("Night Drive".utf8)) == "Night Drive")
        let euros = Array(String(repeating: "€", count: 2_000).utf8)  // 3 bytes each: 6,000 bytes
        let cut = TagText.value(euros)
        #expect(cut == String(repeating: "€", count: 1_365) + "…", "4,095 bytes of whole characters")
        let ascii = [UInt8](repeating: UInt8(ascii: "x"), count: 5_000)
        #expect(TagText.value(ascii) == String(repeating: "x", count: 4_096) + "…")
        #expect(TagText.value([0x41, 0xFF, 0x42]) == "A\u{FFFD}B", "invalid bytes repaired as before")
    }

    @Test func aCStringIsReadNoFurtherThanItsCap() {
        var bytes = [CChar](repeating: CChar(UInt8(ascii: "y")), count: 10_000)
        bytes.append(0)
        #expect(bytes.withUnsafeBufferPointer { TagText.value(cString: $0.baseAddress!) } == String(repeating: "y", count: 4_096) + "…")
        let short: [CChar] = [0x61, 0x62, 0]
        #expect(short.withUnsafeBufferPointer { TagText.value(cString: $0.baseAddress!) } == "ab")
    }

    /// Lyrics are kept as far as a `.lrc` is read (1 MB): a song's timed lyrics pass 4 KB often.
    @Test func lyricsAreKeptToAMegabyteEveryOtherFieldToFourKilobytes() {
        for name in ["LYRICS", "lyrics", "UNSYNCEDLYRICS", "lyrics-eng", "USLT"] { #expect(TagText.limit(forField: name) == 1 << 20, "\(name)") }
        for name in ["TITLE", "COMMENT", "lyricist", "TXXX", ""] { #expect(TagText.limit(forField: name) == 4_096, "\(name)") }
        let lyrics = String(repeating: "[00:01.00]a line\n", count: 1_000)  // 17,000 bytes
        let comments = VorbisComments(raw: [Array(("LYRICS=" + lyrics).utf8), Array(("TITLE=" + lyrics).utf8)])
        #expect(comments.first("LYRICS") == lyrics)
        #expect(comments.first("TITLE")?.utf8.count == 4_096 + "…".utf8.count)
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 10)
        #expect(TagText.value(huge, limit: TagText.limit(forField: "LYRICS")) == String(repeating: "x", count: 1 << 20) + "…")
    }

    /// A file of many lyrics fields keeps 2 MB of them whole; the rest as any other field.
    @Test func aSongKeepsTwoMegabytesOfLyricsInAll() {
        let megabyte = "LYRICS=" + String(repeating: "y", count: 1 << 20)
        let comments = VorbisComments(raw: (0..<5).map { _ in Array(megabyte.utf8) })
        #expect(comments.fields.map(\.value.utf8.count) == [1 << 20, 1 << 20] + Array(repeating: 4_096 + "…".utf8.count, count: 3))
    }

    @Test func commentsKeepAtMostTheFieldLimit() {
        let comments = VorbisComments(raw: (0..<2_000).map { Array("TITLE=\($0)".utf8) })
        #expect(comments.fields.count == TagText.fieldLimit)
        #expect(comments.first("title") == "0")
    }
}
