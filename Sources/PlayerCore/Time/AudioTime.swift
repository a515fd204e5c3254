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

    /// `frames` at `rate`. A count from a file or a front-end may be absurd (a 16 TB song, a
    /// jump to frame 2^40): past what flicks hold (about 414 years) it saturates, never traps.
    public init(frames: Int64, rate: Int) {
        flicks = Self.saturating(frames.multipliedReportingOverflow(by: Self.flicksPerFrame(rate)), sign: frames)
    }

    /// The value of an operation that may overflow, held at the bound on the side it went.
    static func saturating(_ result: (partialValue: Int64, overflow: Bool), sign: Int64) -> Int64 {
        guard result.overflow else { return result.partialValue }
        return sign < 0 ? .min : .max
    }

    /// A span given in microseconds (MPRIS counts time so): 705.6 flicks each, rounded down;
    /// `nil` when it does not fit.
    public init?(microseconds: Int64) {
        let (scaled, overflow) = microseconds.multipliedReportingOverflow(by: 7056)
        guard !overflow else { return nil }
        flicks = scaled / 10
    }

    /// The span in whole microseconds (rounded toward zero).
    public var microseconds: Int64 {
        flicks / 7056 * 10 + flicks % 7056 * 10 / 7056
    }

    public static func seconds(_ seconds: Int64) -> AudioTime {
        AudioTime(flicks: saturating(seconds.multipliedReportingOverflow(by: flicksPerSecond), sign: seconds))
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
    /// Sums and differences saturate, as `init(frames:rate:)` does.
    public static func + (lhs: AudioTime, rhs: AudioTime) -> AudioTime {
        AudioTime(flicks: lhs.flicks.addingSaturated(rhs.flicks))
    }

    public static func - (lhs: AudioTime, rhs: AudioTime) -> AudioTime {
        AudioTime(flicks: saturating(lhs.flicks.subtractingReportingOverflow(rhs.flicks), sign: rhs.flicks == .min ? 1 : -rhs.flicks))
    }

    public var description: String { TimeFormat.clock(seconds) }
}

/// Where a seek goes: a time in the song, an offset from the current position, or a fraction
/// of the song's length.
public enum SeekTarget: Equatable, Sendable, CustomStringConvertible {
    case to(AudioTime)
    case by(AudioTime)  // negative flicks go back
    /// Per ten thousand of the song's length (`50%` is 5000), so `12.5%` stays exact.
    case fraction(permyriad: Int64)
    /// These targets one after another, each from where the one before landed: the seeks
    /// asked for while a song was loading, made as one when it opens.
    case sequence([SeekTarget])
    /// A saved session's place: there, or the song's start when the song is shorter (it changed
    /// since, or the saved file says what it likes).
    case resume(AudioTime)

    /// The frame this target names in a song of `song`, from `position`; clamped to the song.
    public func frame(in song: SongInfo, from position: Int64) -> Int64 {
        let frame: Int64
        switch self {
        case .sequence(let targets):
            return targets.reduce(min(max(position, 0), song.totalFrames ?? .max)) { $1.frame(in: song, from: $0) }
        case .to(let time): frame = time.frames(rate: song.sampleRate)
        case .resume(let time):
            frame = time.frames(rate: song.sampleRate)
            if let total = song.totalFrames, frame >= total { return 0 }
        case .by(let offset):
            // Frames are whole, so a step back rounds toward zero as a step forward does.
            let magnitude = AudioTime(flicks: offset.flicks == .min ? .max : abs(offset.flicks)).frames(rate: song.sampleRate)
            let step = offset.flicks < 0 ? -magnitude : magnitude
            frame = position.addingSaturated(step)
        case .fraction(let permyriad):
            // Full width: a damaged header may claim an absurd length.
            frame = Int64(10_000).dividingFullWidth((song.totalFrames ?? 0).multipliedFullWidth(by: permyriad)).quotient
        }
        let upper = song.totalFrames ?? Int64.max
        return min(max(frame, 0), upper)
    }

    public var description: String {
        switch self {
        case .to(let time): "\(time.seconds)s"
        case .by(let offset): (offset.flicks < 0 ? "" : "+") + "\(offset.seconds)s"
        case .fraction(let permyriad): "\(Double(permyriad) / 100)%"
        case .sequence(let targets): targets.map(\.description).joined(separator: " then ")
        case .resume(let time): "\(time.seconds)s if the song is that long"
        }
    }
}

/// Parses the durations scripts use: `1.5s`, `250ms`, `2m`, `1h`, `1:30`, `1:02:03.5`, and a
/// bare number of seconds (`90`, `0.25`). Decimals are exact (no floating point), and every
/// step is checked: a duration too long to count in flicks (about 414 years) is `tooLong`,
/// never a crash.
public enum DurationParser {
    public enum Failure: Error, Equatable, Sendable {
        /// Not a duration at all.
        case malformed
        /// A duration, but longer than tplayer can count.
        case tooLong
    }

    public static func parse(_ text: Substring) -> Result<AudioTime, Failure> {
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
    private static func clock(_ text: Substring) -> Result<AudioTime, Failure> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return .failure(.malformed) }
        // The form first, whole, then the values: a malformed duration is malformed, however
        // large a number in it (`99999999999999999999:89%` is not too long, it is no duration).
        let seconds = parts[parts.count - 1]
        let secondsWhole = seconds.prefix(while: { $0 != "." })
        guard secondsWhole.count == 2, secondsWhole.allSatisfy(\.isASCIIDigit),
              seconds.dropFirst(2).dropFirst().allSatisfy(\.isASCIIDigit) else { return .failure(.malformed) }
        for (index, part) in parts.dropLast().enumerated()
        where part.isEmpty || !part.allSatisfy(\.isASCIIDigit) || (index > 0 && part.count != 2) {
            return .failure(.malformed)
        }
        var wholeMinutes: Int64 = 0
        for (index, part) in parts.dropLast().enumerated() {
            // The first field may be any size; later ones are two digits below 60.
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit) else { return .failure(.malformed) }
            guard index == 0 || part.count == 2 else { return .failure(.malformed) }
            guard let value = integer(part) else { return .failure(.tooLong) }
            guard index == 0 || value < 60 else { return .failure(.malformed) }
            guard let minutes = checked(wholeMinutes.multipliedReportingOverflow(by: index == 0 ? 1 : 60))
                .flatMap({ checked($0.addingReportingOverflow(value)) })
            else { return .failure(.tooLong) }
            wholeMinutes = minutes
        }
        // With three fields the first was hours: the loop folded them into minutes already.
        let secondsValue: AudioTime
        switch decimal(seconds, scale: AudioTime.flicksPerSecond) {
        case .success(let value) where value < AudioTime.seconds(60): secondsValue = value
        case .success, .failure(.malformed): return .failure(.malformed)
        case .failure(.tooLong): return .failure(.tooLong)
        }
        guard let minuteFlicks = checked(wholeMinutes.multipliedReportingOverflow(by: 60 * AudioTime.flicksPerSecond)),
              let total = checked(minuteFlicks.addingReportingOverflow(secondsValue.flicks))
        else { return .failure(.tooLong) }
        return .success(AudioTime(flicks: total))
    }

    /// A non-negative decimal number times `scale` flicks, rounded to the nearest flick.
    private static func decimal(_ text: Substring, scale: Int64) -> Result<AudioTime, Failure> {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0]
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
              !(whole.isEmpty && fraction.isEmpty)
        else { return .failure(.malformed) }
        guard let wholeValue = whole.isEmpty ? 0 : integer(whole),
              var flicks = checked(wholeValue.multipliedReportingOverflow(by: scale))
        else { return .failure(.tooLong) }
        if !fraction.isEmpty {
            // Digits past the 15th cannot change the result by a flick worth keeping.
            let digits = fraction.prefix(15)
            var numerator: Int64 = 0
            var denominator: Int64 = 1
            for digit in digits.utf8 {
                numerator = numerator * 10 + Int64(digit - UInt8(ascii: "0"))
                denominator *= 10
            }
            let product = scale.multipliedFullWidth(by: numerator)
            let (quotient, remainder) = denominator.dividingFullWidth(product)
            guard let total = checked(flicks.addingReportingOverflow(quotient + (remainder * 2 >= denominator ? 1 : 0)))
            else { return .failure(.tooLong) }
            flicks = total
        }
        return .success(AudioTime(flicks: flicks))
    }

    /// The value of a run of ASCII digits, or `nil` when it does not fit in 64 bits.
    private static func integer(_ digits: Substring) -> Int64? {
        var value: Int64 = 0
        for digit in digits.utf8 {
            guard let next = checked(value.multipliedReportingOverflow(by: 10))
                .flatMap({ checked($0.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))) })
            else { return nil }
            value = next
        }
        return value
    }

    private static func checked(_ result: (partialValue: Int64, overflow: Bool)) -> Int64? {
        result.overflow ? nil : result.partialValue
    }
}

extension Int64 {
    /// The sum, held at the bound it would pass.
    public func addingSaturated(_ other: Int64) -> Int64 {
        AudioTime.saturating(addingReportingOverflow(other), sign: other)
    }

    /// `self × numerator ÷ denominator`, rounded toward zero, in full width and held at the
    /// bound it would pass: a count from a file, a saved session or a front-end converted to
    /// another rate (a length, a track's start, a seek) never traps, however absurd.
    public func scaled(by numerator: Int64, over denominator: Int64) -> Int64 {
        let negative = ((self < 0) != (numerator < 0)) != (denominator < 0)
        guard denominator != 0 else { return self == 0 || numerator == 0 ? 0 : negative ? .min : .max }
        // Within a part in 10^15 of the quotient: well clear of the bound, the exact one fits.
        guard abs(Double(self) * Double(numerator) / Double(denominator)) < 9.2e18 else { return negative ? .min : .max }
        return denominator.dividingFullWidth(multipliedFullWidth(by: numerator)).quotient
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
