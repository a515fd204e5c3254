import Files
import PlayerCore

/// The stored playlists MPD's clients name: `NAME.m3u` files in one folder of tplayer's own
/// (`$XDG_DATA_HOME/tplayer/playlists`), each an M3U8 of absolute paths that any player reads.
/// Every write makes the file whole or leaves it as it was; only files of that folder are ever
/// written, renamed or removed, and only regular ones.
struct MpdPlaylists {
    let folder: Path

    /// Why a playlist cannot be read or written, as MPD says it.
    static let noSuch = MpdAck(.noExist, "No such playlist")
    static let exists = MpdAck(.exist, "Playlist already exists")
    static let badName = MpdAck(.argument, "Bad playlist name")

    /// A name MPD takes: no `/`, no line break, not empty.
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && !name.contains { $0 == "/" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
    }

    func path(_ name: String) -> Result<Path, MpdAck> {
        Self.isValid(name) ? .success(folder.appending(Path(name + ".m3u"))) : .failure(Self.badName)
    }

    /// Every playlist's name and when it last changed (seconds since 1970), by name.
    func all() -> [(name: String, modified: Int64)] {
        guard case .success(let items) = FileSystem.list(folder, includingHidden: true) else { return [] }
        return items.compactMap { item -> (String, Int64)? in
            guard !item.isDirectory, let name = item.name.text, name.hasSuffix(".m3u"), name.count > 4,
                  case .success(let status) = FileSystem.status(of: folder.appending(item.name)), status.kind == .regular else { return nil }
            return (String(name.dropLast(4)), status.modified / 1_000_000_000)
        }.sorted { $0.0 < $1.0 }
    }

    /// The songs of playlist `name`, in order.
    func songs(_ name: String) -> Result<[Path], MpdAck> {
        path(name).flatMap { file in
            guard case .success(let bytes) = FileSystem.readAll(file, limit: 256 << 20) else { return .failure(Self.noSuch) }
            let items = Playlist.parse(bytes, format: .m3u, file: "\(file)").items.prefix(Entry.listLimit)
            return .success(items.map { item in item.written.map { Path($0) } ?? (item.path.isAbsolute ? item.path : item.path.resolved(against: folder)) })
        }
    }

    /// Writes playlist `name` as `songs`: a new one only when `new` (else one there is replaced).
    func write(_ name: String, _ songs: [Path], new: Bool) -> Result<Void, MpdAck> {
        path(name).flatMap { file in
            if let failure = FileSystem.makeFolders(folder, permissions: 0o755) {
                return .failure(MpdAck(.system, "cannot make \(folder): \(failure.reason)"))
            }
            let bytes = PlaylistWriter.m3u8(EntryList(paths: songs), folder: folder).bytes
            if new {
                if let failure = FileSystem.publish(file, bytes: bytes, permissions: 0o644) {
                    return .failure(failure == .fileExists ? Self.exists : MpdAck(.system, failure.reason))
                }
            } else if let failure = FileSystem.replace(file, with: bytes, permissions: 0o644) {
                return .failure(MpdAck(.system, "\(failure)"))
            }
            return .success(())
        }
    }

    /// Changes playlist `name` (made empty when it is not there and `creates`).
    func change(_ name: String, creates: Bool = false, _ edit: (inout [Path]) -> Result<Void, MpdAck>) -> Result<Void, MpdAck> {
        var songs: [Path]
        switch self.songs(name) {
        case .success(let found): songs = found
        case .failure(let ack) where ack == Self.noSuch && creates: songs = []
        case .failure(let ack): return .failure(ack)
        }
        return edit(&songs).flatMap { write(name, songs, new: false) }
    }

    func remove(_ name: String) -> Result<Void, MpdAck> {
        path(name).flatMap { file in FileSystem.removeFile(file) == nil ? .success(()) : .failure(Self.noSuch) }
    }

    func rename(_ name: String, to new: String) -> Result<Void, MpdAck> {
        path(name).flatMap { from in
            path(new).flatMap { to in
                guard case .success(let status) = FileSystem.linkStatus(of: from), status.kind == .regular else { return .failure(Self.noSuch) }
                guard !FileSystem.exists(to) else { return .failure(MpdAck(.exist, "Playlist exists already")) }
                return FileSystem.rename(from, to: to).mapError { MpdAck(.system, $0.reason) }
            }
        }
    }
}
