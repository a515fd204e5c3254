/// A command's arguments read as MPD reads them (`protocol/ArgParser.cxx`, which reads numbers
/// with C's `strtol`: spaces before, a sign, digits, nothing after), each refusal in its words.
public enum MpdArguments {
    /// A position range, `START:END` (END not included), `START:` (to the end) or `N` (one).
    public struct Range: Equatable, Sendable {
        public var start: Int
        /// `nil`: to the end of the list.
        public var end: Int?
        public init(start: Int, end: Int?) { (self.start, self.end) = (start, end) }
        /// The whole list (`-1`, as older MPDs wrote it).
        public static let all = Range(start: 0, end: nil)
        /// The positions in a list of `count`, cut to it.
        public func clamped(to count: Int) -> Swift.Range<Int> {
            let low = min(start, count)
            return low..<max(low, min(end ?? count, count))
        }
    }

    /// C's `strtol` on `text`: the value (clamped to `Int`'s range, as it clamps to `long`'s),
    /// and what is left after the number; `nil` when no digits begin it.
    static func long(_ text: Substring) -> (value: Int, rest: Substring)? {
        var rest = text.drop { " \t\n\r\u{0B}\u{0C}".contains($0) }
        var negative = false
        if let sign = rest.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { ("0"..."9").contains($0) }
        guard !digits.isEmpty else { return nil }
        var value = 0
        var overflow = false
        for digit in digits.utf8 {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(digit - 0x30))
            if o1 || o2 { overflow = true; break }
            value = sum
        }
        if overflow { value = negative ? .min : .max } else if negative { value = -value }
        return (value, rest.dropFirst(digits.count))
    }

    private static func error(_ message: String, _ text: String) -> MpdAck {
        MpdAck(.argument, "\(message): \(text)")
    }

    /// A signed whole number between `low` and `high`.
    public static func int(_ text: String, in low: Int = Int(Int32.min), _ high: Int = Int(Int32.max)) -> Result<Int, MpdAck> {
        guard let (value, rest) = long(Substring(text)), rest.isEmpty else { return .failure(error("Integer expected", text)) }
        guard value >= low, value <= high else { return .failure(error("Number too large", text)) }
        return .success(value)
    }

    /// An unsigned whole number up to `high` (`strtoul`: a negative one wraps, so is too large).
    public static func unsigned(_ text: String, max high: Int = Int(UInt32.max)) -> Result<Int, MpdAck> {
        guard let (value, rest) = long(Substring(text)), rest.isEmpty else { return .failure(error("Integer expected", text)) }
        guard value >= 0, value <= high else { return .failure(error("Number too large", text)) }
        return .success(value)
    }

    /// `0` or `1`.
    public static func bool(_ text: String) -> Result<Bool, MpdAck> {
        guard let (value, rest) = long(Substring(text)), rest.isEmpty, value == 0 || value == 1 else {
            return .failure(error("Boolean (0/1) expected", text))
        }
        return .success(value == 1)
    }

    /// A decimal number (`1.5`, `-3`, `2e1`).
    public static func float(_ text: String) -> Result<Double, MpdAck> {
        let trimmed = text.drop { " \t\n\r\u{0B}\u{0C}".contains($0) }
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0 == "_" }), let value = Double(trimmed), value.isFinite else {
            return .failure(error("Float expected", text))
        }
        return .success(value)
    }

    /// Seconds into a song, not negative.
    public static func songTime(_ text: String) -> Result<Double, MpdAck> {
        float(text).flatMap { $0 < 0 ? .failure(error("Negative value not allowed", text)) : .success($0) }
    }

    /// A position range, as `ParseCommandArgRange` reads it.
    public static func range(_ text: String) -> Result<Range, MpdAck> {
        guard let (start, rest) = long(Substring(text)), rest.isEmpty || rest.first == ":" else {
            return .failure(error("Integer or range expected", text))
        }
        if start == -1, rest.isEmpty { return .success(.all) }
        if start < 0 { return .failure(error("Number is negative", text)) }
        if start > Int(Int32.max) { return .failure(error("Number too large", text)) }
        guard rest.first == ":" else { return .success(Range(start: start, end: start + 1)) }
        let after = rest.dropFirst()
        guard let (end, left) = long(after) else {
            // `START:` is open-ended; anything else after the colon is no number.
            return after.isEmpty ? .success(Range(start: start, end: nil)) : .failure(error("Integer or range expected", text))
        }
        guard left.isEmpty else { return .failure(error("Integer or range expected", text)) }
        if end < 0 { return .failure(error("Number is negative", text)) }
        if end > Int(Int32.max) { return .failure(error("Number too large", text)) }
        guard end >= start else { return .failure(error("Malformed range", text)) }
        return .success(Range(start: start, end: end))
    }
}
