/// A span of audio time, counted exactly.
///
/// The unit is the flick, 1/705,600,000 s: every MPEG sample rate (8, 11.025, 12, 16, 22.05,
/// 24, 32, 44.1 and 48 kHz) divides it, so a number of frames at any of them converts to flicks
/// and back with no rounding. Scripts count time in it, so `wait 0.5s` is exactly 22050 frames
/// at 44.1 kHz, and the time left of a wait carries over exactly from one song to the next.
public struct AudioTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public static let flicksPerSecond: Int64 = 705_600_000
    public static let zero = AudioTime(flicks: 0)

    public var flicks: Int64

    public init(flicks: Int64) {
        self.flicks = flicks
    }

    public init(frames: Int64, rate: Int) {
        flicks = frames * Self.flicksPerFrame(rate)
    }

    public static func seconds(_ seconds: Int64) -> AudioTime {
        AudioTime(flicks: seconds * flicksPerSecond)
    }

    /// Whole frames at `rate` in this span (rounded down).
    public func frames(rate: Int) -> Int64 {
        flicks / Self.flicksPerFrame(rate)
    }

    public var seconds: Double { Double(flicks) / Double(Self.flicksPerSecond) }

    /// The same span as a standard `Duration` (to the nanosecond), for clocks.
    public var duration: Duration {
        let (whole, rest) = flicks.quotientAndRemainder(dividingBy: Self.flicksPerSecond)
        return .seconds(whole) + .nanoseconds(rest * 1_000_000_000 / Self.flicksPerSecond)
    }

    /// Flicks per frame at `rate`; rates that do not divide a flick second are rounded.
    public static func flicksPerFrame(_ rate: Int) -> Int64 {
        max(flicksPerSecond / Int64(max(rate, 1)), 1)
    }

    public static func < (lhs: AudioTime, rhs: AudioTime) -> Bool { lhs.flicks < rhs.flicks }
    public static func + (lhs: AudioTime, rhs: AudioTime) -> AudioTime { AudioTime(flicks: lhs.flicks + rhs.flicks) }
    public static func - (lhs: AudioTime, rhs: AudioTime) -> AudioTime { AudioTime(flicks: lhs.flicks - rhs.flicks) }

    public var description: String { TimeFormat.clock(seconds) }
}

/// Where a seek goes: a time in the song, an offset from the current position, or a fraction
/// of the song's length.
public enum SeekTarget: Equatable, Sendable, CustomStringConvertible {
    case to(AudioTime)
    case by(AudioTime)  // negative flicks go back
    /// Per ten thousand of the song's length (`50%` is 5000), so `12.5%` stays exact.
    case fraction(permyriad: Int64)

    /// The frame this target names in a song of `song`, from `position`; clamped to the song.
    public func frame(in song: SongInfo, from position: Int64) -> Int64 {
        let frame: Int64
        switch self {
        case .to(let time): frame = time.frames(rate: song.sampleRate)
        case .by(let offset):
            let step = offset.flicks < 0
                ? -AudioTime(flicks: -offset.flicks).frames(rate: song.sampleRate)
                : offset.frames(rate: song.sampleRate)
            frame = position + step
        case .fraction(let permyriad):
            frame = (song.totalFrames ?? 0) * permyriad / 10_000
        }
        let upper = song.totalFrames ?? Int64.max
        return min(max(frame, 0), upper)
    }

    public var description: String {
        switch self {
        case .to(let time): "\(time.seconds)s"
        case .by(let offset): (offset.flicks < 0 ? "" : "+") + "\(offset.seconds)s"
        case .fraction(let permyriad): "\(Double(permyriad) / 100)%"
        }
    }
}

/// Parses the durations scripts use: `1.5s`, `250ms`, `2m`, `1h`, `1:30`, `1:02:03.5`, and a
/// bare number of seconds (`90`, `0.25`). Decimals are exact (no floating point).
public enum DurationParser {
    public static func parse(_ text: Substring) -> AudioTime? {
        if text.contains(":") { return clock(text) }
        let units: [(String, Int64)] = [
            ("ms", AudioTime.flicksPerSecond / 1000), ("s", AudioTime.flicksPerSecond),
            ("m", 60 * AudioTime.flicksPerSecond), ("h", 3600 * AudioTime.flicksPerSecond),
        ]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return decimal(text.dropLast(suffix.count), scale: scale)
        }
        return decimal(text, scale: AudioTime.flicksPerSecond)
    }

    /// `M:SS` or `H:MM:SS`, with an optional decimal fraction on the seconds.
    private static func clock(_ text: Substring) -> AudioTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var wholeSeconds: Int64 = 0
        for (index, part) in parts.dropLast().enumerated() {
            // The first field may be any size; later ones are two digits below 60.
            guard !part.isEmpty, part.count <= 5, part.allSatisfy(\.isASCIIDigit), let value = Int64(part),
                  index == 0 || (part.count == 2 && value < 60)
            else { return nil }
            wholeSeconds = wholeSeconds * 60 + value
        }
        let seconds = parts[parts.count - 1]
        guard seconds.prefix(while: { $0 != "." }).count == 2,
              let secondsValue = decimal(seconds, scale: AudioTime.flicksPerSecond),
              secondsValue < AudioTime.seconds(60)
        else { return nil }
        return AudioTime.seconds(wholeSeconds * 60) + secondsValue
    }

    /// A non-negative decimal number times `scale` flicks, rounded to the nearest flick.
    private static func decimal(_ text: Substring, scale: Int64) -> AudioTime? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0]
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
              !(whole.isEmpty && fraction.isEmpty), whole.count <= 9
        else { return nil }
        var (flicks, overflow) = (Int64(whole) ?? 0).multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        if !fraction.isEmpty {
            // Digits past the 15th cannot change the result by a flick worth keeping.
            let digits = fraction.prefix(15)
            let numerator = Int64(digits)!
            var denominator: Int64 = 1
            for _ in digits { denominator *= 10 }
            let product = scale.multipliedFullWidth(by: numerator)
            let (quotient, remainder) = denominator.dividingFullWidth(product)
            flicks += quotient + (remainder * 2 >= denominator ? 1 : 0)
        }
        return AudioTime(flicks: flicks)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
