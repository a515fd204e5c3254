import Foundation
import PlayerCore

/// What the user asks the library for: words that must all match, each in any field or in the
/// one it names, and numbers in a range. The same language everywhere a query is typed
/// (`--find`, the library view's live filter):
///
///     bjork post                      both words, each at the start of a word of any field
///     artist:björk album:"debut"      in that field; quotes for whole words, in order
///     albumartist:"Various Artists"
///     year:1990..1999  year:1997  year:..1979  rating:4..  plays:10..  skips:3..
///     played:<30d  played:>90d (not since, or never)  played:2026-11  added:<7d
///     plays@30d:5..                   played 5 times or more in the last 30 days
///
/// Any case and any accents (text is folded as the list view's search folds it); a control
/// character is a space. A name before
/// a colon that is no field (`Re:Zero`) is part of the words. Parsing never fails on text being
/// typed: an open quote runs to the end, an empty value is left out; only a number field's
/// value that is no number or range is an error, and a query longer than `longest` bytes or of
/// more than `mostTerms` terms (a query's work grows with both: a 17 KB one pasted into the
/// library view's filter froze the keys for a minute, and 1,000 number terms were more than
/// SQLite reads in one statement).
public struct LibraryQuery: Equatable, Sendable {
    public enum TextField: String, CaseIterable, Sendable {
        case title, artist, albumartist, album, genre, composer, path
    }

    public enum NumberField: String, CaseIterable, Sendable {
        case year, rating, plays, skips, disc, track
    }

    /// When a song was played (any of its plays), or came into the library.
    public enum TimeField: String, CaseIterable, Sendable {
        case played, added
    }

    /// A stretch of time: the last `seconds`, before them (never, too, for `played`), or
    /// from one moment to another (seconds since 1970, the end not in it).
    public enum Span: Equatable, Sendable {
        case within(seconds: Int64)
        case before(seconds: Int64)
        case between(Int64, Int64)
    }

    public enum Term: Equatable, Sendable {
        /// Words (folded), in `field` or in any; the last one may be the start of a word.
        case words(String, field: TextField?)
        /// Whole words (folded) in this order: a value in closed quotes.
        case phrase(String, field: TextField?)
        case number(NumberField, ClosedRange<Int>)
        case time(TimeField, Span)
        /// How many times it was played in the last `seconds` (`plays@30d:5..`).
        case recentPlays(seconds: Int64, ClosedRange<Int>)
    }

    public var terms: [Term]

    public init(terms: [Term] = []) {
        self.terms = terms
    }

    /// Whether it asks for nothing: every song matches.
    public var isEmpty: Bool { terms.isEmpty }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The longest query read, in bytes, and the most terms.
    public static let longest = 1024
    public static let mostTerms = 32

    public static func parse(_ text: String) -> Result<LibraryQuery, ParseError> {
        guard text.utf8.count <= longest else {
            return .failure(ParseError(description: "a query of \(text.utf8.count) bytes: tplayer reads queries of up to \(longest) bytes"))
        }
        var query = LibraryQuery()
        // Control characters are spaces: FTS5 reads a query only up to a NUL (the fuzzer found
        // "unterminated string"), and none is typed as part of a word.
        var spaced = String.UnicodeScalarView()
        spaced.append(contentsOf: text.unicodeScalars.lazy.map { UntrustedText.isControl($0) ? " " : $0 })
        var rest = Substring(String(spaced))
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard !rest.isEmpty else { return .success(query) }
            var field: Substring?
            if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "@") }),
               Self.isField(rest[..<colon].lowercased()) {
                field = rest[..<colon]
                rest = rest[rest.index(after: colon)...]
            }
            let value: Substring
            var quoted = false
            if rest.first == "\"" {
                let open = rest.dropFirst()
                let close = open.firstIndex(of: "\"") ?? open.endIndex
                value = open[..<close]
                quoted = close != open.endIndex  // an open quote is still being typed: its last word a start
                rest = quoted ? open[open.index(after: close)...] : open[close...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            switch term(field: field, value: value, quoted: quoted) {
            case .success(let term?):
                guard query.terms.count < mostTerms else {
                    return .failure(ParseError(description: "more than \(mostTerms) terms: tplayer reads queries of up to \(mostTerms) "
                                               + "(words, quoted phrases and field:value terms)"))
                }
                query.terms.append(term)
            case .success(nil): continue
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// Whether `name` names a field: a text, number or time field, or `plays@` a span.
    private static func isField(_ name: String) -> Bool {
        TextField(rawValue: name) != nil || NumberField(rawValue: name) != nil || TimeField(rawValue: name) != nil
            || name.hasPrefix("plays@")
    }

    private static func term(field name: Substring?, value: Substring, quoted: Bool) -> Result<Term?, ParseError> {
        let field = name.map { $0.lowercased() }
        // A field's value as `parse` reads it: an empty one is left out (it is being typed), one
        // that cannot be read is said, with `help`.
        func valued<Value>(_ parse: (Substring) -> Value?, _ term: (Value) -> Term, help: String) -> Result<Term?, ParseError> {
            if value.isEmpty { return .success(nil) }
            guard let read = parse(value) else {
                let shown = UntrustedText.shown(String((field ?? "").prefix(40))) + ":" + UntrustedText.shown(String(value.prefix(40)))
                return .failure(ParseError(description: "\(shown): " + help))
            }
            return .success(term(read))
        }
        if let field, field.hasPrefix("plays@") {
            let span = seconds(field.dropFirst("plays@".count))
            return valued({ value in span.flatMap { span in range(value).map { (span, $0) } } }, { .recentPlays(seconds: $0.0, $0.1) },
                          help: "give a span and a count: plays@30d:5.., plays@1w:..2 (h, d, w or y)")
        }
        if let field, let when = TimeField(rawValue: field) {
            return valued(span, { .time(when, $0) }, help: "give <30d (within), >90d (not since; h, d, w or y) or a date: 2026, 2026-11, 2026-11-05")
        }
        if let field, let numbers = NumberField(rawValue: field) {
            return valued(range, { .number(numbers, $0) }, help: "give a number or a range (\(field):1990..1999, \(field):1990.., \(field):..1999)")
        }
        let folded = String(decoding: SearchFold.fold(String(value)), as: UTF8.self)
        // Words are letters and digits: a value of none (a lone "-") asks for nothing.
        guard folded.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            return .success(nil)
        }
        let column = field.flatMap(TextField.init(rawValue:))
        return .success(quoted ? .phrase(folded, field: column) : .words(folded, field: column))
    }

    /// `30d`, `12h`, `2w`, `1y` in seconds (a year of 365 days): at most 9 digits.
    static func seconds(_ text: Substring) -> Int64? {
        guard let unit = text.last, text.count >= 2, text.count <= 10, text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
              let count = Int64(text.dropLast()) else { return nil }
        let each: Int64
        switch unit {
        case "h": each = 3600
        case "d": each = 86400
        case "w": each = 7 * 86400
        case "y": each = 365 * 86400
        default: return nil
        }
        return count * each  // at most 999,999,999 years of seconds: well inside Int64
    }

    /// `<30d`, `>90d`, or a year, month or day of the local calendar (`2026`, `2026-11`,
    /// `2026-11-05`) as the moments it runs between.
    static func span(_ text: Substring) -> Span? {
        if let sign = text.first, sign == "<" || sign == ">" {
            guard let seconds = seconds(text.dropFirst()) else { return nil }
            return sign == "<" ? .within(seconds: seconds) : .before(seconds: seconds)
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), (1...9999).contains(year) else { return nil }
        let month = parts.count > 1 ? Int(parts[1]) : nil, day = parts.count > 2 ? Int(parts[2]) : nil
        if let month, !(1...12).contains(month) { return nil }
        if let day, !(1...31).contains(day) { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        guard let start = calendar.date(from: DateComponents(year: year, month: month ?? 1, day: day ?? 1)),
              calendar.component(.day, from: start) == (day ?? 1),  // no 31 November
              let end = calendar.date(byAdding: day != nil ? .day : month != nil ? .month : .year, value: 1, to: start) else { return nil }
        return .between(Int64(start.timeIntervalSince1970), Int64(end.timeIntervalSince1970))
    }

    /// `1997`, `1990..1999`, `1990..`, `..1999`: numbers of at most 9 digits.
    static func range(_ text: Substring) -> ClosedRange<Int>? {
        func number(_ digits: Substring) -> Int? {
            digits.count <= 9 && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(digits) : nil
        }
        guard let dots = text.range(of: "..") else { return number(text).map { $0...$0 } }
        let low = text[..<dots.lowerBound], high = text[dots.upperBound...]
        guard !(low.isEmpty && high.isEmpty) else { return nil }
        guard let from = low.isEmpty ? 0 : number(low), let to = high.isEmpty ? 999_999_999 : number(high), from <= to else { return nil }
        return from...to
    }
}
