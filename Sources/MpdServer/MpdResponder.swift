import Library
import PlayerApp
import PlayerCore

/// What one client has set for itself: its permission, whether it is on this machine, its
/// binary limit, the tags it wants, its channels and unread messages.
public struct MpdClientState {
    public var permission: MpdCommand.Permission
    public var isLocal: Bool
    /// The most bytes of a picture one `albumart` or `readpicture` reply carries.
    public var binaryLimit = 8192
    /// The tags printed for its songs (`tagtypes`).
    public var tags = MpdTag.served
    public var subscriptions: Set<String> = []
    public var messages: [(channel: String, text: String)] = []

    public init(permission: MpdCommand.Permission, isLocal: Bool) {
        self.permission = permission
        self.isLocal = isLocal
    }
}

/// Answers MPD's commands from the one player: its status read from the session, its commands
/// made through `Controls` (the door the keys use), the songs' tags from the library.
public final class MpdResponder {
    /// What the responder reads and drives.
    public struct Link {
        public var controls: Controls
        /// The frame the engine is at in the song playing.
        public var position: () -> Int64
        /// The library, when there is one.
        public var library: () -> LibraryDatabase?
        public var roots: MpdRoots
        /// Ends the run (MPD's `kill`).
        public var quit: () -> Void
        /// What the output is called (`outputs`).
        public var outputName: String
        /// Several outputs (`output = pulse, snapcast`): each one's name and driver, the first
        /// first; each is turned on and off by itself. Empty: the one `outputName`, whose
        /// "disable" is a mute.
        public var outputs: [(name: String, driver: String)] = []
        /// Scans the library's folders off the main loop, then calls `done` on it (`update`).
        public var update: ((_ done: @escaping () -> Void) -> Void)?
        /// A song's cover, as its file's bytes: the one beside it, or (`embedded`) the one it
        /// holds, with its MIME type.
        public var picture: ((_ song: Path, _ embedded: Bool) -> (bytes: [UInt8], type: String?)?)?
        /// A song's tags as stored (Vorbis comments: FLAC, Ogg, Opus, FFmpeg's formats), read
        /// by the player's decoder, or why it cannot be read (`readcomments`).
        public var comments: ((_ song: Path) -> Result<[(name: String, value: String)], LoadFailure>)?
        /// The folder of the stored playlists (`nil`: none can be kept).
        public var playlists: Path?
        /// Reads the catalog off the main loop, then hands it over on it (`nil`: read on it).
        public var loadCatalog: ((_ done: @escaping (MpdCatalog?) -> Void) -> Void)?

        public init(controls: Controls, position: @escaping () -> Int64, library: @escaping () -> LibraryDatabase?, roots: MpdRoots,
                    quit: @escaping () -> Void, outputName: String) {
            (self.controls, self.position, self.library, self.roots, self.quit, self.outputName)
                = (controls, position, library, roots, quit, outputName)
        }
    }

    let link: Link
    var session: Session { link.controls.session }
    /// The library as clients see it, read again after it changes (`libraryChanged`).
    let catalogs: MpdCatalogKeeper
    /// `update` and `rescan`.
    let updates: MpdLibraryUpdates
    /// Told when a stored playlist is made, changed or removed (MPD's idle `stored_playlist`).
    var storedPlaylistsChanged: () -> Void = {}
    /// Told when a sticker is set or taken away (MPD's idle `sticker`).
    var stickersChanged: () -> Void = {}
    /// The picture last sent, for the next chunk of it.
    var lastPicture: (path: Path, embedded: Bool, found: (bytes: [UInt8], type: String?)?)?
    let started = ContinuousClock.now
    /// How long music has played since the server started (`stats`' `playtime`): the time
    /// summed while the player played, and since when it plays now.
    private var playedBefore = Duration.zero
    private var playingSince: ContinuousClock.Instant?

    /// The player plays, or not, from now on (told as its status changes).
    func notePlaying(_ playing: Bool) {
        if playing, playingSince == nil { playingSince = .now }
        if !playing, let since = playingSince {
            playedBefore += since.duration(to: .now)
            playingSince = nil
        }
    }

    /// Whole seconds of music played so far.
    var playedSeconds: Int64 { (playedBefore + (playingSince?.duration(to: .now) ?? .zero)).components.seconds }

    public init(_ link: Link) {
        self.link = link
        catalogs = MpdCatalogKeeper(library: link.library, roots: link.roots, load: link.loadCatalog)
        updates = MpdLibraryUpdates(scan: link.update)
    }

    static let badIndex = MpdAck(.argument, "Bad song index")
    static let noSuchSong = MpdAck(.noExist, "No such song")
    static let noDatabase = MpdAck(.noExist, "No database")

    /// The commands that read the catalog: a client's list holding one waits, unrun, until the
    /// first catalog is read.
    static let readsCatalog: Set = ["stats", "lsinfo", "listall", "listallinfo", "find", "search", "findadd", "searchadd", "count", "list",
                                    "sticker", "searchaddpl", "listplaylistinfo"]

    /// The commands whose replies are streamed when they come alone (in a command list, a reply
    /// is built whole, as MPD builds it, within its 8 MiB).
    static let streamed: Set = ["listall", "listallinfo", "find", "search", "playlistinfo", "list"]

    func quit() { link.quit() }

    /// The library changed: read it again when next asked.
    func libraryChanged() { catalogs.read() }

    func perform(_ command: Command) { link.controls.submit(command, from: .mpd) }

    /// The answer to `command`, or why it failed: each concept's commands answered by a type
    /// of their own.
    public func respond(_ command: MpdCommand, _ request: MpdRequest, client: inout MpdClientState) -> Result<String, MpdAck> {
        let (name, arguments) = (command.name, request.arguments)
        switch name {
        case "status", "currentsong", "stats":
            return .success(MpdStatusCommands(responder: self).respond(name, client: client))
        case "play", "playid", "pause", "stop", "next", "previous", "seek", "seekid", "seekcur":
            return MpdPlaybackCommands(responder: self).playback(name, arguments)
        case "repeat", "random", "single", "consume", "setvol", "volume", "getvol", "crossfade", "mixrampdb", "mixrampdelay",
             "replay_gain_mode", "replay_gain_status":
            return MpdPlaybackCommands(responder: self).option(name, arguments)
        case "add", "addid", "clear", "delete", "deleteid", "move", "moveid", "swap", "swapid", "shuffle", "playlist", "playlistinfo",
             "playlistid", "plchanges", "plchangesposid", "prio", "prioid", "rangeid", "addtagid", "cleartagid":
            return MpdQueueCommands(responder: self).queue(name, arguments, client: client)
        case "playlistfind", "playlistsearch":
            return MpdQueueCommands(responder: self).queueMatch(arguments, foldCase: name == "playlistsearch", client: client)
        case "lsinfo", "listall", "listallinfo", "find", "search", "findadd", "searchadd":
            return MpdDatabaseCommands(responder: self).database(name, arguments, client: client)
        case "count", "list":
            guard let catalog = catalogs.catalog() else { return .failure(Self.noDatabase) }
            let lists = MpdTagListCommands(responder: self)
            return name == "count" ? lists.count(arguments, catalog) : lists.list(arguments, catalog)
        case "update", "rescan":
            return MpdDatabaseCommands(responder: self).update(arguments)
        case "listfiles":
            return MpdDatabaseCommands(responder: self).listFiles(arguments)
        case "readcomments":
            return MpdDatabaseCommands(responder: self).readComments(arguments[0], client: client)
        case "listplaylists", "listplaylist", "listplaylistinfo", "load", "save", "playlistadd", "playlistclear", "playlistdelete",
             "playlistmove", "rm", "rename", "searchaddpl":
            return MpdStoredPlaylistCommands(responder: self).storedPlaylist(name, arguments, client: client)
        case "sticker":
            return MpdStickerCommands(responder: self).sticker(arguments)
        case "commands", "notcommands", "tagtypes", "urlhandlers", "decoders", "config", "outputs", "enableoutput", "disableoutput",
             "toggleoutput", "outputset", "partition", "listpartitions", "newpartition", "delpartition", "moveoutput", "listmounts",
             "mount", "unmount", "listneighbors":
            return MpdReflectionCommands(responder: self).reflection(name, arguments, client: &client)
        default:
            return .failure(MpdAck(.unknown, "tplayer does not answer \"\(name)\" yet"))
        }
    }

    /// `command`'s reply as a stream, or why it failed; `nil` for a command not streamed, or a
    /// form of it that is small (it is answered as any other).
    func stream(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<MpdStream, MpdAck>? {
        switch name {
        case "playlistinfo": return MpdQueueCommands(responder: self).stream(arguments, client: client)
        case "list":
            guard let catalog = catalogs.catalog() else { return .failure(Self.noDatabase) }
            return MpdTagListCommands(responder: self).stream(arguments, catalog)
        default: return MpdDatabaseCommands(responder: self).stream(name, arguments, client: client)
        }
    }

    /// `albumart` and `readpicture`'s reply: bytes.
    func picture(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<[UInt8], MpdAck> {
        MpdPictureCommands(responder: self).picture(name, arguments, client: client)
    }

    /// The songs a client's URI names: a song of the library, every song under one of its
    /// folders (in path order), a stream, or a local client's `file://` song; and whether it
    /// named one song.
    func resolve(_ uri: String, client: MpdClientState) -> Result<(paths: [Path], isSong: Bool), MpdAck> {
        if let scheme = uri.range(of: "://")?.lowerBound {
            let name = uri[..<scheme].lowercased()
            guard client.isLocal else { return .failure(MpdAck(.permission, "Access denied")) }
            if name == "file" {
                let path = Path(String(uri.dropFirst(7)))
                guard path.isAbsolute, !path.hasNUL else { return .failure(MpdAck(.noExist, "No such file")) }
                return .success(([path], true))
            }
            guard name == "http" || name == "https" else { return .failure(MpdAck(.noExist, "Unsupported URI scheme")) }
            return .success(([Path(uri)], true))
        }
        if uri.hasPrefix("/") {
            guard client.isLocal else { return .failure(MpdAck(.permission, "Access denied")) }
            return .success(([Path(uri)], true))
        }
        guard let library = link.library() else { return .failure(MpdAck(.noExist, "No database")) }
        guard let path = link.roots.path(of: uri) else { return .failure(MpdAck(.noExist, "No such directory")) }
        if case .success(let songs) = library.songs(at: [path]), !songs.isEmpty { return .success(([path], true)) }
        guard case .success(let under) = library.paths(under: path) else { return .failure(MpdAck(.system, "the library cannot be read")) }
        return .success((under, false))
    }
}
