import Files
import PlayerCore

/// `listfiles` (a folder of the library as its file system holds it, songs or not), and
/// `playlistfind` and `playlistsearch` (the queue's songs a filter passes).
extension MpdResponder {
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

    /// A song of the queue as a filter sees it: the catalog's, else its URI alone.
    private struct QueuedSong: MpdFilterable {
        let uri: String
        func values(of tag: MpdTag) -> [String] { [] }
        var allValues: [String] { [] }
        var modified: Int64 { 0 }
        var audioFormat: (rate: Int, bits: Int?, channels: Int)? { nil }
    }

    func queueMatch(_ arguments: [String], foldCase: Bool, client: MpdClientState) -> Result<String, MpdAck> {
        let patterns = PosixPatterns()
        return MpdFilter.parse(arguments, foldCase: foldCase, patterns: patterns).mapError { MpdAck(.argument, $0.message) }.map { filter in
            let entries = session.entries
            let catalog = cachedCatalog
            let matching = entries.indices.filter { position in
                let uri = link.roots.uri(of: entries[position].path)
                if let song = catalog?.song(uri) { return filter.matches(song, patterns) }
                return filter.matches(QueuedSong(uri: uri), patterns)
            }
            return songs(matching, client: client)
        }
    }
}
