import CSdBus
import Files
import Glibc
import PlayerApp
import PlayerCore

/// MPRIS2 on the D-Bus session bus: media keys, desktop widgets and `playerctl` control tplayer.
///
/// It owns `org.mpris.MediaPlayer2.tplayer` (or `…tplayer.instance<pid>` when another tplayer
/// has it) and serves `/org/mpris/MediaPlayer2`. Every method becomes a command on the session,
/// so it goes through the same state machine as a key. After each turn of the main loop it
/// compares what the properties say with what they said and announces the ones that changed
/// (`PropertiesChanged`, never on a mere tick of the position); a seek announces `Seeked`.
///
/// With no session bus (a console, CI) `start` returns `nil` and nothing is said about it.
public final class MprisServer: OutsideControl {
    public static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private var bus: OpaquePointer?
    /// libsystemd's functions, loaded when the server starts.
    private let api: UnsafeMutablePointer<tp_sdbus>
    private let sd: SdBus
    private let handlers: UnsafeMutablePointer<tp_bus_handlers>
    private var slots: [OpaquePointer?] = [nil, nil]
    /// The two vtables, built when the server starts; freed after the objects leave the bus.
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>?] = []
    private let controls: Controls
    private var session: Session { controls.session }
    private let position: () -> Int64
    /// The well-known name it owns.
    public private(set) var name = ""
    private var announced: Snapshot?

    /// What the announced properties say; compared after each turn of the loop.
    struct Snapshot: Equatable {
        var status: String
        var loop: String
        var shuffle: Bool
        var volume: Double
        var track: Int?
        var title: String?
        var canGoNext: Bool
        var canGoPrevious: Bool
        var canPlay: Bool
        var canPause: Bool
        var canSeek: Bool
    }

    /// Connects to the session bus and takes the name; `nil` when there is no bus to take.
    public static func start(controls: Controls, position: @escaping () -> Int64) -> MprisServer? {
        let api = UnsafeMutablePointer<tp_sdbus>.allocate(capacity: 1)
        api.initialize(to: tp_sdbus())
        var bus: OpaquePointer?
        guard tp_sdbus_load(api) == 0, api.pointee.open_user(&bus) >= 0, let bus else {
            api.deallocate()
            return nil
        }
        let server = MprisServer(bus: bus, api: api, controls: controls, position: position)
        guard server.register() else {
            server.close()
            return nil
        }
        return server
    }

    private init(bus: OpaquePointer, api: UnsafeMutablePointer<tp_sdbus>, controls: Controls, position: @escaping () -> Int64) {
        self.bus = bus
        self.api = api
        sd = SdBus(api: api)
        self.controls = controls
        self.position = position
        handlers = .allocate(capacity: 1)
        handlers.initialize(to: tp_bus_handlers(
            context: nil,
            api: api,
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
        api.deallocate()
    }

    private func register() -> Bool {
        guard let bus else { return false }
        vtables = [tp_mpris_root(api.pointee.vtable_format), tp_mpris_player(api.pointee.vtable_format)]
        guard let root = vtables[0], let player = vtables[1],
              sd.addObjectVtable(bus, &slots[0], Self.objectPath, Self.rootInterface, root, handlers) >= 0,
              sd.addObjectVtable(bus, &slots[1], Self.objectPath, Self.playerInterface, player, handlers) >= 0
        else { return false }
        for candidate in ["org.mpris.MediaPlayer2.tplayer", "org.mpris.MediaPlayer2.tplayer.instance\(getpid())"] {
            if sd.requestName(bus, candidate) >= 0 {
                name = candidate
                return true
            }
        }
        return false
    }

    /// Leaves the bus (the name goes with the connection).
    public func close() {
        for slot in slots where slot != nil { sd.unref(slot: slot) }
        slots = [nil, nil]
        if let bus { sd.flushCloseUnref(bus) }
        bus = nil
        vtables.forEach { free($0) }
        vtables = []
    }

    // MARK: - OutsideControl

    public var descriptor: Int32? {
        guard let bus else { return nil }
        let fd = sd.fd(bus)
        return fd >= 0 ? fd : nil
    }

    public func process() {
        guard let bus else { return }
        while true {
            let result = sd.process(bus)
            if result < 0 {
                // The bus went away: MPRIS ends quietly, the player plays on.
                close()
                return
            }
            if result == 0 { return }
        }
    }

    public func observe(_ event: EngineEvent) {
        guard case .seeked(let token, let frame, _) = event, token == session.state.token,
              let song = session.state.song, let bus else { return }
        var message: OpaquePointer?
        guard sd.newSignal(bus, &message, Self.objectPath, Self.playerInterface, "Seeked") >= 0,
              let message else { return }
        let microseconds = MprisTime.microseconds(frames: frame, rate: song.sampleRate)
        sd.append(message, microseconds)
        sd.send(message, on: bus)
        sd.unref(message)
    }

    public func update() {
        // Messages sd-bus has already read off the socket do not make it readable again.
        process()
        guard let bus else { return }
        let now = snapshot()
        defer { announced = now }
        guard let before = announced, before != now else { return }
        var changed: [String] = []
        if before.status != now.status { changed.append("PlaybackStatus") }
        if before.loop != now.loop { changed.append("LoopStatus") }
        if before.shuffle != now.shuffle { changed.append("Shuffle") }
        if before.volume != now.volume { changed.append("Volume") }
        if before.track != now.track || before.title != now.title { changed.append("Metadata") }
        if before.canGoNext != now.canGoNext { changed.append("CanGoNext") }
        if before.canGoPrevious != now.canGoPrevious { changed.append("CanGoPrevious") }
        if before.canPlay != now.canPlay { changed.append("CanPlay") }
        if before.canPause != now.canPause { changed.append("CanPause") }
        if before.canSeek != now.canSeek { changed.append("CanSeek") }
        sd.emitPropertiesChanged(bus, Self.objectPath, Self.playerInterface, changed)
        sd.flush(bus)
    }

    // MARK: - The player as MPRIS sees it

    func snapshot() -> Snapshot {
        let state = session.state
        let hasSong = state.song != nil
        let many = session.entries.count > 1 || session.queue.repeats
        return Snapshot(
            status: Self.status(of: state), loop: session.queue.repeats ? "Playlist" : "None",
            shuffle: session.queue.shuffles, volume: session.muted ? 0 : Double(session.volume) / 100,
            track: state.song == nil ? nil : state.token, title: session.songName,
            canGoNext: many, canGoPrevious: many, canPlay: !session.entries.isEmpty, canPause: hasSong, canSeek: hasSong)
    }

    static func status(of state: PlayerState) -> String {
        switch state {
        case .play, .deviceLost: "Playing"
        case .stop: "Paused"
        case .loading(let loading): loading.startsPlaying ? "Playing" : "Stopped"
        case .idle, .prepare: "Stopped"
        }
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
            guard sd.read(message, "x", &offset) > 0 else { return -EINVAL }
            request = .seek(offset: offset)
        case "SetPosition":
            var track: UnsafePointer<CChar>?
            var microseconds: Int64 = 0
            guard sd.read(message, "o", &track) > 0, let track,
                  sd.read(message, "x", &microseconds) > 0 else { return -EINVAL }
            request = .setPosition(track: String(cString: track), microseconds: microseconds)
        case "OpenUri":
            var uri: UnsafePointer<CChar>?
            guard sd.read(message, "s", &uri) > 0, let uri else { return -EINVAL }
            request = .openUri(String(cString: uri))
        default:
            return sd.error(error, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        if let refused = submit(request, error) { return refused }
        var reply: OpaquePointer?
        guard sd.newMethodReturn(message, &reply) >= 0, let reply else { return -ENOMEM }
        defer { sd.unref(reply) }
        return sd.send(reply)
    }

    /// Hands what `request` means to the one door; a refusal is returned as sd-bus's answer.
    private func submit(_ request: MprisRequest, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32? {
        switch MprisMapping.commands(for: request, state: session.state, muted: session.muted) {
        case .success(let commands):
            controls.submit(commands, from: .mpris)
            return nil
        case .failure(.invalid):
            return -EINVAL
        case .failure(.invalidArguments(let why)):
            return sd.error(error, "org.freedesktop.DBus.Error.InvalidArgs", why)
        }
    }

    // MARK: - Properties

    private func read(_ property: String, into reply: OpaquePointer) -> Int32 {
        let state = session.state
        let now = snapshot()
        switch property {
        case "CanQuit", "CanControl": return sd.append(reply, true)
        case "CanRaise", "HasTrackList": return sd.append(reply, false)
        case "Identity": return sd.append(reply, "tplayer")
        case "SupportedUriSchemes": return sd.appendList(reply, ["file"])
        case "SupportedMimeTypes": return sd.appendList(reply, ["audio/mpeg"])
        case "PlaybackStatus": return sd.append(reply, now.status)
        case "LoopStatus": return sd.append(reply, now.loop)
        case "Shuffle": return sd.append(reply, now.shuffle)
        case "Volume": return sd.append(reply, now.volume)
        case "Rate", "MinimumRate", "MaximumRate": return sd.append(reply, 1.0)
        case "Position":
            return sd.append(reply, state.song.map { MprisTime.microseconds(frames: position(), rate: $0.sampleRate) } ?? 0)
        case "CanGoNext": return sd.append(reply, now.canGoNext)
        case "CanGoPrevious": return sd.append(reply, now.canGoPrevious)
        case "CanPlay": return sd.append(reply, now.canPlay)
        case "CanPause": return sd.append(reply, now.canPause)
        case "CanSeek": return sd.append(reply, now.canSeek)
        case "Metadata": return appendMetadata(reply)
        default: return -ENOENT
        }
    }

    private func write(_ property: String, from value: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let request: MprisRequest
        switch property {
        case "LoopStatus":
            var text: UnsafePointer<CChar>?
            guard sd.read(value, "s", &text) > 0, let text else { return -EINVAL }
            request = .setLoopStatus(String(cString: text))
        case "Shuffle":
            var on: Int32 = 0
            guard sd.read(value, "b", &on) > 0 else { return -EINVAL }
            request = .setShuffle(on != 0)
        case "Volume":
            var volume = 0.0
            guard sd.read(value, "d", &volume) > 0 else { return -EINVAL }
            request = .setVolume(volume)
        case "Rate":
            var rate = 0.0
            guard sd.read(value, "d", &rate) > 0 else { return -EINVAL }
            request = .setRate(rate)
        default:
            return sd.error(error, "org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
        }
        return submit(request, error) ?? 1
    }

    private func appendMetadata(_ reply: OpaquePointer) -> Int32 {
        guard sd.openContainer(reply, "a", "{sv}") >= 0 else { return -ENOMEM }
        if let song = session.state.song, let token = session.state.token {
            sd.entry(reply, "mpris:trackid", "o") { sd.append(reply, MprisMapping.trackPath(token), type: "o") }
            if let total = song.totalFrames {
                sd.entry(reply, "mpris:length", "x") { sd.append(reply, MprisTime.microseconds(frames: total, rate: song.sampleRate)) }
            }
            let title = nonEmpty(song.title) ?? session.songName ?? song.fileName
            sd.entry(reply, "xesam:title", "s") { sd.append(reply, title) }
            if let artist = nonEmpty(song.artist) {
                sd.entry(reply, "xesam:artist", "as") { sd.appendList(reply, [artist]) }
            }
            if let album = nonEmpty(song.album) {
                sd.entry(reply, "xesam:album", "s") { sd.append(reply, album) }
            }
            let absolute = song.path.isAbsolute ? song.path : song.path.resolved(against: FileSystem.currentFolder())
            sd.entry(reply, "xesam:url", "s") { sd.append(reply, FileURL.string(for: absolute)) }
        } else {
            sd.entry(reply, "mpris:trackid", "o") { sd.append(reply, "/org/mpris/MediaPlayer2/TrackList/NoTrack", type: "o") }
        }
        return sd.closeContainer(reply)
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
