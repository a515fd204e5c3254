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
