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

    @Test func commentsKeepAtMostTheFieldLimit() {
        let comments = VorbisComments(raw: (0..<2_000).map { Array("TITLE=\($0)".utf8) })
        #expect(comments.fields.count == TagText.fieldLimit)
        #expect(comments.first("title") == "0")
    }
}
