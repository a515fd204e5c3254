import Testing
@testable import Terminal

struct KeyDecoderTests {
    @Test func lettersSpaceEnterBackspace() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(" pq\r\u{7F}".utf8)) == [.character(" "), .character("p"), .character("q"), .enter, .backspace])
    }

    @Test func arrowsAreOneKeyEachAndALoneEscapeIsEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x44]) == [.up, .left])
        #expect(decoder.decode([0x1B]) == [.escape])
        #expect(decoder.decode([0x1B, 0x5B, 0x31, 0x35, 0x7E]) == [.other], "F5 is a sequence tplayer ignores")
    }

    @Test func aSequenceSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, 0x5B, 0x31]) == [])
        #expect(decoder.decode([0x3B, 0x35, 0x43, 0x6E]) == [.right, .character("n")])
    }

    @Test func utf8TextArrivesAsCharactersEvenWhenSplit() {
        var decoder = KeyDecoder()
        let bytes = Array("é♪".utf8)
        #expect(decoder.decode(bytes[0..<3]) == [.character("é")])
        #expect(decoder.decode(bytes[3...]) == [.character("♪")])
    }

    @Test func invalidBytesDoNotStopDecoding() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0xFF, 0x61]) == [.other, .character("a")])
    }
}

struct PromptLineTests {
    @Test func typingEditingAndSubmitting() {
        var prompt = PromptLine(label: "Load: ")
        for key in "songx".map(Key.character) { #expect(prompt.apply(key) == .editing) }
        #expect(prompt.apply(.backspace) == .editing)
        #expect(prompt.rendered(width: 80) == "Load: song_")
        #expect(prompt.apply(.enter) == .submitted("song"))
    }

    @Test func escapeCancels() {
        var prompt = PromptLine(label: "Load: ")
        _ = prompt.apply(.character("a"))
        #expect(prompt.apply(.escape) == .cancelled)
    }

    @Test func aLongPathKeepsItsEndVisible() {
        var prompt = PromptLine(label: "Load: ")
        for key in "/very/long/path/to/a/song.mp3".map(Key.character) { _ = prompt.apply(key) }
        let shown = prompt.rendered(width: 12)
        #expect(shown == "…to/a/song.mp3_".suffix(12).description || shown.count == 12)
        #expect(shown.hasSuffix("song.mp3_"))
        #expect(shown.count == 12)
    }
}
