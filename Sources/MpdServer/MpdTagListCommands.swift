import Files
import PlayerCore

/// `list TAG [FILTER] [group TAG]…`: the values a tag takes, each once, in order, nested under
/// the groups'; `count [FILTER] [group TAG]`: the songs and their time, in all or by a tag's
/// values (`command/DatabaseCommands.cxx`, `db/DatabasePrint.cxx`).
struct MpdTagListCommands: MpdCommandGroup {
    let responder: MpdResponder

    func list(_ arguments: [String], _ catalog: MpdCatalog) -> Result<String, MpdAck> {
        let patterns = PosixPatterns()
        var arguments = arguments[...]
        let name = arguments.removeFirst()
        if ["file", "filename"].contains(name.lowercased()) {
            return filter(arguments, ifAny: true, patterns).map { filter in
                (filter.map { $0.select(catalog, patterns).map { catalog.songs[$0] } } ?? catalog.songs).map { "file: \(UntrustedText.shown($0.uri))\n" }.joined()
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
            let songs = (legacy ?? filter).map { $0.select(catalog, patterns).map { catalog.songs[$0] } } ?? catalog.songs
            return Self.unique(songs, tags[...])
        }
    }

    /// The filter `arguments` give, none when there are none.
    private func filter(_ arguments: ArraySlice<String>, ifAny: Bool, _ patterns: PosixPatterns) -> Result<MpdFilter?, MpdAck> {
        guard ifAny, !arguments.isEmpty else { return .success(nil) }
        return MpdFilter.parse(arguments, foldCase: false, patterns: patterns).map { $0 }.mapError { MpdAck(.argument, $0.message) }
    }

    /// `TAG: value` for each value of the first of `tags` the songs take, in order, each
    /// followed by the rest of the tags' within it.
    private static func unique(_ songs: [MpdCatalog.Song], _ tags: ArraySlice<MpdTag>) -> String {
        guard let tag = tags.first else { return "" }
        var groups: [String: [MpdCatalog.Song]] = [:]
        for song in songs { for value in Set(groupValues(song, tag)) { groups[value, default: []].append(song) } }
        var text = ""
        for key in groups.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            text += "\(tag.rawValue): \(UntrustedText.shown(key))\n"
            if tags.count > 1 { text += unique(groups[key] ?? [], tags.dropFirst()) }
        }
        return text
    }

    /// A song's values of `tag`, its fallback's when it has none, or the empty value (MPD's
    /// `VisitTagWithFallbackOrEmpty`).
    static func groupValues(_ song: MpdCatalog.Song, _ tag: MpdTag) -> [String] {
        for candidate in [tag] + tag.fallbacks {
            let values = song.values(of: candidate)
            if !values.isEmpty { return values }
        }
        return [""]
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
        let found = filter.map { $0.select(catalog, patterns).map { catalog.songs[$0] } } ?? catalog.songs
        func stats(_ songs: some Sequence<MpdCatalog.Song>) -> String {
            var count = 0, seconds = 0.0
            for song in songs {
                count += 1
                seconds += max(song.record.seconds ?? 0, 0)
            }
            return "songs: \(count)\nplaytime: \(Int(seconds))\n"
        }
        guard let group else { return .success(stats(found)) }
        var groups: [String: [MpdCatalog.Song]] = [:]
        for song in found { for value in Self.groupValues(song, group) { groups[value, default: []].append(song) } }
        return .success(groups.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
            "\(group.rawValue): \(UntrustedText.shown(key))\n" + stats(groups[key] ?? [])
        }.joined())
    }
}
