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

    private func watch() -> SkipWatch { SkipWatch(native: Self.cd, output: Self.cd, bytesPerSecond: 16_000) }

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
}
