import Files
import PlayerCore

/// `list TAG [FILTER] [group TAG]…`: the values a tag takes, each once, in order, nested under
/// the groups'; `count [FILTER] [group TAG]`: the songs and their time, in all or by a tag's
/// values (`command/DatabaseCommands.cxx`, `db/DatabasePrint.cxx`).
struct MpdTagListCommands: MpdCommandGroup {
    let responder: MpdResponder

    /// What `list` answers: the songs' files, or the values the tags take together, each
    /// combination once, in order (`TAG: value` lines nested as MPD nests them).
    enum Listing {
        case files(MpdCatalog, [Int])
        case values(tags: [MpdTag], [[String]])

        var count: Int {
            switch self {
            case .files(_, let songs): songs.count
            case .values(_, let combinations): combinations.count
            }
        }

        /// The lines of items `range`: a combination's values from the first that differs from
        /// the one before it (what MPD's nested groups print).
        func lines(_ range: Range<Int>) -> String {
            switch self {
            case .files(let catalog, let songs): return songs[range].map { "file: \(UntrustedText.shown(catalog.uri($0)))\n" }.joined()
            case .values(let tags, let combinations):
                var text = ""
                for index in range {
                    let values = combinations[index]
                    var level = 0
                    if index > 0 {
                        let before = combinations[index - 1]
                        while level < values.count - 1, before[level] == values[level] { level += 1 }
                    }
                    for (tag, value) in zip(tags[level...], values[level...]) { text += "\(tag.rawValue): \(UntrustedText.shown(value))\n" }
                }
                return text
            }
        }
    }

    func list(_ arguments: [String], _ catalog: MpdCatalog) -> Result<String, MpdAck> {
        listing(arguments, catalog).map { $0.lines(0..<$0.count) }
    }

    /// `list`'s reply as the client reads it (`list album group albumartist` of a million songs).
    func stream(_ arguments: [String], _ catalog: MpdCatalog) -> Result<MpdStream, MpdAck> {
        listing(arguments, catalog).map { listing in MpdStream(count: listing.count) { listing.lines($0) } }
    }

    func listing(_ arguments: [String], _ catalog: MpdCatalog) -> Result<Listing, MpdAck> {
        let patterns = PosixPatterns()
        var arguments = arguments[...]
        let name = arguments.removeFirst()
        if ["file", "filename"].contains(name.lowercased()) {
            return filter(arguments, ifAny: true, patterns).map { filter in
                .files(catalog, filter.map { $0.select(catalog, patterns) } ?? Array(0..<catalog.count))
            }
        }
        guard let listed = MpdTag(named: name) else { return .failure(MpdAck(.argument, "Unknown tag type: \(name)")) }
        var legacy: MpdFilter?
        if arguments.count == 1, arguments.first?.hasPrefix("(") == false {
            // `list album ARTIST`, from MPD before 0.12.
            guard listed == .album else { return .failure(MpdAck(.argument, "should be \"Album\" for 3 arguments")) }
            legacy = .tag(.artist, MpdFilter.StringMatch(value: arguments.removeFirst(), foldCase: false, substring: false, negated: false))
        }
        var tags: [MpdTag] = []
        while arguments.count >= 2, arguments[arguments.endIndex - 2] == "group" {
            let groupName = arguments.last ?? ""
            guard let group = MpdTag(named: groupName) else { return .failure(MpdAck(.argument, "Unknown tag type: \(groupName)")) }
            guard group != listed, !tags.contains(group) else { return .failure(MpdAck(.argument, "Conflicting group")) }
            tags.append(group)
            arguments = arguments.dropLast(2)
        }
        tags.append(listed)
        return filter(arguments, ifAny: legacy == nil, patterns).map { filter in
            let found = (legacy ?? filter).map { $0.select(catalog, patterns) }
            return .values(tags: tags, Self.combinations(catalog, found ?? Array(0..<catalog.count), tags))
        }
    }

    /// The filter `arguments` give, none when there are none.
    private func filter(_ arguments: ArraySlice<String>, ifAny: Bool, _ patterns: PosixPatterns) -> Result<MpdFilter?, MpdAck> {
        guard ifAny, !arguments.isEmpty else { return .success(nil) }
        return MpdFilter.parse(arguments, foldCase: false, patterns: patterns).map { $0 }.mapError { MpdAck(.argument, $0.message) }
    }

    /// Each combination of values of `tags` a song takes, once, in order (each tag's values
    /// compared as bytes): what is held is the combinations, however many songs take them.
    private static func combinations(_ catalog: MpdCatalog, _ songs: some Sequence<Int>, _ tags: [MpdTag]) -> [[String]] {
        // Each combination by its bytes in an order-keeping form (`MpdGroupValues.Bytes(sorting:)`).
        var seen: [MpdGroupValues.Bytes: [String]] = [:]
        var group = MpdGroupValues(catalog, tags, everySong: false)
        for song in songs {
            guard group.take(song) else { continue }
            // One value each, most often: one combination.
            if group.values.allSatisfy({ $0.count == 1 }) {
                let combination = group.values.map { $0[0] }
                seen[MpdGroupValues.Bytes(sorting: combination)] = combination
                continue
            }
            var made: [[String]] = [[]]
            for tagValues in group.values {
                let distinct = Set(tagValues)
                made = made.flatMap { prefix in distinct.map { prefix + [$0] } }
            }
            for combination in made { seen[MpdGroupValues.Bytes(sorting: combination)] = combination }
        }
        return seen.sorted { $0.key.precedes($1.key) }.map(\.value)
    }

    func count(_ arguments: [String], _ catalog: MpdCatalog) -> Result<String, MpdAck> {
        var arguments = arguments[...]
        var group: MpdTag?
        if arguments.count >= 2, arguments[arguments.endIndex - 2] == "group" {
            let name = arguments.last ?? ""
            guard let tag = MpdTag(named: name) else { return .failure(MpdAck(.argument, "Unknown tag type: \(name)")) }
            group = tag
            arguments = arguments.dropLast(2)
        }
        var filter: MpdFilter?
        let patterns = PosixPatterns()
        if !arguments.isEmpty {
            switch MpdFilter.parse(arguments, foldCase: false, patterns: patterns) {
            case .failure(let problem): return .failure(MpdAck(.argument, problem.message))
            case .success(let parsed): filter = parsed
            }
        }
        let found = filter.map { $0.select(catalog, patterns) } ?? Array(0..<catalog.count)
        func stats(_ songs: some Sequence<Int>) -> String {
            var count = 0, seconds = 0.0
            for song in songs {
                count += 1
                seconds += max(catalog.seconds(song) ?? 0, 0)
            }
            return "songs: \(count)\nplaytime: \(Int(seconds))\n"
        }
        guard let group else { return .success(stats(found)) }
        // Each value's count and time, summed as the songs go (no song held by its value).
        var groups: [String: (count: Int, seconds: Double)] = [:]
        var values = MpdGroupValues(catalog, [group], everySong: true)
        for song in found {
            _ = values.take(song)
            for value in values.values[0] {
                groups[value, default: (0, 0)].count += 1
                groups[value, default: (0, 0)].seconds += max(catalog.seconds(song) ?? 0, 0)
            }
        }
        return .success(groups.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
            let (count, seconds) = groups[key] ?? (0, 0)
            return "\(group.rawValue): \(UntrustedText.shown(key))\nsongs: \(count)\nplaytime: \(Int(seconds))\n"
        }.joined())
    }
}
