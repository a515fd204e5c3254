import CSdBus
import Files
import Glibc
import PlayerApp
import PlayerCore

/// MPRIS2 on the D-Bus session bus: media keys, desktop widgets and `playerctl` control tplayer.
///
/// It owns `org.mpris.MediaPlayer2.tplayer` (or `…tplayer.instance<pid>` when another tplayer
/// has it) and serves `/org/mpris/MediaPlayer2`. It only reads and writes the bus: what a method
/// or a property write means is `MprisMapping`'s (its commands go through the one door,
/// `Controls`, as a key's do), and what the properties say is `MprisProperties`'. After each turn
/// of the main loop it compares them with what they said and announces the ones that changed
/// (`PropertiesChanged`, never on a mere tick of the position); a seek announces `Seeked`.
///
/// With no session bus (a console, CI) `start` returns `nil` and nothing is said about it.
public final class MprisServer: OutsideControl {
    public static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// The connection, owned: closing it takes tplayer off the bus.
    private let bus: SdBus
    /// What sd-bus hands back to the C trampolines: this server and libsystemd's functions.
    private let handlers: UnsafeMutablePointer<tp_bus_handlers>
    private let controls: Controls
    private var session: Session { controls.session }
    private let position: () -> Int64
    /// The well-known name it owns.
    public private(set) var name = ""
    /// What the library knows of a song (`nil`: it does not hold it): MPRIS's
    /// `xesam:albumArtist`, `xesam:discNumber`, `xesam:useCount` and `xesam:userRating`.
    public var library: ((Path) -> LibraryFacts?)?
    /// A `file://` URL of a song's cover (`mpris:artUrl`).
    public var artURL: ((SongInfo) -> String?)?

    public struct LibraryFacts: Sendable {
        public var albumArtists: [String]
        public var disc: Int?
        public var plays: Int
        /// 0 to 5 stars.
        public var rating: Int

        public init(albumArtists: [String], disc: Int?, plays: Int, rating: Int) {
            (self.albumArtists, self.disc, self.plays, self.rating) = (albumArtists, disc, plays, rating)
        }
    }
    private var announcer = MprisAnnouncer(folder: FileSystem.currentFolder())
    /// `DesktopEntry`, offered only when a desktop file for tplayer is installed.
    private let desktopEntry: String?

    /// Connects to the session bus and takes the name; `nil` when there is no bus to take.
    public static func start(controls: Controls, position: @escaping () -> Int64) -> MprisServer? {
        guard let bus = SdBus.openUser() else { return nil }
        let environment = ProcessEnvironment.values(of: ["XDG_DATA_HOME", "XDG_DATA_DIRS", "HOME"])
        let desktopEntry = MprisDesktopEntry.find(environment: environment, exists: FileSystem.exists)
        let server = MprisServer(bus: bus, controls: controls, position: position, desktopEntry: desktopEntry)
        guard server.register() else {
            server.close()
            return nil
        }
        return server
    }

    private init(bus: SdBus, controls: Controls, position: @escaping () -> Int64, desktopEntry: String?) {
        self.bus = bus
        self.desktopEntry = desktopEntry
        self.controls = controls
        self.position = position
        handlers = .allocate(capacity: 1)
        handlers.initialize(to: tp_bus_handlers(
            context: nil,
            api: bus.functions,
            method: { context, message, member, error in
                guard let context, let message, let member else { return -EINVAL }
                return Unmanaged<MprisServer>.fromOpaque(context).takeUnretainedValue()
                    .call(String(cString: member), message, error)
            },
            get: { context, _, property, reply, _ in
                guard let context, let property, let reply else { return -EINVAL }
                return Unmanaged<MprisServer>.fromOpaque(context).takeUnretainedValue()
                    .read(String(cString: property), into: reply)
            },
            set: { context, _, property, value, error in
                guard let context, let property, let value else { return -EINVAL }
                return Unmanaged<MprisServer>.fromOpaque(context).takeUnretainedValue()
                    .write(String(cString: property), from: value, error)
            }))
        handlers.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        close()
        handlers.deinitialize(count: 1)
        handlers.deallocate()
    }

    private func register() -> Bool {
        guard bus.addObject(Self.objectPath, Self.rootInterface, userdata: handlers, vtable: { tp_mpris_root($0, desktopEntry == nil ? 0 : 1) }),
              bus.addObject(Self.objectPath, Self.playerInterface, userdata: handlers, vtable: { tp_mpris_player($0) })
        else { return false }
        for candidate in ["org.mpris.MediaPlayer2.tplayer", "org.mpris.MediaPlayer2.tplayer.instance\(getpid())"] {
            if bus.requestName(candidate) {
                name = candidate
                return true
            }
        }
        return false
    }

    /// Leaves the bus (the name goes with the connection).
    public func close() {
        bus.close()
    }

    // MARK: - OutsideControl

    public var descriptor: Int32? { bus.descriptor }

    public func process() {
        while bus.isOpen {
            let result = bus.process()
            if result < 0 {
                // The bus went away: MPRIS ends quietly, the player plays on.
                return close()
            }
            if result == 0 { return }
        }
    }

    public func observe(_ event: EngineEvent) {
        guard case .seeked(let token, let frame, _) = event, token == session.state.token,
              let song = session.state.song else { return }
        bus.emitSignal(Self.objectPath, Self.playerInterface, "Seeked") { message in
            bus.append(message, MprisTime.microseconds(frames: frame, rate: song.sampleRate))
        }
    }

    public func update() {
        // Messages sd-bus has already read off the socket do not make it readable again.
        process()
        guard bus.isOpen else { return }
        let changed = announcer.changes(in: session)
        guard !changed.isEmpty else { return }
        bus.emitPropertiesChanged(Self.objectPath, Self.playerInterface, changed)
        bus.flush()
    }

    // MARK: - Methods

    private func call(_ member: String, _ message: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let request: MprisRequest
        switch member {
        case "Raise": request = .raise
        case "Quit": request = .quit
        case "Next": request = .next
        case "Previous": request = .previous
        case "Pause": request = .pause
        case "Play": request = .play
        case "PlayPause": request = .playPause
        case "Stop": request = .stop
        case "Seek":
            var offset: Int64 = 0
            guard bus.read(message, "x", &offset) > 0 else { return -EINVAL }
            request = .seek(offset: offset)
        case "SetPosition":
            var track: UnsafePointer<CChar>?
            var microseconds: Int64 = 0
            guard bus.read(message, "o", &track) > 0, let track,
                  bus.read(message, "x", &microseconds) > 0 else { return -EINVAL }
            request = .setPosition(track: String(cString: track), microseconds: microseconds)
        case "OpenUri":
            var uri: UnsafePointer<CChar>?
            guard bus.read(message, "s", &uri) > 0, let uri else { return -EINVAL }
            return open(String(cString: uri), message, error)
        default:
            return bus.error(error, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        if let refused = submit(request, error) { return refused }
        return bus.replyEmpty(to: message)
    }

    /// Hands what `request` means to the one door; a refusal is returned as sd-bus's answer.
    private func submit(_ request: MprisRequest, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32? {
        switch MprisMapping.commands(for: request, in: session) {
        case .success(let commands):
            controls.submit(commands, from: .mpris)
            return nil
        case .failure(let refusal):
            return refuse(refusal, error)
        }
    }

    private func refuse(_ refusal: MprisRefusal, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard let (name, message) = Self.error(for: refusal) else { return -EINVAL }
        return bus.error(error, name, message)
    }

    /// The D-Bus error name and message of `refusal`; `nil` for plain `EINVAL`.
    private static func error(for refusal: MprisRefusal) -> (String, String)? {
        switch refusal {
        case .invalid: nil
        // The reasons name paths and URIs a client sent: through the sanitiser, as every string sent.
        case .invalidArguments(let why): ("org.freedesktop.DBus.Error.InvalidArgs", UntrustedText.flattened(why))
        case .failed(let why): ("org.freedesktop.DBus.Error.Failed", UntrustedText.flattened(why))
        }
    }

    /// `OpenUri`: answered once what the URI names has been opened off the main loop (a slow
    /// file, even a FIFO, never holds the loop): success when its first song plays, an error
    /// when nothing in it can be played (and nothing is added) or a newer load came first.
    private func open(_ uri: String, _ call: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let commands: [Command]
        switch MprisMapping.commands(for: .openUri(uri), in: session) {
        case .success(let mapped): commands = mapped
        case .failure(let refusal): return refuse(refusal, error)
        }
        guard case .load(let path)? = commands.first else { return bus.replyEmpty(to: call) }
        let kept = bus.keep(call)
        controls.load(path, from: .mpris) { [weak self] answer in
            guard let self else { return }
            let error = MprisMapping.refusal(for: answer).flatMap(Self.error)
            self.bus.answer(kept, error: error)
        }
        return 1  // answered later
    }

    // MARK: - Properties

    private func read(_ property: String, into reply: OpaquePointer) -> Int32 {
        let now = announcer.properties(of: session)
        switch property {
        case "CanQuit", "CanControl": return bus.append(reply, true)
        case "CanRaise", "HasTrackList": return bus.append(reply, false)
        case "Identity": return bus.append(reply, "tplayer")
        case "DesktopEntry": return desktopEntry.map { bus.append(reply, UntrustedText.flattened($0)) } ?? -ENOENT
        case "SupportedUriSchemes": return bus.appendList(reply, ["file", "http", "https"])
        case "SupportedMimeTypes": return bus.appendList(reply, ["audio/mpeg"])
        case "PlaybackStatus": return bus.append(reply, now.playbackStatus)
        case "LoopStatus": return bus.append(reply, now.loopStatus)
        case "Shuffle": return bus.append(reply, now.shuffle)
        case "Volume": return bus.append(reply, now.volume)
        case "Rate": return bus.append(reply, now.rate)
        case "MinimumRate": return bus.append(reply, EngineCall.slowestSpeed)
        case "MaximumRate": return bus.append(reply, EngineCall.fastestSpeed)
        case "Position":
            return bus.append(reply, session.state.song.map { MprisTime.microseconds(frames: position(), rate: $0.sampleRate) } ?? 0)
        case "CanGoNext": return bus.append(reply, now.canGoNext)
        case "CanGoPrevious": return bus.append(reply, now.canGoPrevious)
        case "CanPlay": return bus.append(reply, now.canPlay)
        case "CanPause": return bus.append(reply, now.canPause)
        case "CanSeek": return bus.append(reply, now.canSeek)
        case "Metadata": return appendMetadata(reply)
        default: return -ENOENT
        }
    }

    private func write(_ property: String, from value: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let request: MprisRequest
        switch property {
        case "LoopStatus":
            var text: UnsafePointer<CChar>?
            guard bus.read(value, "s", &text) > 0, let text else { return -EINVAL }
            request = .setLoopStatus(String(cString: text))
        case "Shuffle":
            var on: Int32 = 0
            guard bus.read(value, "b", &on) > 0 else { return -EINVAL }
            request = .setShuffle(on != 0)
        case "Volume":
            var volume = 0.0
            guard bus.read(value, "d", &volume) > 0 else { return -EINVAL }
            request = .setVolume(volume)
        case "Rate":
            var rate = 0.0
            guard bus.read(value, "d", &rate) > 0 else { return -EINVAL }
            request = .setRate(rate)
        default:
            return bus.error(error, "org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
        }
        return submit(request, error) ?? 1
    }

    private func appendMetadata(_ reply: OpaquePointer) -> Int32 {
        let metadata = announcer.metadata(of: session)
        guard bus.openContainer(reply, "a", "{sv}") >= 0 else { return -ENOMEM }
        bus.entry(reply, "mpris:trackid", "o") { bus.append(reply, metadata.trackID, type: "o") }
        if let length = metadata.length { bus.entry(reply, "mpris:length", "x") { bus.append(reply, length) } }
        if let title = metadata.title { bus.entry(reply, "xesam:title", "s") { bus.append(reply, title) } }
        if let artist = metadata.artist { bus.entry(reply, "xesam:artist", "as") { bus.appendList(reply, [artist]) } }
        if let album = metadata.album { bus.entry(reply, "xesam:album", "s") { bus.append(reply, album) } }
        if let url = metadata.url { bus.entry(reply, "xesam:url", "s") { bus.append(reply, url) } }
        if let lyrics = metadata.lyrics { bus.entry(reply, "xesam:asText", "s") { bus.append(reply, lyrics) } }
        if let track = metadata.trackNumber { bus.entry(reply, "xesam:trackNumber", "i") { bus.append(reply, Int32(clamping: track)) } }
        if let date = metadata.contentCreated { bus.entry(reply, "xesam:contentCreated", "s") { bus.append(reply, date) } }
        guard let song = session.state.song, metadata.trackID != MprisMetadata.noTrack else { return bus.closeContainer(reply) }
        let path = song.path
        if let art = artURL?(song) { bus.entry(reply, "mpris:artUrl", "s") { bus.append(reply, UntrustedText.flattened(art)) } }
        if let facts = library?(path) {
            let artists = facts.albumArtists.map(UntrustedText.flattened)
            if !artists.isEmpty { bus.entry(reply, "xesam:albumArtist", "as") { bus.appendList(reply, artists) } }
            if let disc = facts.disc { bus.entry(reply, "xesam:discNumber", "i") { bus.append(reply, Int32(clamping: disc)) } }
            bus.entry(reply, "xesam:useCount", "i") { bus.append(reply, Int32(clamping: facts.plays)) }
            // The library's rating (0 to 5 stars) as the spec's 0 to 1.
            if facts.rating > 0 { bus.entry(reply, "xesam:userRating", "d") { bus.append(reply, Double(min(facts.rating, 5)) / 5) } }
        }
        return bus.closeContainer(reply)
    }
}
