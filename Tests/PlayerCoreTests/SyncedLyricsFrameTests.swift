import PlayerCore
import Testing

/// ID3's synchronised lyrics (`SYLT`) taken apart into lines, in each text encoding.
struct SyncedLyricsFrameTests {
    static func frame(encoding: UInt8 = 3, format: UInt8 = 2, description: [UInt8] = [0], _ entries: [([UInt8], UInt32)]) -> [UInt8] {
        var body: [UInt8] = [encoding] + Array("eng".utf8) + [format, 1] + description
        for (text, time) in entries {
            body += text + (encoding == 1 || encoding == 2 ? [0, 0] : [0])
            body += [UInt8(time >> 24), UInt8(time >> 16 & 0xFF), UInt8(time >> 8 & 0xFF), UInt8(time & 0xFF)]
        }
        return body
    }

    static func utf16(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test func eachTextIsALineWhenNoneStartsOne() throws {
        let lyrics = try #require(SyncedLyricsFrame.lyrics(Self.frame([(Array("one".utf8), 1000), (Array("two".utf8), 2500)]),
                                                           framesPerSecond: 38.28))
        #expect(lyrics.lines.map(\.text) == ["one", "two"])
        #expect(lyrics.lines.map(\.time) == [1000, 2500])
        #expect(lyrics.lines.allSatisfy { $0.words.isEmpty })
    }

    @Test func aLineBreakStartsALineAndTheRestAreItsWords() throws {
        let entries: [([UInt8], UInt32)] = [(Array("Hel".utf8), 1000), (Array("lo ".utf8), 1200), (Array("world".utf8), 1500),
                                            (Array("\nSecond".utf8), 3000), (Array(" line".utf8), 3400)]
        let lyrics = try #require(SyncedLyricsFrame.lyrics(Self.frame(entries), framesPerSecond: 38.28))
        #expect(lyrics.lines.map(\.text) == ["Hello world", "Second line"])
        #expect(lyrics.lines[0].words.map(\.time) == [1000, 1200, 1500])
        #expect(lyrics.lines[1].words.map(\.text) == ["Second", " line"])
    }

    @Test func everyEncodingAndMPEGFramesAsTime() throws {
        let latin = try #require(SyncedLyricsFrame.lyrics(Self.frame(encoding: 0, [([0x63, 0x61, 0x66, 0xE9], 500)]), framesPerSecond: 38.28))
        #expect(latin.lines.map(\.text) == ["café"])
        let wide = Self.frame(encoding: 1, description: Self.utf16("d") + [0, 0], [(Self.utf16("日本語"), 700), (Self.utf16("two"), 900)])
        #expect(SyncedLyricsFrame.lyrics(wide, framesPerSecond: 38.28)?.lines.map(\.text) == ["日本語", "two"])
        let big = Self.frame(encoding: 2, description: [0, 0], [([0x00, 0x41, 0x00, 0x42], 100)])
        #expect(SyncedLyricsFrame.lyrics(big, framesPerSecond: 38.28)?.lines.map(\.text) == ["AB"])
        // Frame 383 at 44.1 kHz (1152 samples each): 10.005 s.
        let frames = try #require(SyncedLyricsFrame.lyrics(Self.frame(format: 1, [(Array("x".utf8), 383)]), framesPerSecond: 44100.0 / 1152))
        #expect(frames.lines[0].time == 10005)
    }

    @Test func damageKeepsWhatCameBeforeIt() throws {
        var body = Self.frame([(Array("kept".utf8), 1000)])
        body += Array("cut off with no end".utf8)
        #expect(SyncedLyricsFrame.lyrics(body, framesPerSecond: 38.28)?.lines.map(\.text) == ["kept"])
        // Past 100 hours, an unknown encoding or format, nothing at all: no lines.
        #expect(SyncedLyricsFrame.lyrics(Self.frame([(Array("late".utf8), UInt32.max)]), framesPerSecond: 38.28) == nil)
        #expect(SyncedLyricsFrame.lyrics(Self.frame(encoding: 9, [(Array("x".utf8), 1)]), framesPerSecond: 38.28) == nil)
        #expect(SyncedLyricsFrame.lyrics(Self.frame(format: 7, [(Array("x".utf8), 1)]), framesPerSecond: 38.28) == nil)
        #expect(SyncedLyricsFrame.lyrics(Self.frame(format: 1, [(Array("x".utf8), 1)]), framesPerSecond: .nan) == nil)
        #expect(SyncedLyricsFrame.lyrics([], framesPerSecond: 38.28) == nil)
    }
}
