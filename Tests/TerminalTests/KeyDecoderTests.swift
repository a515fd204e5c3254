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

    @Test(arguments: [
        ([0x1B, 0x5B, 0x43], Key.right), ([0x1B, 0x4F, 0x43], .right), ([0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x44], .left),
        ([0x1B, 0x5B, 0x48], .home), ([0x1B, 0x4F, 0x48], .home), ([0x1B, 0x5B, 0x31, 0x7E], .home),
        ([0x1B, 0x5B, 0x37, 0x7E], .home), ([0x1B, 0x5B, 0x46], .end), ([0x1B, 0x4F, 0x46], .end),
        ([0x1B, 0x5B, 0x34, 0x7E], .end), ([0x1B, 0x5B, 0x38, 0x7E], .end), ([0x1B, 0x5B, 0x33, 0x7E], .delete),
        ([0x09], .tab), ([0x7F], .backspace), ([0x08], .backspace), ([0x0A], .enter),
    ] as [([UInt8], Key)])
    func everySequenceInEveryFormTerminalsSend(bytes: [UInt8], key: Key) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == [key])
    }

    @Test func keysTypedFasterThanARedrawAreAllTaken() {
        var decoder = KeyDecoder()
        let burst = Array("  ".utf8) + [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x43, 0x1B, 0x4F, 0x43] + Array("--m".utf8)
        #expect(decoder.decode(burst) == [.character(" "), .character(" "), .right, .right, .right,
                                         .character("-"), .character("-"), .character("m")])
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

    @Test func theCursorMovesAndEditsWhereItIs() {
        var prompt = PromptLine(label: "> ")
        for key in "song.mp3".map(Key.character) { _ = prompt.apply(key) }
        _ = prompt.apply(.home)
        _ = prompt.apply(.character("a"))
        _ = prompt.apply(.character("/"))
        #expect(prompt.rendered(width: 80) == "> a/_song.mp3")
        _ = prompt.apply(.end)
        _ = prompt.apply(.left)
        _ = prompt.apply(.left)
        _ = prompt.apply(.backspace)
        _ = prompt.apply(.delete)
        #expect(prompt.text == "a/song.3", "backspace took the m before the cursor, delete the p after it")
        #expect(prompt.rendered(width: 80) == "> a/song._3")
        #expect(prompt.apply(.right) == .editing)
        #expect(prompt.apply(.enter) == .submitted("a/song.3"))
    }

    @Test func upAndDownWalkEarlierEntriesAndComeBackToTheDraft() {
        var prompt = PromptLine(label: "> ", history: ["one.mp3", "two.mp3"])
        _ = prompt.apply(.character("x"))
        _ = prompt.apply(.up)
        #expect(prompt.text == "two.mp3")
        _ = prompt.apply(.up)
        _ = prompt.apply(.up)
        #expect(prompt.text == "one.mp3", "stops at the oldest")
        _ = prompt.apply(.down)
        _ = prompt.apply(.down)
        #expect(prompt.text == "x", "the line being typed comes back")
    }

    @Test func tabAsksForACompletion() {
        var prompt = PromptLine(label: "> ")
        _ = prompt.apply(.character("a"))
        #expect(prompt.apply(.tab) == .complete)
        prompt.complete(to: "album/")
        #expect(prompt.rendered(width: 80) == "> album/_")
    }

    @Test func wideCharactersAreMeasuredInColumns() {
        var prompt = PromptLine(label: "> ")
        for key in "日本語の歌.mp3".map(Key.character) { _ = prompt.apply(key) }
        let shown = prompt.rendered(width: 10)
        #expect(TextWidth.columns(shown) <= 10)
        #expect(shown.hasSuffix(".mp3_"))
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
