/// What a song shows a filter: its URI, its tags' values, when its file last changed and its
/// audio format.
public protocol MpdFilterable {
    var uri: String { get }
    func values(of tag: MpdTag) -> [String]
    /// Every tag's values, in MPD's table's order (for `any`).
    var allValues: [String] { get }
    /// Whether one of `tag`'s values passes `test` (asked of each without making a list).
    func anyValue(of tag: MpdTag, _ test: (String) -> Bool) -> Bool
    /// The same, each value as its UTF-8 bytes; `tag` nil: any tag's.
    func anyBytes(of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool
    /// Seconds since 1970.
    var modified: Int64 { get }
    /// Sample rate, bits (`nil`: floating point) and channels, when known.
    var audioFormat: (rate: Int, bits: Int?, channels: Int)? { get }
}

/// Songs a filter picks from by their places: each one's URI, time and format, and its tags'
/// values read where they lie.
public protocol MpdFilterableSongs {
    var count: Int { get }
    func uri(_ index: Int) -> String
    func modified(_ index: Int) -> Int64
    func audioFormat(_ index: Int) -> (rate: Int, bits: Int?, channels: Int)?
    /// Whether one of song `index`'s values of `tag` (`nil`: any tag's) passes `test`, as UTF-8.
    func anyBytes(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool
    /// Whether song `index` has a value of `tag`.
    func has(_ index: Int, _ tag: MpdTag) -> Bool
}

extension MpdFilterableSongs {
    public func has(_ index: Int, _ tag: MpdTag) -> Bool { anyBytes(index, of: tag) { _ in true } }
}

/// One song as songs to pick from.
struct OneSong<Song: MpdFilterable>: MpdFilterableSongs {
    let song: Song
    var count: Int { 1 }
    func uri(_ index: Int) -> String { song.uri }
    func modified(_ index: Int) -> Int64 { song.modified }
    func audioFormat(_ index: Int) -> (rate: Int, bits: Int?, channels: Int)? { song.audioFormat }
    func anyBytes(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool { song.anyBytes(of: tag, test) }
}

extension MpdFilterable {
    public func anyValue(of tag: MpdTag, _ test: (String) -> Bool) -> Bool { values(of: tag).contains(where: test) }

    public func anyBytes(of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        (tag.map { [$0] } ?? MpdTag.allCases).contains { tag in
            anyValue(of: tag) { value in
                var value = value
                return value.withUTF8(test)
            }
        }
    }
}

/// A song filter as MPD 0.23 reads it (`song/Filter.cxx`): the expressions
/// (`((artist == 'X') AND (date != '1990'))`, `contains`, `!contains`, `=~` and `!~` for regular
/// expressions, `!(…)`, `base`, `modified-since`, `AudioFormat`) and the old pairs
/// (`artist X album Y`); and MPD 0.24's `starts_with`. Every refusal in MPD's words.
public indirect enum MpdFilter: Equatable, Sendable {
    /// A tag (`nil`: any tag), or the URI (`file`), against a string.
    case tag(MpdTag?, StringMatch)
    case file(StringMatch)
    /// Songs under this folder URI.
    case base(String)
    case modifiedSince(Int64)
    /// `RATE:BITS:CHANNELS`, each `*` for any (`mask`: `=~`).
    case audioFormat(String, mask: Bool)
    case and([MpdFilter])
    case not(MpdFilter)

    public struct StringMatch: Equatable, Sendable {
        public var value: String {
            didSet { needle = Needle(value) }
        }
        /// `value` as bytes, to match bytes with (`MpdFilter+Bytes`).
        private(set) var needle: Needle
        public var foldCase: Bool
        public var substring: Bool
        public var negated: Bool
        public var regex = false
        public var prefix = false

        public init(value: String, foldCase: Bool, substring: Bool, negated: Bool) {
            (self.value, self.foldCase, self.substring, self.negated) = (value, foldCase, substring, negated)
            needle = Needle(value)
        }

        /// Whether `text` matches, negation aside.
        func matches(_ text: String, _ patterns: some MpdPatterns) -> Bool {
            if regex { return patterns.matches(value, text, foldCase: foldCase) }
            guard foldCase else {
                if prefix { return text.hasPrefix(value) }
                return substring ? (value.isEmpty || text.contains(value)) : text == value
            }
            // Letter case folded: ASCII text compared byte by byte, without a copy (most tags);
            // any other as Swift folds it.
            if let found = Self.foldedASCII(text, value, prefix: prefix, substring: substring) { return found }
            let (value, text) = (value.lowercased(), text.lowercased())
            if prefix { return text.hasPrefix(value) }
            return substring ? (value.isEmpty || text.contains(value)) : text == value
        }

        /// `matches` for ASCII `text` and `value`, letter case aside; `nil` when either is not ASCII.
        static func foldedASCII(_ text: String, _ value: String, prefix: Bool, substring: Bool) -> Bool? {
            var text = text, value = value
            return text.withUTF8 { haystack -> Bool? in
                value.withUTF8 { needle -> Bool? in
                    guard !haystack.contains(where: { $0 >= 0x80 }), !needle.contains(where: { $0 >= 0x80 }) else { return nil }
                    func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
                    func same(at offset: Int) -> Bool {
                        for index in 0..<needle.count where fold(haystack[offset + index]) != fold(needle[index]) { return false }
                        return true
                    }
                    guard needle.count <= haystack.count else { return false }
                    if prefix { return same(at: 0) }
                    if !substring { return needle.count == haystack.count && same(at: 0) }
                    if needle.isEmpty { return true }
                    for offset in 0...(haystack.count - needle.count) where same(at: offset) { return true }
                    return false
                }
            }
        }
    }

    public struct Problem: Error, Equatable, Sendable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// The filter `arguments` give, read as `find` (`foldCase` false) or `search` reads them.
    public static func parse(_ arguments: some Collection<String>, foldCase: Bool, patterns: some MpdPatterns) -> Result<MpdFilter, Problem> {
        guard !arguments.isEmpty else { return .failure(Problem("Incorrect number of filter arguments")) }
        var items: [MpdFilter] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first.hasPrefix("(") {
                var reader = Reader(Array(first.utf8), patterns: patterns)
                switch reader.expression(foldCase: foldCase) {
                case .failure(let problem): return .failure(problem)
                case .success(let filter):
                    guard reader.atEnd else { return .failure(Problem("Unparsed garbage after expression")) }
                    items.append(filter)
                }
                rest = rest.dropFirst()
                continue
            }
            guard rest.count >= 2 else { return .failure(Problem("Incorrect number of filter arguments")) }
            let value = rest.dropFirst().first ?? ""
            rest = rest.dropFirst(2)
            let match = StringMatch(value: value, foldCase: foldCase, substring: foldCase, negated: false)
            switch Field(first) {
            case nil: return .failure(Problem("Unknown filter type"))
            case .base?:
                guard MpdRoots.isSafe(value) else { return .failure(Problem("Bad URI")) }
                items.append(.base(value))
            case .modifiedSince?:
                guard let time = MpdTime.parse(value) else { return .failure(Problem("Date/time expected")) }
                items.append(.modifiedSince(time))
            case .file?: items.append(.file(match))
            case .any?: items.append(.tag(nil, match))
            case .tag(let tag)?: items.append(.tag(tag, match))
            case .audioFormat?: items.append(.audioFormat(value, mask: false))
            }
        }
        return .success(items.count == 1 ? items[0] : .and(items))
    }

    /// What a filter's name names.
    enum Field: Equatable {
        case file, any, base, modifiedSince, audioFormat
        case tag(MpdTag)

        init?(_ name: String) {
            let lower = String(name.utf8.map { (0x41...0x5A).contains($0) ? Character(Unicode.Scalar($0 + 32)) : Character(Unicode.Scalar($0)) })
            switch lower {
            case "file", "filename": self = .file
            case "any": self = .any
            case _ where name == "base": self = .base
            case _ where name == "modified-since": self = .modifiedSince
            case "audioformat": self = .audioFormat
            default:
                guard let tag = MpdTag(named: name) else { return nil }
                self = .tag(tag)
            }
        }
    }

    /// The folders its `base` terms name.
    public var bases: [String] {
        switch self {
        case .base(let folder): [folder]
        case .and(let items): items.flatMap(\.bases)
        case .not(let inner): inner.bases
        case .tag, .file, .modifiedSince, .audioFormat: []
        }
    }

    /// Whether `song` passes.
    public func matches(_ song: some MpdFilterable, _ patterns: some MpdPatterns) -> Bool {
        !select(OneSong(song: song), patterns).isEmpty
    }

    /// The songs of `songs` that pass, as indices in order: each term tried on the songs the
    /// terms before it passed, its own values taken out once (not once a song: a library of
    /// 100,000 songs was 100,000 copies of each term's strings, counted in and out).
    public func select(_ songs: some MpdFilterableSongs, among candidates: [Int]? = nil, _ patterns: some MpdPatterns) -> [Int] {
        switch self {
        case .and(let items):
            var chosen = candidates
            for item in items { chosen = item.select(songs, among: chosen, patterns) }
            return chosen ?? Array(0..<songs.count)
        case .not(let inner):
            var passing = [Bool](repeating: false, count: songs.count)
            for index in inner.select(songs, among: candidates, patterns) { passing[index] = true }
            return (candidates ?? Array(0..<songs.count)).filter { !passing[$0] }
        case .base, .modifiedSince, .file, .audioFormat, .tag:
            guard let candidates else { return (0..<songs.count).filter { passes(songs, $0, patterns) } }
            return candidates.filter { passes(songs, $0, patterns) }
        }
    }

    /// Whether song `index` of `songs` passes this term, one that is neither `and` nor `not`.
    private func passes(_ songs: some MpdFilterableSongs, _ index: Int, _ patterns: some MpdPatterns) -> Bool {
        switch self {
        case .and, .not: return !select(songs, among: [index], patterns).isEmpty
        case .base(let folder): return folder.isEmpty || songs.uri(index).hasPrefix(folder + "/")
        case .modifiedSince(let time): return songs.modified(index) >= time
        case .file(let match): return match.matches(songs.uri(index), patterns) != match.negated
        case .audioFormat(let text, let mask): return Self.format(text, mask: mask, songs.audioFormat(index))
        case .tag(nil, let match):
            return songs.anyBytes(index, of: nil) { match.matches(bytes: $0, patterns) } != match.negated
        case .tag(let tag?, let match):
            if songs.anyBytes(index, of: tag, { match.matches(bytes: $0, patterns) }) { return !match.negated }
            guard !songs.has(index, tag) else { return match.negated }
            // Absent: its fallbacks, as MPD's `ApplyTagFallback` (the first that is there).
            for fallback in tag.fallbacks where songs.has(index, fallback) {
                return songs.anyBytes(index, of: fallback) { match.matches(bytes: $0, patterns) } != match.negated
            }
            return match.value.isEmpty != match.negated
        }
    }

    private static func format(_ text: String, mask: Bool, _ format: (rate: Int, bits: Int?, channels: Int)?) -> Bool {
        guard let format else { return false }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return false }
        let own = ["\(format.rate)", format.bits.map(String.init) ?? "f", "\(format.channels)"]
        return zip(parts, own).allSatisfy { (mask && $0.0 == "*") || $0.0 == $0.1 }
    }
}

extension MpdTag {
    /// The tags MPD looks at when this one is absent (`tag/Fallback.hxx`), in order: as MPD 0.23
    /// answers, AlbumArtistSort falls back to AlbumArtist and that one's own fallback, Artist,
    /// before ArtistSort (`list albumartistsort` of songs with ArtistSort but no AlbumArtist
    /// lists their Artist).
    public var fallbacks: [MpdTag] {
        switch self {
        case .albumArtistSort: [.albumArtist, .artist, .artistSort]
        case .albumArtist, .artistSort: [.artist]
        case .albumSort: [.album]
        case .artist, .album, .title, .track, .name, .genre, .date, .originalDate, .composer, .composerSort, .performer, .conductor,
             .work, .movement, .movementNumber, .ensemble, .location, .grouping, .comment, .disc, .label, .musicBrainzArtist,
             .musicBrainzAlbum, .musicBrainzAlbumArtist, .musicBrainzTrack, .musicBrainzReleaseTrack, .musicBrainzWork: []
        }
    }
}
