import PlayerCore
import Testing

/// LRC files: every form of time tag, several on a line, the offset, the enhanced form's word
/// times, ID tags, unsynced lines, and each problem at its line and column.
struct LyricsTests {
    private func parse(_ text: String) -> Lyrics {
        Lyrics.parse(Array(text.utf8), file: "song.lrc")
    }

    @Test func theLrcIsBesideTheSongElseInALyricsFolder() {
        #expect(Lyrics.sidecars(of: "/music/a/01 song.flac") == ["/music/a/01 song.lrc", "/music/a/lyrics/01 song.lrc"])
        #expect(Lyrics.sidecars(of: "song") == ["song.lrc", "lyrics/song.lrc"])
    }

    @Test func timeTagsOfEveryFormAreRead() {
        let lyrics = parse("[00:01]one\n[00:02.5]two\n[00:03.25]three\n[00:04.125]four\n[01:05:50]five\n[100:00.00]late\n")
        #expect(lyrics.lines.map(\.time) == [1000, 2500, 3250, 4125, 65_500, 6_000_000])
        #expect(lyrics.lines.map(\.text) == ["one", "two", "three", "four", "five", "late"])
        #expect(lyrics.problems.isEmpty && lyrics.isSynced)
    }

    /// As Windows tools save lyrics: UTF-8 with a byte order mark, or UTF-16 with one (either
    /// byte order); an unpaired surrogate is repaired, an odd last byte left out.
    @Test func utf16AndByteOrderMarksAreRead() {
        let text = "[00:01.00]one\r\n[00:02.00]二十 🎵\r\n"
        let units = Array(text.utf16)
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let marked: [[UInt8]] = [little, big, little + [0x41], [0xEF, 0xBB, 0xBF] + Array(text.utf8)]
        for bytes in marked {
            let lyrics = Lyrics.parse(bytes, file: "song.lrc")
            #expect(lyrics.lines.map(\.text) == ["one", "二十 🎵"] && lyrics.problems.isEmpty, "\(bytes.prefix(4))")
        }
        let tag: [UInt8] = Array("[00:01.00]".utf16).flatMap { [UInt8($0 & 0xFF), 0] }
        let unpaired = Lyrics.parse([0xFF, 0xFE] + tag + [0x00, 0xD8, 0x41, 0x00], file: "song.lrc")
        #expect(unpaired.lines.map(\.text) == ["\u{FFFD}A"])
    }

    @Test func aLineWithSeveralTimesIsSungAtEach() {
        let lyrics = parse("[00:30.00][00:10.00]chorus\n[00:20.00]verse\n")
        #expect(lyrics.lines.map(\.time) == [10_000, 20_000, 30_000])
        #expect(lyrics.lines.map(\.text) == ["chorus", "verse", "chorus"])
    }

    @Test func theOffsetShowsTheLinesSoonerOrLater() {
        #expect(parse("[offset:+500]\n[00:10.00]a\n[00:00.20]b\n").lines.map(\.time) == [0, 9500])
        #expect(parse("[offset:-250]\n[00:10.00]a\n").lines.map(\.time) == [10_250])
    }

    @Test func idTagsAreKeptAndNotShownAsLyrics() {
        let lyrics = parse("\u{FEFF}[ar:Björk]\n[ti:Jóga]\n[length: 05:05]\n[00:01.00]All these accidents\n")
        #expect(lyrics.tags == ["ar": "Björk", "ti": "Jóga", "length": "05:05"])
        #expect(lyrics.lines.map(\.text) == ["All these accidents"] && lyrics.unsynced.isEmpty)
    }

    @Test func theEnhancedFormsWordsHaveTheirTimes() {
        let lyrics = parse("[00:12.00]<00:12.00>Hello <00:12.50>bright <00:13.10>world\n")
        #expect(lyrics.lines.first?.text == "Hello bright world")
        #expect(lyrics.lines.first?.words.map(\.time) == [12_000, 12_500, 13_100])
        #expect(lyrics.lines.first?.words.map(\.text) == ["Hello ", "bright ", "world"])
    }

    @Test func linesWithoutTimesAreUnsyncedLyrics() {
        let lyrics = parse("First line\n[Chorus]\nSecond line\n\n")
        #expect(!lyrics.isSynced && lyrics.unsynced == ["First line", "[Chorus]", "Second line"])
    }

    @Test func eachProblemIsAtItsLineAndColumn() {
        let lyrics = parse("[00:01.00]fine\n[00:1x.00]bad\nok [ar:x]\n[00:61.00]past a minute\n[00:02.00 no end\n[offset:soon]\n")
        #expect(lyrics.problems.map(\.located) == [
            "song.lrc:2:1: [00:1x.00]: not a time; write [mm:ss.xx]",
            "song.lrc:4:1: [00:61.00]: not a time; write [mm:ss.xx]",
            "song.lrc:5:1: no ] closing the tag",
            "song.lrc:6:1: [offset:soon]: give milliseconds, -600000 to 600000",
        ])
        #expect(lyrics.lines.map(\.text) == ["fine"] && lyrics.unsynced == ["bad", "ok [ar:x]", "past a minute"])
    }

    @Test func theLineSungIsTheLastWhoseTimeHasCome() {
        let lyrics = parse("[00:05.00]a\n[00:10.00]b\n[00:10.00]c\n[00:20.00]d\n")
        #expect(lyrics.lineIndex(at: 4999) == nil)
        #expect(lyrics.lineIndex(at: 5000) == 0)
        #expect(lyrics.lineIndex(at: 12_000) == 2)
        #expect(lyrics.lineIndex(at: 1_000_000) == 3)
    }

    @Test func aHugeOrBinaryFileIsBounded() {
        let many = String(repeating: "[00:01.00]x\n", count: Lyrics.maxLines + 100)
        #expect(parse(many).lines.count == Lyrics.maxLines)
        let binary = Lyrics.parse([0x5B, 0x30, 0x00, 0x5D, 0x0A], file: "song.lrc")
        #expect(binary.problems.map(\.located) == ["song.lrc:1:1: binary data, not text"])
    }

    /// Hostile lines: an offset of Int64.min, a line of `<`, a line of `[]`: one problem each,
    /// no trap, no time spent to speak of (4 KB lines, the longest read).
    @Test func hostileLinesAreBounded() {
        let offset = parse("[offset:-9223372036854775808]\n[00:01.00]a\n")
        #expect(offset.problems.count == 1 && offset.lines.map(\.time) == [1000])
        let angles = parse("[00:01.00]" + String(repeating: "<", count: 4000) + "\n")
        #expect(angles.lines.count == 1 && angles.problems.isEmpty)
        let brackets = parse(String(repeating: "[]", count: 2000) + "\n" + String(repeating: "[]", count: 2000) + "\n")
        #expect(brackets.problems.count <= Playlist.maxProblems && brackets.problems.count >= 2)
    }
}
