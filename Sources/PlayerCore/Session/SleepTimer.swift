/// The sleep timer (`--sleep 30m`, `T`, a script's or `-R`'s `sleep`): playback stops at a
/// moment, its last `fadeSeconds` fading out, or at the end of the album playing. It stops as a
/// pause does: the song stays where it was, the terminal as it was, and play goes on from there
/// at the volume it had.
public struct SleepTimer: Equatable, Sendable {
    public enum Setting: Equatable, Sendable {
        case off
        /// At this moment of the monotonic clock.
        case at(ContinuousClock.Instant)
        /// When the album playing ends (the next song is another album's).
        case afterAlbum
    }

    /// What a front-end asks for.
    public enum Request: Equatable, Sendable {
        case off
        case after(seconds: Double)
        case afterAlbum
        /// The key's: off, 15, 30, 45, 60, 90 minutes, the album's end, off again.
        case next
    }

    public internal(set) var setting = Setting.off
    /// The gain its fade has come to (1: none yet).
    public internal(set) var gain = 1.0

    /// How long the fade out before the stop lasts (a timer set for less starts part way into it).
    public static let fadeSeconds = 30.0
    /// The longest a timer is set for: a day.
    public static let longest = 86_400.0
    static let keySteps: [Double] = [15, 30, 45, 60, 90].map { $0 * 60 }

    public init() {}

    /// Sets the timer as `request` asks, at `now`.
    mutating func set(_ request: Request, now: ContinuousClock.Instant) {
        gain = 1
        switch request {
        case .off: setting = .off
        case .afterAlbum: setting = .afterAlbum
        case .after(let seconds): setting = .at(now.advanced(by: .milliseconds(Int64((min(max(seconds, 0), Self.longest) * 1000).rounded()))))
        case .next:
            switch setting {
            case .off: set(.after(seconds: Self.keySteps[0]), now: now)
            case .afterAlbum: setting = .off
            case .at(let moment):
                // The next step past what is left, or the album's end after the last.
                let left = now.duration(to: moment).inSeconds
                if let step = Self.keySteps.first(where: { $0 > left + 1 }) { set(.after(seconds: step), now: now) } else { setting = .afterAlbum }
            }
        }
    }

    /// Seconds left at `now` (`nil`: no moment set).
    public func secondsLeft(at now: ContinuousClock.Instant) -> Double? {
        guard case .at(let moment) = setting else { return nil }
        return max(now.duration(to: moment).inSeconds, 0)
    }

    /// At `now`: the fade's gain, and whether playback is to stop now (then the timer is off,
    /// and the gain back to 1 for when play goes on).
    mutating func tick(at now: ContinuousClock.Instant) -> (gain: Double, stops: Bool) {
        guard let left = secondsLeft(at: now) else { return (gain, false) }
        guard left > 0 else {
            setting = .off
            gain = 1
            return (1, true)
        }
        // Faded as loudness goes: the gain's square, so that it does not seem to drop at the end only.
        let fraction = min(left / Self.fadeSeconds, 1)
        gain = fraction * fraction
        return (gain, false)
    }

    /// When the timer next changes what is heard, from `now`: the fade's next step, or its start.
    public func nextChange(after now: ContinuousClock.Instant) -> Double? {
        guard let left = secondsLeft(at: now) else { return nil }
        return left > Self.fadeSeconds ? left - Self.fadeSeconds : min(0.1, left)
    }

    /// `30m`, `90s`, `1h`, `1h30m`, `45` (minutes), `album`, `off`: as `--sleep` and the
    /// commands take it; `nil` otherwise.
    public static func parse(_ text: String) -> Request? {
        let word = String(Substring(text).trimmed).lowercased()
        switch word {
        case "off", "0": return .off
        case "album", "end-of-album": return .afterAlbum
        default: break
        }
        var total = 0.0, number = "", sawUnit = false
        for character in word {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = Double(number), value.isFinite else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            guard !sawUnit, let minutes = Double(number), minutes.isFinite else { return nil }
            total += minutes * 60
        }
        guard total > 0, total <= longest else { return nil }
        return .after(seconds: total)
    }

    /// How the status line says it: `sleep 29:41`, `sleep 1:05:00`, `sleep album`.
    public func describe(at now: ContinuousClock.Instant) -> String? {
        switch setting {
        case .off: return nil
        case .afterAlbum: return "sleep album"
        case .at:
            let left = Int((secondsLeft(at: now) ?? 0).rounded(.up))
            let clock = left >= 3600 ? "\(left / 3600):\(Self.two(left / 60 % 60)):\(Self.two(left % 60))" : "\(left / 60):\(Self.two(left % 60))"
            return "sleep " + clock
        }
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
