import Files
import PlayerCore

/// The stored playlists MPD's clients name: tplayer's named playlists (`NamedPlaylists`, in
/// `$XDG_DATA_HOME/tplayer/playlists`), with MPD's answers. A smart playlist changed by a client
/// keeps its query.
struct MpdPlaylists {
    let folder: Path
    private var store: NamedPlaylists { NamedPlaylists(folder: folder) }

    /// Why a playlist cannot be read or written, as MPD says it.
    static let noSuch = MpdAck(.noExist, "No such playlist")
    static let exists = MpdAck(.exist, "Playlist already exists")
    static let badName = MpdAck(.argument, "Bad playlist name")

    static func ack(_ failure: NamedPlaylists.Failure) -> MpdAck {
        switch failure {
        case .noSuch: noSuch
        case .exists: exists
        case .badName: badName
        case .system(let why): MpdAck(.system, why)
        }
    }

    func path(_ name: String) -> Result<Path, MpdAck> { store.path(name).mapError(Self.ack) }

    /// Every playlist's name and when it last changed (seconds since 1970), by name.
    func all() -> [(name: String, modified: Int64)] { store.all() }

    /// The songs of playlist `name`, in order.
    func songs(_ name: String) -> Result<[Path], MpdAck> { store.songs(name).mapError(Self.ack) }

    /// Writes playlist `name` as `songs`: a new one only when `new` (else one there is replaced).
    func write(_ name: String, _ songs: [Path], new: Bool) -> Result<Void, MpdAck> {
        store.write(name, songs, new: new).mapError(Self.ack)
    }

    /// Changes playlist `name` (made empty when it is not there and `creates`).
    func change(_ name: String, creates: Bool = false, _ edit: (inout [Path]) -> Result<Void, MpdAck>) -> Result<Void, MpdAck> {
        store.change(name, creates: creates, edit, failure: Self.ack)
    }

    func remove(_ name: String) -> Result<Void, MpdAck> { store.remove(name).mapError(Self.ack) }

    func rename(_ name: String, to new: String) -> Result<Void, MpdAck> {
        store.rename(name, to: new).mapError { $0 == .exists ? MpdAck(.exist, "Playlist exists already") : Self.ack($0) }
    }
}
