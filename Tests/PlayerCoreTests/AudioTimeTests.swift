import Testing
@testable import PlayerCore

private func parse(_ text: String) -> Int64? { try? DurationParser.parse(Substring(text)).get().flicks }
private func seek(_ text: String) -> SeekTarget? { try? ScriptParser.seekTarget(text).get() }
private let second = AudioTime.flicksPerSecond

struct AudioTimeTests {
    @Test(arguments: [
        ("1.5s", 3 * second / 2), ("250ms", second / 4), ("2m", 120 * second), ("1:30", 90 * second),
        ("1:02:03", 3723 * second), ("0:00.5", second / 2), ("90", 90 * second), ("0", 0),
        (".25", second / 4), ("1h", 3600 * second), ("0.001s", second / 1000), ("3.", 3 * second),
    ])
    func durationsParseExactly(text: String, flicks: Int64) {
        #expect(parse(text) == flicks)
    }

    @Test(arguments: ["", "s", "1.5x", "-1s", "1:3", "1:60", "1:2:3", "::", "1::30", "1.2.3s", "abc",
                      "1e3s", "١s", "1:30:00:00", " 1s", "+1s", "1:ab", "0x10"])
    func badDurationsAreRefused(text: String) {
        #expect(DurationParser.parse(Substring(text)) == .failure(.malformed))
    }

    /// The inputs that crashed `--check` with SIGILL: an add that overflowed after a checked
    /// multiply. Every step is checked now, and too long is its own answer.
    @Test(arguments: ["3631020.9h", "217861206.9m", "13071672388s", "99999999999999999999s",
                      "9223372036854775807ms", "3631021h", "999999999999:00:00", "153722867280912930:00",
                      "60499999:59:59.9"])
    func durationsTooLongToCountAreRefusedNotACrash(text: String) {
        #expect(DurationParser.parse(Substring(text)) == .failure(.tooLong))
        #expect(ScriptParser.seekTarget("+" + text) == .failure(.tooLong))
        #expect(ScriptParser.seekTarget("-" + text) == .failure(.tooLong))
    }

    @Test func theLongestDurationThatFitsIsExact() {
        // Int64.max flicks is 13,071,672,387 s and a bit: that many whole seconds still fit.
        #expect(parse("13071672388s") == nil)
        #expect(parse("13071672387s") == 13_071_672_387 * second)
        #expect(parse("3630555h") == 3_630_555 * 3600 * second)
    }

    @Test func framesAndFlicksConvertExactlyAtEveryMPEGRate() throws {
        for rate in [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] {
            #expect(AudioTime.seconds(1).frames(rate: rate) == Int64(rate))
            #expect(AudioTime(frames: 12345, rate: rate).frames(rate: rate) == 12345)
        }
        #expect(try DurationParser.parse("0.5s").get().frames(rate: 44100) == 22050)
    }

    @Test func seekTargetsClampToTheSong() {
        let song = SongInfo(path: "a.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000)
        #expect(SeekTarget.to(.seconds(2)).frame(in: song, from: 0) == 88200)
        #expect(SeekTarget.to(.seconds(60)).frame(in: song, from: 0) == 441_000)
        #expect(SeekTarget.by(.seconds(1)).frame(in: song, from: 1000) == 45100)
        #expect(SeekTarget.by(AudioTime(flicks: -AudioTime.seconds(1).flicks)).frame(in: song, from: 1000) == 0)
        #expect(SeekTarget.fraction(permyriad: 5000).frame(in: song, from: 0) == 220_500)
        #expect(seek("12.5%") == .fraction(permyriad: 1250))
        #expect(seek("-5s") == .by(AudioTime(flicks: -5 * second)))
        #expect(seek("+1:00") == .by(.seconds(60)))
        #expect(seek("101%") == nil)
        #expect(seek("50.%") == nil)
    }

    @Test func microsecondsConvertExactlyWhereTheyCan() {
        #expect(AudioTime(microseconds: 10_000_000) == .seconds(10))
        #expect(AudioTime.seconds(10).microseconds == 10_000_000)
        #expect(AudioTime(frames: 441_000, rate: 44_100).microseconds == 10_000_000)
        #expect(AudioTime(frames: 1, rate: 44_100).microseconds == 22)  // 22.67 µs, rounded down
        #expect(AudioTime(microseconds: -2_500_000) == AudioTime(flicks: -2_500_000 * 7056 / 10))
        #expect(AudioTime(microseconds: .max) == nil)
    }

    /// Counts from a file or a front-end can be absurd: a 16 TB song at 8 kHz is 1.4e14 samples,
    /// `J 2^40` frames. Every conversion of them saturates where flicks end (about 414 years).
    @Test func absurdCountsSaturateInsteadOfTrapping() {
        let samples: Int64 = 144_000_000_000_000
        #expect(AudioTime(frames: samples, rate: 8000).flicks == .max)
        #expect(AudioTime(frames: samples, rate: 8000).microseconds == Int64.max / 7056 * 10 + Int64.max % 7056 * 10 / 7056)
        #expect(AudioTime(frames: -samples, rate: 8000).flicks == .min)
        #expect(AudioTime.seconds(.max).flicks == .max)
        #expect((AudioTime(flicks: .max) + .seconds(1)).flicks == .max)
        #expect((AudioTime(flicks: .min) - .seconds(1)).flicks == .min)
        #expect((AudioTime.zero - AudioTime(flicks: .min)).flicks == .max)
        let song = SongInfo(path: "a.mp3", sampleRate: 8000, channels: 1, totalFrames: samples)
        #expect(SeekTarget.by(AudioTime(flicks: .max)).frame(in: song, from: .max - 5) == samples)
        #expect(SeekTarget.by(AudioTime(flicks: .min)).frame(in: song, from: 10) == 0)
        #expect(SeekTarget.fraction(permyriad: 10_000).frame(in: song, from: 0) == samples)
        #expect(TimeFormat.clock(1e300) == "1250999896491:48:16")
        #expect(TimeFormat.precise(.infinity) == "0:00.00")
    }

    /// A count converted to another rate (a length after resampling, a CUE span at a file's
    /// rate, a seek) is exact where it fits and held at the bound where it does not.
    @Test func scalingIsExactOrHeldAtTheBound() {
        #expect(Int64(1_000).scaled(by: 44_100, over: 48_000) == 918)
        #expect(Int64(-1_000).scaled(by: 44_100, over: 48_000) == -918)
        #expect(Int64.max.scaled(by: 44_100, over: 48_000) == 8_473_973_058_860_325_272, "the exact quotient, in full width")
        #expect(Int64(0x7FFF_FFFF_FFFF_FFFF).scaled(by: 48_000, over: 44_100) == .max, "an iTunSMPB of 2^63 - 1 resampled")
        #expect(Int64(1 << 50).scaled(by: 1 << 20, over: 3) == .max)
        #expect(Int64(-(1 << 50)).scaled(by: 1 << 20, over: 3) == .min)
        #expect(Int64(5).scaled(by: 7, over: 0) == .max && Int64(0).scaled(by: 7, over: 0) == 0)
        // Full width where the product passes 2^63 but the quotient does not.
        #expect(Int64(1 << 62).scaled(by: 6, over: 8) == 3 << 60)
        let span = TrackSpan(start: (1 << 40) - 1, end: nil)
        #expect(span.samples(at: 10_000_000).start == Int64(((1 << 40) - 1) as Int64).scaled(by: 10_000_000, over: 75))
        #expect(TrackSpan(start: .max, end: .max).samples(at: 768_000) == (.max, .max))
    }
}
