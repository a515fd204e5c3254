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
        #expect(decoder.decode([0x1B, 0x5B, 0x31, 0x35, 0x7E]) == [.function(5)])
    }

    /// Ctrl-letters, Alt-characters, F1–F12 and Shift/Alt/Ctrl arrows, as xterm, VTE, tmux and
    /// rxvt send them, and their names in a settings file.
    @Test(arguments: [
        ([0x0E], Key.control("n"), ["ctrl-n", "Ctrl+N", "c-n", "^N", "^n"]),
        ([0x01], .control("a"), ["ctrl-a"]),
        ([0x1B, 0x78], .alt("x"), ["alt-x", "Alt+x", "m-x", "meta-x"]),
        ([0x1B, 0xC3, 0xA9], .alt("é"), ["alt-é"]),
        ([0x1B, 0x4F, 0x50], .function(1), ["f1", "F1"]),
        ([0x1B, 0x5B, 0x31, 0x31, 0x7E], .function(1), ["f1"]),
        ([0x1B, 0x5B, 0x32, 0x34, 0x7E], .function(12), ["F12"]),
        ([0x1B, 0x5B, 0x31, 0x35, 0x3B, 0x32, 0x7E], .modified(.function(5), .shift), ["shift-f5", "s-F5"]),
        ([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43], .modified(.right, .control), ["ctrl-right", "C-Right", "ctrl+right"]),
        ([0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x41], .modified(.up, .shift), ["shift-up", "s-up"]),
        ([0x1B, 0x5B, 0x31, 0x3B, 0x36, 0x44], .modified(.left, [.shift, .control]), ["ctrl-shift-left", "shift+ctrl+left"]),
        ([0x1B, 0x5B, 0x35, 0x3B, 0x33, 0x7E], .modified(.pageUp, .alt), ["alt-pgup"]),
    ] as [([UInt8], Key, [String])])
    func modifiedKeysAreReadAndNamed(bytes: [UInt8], key: Key, names: [String]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == [key])
        for name in names { #expect(KeyBindings.key(named: name) == key, "\(name)") }
        #expect(KeyBindings.key(named: KeyBindings.name(key)) == key, "its own name reads back: \(KeyBindings.name(key))")
    }

    /// What a terminal keeps for itself is said, not bound: Ctrl-C interrupts, Ctrl-H is Backspace.
    @Test func keysATerminalKeepsAreNotKeys() {
        for name in ["ctrl-c", "^Z", "c-h", "ctrl-m", "ctrl-i"] {
            #expect(KeyBindings.key(named: name) == nil)
            #expect(KeyBindings.reservedKey(name) != nil, "\(name)")
        }
        #expect(KeyBindings.key(named: "ctrl-1") == nil && KeyBindings.key(named: "shift-x") == nil && KeyBindings.key(named: "hyper-up") == nil)
    }

    @Test func aSequenceSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, 0x5B, 0x31]) == [])
        #expect(decoder.decode([0x3B, 0x35, 0x43, 0x6E]) == [.modified(.right, .control), .character("n")])
    }

    @Test func utf8TextArrivesAsCharactersEvenWhenSplit() {
        var decoder = KeyDecoder()
        let bytes = Array("é♪".utf8)
        #expect(decoder.decode(bytes[0..<3]) == [.character("é")])
        #expect(decoder.decode(bytes[3...]) == [.character("♪")])
    }

    @Test(arguments: [
        ([0x1B, 0x5B, 0x43], Key.right), ([0x1B, 0x4F, 0x43], .right), ([0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x44], .modified(.left, .shift)),
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

    /// A shell's line editing: Ctrl-W the word before the cursor, Ctrl-U all before it, Ctrl-K
    /// all after it, Ctrl-B and Ctrl-F a character back and on.
    @Test func controlKeysEditAsAShellDoes() {
        var prompt = PromptLine(label: "> ")
        for key in "albumartist  date album".map(Key.character) { _ = prompt.apply(key) }
        _ = prompt.apply(.control("w"))
        #expect(prompt.text == "albumartist  date ")
        _ = prompt.apply(.control("w"))
        #expect(prompt.text == "albumartist  ")
        _ = prompt.apply(.control("b"))
        _ = prompt.apply(.control("b"))
        _ = prompt.apply(.control("k"))
        #expect(prompt.text == "albumartist")
        _ = prompt.apply(.control("b"))
        _ = prompt.apply(.control("f"))
        _ = prompt.apply(.character("s"))
        #expect(prompt.text == "albumartists")
        _ = prompt.apply(.left)
        _ = prompt.apply(.control("u"))
        #expect(prompt.text == "s" && prompt.rendered(width: 80) == "> _s")
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

    /// Keys as the decoder gives them: one per scalar, so an NFD accent, a skin tone, a flag's
    /// second letter or a jamo comes as a key of its own after the one it joins.
    static func type(_ scalars: [UInt32], into prompt: inout PromptLine) {
        for value in scalars { _ = prompt.apply(.character(Character(Unicode.Scalar(value)!))) }
    }

    /// A key that joins the character before it (it trapped: the cursor counted keys, the text
    /// merged them, and the next key indexed past its end).
    @Test(arguments: [
        ([0x65, 0x301], "e\u{301}"),  // é in NFD, as a macOS file name pastes
        ([0x1F1EB, 0x1F1F7], "🇫🇷"),
        ([0x1F44D, 0x1F3FD], "👍🏽"),
        ([0x1100, 0x1161, 0x11A8], "\u{1100}\u{1161}\u{11A8}"),  // 각 from its jamo
        ([0x1F468, 0x200D, 0x1F469], "👨\u{200D}👩"),
    ] as [([UInt32], String)])
    func aKeyThatJoinsTheOneBeforeIsOneCharacter(scalars: [UInt32], joined: String) {
        var prompt = PromptLine(label: "> ")
        Self.type([0x61] + scalars + [0x62], into: &prompt)
        #expect(prompt.text == "a" + joined + "b")
        #expect(prompt.cursor == 3)
        _ = prompt.apply(.left)
        _ = prompt.apply(.left)
        #expect(prompt.rendered(width: 80) == "> a_" + joined + "b")
        _ = prompt.apply(.delete)
        #expect(prompt.text == "ab", "Delete takes the whole character")
        Self.type(scalars, into: &prompt)
        _ = prompt.apply(.backspace)
        #expect(prompt.text == "ab" && prompt.cursor == 1, "and so does Backspace")
        _ = prompt.apply(.end)
        Self.type(scalars + scalars, into: &prompt)
        #expect(prompt.text == "ab" + joined + joined)
        #expect(prompt.apply(.enter) == .submitted("ab" + joined + joined))
    }

    /// A letter typed before a lone accent joins it the way the text shows it; removing what
    /// stood between a flag's two letters makes the flag.
    @Test func joiningFollowsTheTextEitherSide() {
        var prompt = PromptLine(label: "")
        Self.type([0x301, 0x78], into: &prompt)  // a lone accent, then x
        _ = prompt.apply(.home)
        Self.type([0x65], into: &prompt)  // e before the accent: é, then x
        #expect(prompt.text == "e\u{301}x" && prompt.cursor == 1)
        var middle = PromptLine(label: "")
        Self.type([0x1F1EB, 0x78, 0x1F1F7], into: &middle)  // a flag's letters with an x between
        _ = middle.apply(.left)
        _ = middle.apply(.backspace)  // the x goes: the letters make the flag
        #expect(middle.text == "🇫🇷" && middle.cursor == 1)
        _ = middle.apply(.left)
        _ = middle.apply(.delete)
        #expect(middle.text.isEmpty)
    }

    /// A pasted path of thousands of characters (PATH_MAX and more) is taken and drawn; the
    /// drawing shows its end with the cursor, within the width.
    @Test func aLongPasteIsTakenWhole() {
        var prompt = PromptLine(label: "Load: ")
        let pasted = String(repeating: "/déjà vu/日本", count: 1_000) + "/song.mp3"
        for character in pasted { _ = prompt.apply(.character(character)) }
        #expect(prompt.text == pasted)
        let shown = prompt.rendered(width: 80)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("/song.mp3_"))
        #expect(TextWidth.columns(shown) <= 80)
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
