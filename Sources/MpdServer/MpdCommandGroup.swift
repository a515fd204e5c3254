import Library
import PlayerCore

/// MPD's commands of one concept (the queue, the database, stored playlists…), answered by a
/// type of their own that reads and drives the player through the responder: its link, the
/// one session, the catalog, and the helpers every group shares.
protocol MpdCommandGroup {
    var responder: MpdResponder { get }
}

extension MpdCommandGroup {
    var link: MpdResponder.Link { responder.link }
    var session: Session { responder.session }
    func perform(_ command: Command) { responder.perform(command) }
    func catalog() -> MpdCatalog? { responder.catalogs.catalog() }
    var cachedCatalog: MpdCatalog? { responder.catalogs.cached }

    func songs(_ positions: some Collection<Int>, client: MpdClientState, entries: EntryList? = nil, marks: EntryMarks? = nil) -> String {
        responder.songs(positions, client: client, entries: entries, marks: marks)
    }

    func resolve(_ uri: String, client: MpdClientState) -> Result<(paths: [Path], isSong: Bool), MpdAck> {
        responder.resolve(uri, client: client)
    }

    static var badIndex: MpdAck { MpdResponder.badIndex }
    static var noSuchSong: MpdAck { MpdResponder.noSuchSong }
    static var noDatabase: MpdAck { MpdResponder.noDatabase }
    static func folder(_ uri: String) -> String { MpdDatabaseCommands.folder(uri) }
}
