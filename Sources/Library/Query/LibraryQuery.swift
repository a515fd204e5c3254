import PlayerCore

/// What the user asks the library for: words that must all match, each in any field or in the
/// one it names, and numbers in a range. The same language everywhere a query is typed
/// (`--find`, the library view's live filter):
///
///     bjork post                      both words, each at the start of a word of any field
///     artist:björk album:"debut"      in that field; quotes for whole words, in order
///     albumartist:"Various Artists"
///     year:1990..1999  year:1997  year:..1979  rating:4..  plays:10..
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
        case year, rating, plays, disc, track
    }

    public enum Term: Equatable, Sendable {
        /// Words (folded), in `field` or in any; the last one may be the start of a word.
        case words(String, field: TextField?)
        /// Whole words (folded) in this order: a value in closed quotes.
        case phrase(String, field: TextField?)
        case number(NumberField, ClosedRange<Int>)
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
            if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }),
               TextField(rawValue: rest[..<colon].lowercased()) != nil || NumberField(rawValue: rest[..<colon].lowercased()) != nil {
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

    private static func term(field name: Substring?, value: Substring, quoted: Bool) -> Result<Term?, ParseError> {
        let field = name.map { $0.lowercased() }
        if let field, let numbers = NumberField(rawValue: field) {
            if value.isEmpty { return .success(nil) }
            guard let range = range(value) else {
                return .failure(ParseError(description: "\(field):\(UntrustedText.shown(String(value.prefix(40)))): "
                    + "give a number or a range (\(field):1990..1999, \(field):1990.., \(field):..1999)"))
            }
            return .success(.number(numbers, range))
        }
        let folded = String(decoding: SearchFold.fold(String(value)), as: UTF8.self)
        // Words are letters and digits: a value of none (a lone "-") asks for nothing.
        guard folded.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            return .success(nil)
        }
        let column = field.flatMap(TextField.init(rawValue:))
        return .success(quoted ? .phrase(folded, field: column) : .words(folded, field: column))
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
