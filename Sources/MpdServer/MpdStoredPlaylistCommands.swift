import Files
import PlayerCore

/// Stored playlists, as MPD's `PlaylistCommands.cxx` answers: listed, read, loaded into the
/// queue, saved from it, and edited in place (`MpdPlaylists` keeps them).
struct MpdStoredPlaylistCommands: MpdCommandGroup {
    let responder: MpdResponder

    func storedPlaylist(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<String, MpdAck> {
        guard let store = link.playlists.map(MpdPlaylists.init(folder:)) else {
            return .failure(MpdAck(.noExist, "No playlist folder: set XDG_DATA_HOME or HOME"))
        }
        let result: Result<String, MpdAck>
        switch name {
        case "listplaylists":
            return .success(store.all().map { "playlist: \(UntrustedText.shown($0.name))\nLast-Modified: \(MpdSongText.utc(seconds: $0.modified))\n" }.joined())
        case "listplaylist":
            return store.songs(arguments[0]).map { songs in songs.map { "file: \(UntrustedText.shown(link.roots.uri(of: $0)))\n" }.joined() }
        case "listplaylistinfo":
            return store.songs(arguments[0]).map { songs in songs.map(songText(client)).joined() }
        case "load":
            return load(arguments, store)
        case "save":
            result = store.write(arguments[0], session.entries.map(\.path), new: true).map { "" }
        case "playlistadd":
            var at: Int?
            if arguments.count > 2 {
                switch MpdArguments.unsigned(arguments[2]) {
                case .failure(let ack): return .failure(ack)
                case .success(let position): at = position
                }
            }
            let adding: [Path]
            switch resolve(arguments[1], client: client) {
            case .failure(let ack): return .failure(ack)
            case .success(let found): adding = found.paths
            }
            guard !adding.isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
            result = store.change(arguments[0], creates: true) { songs in
                let position = at ?? songs.count
                guard position <= songs.count else { return .failure(MpdAck(.argument, "Bad position")) }
                songs.insert(contentsOf: adding, at: position)
                return .success(())
            }.map { "" }
        case "playlistclear":
            result = store.change(arguments[0]) { songs in
                songs = []
                return .success(())
            }.map { "" }
        case "playlistdelete":
            result = MpdArguments.range(arguments[1]).flatMap { range in
                store.change(arguments[0]) { songs in
                    guard range != .all, range.start < songs.count, (range.end ?? songs.count) <= songs.count else { return .failure(Self.badIndex) }
                    songs.removeSubrange(range.clamped(to: songs.count))
                    return .success(())
                }
            }.map { "" }
        case "playlistmove":
            result = MpdArguments.unsigned(arguments[1]).flatMap { from in
                MpdArguments.unsigned(arguments[2]).flatMap { to in
                    store.change(arguments[0]) { songs in
                        guard from < songs.count, to < songs.count else { return .failure(MpdAck(.argument, "Bad range")) }
                        songs.insert(songs.remove(at: from), at: to)
                        return .success(())
                    }
                }
            }.map { "" }
        case "rm":
            result = store.remove(arguments[0]).map { "" }
        case "rename":
            result = store.rename(arguments[0], to: arguments[1]).map { "" }
        default:  // searchaddpl
            guard let catalog = catalog() else { return .failure(Self.noDatabase) }
            result = MpdDatabaseCommands(responder: responder).selection(Array(arguments.dropFirst()), foldCase: true, catalog).flatMap { found in
                store.change(arguments[0], creates: true) { songs in
                    songs += found.map(catalog.path)
                    return .success(())
                }
            }.map { "" }
        }
        if case .success = result { responder.storedPlaylistsChanged() }
        return result
    }

    /// A song of a playlist as MPD prints it: with its tags when the library holds it.
    private func songText(_ client: MpdClientState) -> (Path) -> String {
        let catalog = catalog()
        return { path in
            let uri = self.link.roots.uri(of: path)
            if let catalog, let song = catalog.song(uri) { return catalog.texts([song], client.tags) }
            return MpdSongText(uri: uri).text(client.tags)
        }
    }

    /// `load NAME [START:END] [POSITION]`: the playlist's songs (those of the range) into the
    /// queue, at its end or at the position.
    private func load(_ arguments: [String], _ store: MpdPlaylists) -> Result<String, MpdAck> {
        let count = session.entries.count
        var range = MpdArguments.Range.all, at = count
        if arguments.count > 1 {
            switch MpdArguments.range(arguments[1]) {
            case .failure(let ack): return .failure(ack)
            case .success(let parsed): range = parsed
            }
        }
        if arguments.count > 2 {
            switch MpdArguments.unsigned(arguments[2], max: count) {
            case .failure(let ack): return .failure(ack)
            case .success(let position): at = position
            }
        }
        return store.songs(arguments[0]).flatMap { songs in
            let chosen = Array(songs[range.clamped(to: songs.count)])
            if !chosen.isEmpty { session.insert(EntryList(paths: chosen), at: at) }
            return .success("")
        }
    }
}
