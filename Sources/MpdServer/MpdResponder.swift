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
    var cachedCatalog: MpdCatalog?
    var catalogReading = false
    var catalogAgain = false
    /// The library could not be read (there is none): its commands say so.
    var catalogAbsent = false
    /// Told when a catalog has been read (the clients waiting for one go on).
    var catalogArrived: () -> Void = {}
    /// The scan under way (`updating_db`), and the one asked for meanwhile, by job number.
    var updating: Int?
    var updateQueued: Int?
    var lastUpdateJob = 0
    /// Told when a scan starts or ends (MPD's idle `update`).
    var updateChanged: () -> Void = {}
    /// Told when a stored playlist is made, changed or removed (MPD's idle `stored_playlist`).
    var storedPlaylistsChanged: () -> Void = {}
    /// Told when a sticker is set or taken away (MPD's idle `sticker`).
    var stickersChanged: () -> Void = {}
    /// The picture last sent, for the next chunk of it.
    var lastPicture: (path: Path, embedded: Bool, found: (bytes: [UInt8], type: String?)?)?

    public init(_ link: Link) {
        self.link = link
    }

    func quit() { link.quit() }

    /// The library changed: read it again when next asked.
    func libraryChanged() { readCatalog() }

    func perform(_ command: Command) { link.controls.submit(command, from: .mpd) }

    /// The answer to `command`, or why it failed.
    public func respond(_ command: MpdCommand, _ request: MpdRequest, client: inout MpdClientState) -> Result<String, MpdAck> {
        let arguments = request.arguments
        switch command.name {
        case "status": return .success(statusText())
        case "currentsong": return .success(currentSong(client))
        case "stats": return .success(stats())
        case "play", "playid", "pause", "stop", "next", "previous", "seek", "seekid", "seekcur":
            return playback(command.name, arguments)
        case "repeat", "random", "single", "consume", "setvol", "volume", "getvol", "crossfade", "mixrampdb", "mixrampdelay",
             "replay_gain_mode", "replay_gain_status":
            return option(command.name, arguments)
        case "add", "addid", "clear", "delete", "deleteid", "move", "moveid", "swap", "swapid", "shuffle", "playlist", "playlistinfo",
             "playlistid", "plchanges", "plchangesposid", "prio", "prioid", "rangeid", "addtagid", "cleartagid":
            return queue(command.name, arguments, client: client)
        case "lsinfo", "listall", "listallinfo", "find", "search", "findadd", "searchadd", "count", "list":
            return database(command.name, arguments, client: client)
        case "update", "rescan":
            return update(arguments)
        case "listplaylists", "listplaylist", "listplaylistinfo", "load", "save", "playlistadd", "playlistclear", "playlistdelete",
             "playlistmove", "rm", "rename", "searchaddpl":
            return storedPlaylist(command.name, arguments, client: client)
        case "sticker":
            return sticker(arguments)
        case "listfiles":
            return listFiles(arguments)
        case "readcomments":
            return readComments(arguments[0], client: client)
        case "playlistfind", "playlistsearch":
            return queueMatch(arguments, foldCase: command.name == "playlistsearch", client: client)
        case "commands", "notcommands", "tagtypes", "urlhandlers", "decoders", "config", "outputs", "enableoutput", "disableoutput",
             "toggleoutput", "outputset", "partition", "listpartitions", "newpartition", "delpartition", "moveoutput", "listmounts",
             "mount", "unmount":
            return reflection(command.name, arguments, client: &client)
        default:
            return .failure(MpdAck(.unknown, "tplayer does not answer \"\(command.name)\" yet"))
        }
    }

    /// MPD's `state`, with the song's place in the list (none once the list is cleared). A song
    /// opened and waiting at its start (paused as it opened) is paused, as MPD's would be; one
    /// taken back to its start by `stop`, or at the end of the list, is stopped.
    func state(_ status: PlayerStatus) -> String {
        guard status.entry != nil else { return "stop" }
        switch status.playback {
        case .playing: return "play"
        case .paused: return "pause"
        case .stopped: return status.state == .prepare && !status.atEndOfList && !status.stoppedAtStart ? "pause" : "stop"
        }
    }

    private func statusText() -> String {
        let status = session.status
        let marks = session.marks
        var text = "volume: \(status.muted ? 0 : status.volume)\n"
        text += "repeat: \(status.repeats ? 1 : 0)\nrandom: \(status.shuffles ? 1 : 0)\n"
        let single = status.repeatsOne || status.stopsAfterEach ? "1" : status.stopsAfter ? "oneshot" : "0"
        text += "single: \(single)\nconsume: \(status.consumes ? 1 : 0)\npartition: default\n"
        text += "playlist: \(session.listVersion)\nplaylistlength: \(status.entryCount)\nmixrampdb: 0\n"
        let state = state(status)
        text += "state: \(state)\n"
        if let entry = status.entry, marks.ids.indices.contains(entry) {
            text += "song: \(entry)\nsongid: \(marks.ids[entry])\n"
        }
        if state != "stop", let song = status.song {
            let elapsed = Double(max(link.position(), 0)) / Double(max(song.sampleRate, 1))
            let total = song.totalFrames.map { Double($0) / Double(max(song.sampleRate, 1)) }
            text += "time: \(Int(elapsed.rounded())):\(Int((total ?? 0).rounded()))\n"
            text += "elapsed: \(Self.decimal(elapsed))\nbitrate: \(Self.bitrate(song))\n"
            if let total { text += "duration: \(Self.decimal(total))\n" }
            text += "audio: \(Self.format(song))\n"
        }
        if let updating { text += "updating_db: \(updating)\n" }
        if let failure = status.failure { text += "error: \(UntrustedText.shown(failure))\n" }
        if status.entry != nil, let next = session.nextEntry, marks.ids.indices.contains(next) {
            text += "nextsong: \(next)\nnextsongid: \(marks.ids[next])\n"
        }
        return text
    }

    /// Seconds with three decimals, as MPD writes them (`{:1.3f}`).
    static func decimal(_ seconds: Double) -> String {
        let millis = Int((max(seconds, 0) * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The song's bit rate in kbit/s, as MPD gives it (0 when not known).
    static func bitrate(_ song: SongInfo) -> Int {
        if let stream = song.stream { return stream.averageBitrate ?? stream.bitrate }
        return 0
    }

    /// `RATE:BITS:CHANNELS`, bits `f` for a song decoded to floating point (MPD's audio format).
    static func format(_ song: SongInfo) -> String {
        "\(song.sampleRate):\(song.bits.map(String.init) ?? "f"):\(song.channels)"
    }

    private func currentSong(_ client: MpdClientState) -> String {
        let status = session.status
        guard let entry = status.entry, entry < session.entries.count else { return "" }
        return songs([entry], client: client)
    }

    private func stats() -> String {
        var text = ""
        if let library = link.library(), case .success(let counts) = library.counts() {
            text += "artists: \(counts.artists)\nalbums: \(counts.albums)\nsongs: \(counts.songs)\n"
        } else {
            text += "artists: 0\nalbums: 0\nsongs: 0\n"
        }
        text += "uptime: \(Int(started.duration(to: .now).components.seconds))\nplaytime: 0\n"
        return text
    }

    private let started = ContinuousClock.now

    /// `update [URI]` and `rescan [URI]`: the library's folders scanned off the main loop (the
    /// whole library: a scan reads only the files that changed), its job number said; one
    /// asked for while another runs follows it.
    private func update(_ arguments: [String]) -> Result<String, MpdAck> {
        guard let scan = link.update, link.library() != nil || !link.roots.folders.isEmpty else { return .failure(Self.noDatabase) }
        if let uri = arguments.first, !uri.isEmpty, !MpdRoots.isSafe(Self.folder(uri)) { return .failure(MpdAck(.argument, "Malformed path")) }
        if updating != nil {
            if let queued = updateQueued { return .success("updating_db: \(queued)\n") }
            lastUpdateJob += 1
            updateQueued = lastUpdateJob
            return .success("updating_db: \(lastUpdateJob)\n")
        }
        lastUpdateJob += 1
        start(lastUpdateJob, scan)
        return .success("updating_db: \(lastUpdateJob)\n")
    }

    private func start(_ job: Int, _ scan: (@escaping () -> Void) -> Void) {
        updating = job
        updateChanged()
        scan { [weak self] in
            guard let self else { return }
            self.updating = nil
            if let next = self.updateQueued, let scan = self.link.update {
                self.updateQueued = nil
                self.start(next, scan)
            } else {
                self.updateChanged()
            }
        }
    }
}
