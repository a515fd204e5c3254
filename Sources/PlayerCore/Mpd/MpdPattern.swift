/// Regular expressions for MPD's `=~` and `!~`: compiled and matched by whoever evaluates a
/// filter (the server: POSIX extended expressions, whose matcher takes time polynomial in the
/// value, so that no client's pattern can hold the player up), a match anywhere in the value.
public protocol MpdPatterns {
    /// Whether `pattern` compiles.
    func isValid(_ pattern: String) -> Bool
    /// Whether `pattern` matches somewhere in `text` (letter case folded when asked).
    func matches(_ pattern: String, _ text: String, foldCase: Bool) -> Bool
}

/// A time as MPD's `modified-since` reads it: ISO 8601 (`2024-03-05`, `2024-03-05T12:00:00Z`)
/// or seconds since 1970.
public enum MpdTime {
    public static func parse(_ text: String) -> Int64? {
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return text.count <= 18 ? Int64(text) : nil }
        let parts = text.split(separator: "T", maxSplits: 1)
        guard let date = parts.first else { return nil }
        let ymd = date.split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, let year = Int64(ymd[0]), let month = Int64(ymd[1]), let day = Int64(ymd[2]),
              ymd[0].count == 4, (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds: Int64 = 0
        if parts.count == 2 {
            var time = parts[1]
            guard time.hasSuffix("Z") else { return nil }
            time = time.dropLast()
            let hms = time.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
            guard (2...3).contains(hms.count), hms.allSatisfy({ $0 != nil }), let hours = hms[0], let minutes = hms[1],
                  (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
            let secs = hms.count == 3 ? (hms[2] ?? 0) : 0
            guard (0..<61).contains(secs) else { return nil }
            seconds = hours * 3600 + minutes * 60 + secs
        }
        return days(year: year, month: month, day: day) * 86400 + seconds
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's days-from-civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension MpdRoots {
    /// Whether a client's URI stays inside the library (`uri_safe_local`): no `.` or `..` part,
    /// no empty one, not absolute.
    public static func isSafe(_ uri: String) -> Bool {
        guard !uri.hasPrefix("/") else { return false }
        return !uri.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." || ($0.isEmpty && !uri.isEmpty) }
    }
}
