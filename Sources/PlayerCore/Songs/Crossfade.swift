/// How songs join: the crossfade at a song's end (`--crossfade SECONDS`, `crossfade =`, `X`,
/// MPD's `crossfade`) and the fade a skip makes (`crossfade-skip =`), each in seconds (0: none).
///
/// The engine decides at each join whether it fades (`CrossfadeRule`): never between consecutive
/// tracks of one album played in order, never into or out of a song shorter than twice the
/// overlap, never across a stop (nothing is cued then), never between songs of other formats.
public struct CrossfadeSetting: Equatable, Sendable {
    /// The overlap at a song's end; 0: songs join gaplessly, as they always do without it.
    public var seconds: Double
    /// The fade a manual next, previous or jump makes while crossfade is on; 0: it cuts.
    public var skipSeconds: Double

    /// The longest overlap asked for (MPD takes any; a minute is more than any listener means).
    public static let longest = 60.0
    /// The crossfade `X` turns on when none is set.
    public static let usual = 5.0
    /// A skip's fade unless set: short, so that the skip is heard at once, yet no cut.
    public static let usualSkip = 1.0

    public init(seconds: Double = 0, skipSeconds: Double = CrossfadeSetting.usualSkip) {
        self.seconds = Self.bounded(seconds)
        self.skipSeconds = Self.bounded(skipSeconds)
    }

    public var isOn: Bool { seconds > 0 }

    /// The fade a skip makes now: none while crossfade is off.
    public var skipFade: Double { isOn ? skipSeconds : 0 }

    /// `value` as an overlap: NaN and negatives none, at most `longest`.
    public static func bounded(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), longest)
    }

    /// Seconds as a setting or option writes them (`5`, `1.5`, `800ms`, `2s`); `nil` otherwise.
    public static func parse(_ text: String) -> Double? {
        var digits = Substring(Substring(text).trimmed.lowercased())
        var scale = 1.0
        if digits.hasSuffix("ms") {
            digits = digits.dropLast(2)
            scale = 0.001
        } else if digits.hasSuffix("s") {
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(digits),
              value.isFinite, value * scale <= longest else { return nil }
        return value * scale
    }

    /// `5 s`, `1.5 s`: as the status line and the details say it.
    public static func describe(_ seconds: Double) -> String {
        let rounded = (seconds * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
