import Files
import Library
import PlayerCore

/// The music database, as MPD's `DatabaseCommands.cxx` and `FileCommands.cxx` answer: folders
/// and songs by URI, `find` and `search` with filters, `sort` and `window`, adding what they
/// find, large replies streamed; a folder's files (`listfiles`), a song's tags as stored
/// (`readcomments`); and `update`.
struct MpdDatabaseCommands: MpdCommandGroup {
    let responder: MpdResponder

    func database(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<String, MpdAck> {
        guard let catalog = catalog() else { return .failure(Self.noDatabase) }
        switch name {
        case "lsinfo":
            let uri = Self.folder(arguments.first ?? "")
            if let song = catalog.song(uri) { return .success(catalog.texts([song], client.tags)) }
            let (folders, songs) = catalog.children(of: uri)
            guard uri.isEmpty || !folders.isEmpty || !songs.isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
            var text = ""
            for folder in folders { text += folderLines(folder, catalog, modified: true) }
            text += catalog.texts(songs, client.tags)
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
            return .success(song.map { name == "listall" ? "file: \(UntrustedText.shown(catalog.uri($0)))\n" : catalog.texts([$0], client.tags) } ?? "")
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
                if !found.isEmpty { session.insert(EntryList(paths: found.map(catalog.path)), at: at) }
                return ""
            }
        default:
            return .failure(MpdAck(.unknown, "unknown command \"\(name)\""))
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
    func selection(_ arguments: [String], foldCase: Bool, _ catalog: MpdCatalog) -> Result<[Int], MpdAck> {
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
        var found = filter.select(catalog, patterns)
        if let sort {
            let keyed = found.map { song in (song, sort.tag.map { Self.sortValue(catalog, song, $0) } ?? "", catalog.modified(song)) }
            found = keyed.sorted { a, b in
                let before = sort.tag == nil ? a.2 < b.2 : a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
                let after = sort.tag == nil ? b.2 < a.2 : b.1.utf8.lexicographicallyPrecedes(a.1.utf8)
                return sort.descending ? after : before
            }.map(\.0)
        }
        return .success(Array(found[window.clamped(to: found.count)]))
    }

    /// A song's value of `tag` to sort by: its first, or its fallback's.
    static func sortValue(_ catalog: MpdCatalog, _ song: Int, _ tag: MpdTag) -> String {
        for candidate in [tag] + tag.fallbacks {
            if let first = catalog.values(song, of: candidate).first { return first }
        }
        return ""
    }

    func listFiles(_ arguments: [String]) -> Result<String, MpdAck> {
        let uri = Self.folder(arguments.first ?? "")
        guard link.roots.folders.count == 1 || !uri.isEmpty else {
            return .success(link.roots.folders.map { "directory: \($0.name)\n" }.joined())
        }
        guard let folder = link.roots.path(of: uri) else { return .failure(MpdAck(.noExist, "No such directory")) }
        let items: [FileSystem.DirectoryItem]
        switch FileSystem.list(folder, includingHidden: true) {
        case .success(let listed): items = listed
        case .failure(let error): return .failure(MpdAck(.system, "Failed to open \(UntrustedText.shown("\(folder)")): \(error)"))
        }
        var text = ""
        for item in items {
            guard let name = item.name.text, !name.contains("\n"), case .success(let status) = FileSystem.status(of: folder.appending(item.name))
            else { continue }
            switch status.kind {
            case .regular: text += "file: \(UntrustedText.shown(name))\nsize: \(status.size)\n"
            case .directory: text += "directory: \(UntrustedText.shown(name))\n"
            case .fifo, .socket, .characterDevice, .blockDevice, .symbolicLink, .other: continue
            }
            text += "Last-Modified: \(MpdSongText.utc(seconds: status.modified / 1_000_000_000))\n"
        }
        return .success(text)
    }

    /// `readcomments URI`: the song's tags as stored, `NAME: value`, those MPD would print (a
    /// name of letters, `_` and `-`; a value with no control character), each value passed
    /// through the one sanitiser.
    func readComments(_ uri: String, client: MpdClientState) -> Result<String, MpdAck> {
        let path: Path
        switch resolve(uri, client: client) {
        case .success((let paths, true)) where paths.count == 1 && !paths[0].description.contains("://"): path = paths[0]
        case .failure(let ack) where ack.code == .permission: return .failure(ack)
        case .success, .failure: return .failure(MpdAck(.noExist, "No such song"))
        }
        guard let read = link.comments?(path) else { return .success("") }
        switch read {
        case .failure(let why): return .failure(MpdAck(.system, "Failed to read \(UntrustedText.shown(uri)): \(why)"))
        case .success(let fields):
            return .success(fields.filter { Self.isCommentName($0.name) && !$0.value.unicodeScalars.contains { $0.value < 0x20 } }
                .map { "\($0.name): \(UntrustedText.shown($0.value))\n" }.joined())
        }
    }

    /// A name MPD prints: an ASCII letter, then letters, `_` and `-`.
    static func isCommentName(_ name: String) -> Bool {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        guard let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || $0 == "_" || $0 == "-" }
    }

    /// `find`, `search`, `listall` or `listallinfo`'s reply as a stream, or why it failed; `nil`
    /// for a form of it that is small (it is answered as any other).
    func stream(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<MpdStream, MpdAck>? {
        switch name {
        case "find", "search":
            guard let catalog = catalog() else { return .failure(Self.noDatabase) }
            return selection(arguments, foldCase: name == "search", catalog).map { found in
                MpdStream(count: found.count) { range in catalog.texts(found[range], client.tags) }
            }
        case "listall", "listallinfo":
            guard let catalog = catalog() else { return .failure(Self.noDatabase) }
            let uri = Self.folder(arguments.first ?? "")
            guard catalog.song(uri) == nil else { return nil }
            guard uri.isEmpty || !catalog.under(uri).isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
            let info = name == "listallinfo"
            return .success(MpdStream(next: catalog.walk(uri, folder: { [self] in folderLines($0, catalog, modified: info) }, songs: { songs in
                info ? catalog.texts(songs, client.tags) : songs.map { "file: \(UntrustedText.shown(catalog.uri($0)))\n" }.joined()
            })))
        default:
            return nil
        }
    }

    /// `update [URI]` and `rescan [URI]`: the library's folders scanned off the main loop (the
    /// whole library: a scan reads only the files that changed), its job number said; one
    /// asked for while another runs follows it.
    func update(_ arguments: [String]) -> Result<String, MpdAck> {
        guard responder.updates.canScan, link.library() != nil || !link.roots.folders.isEmpty else { return .failure(Self.noDatabase) }
        if let uri = arguments.first, !uri.isEmpty, !MpdRoots.isSafe(Self.folder(uri)) { return .failure(MpdAck(.argument, "Malformed path")) }
        return .success("updating_db: \(responder.updates.start())\n")
    }
}
