/// The order the library's sorted view lists songs in: fields, each ascending or, with a
/// leading `-`, descending (`sort = albumartist date album disc track`, `sort = -plays title`).
public struct LibrarySort: Equatable, Sendable, CustomStringConvertible {
    public enum Field: String, CaseIterable, Sendable {
        case albumartist, artist, date, album, disc, track, title, genre, composer, path, length, plays, rating, played, added
    }

    public struct Key: Equatable, Sendable {
        public var field: Field
        public var descending: Bool
    }

    public var keys: [Key]

    /// Album order: album artist, date, album, disc, track.
    public static let albumOrder = LibrarySort(keys: [.albumartist, .date, .album, .disc, .track].map { Key(field: $0, descending: false) })

    public init(keys: [Key]) {
        self.keys = keys
    }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// From words such as `albumartist -date title`; why not, in one line.
    public static func parse(_ text: String) -> Result<LibrarySort, ParseError> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        guard !words.isEmpty else { return .failure(ParseError(description: "give fields to sort by, e.g. albumartist date album disc track")) }
        var keys: [Key] = []
        for word in words.prefix(16) {
            let descending = word.hasPrefix("-")
            guard let field = Field(rawValue: String(word.drop { $0 == "-" }).lowercased()) else {
                return .failure(ParseError(description: "\(UntrustedText.shown(String(word.prefix(40)))): no such field; the fields are "
                    + Field.allCases.map(\.rawValue).joined(separator: " ") + " (a leading - sorts down)"))
            }
            keys.append(Key(field: field, descending: descending))
        }
        return .success(LibrarySort(keys: keys))
    }

    public var description: String {
        keys.map { ($0.descending ? "-" : "") + $0.field.rawValue }.joined(separator: " ")
    }
}
