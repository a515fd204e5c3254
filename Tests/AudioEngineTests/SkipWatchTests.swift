import Testing
@testable import AudioEngine

/// Damage seen from the frames on either side of it, frame by frame as libmpg123 would give
/// them: 417-byte frames of 44.1 kHz stereo at 128 kbit/s (16,000 bytes a second).
struct SkipWatchTests {
    static let cd = PCMFormat(rate: 44100, channels: 2)
    static let junkRate = PCMFormat(rate: 11025, channels: 1)

    private func frame(_ index: Int64, _ native: PCMFormat = cd, at position: Int64? = nil) -> SkipWatch.Frame {
        SkipWatch.Frame(position: position ?? index * 417, size: 417, native: native)
    }

    /// `whole`: the bytes between two places are whole frames (libmpg123 decoded them in one read).
    private func watch(whole: @escaping (Int64, Int64) -> Bool = { _, _ in false }) -> SkipWatch {
        SkipWatch(native: Self.cd, output: Self.cd, bytesPerSecond: 16_000, wholeFrames: whole)
    }

    @Test func framesOneAfterAnotherAreKeptAndNothingIsSaid() {
        var skips = watch()
        for index in 0..<10 {
            #expect(skips.step(frame: frame(Int64(index)), fresh: index == 0, newFormat: nil, bytes: 4608) == .keep)
        }
        #expect(skips.skippedToSay == nil)
    }

    @Test func aGapBeforeAFreshDecoderIsSkippedDamageSaidInSeconds() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        _ = skips.step(frame: frame(1), fresh: false, newFormat: nil, bytes: 4608)
        // 32,000 bytes of zeros after frame 1: two seconds.
        #expect(skips.step(frame: frame(2, at: 834 + 32_000), fresh: true, newFormat: nil, bytes: 4608) == .keep)
        #expect(skips.skippedToSay == 2)
    }

    @Test func aGapWithoutAFreshDecoderIsATagNotDamage() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        #expect(skips.step(frame: frame(1, at: 417 + 128), fresh: false, newFormat: nil, bytes: 4608) == .keep)
        #expect(skips.skippedToSay == nil)
    }

    @Test func framesOfAnotherFormatRightAfterASkipAreJunkDroppedUntilTheSongsComeBack() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        // libmpg123 stops before the junk frame: the bytes it gives are the song's.
        #expect(skips.step(frame: frame(1, Self.junkRate, at: 16_417), fresh: true, newFormat: Self.junkRate, bytes: 1000) == .keep)
        #expect(skips.step(frame: frame(2, Self.junkRate, at: 16_600), fresh: false, newFormat: nil, bytes: 1152) == .drop)
        // The song's frames again: libmpg123's output goes back to the format the reader knows.
        #expect(skips.step(frame: frame(3, at: 16_000 + 417 * 3), fresh: true, newFormat: Self.cd, bytes: 1152) == .drop)
        #expect(skips.step(frame: frame(4, at: 16_000 + 417 * 4), fresh: false, newFormat: nil, bytes: 4608) == .keep)
        #expect(skips.told == Self.cd, "the reader never heard of the junk's format")
        #expect(skips.skippedToSay == Double(16_000 + 417 * 3 - 417) / 16_000)
    }

    @Test func aNewFormatThatHoldsAfterASkipIsTheStreamsOwn() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        #expect(skips.step(frame: frame(1, Self.junkRate, at: 1000), fresh: true, newFormat: Self.junkRate, bytes: 0) == .keep)
        var verdicts: [SkipWatch.Verdict] = []
        for index in 2...Int64(SkipWatch.formatHoldsAfter) {
            verdicts.append(skips.step(frame: frame(index, Self.junkRate, at: 1000 + index * 417), fresh: false, newFormat: nil, bytes: 1152))
        }
        #expect(verdicts.dropLast().allSatisfy { $0 == .drop })
        #expect(verdicts.last == .dropThenChange(Self.junkRate))
        #expect(skips.step(frame: frame(99, Self.junkRate, at: 1000 + 41 * 417), fresh: false, newFormat: nil, bytes: 1152) == .keep)
    }

    @Test func aFormatChangeWithNoSkipIsAFrankensteinStreamPlayedAsItIs() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        #expect(skips.step(frame: frame(1, Self.junkRate), fresh: true, newFormat: Self.junkRate, bytes: 100) == .keepThenChange(Self.junkRate))
        #expect(skips.skippedToSay == nil)
    }

    @Test func aSeekStartsAFreshChain() {
        var skips = watch()
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        skips.restart()
        #expect(skips.step(frame: frame(500), fresh: true, newFormat: nil, bytes: 4608) == .keep)
        #expect(skips.skippedToSay == nil)
    }

    /// libmpg123's reads do not end where frames do: a read that decodes the song's last frame
    /// and a frame in another format after it reports the second, past the first. That gap is
    /// whole frames, not damage: the bytes are kept (the song's last frame was dropped as junk,
    /// and a frame at 11,025 Hz after it was neither converted nor said).
    @Test func aGapOfWholeFramesIsNotASkip() {
        var skips = watch(whole: { from, to in from == 834 && to == 1251 })
        _ = skips.step(frame: frame(0), fresh: false, newFormat: nil, bytes: 4608)
        _ = skips.step(frame: frame(1), fresh: false, newFormat: nil, bytes: 4608)
        #expect(skips.step(frame: frame(3, Self.junkRate, at: 1251), fresh: true, newFormat: Self.junkRate, bytes: 4608)
                    == .keepThenChange(Self.junkRate))
        #expect(skips.skippedToSay == nil)
    }

    /// Frame lengths from headers, as the standard gives them.
    @Test(arguments: [
        ([0xFF, 0xFB, 0x90, 0x64], 417, 44100, 2),  // MPEG 1 Layer III, 128 kbit/s, 44.1 kHz
        ([0xFF, 0xFB, 0x92, 0x64], 418, 44100, 2),  // the same, padded
        ([0xFF, 0xFB, 0x50, 0xC4], 208, 44100, 1),  // 64 kbit/s, mono
        ([0xFF, 0xF3, 0x50, 0xC4], 130, 22050, 1),  // MPEG 2 Layer III, 40 kbit/s: 72 × 40000 / 22050
        ([0xFF, 0xE7, 0x10, 0xC0], 136, 11025, 1),  // MPEG 2.5 Layer I, 32 kbit/s
        ([0xFF, 0xFD, 0x90, 0x04], 522, 44100, 2),  // MPEG 1 Layer II, 160 kbit/s: 144 × 160000 / 44100
    ] as [([UInt8], Int, Int, Int)])
    func headersGiveTheirFrameLength(header: [UInt8], length: Int, rate: Int, channels: Int) {
        let read = MPEGFrameHeader(header)
        #expect(read?.native == PCMFormat(rate: rate, channels: channels))
        #expect(read?.length == length)
    }
}
