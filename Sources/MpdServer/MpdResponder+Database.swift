import Files
import Library
import PlayerCore

/// The music database, as MPD's `DatabaseCommands.cxx` answers: folders and songs by URI,
/// `find` and `search` with filters, `sort` and `window`, `list` and `count` with `group`, and
/// adding what they find.
extension MpdResponder {
    static let noDatabase = MpdAck(.noExist, "No database")

    /// The commands that read the catalog: a client's list holding one waits, unrun, until the
    /// first catalog is read.
    static let readsCatalog: Set = ["lsinfo", "listall", "listallinfo", "find", "search", "findadd", "searchadd", "count", "list",
                                    "sticker", "searchaddpl", "listplaylistinfo"]

    /// The library as MPD's clients see it: the latest read (while a newer one is read off the
    /// main loop, the one before). Read here, on the main loop, only where nothing reads it off.
    func catalog() -> MpdCatalog? {
        if let catalog = cachedCatalog { return catalog }
        guard link.loadCatalog == nil, !catalogAbsent else { return nil }
        cachedCatalog = MpdCatalog.read(link.library(), roots: link.roots)
        catalogAbsent = cachedCatalog == nil
        return cachedCatalog
    }

    /// Whether a command that reads the catalog can run now: one is read, or none can be.
    var catalogKnown: Bool { cachedCatalog != nil || catalogAbsent || link.loadCatalog == nil }

    /// Reads the catalog again off the main loop (at start, and after the library changed); a
    /// read asked for while one is under way follows it.
    func readCatalog() {
        guard let load = link.loadCatalog else { return cachedCatalog = nil }
        guard !catalogReading else { return catalogAgain = true }
        catalogReading = true
        load { [weak self] catalog in
            guard let self else { return }
            self.catalogReading = false
            self.cachedCatalog = catalog
            self.catalogAbsent = catalog == nil
            if self.catalogAgain {
                self.catalogAgain = false
                self.readCatalog()
            }
            self.catalogArrived()
        }
    }

    func database(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<String, MpdAck> {
        guard let catalog = catalog() else { return .failure(Self.noDatabase) }
        switch name {
        case "lsinfo":
            let uri = Self.folder(arguments.first ?? "")
            if let song = catalog.song(uri) { return .success(catalog.text(song, client.tags)) }
            let (folders, songs) = catalog.children(of: uri)
            guard uri.isEmpty || !folders.isEmpty || !songs.isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
            var text = ""
            for folder in folders { text += folderLines(folder, catalog, modified: true) }
            for song in songs { text += catalog.text(song, client.tags) }
            // The root lists the stored playlists too, as MPD's does.
            if uri.isEmpty, let folder = link.playlists {
                for playlist in MpdPlaylists(folder: folder).all() {
                    text += "playlist: \(UntrustedText.shown(playlist.name))\nLast-Modified: \(MpdSongText.utc(seconds: playlist.modified))\n"
                }
            }
            return .success(text)
        case "listall", "listallinfo", "find", "search":
            // In a command list: the streamed reply, made whole.
            if let streamed = stream(name, arguments, client: client) { return streamed.map(\.rest) }
            // `listall` of one song.
            let song = catalog.song(Self.folder(arguments.first ?? ""))
            return .success(song.map { name == "listall" ? "file: \(UntrustedText.shown($0.uri))\n" : catalog.text($0, client.tags) } ?? "")
        case "findadd", "searchadd":
            var arguments = arguments[...]
            var at = session.entries.count
            if arguments.count >= 2, arguments[arguments.endIndex - 2] == "position" {
                switch MpdArguments.unsigned(arguments.last ?? "", max: at) {
                case .failure(let ack): return .failure(ack)
                case .success(let position): at = position
                }
                arguments = arguments.dropLast(2)
            }
            return selection(Array(arguments), foldCase: name == "searchadd", catalog).map { found in
                if !found.isEmpty { session.insert(EntryList(paths: found.map(\.record.path)), at: at) }
                return ""
            }
        case "count":
            return count(arguments, catalog)
        default:  // list
            return list(arguments, catalog)
        }
    }

    /// A folder URI as MPD reads it: `/` and a trailing slash left off.
    static func folder(_ uri: String) -> String {
        var uri = Substring(uri)
        while uri.hasSuffix("/") { uri = uri.dropLast() }
        while uri.hasPrefix("/") { uri = uri.dropFirst() }
        return String(uri)
    }

    func folderLines(_ folder: String, _ catalog: MpdCatalog, modified: Bool) -> String {
        var text = "directory: \(UntrustedText.shown(folder))\n"
        if modified, let time = catalog.folderModified(folder) { text += "Last-Modified: \(MpdSongText.utc(seconds: time))\n" }
        return text
    }

    /// The songs a filter with `sort` and `window` selects, in order.
    func selection(_ arguments: [String], foldCase: Bool, _ catalog: MpdCatalog) -> Result<[MpdCatalog.Song], MpdAck> {
        var arguments = arguments[...]
        var window = MpdArguments.Range.all
        if arguments.count >= 2, arguments[arguments.endIndex - 2] == "window" {
            switch MpdArguments.range(arguments.last ?? "") {
            case .failure(let ack): return .failure(ack)
            case .success(let range): window = range
            }
            arguments = arguments.dropLast(2)
        }
        var sort: (tag: MpdTag?, descending: Bool)?
        if arguments.count >= 2, arguments[arguments.endIndex - 2] == "sort" {
            var name = Substring(arguments.last ?? "")
            let descending = name.hasPrefix("-")
            if descending { name = name.dropFirst() }
            if name.lowercased() == "last-modified" {
                sort = (nil, descending)
            } else {
                guard let tag = MpdTag(named: String(name)) else { return .failure(MpdAck(.argument, "Unknown sort tag")) }
                sort = (tag, descending)
            }
            arguments = arguments.dropLast(2)
        }
        let filter: MpdFilter
        let patterns = PosixPatterns()
        switch MpdFilter.parse(arguments, foldCase: foldCase, patterns: patterns) {
        case .failure(let problem): return .failure(MpdAck(.argument, problem.message))
        case .success(let parsed): filter = parsed
        }
        // A folder that is not there is no selection at all, as MPD says.
        for folder in filter.bases where !folder.isEmpty && catalog.under(folder).isEmpty && catalog.song(folder) == nil {
            return .failure(MpdAck(.noExist, "No such directory"))
        }
        var found = filter.select(catalog, patterns).map { catalog.songs[$0] }
        if let sort {
            let keyed = found.map { song in (song, sort.tag.map { Self.sortValue(song, $0) } ?? "", song.modified) }
            found = keyed.sorted { a, b in
                let before = sort.tag == nil ? a.2 < b.2 : a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
                let after = sort.tag == nil ? b.2 < a.2 : b.1.utf8.lexicographicallyPrecedes(a.1.utf8)
                return sort.descending ? after : before
            }.map(\.0)
        }
        return .success(Array(found[window.clamped(to: found.count)]))
    }

    /// A song's value of `tag` to sort by: its first, or its fallback's.
    static func sortValue(_ song: MpdCatalog.Song, _ tag: MpdTag) -> String {
        for candidate in [tag] + tag.fallbacks {
            if let first = song.values(of: candidate).first { return first }
        }
        return ""
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

    private func count(_ arguments: [String], _ catalog: MpdCatalog) -> Result<String, MpdAck> {
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
