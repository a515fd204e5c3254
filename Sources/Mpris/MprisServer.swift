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
    private let handlers: UnsafeMutablePointer<tp_bus_handlers>
    private var slots: [OpaquePointer?] = [nil, nil]
    /// The two vtables, built when the server starts; freed after the objects leave the bus.
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>?] = []
    private let session: Session
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
    public static func start(session: Session, position: @escaping () -> Int64) -> MprisServer? {
        let api = UnsafeMutablePointer<tp_sdbus>.allocate(capacity: 1)
        api.initialize(to: tp_sdbus())
        var bus: OpaquePointer?
        guard tp_sdbus_load(api) == 0, api.pointee.open_user(&bus) >= 0, let bus else {
            api.deallocate()
            return nil
        }
        let server = MprisServer(bus: bus, api: api, session: session, position: position)
        guard server.register() else {
            server.close()
            return nil
        }
        return server
    }

    private init(bus: OpaquePointer, api: UnsafeMutablePointer<tp_sdbus>, session: Session, position: @escaping () -> Int64) {
        self.bus = bus
        self.api = api
        self.session = session
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
              sd_bus_add_object_vtable(bus, &slots[0], Self.objectPath, Self.rootInterface, root, handlers) >= 0,
              sd_bus_add_object_vtable(bus, &slots[1], Self.objectPath, Self.playerInterface, player, handlers) >= 0
        else { return false }
        for candidate in ["org.mpris.MediaPlayer2.tplayer", "org.mpris.MediaPlayer2.tplayer.instance\(getpid())"] {
            if sd_bus_request_name(bus, candidate, 0) >= 0 {
                name = candidate
                return true
            }
        }
        return false
    }

    /// Leaves the bus (the name goes with the connection).
    public func close() {
        for slot in slots where slot != nil { sd_bus_slot_unref(slot) }
        slots = [nil, nil]
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
        vtables.forEach { free($0) }
        vtables = []
    }

    // MARK: - OutsideControl

    public var descriptor: Int32? {
        guard let bus else { return nil }
        let fd = sd_bus_get_fd(bus)
        return fd >= 0 ? fd : nil
    }

    public func process() {
        guard let bus else { return }
        while true {
            let result = sd_bus_process(bus, nil)
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
        guard sd_bus_message_new_signal(bus, &message, Self.objectPath, Self.playerInterface, "Seeked") >= 0,
              let message else { return }
        var microseconds = MprisTime.microseconds(frames: frame, rate: song.sampleRate)
        sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &microseconds)
        sd_bus_send(bus, message, nil)
        sd_bus_message_unref(message)
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
        _ = withCStrings(changed) { sd_bus_emit_properties_changed_strv(bus, Self.objectPath, Self.playerInterface, $0) }
        sd_bus_flush(bus)
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

    private func trackPath(_ token: Int) -> String { "/org/tplayer/track/\(token)" }

    // MARK: - Methods

    private func call(_ member: String, _ message: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        switch member {
        case "Raise": break
        case "Quit": session.perform(.quit)
        case "Next": session.perform(.next)
        case "Previous": session.perform(.previous)
        case "Pause": if session.state.isPlaying { session.perform(.stop) }
        case "Play": session.perform(.play)
        case "PlayPause": session.perform(.toggle)
        case "Stop":
            session.perform(.stop)
            session.perform(.seek(.to(.zero)))
        case "Seek":
            var offset: Int64 = 0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &offset) > 0 else { return -EINVAL }
            guard let target = MprisTime.seek(offset: offset) else { return -EINVAL }
            session.perform(.seek(target))
        case "SetPosition":
            var track: UnsafePointer<CChar>?
            var microseconds: Int64 = 0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "o")), &track) > 0, let track,
                  sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &microseconds) > 0 else { return -EINVAL }
            // The spec: ignored unless it is about the song playing, and within it.
            if let token = session.state.token, let song = session.state.song, String(cString: track) == trackPath(token),
               let target = MprisTime.setPosition(microseconds, in: song) {
                session.perform(.seek(target))
            }
        case "OpenUri":
            var uri: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &uri) > 0, let uri else { return -EINVAL }
            guard case .success(let path) = FileURL.path(String(cString: uri)) else {
                return tp_bus_error(api, error, "org.freedesktop.DBus.Error.InvalidArgs", "tplayer opens file:// URIs of this machine only")
            }
            session.perform(.load(path))
        default:
            return tp_bus_error(api, error, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return -ENOMEM }
        defer { sd_bus_message_unref(reply) }
        return sd_bus_send(nil, reply, nil)
    }

    // MARK: - Properties

    private func read(_ property: String, into reply: OpaquePointer) -> Int32 {
        let state = session.state
        let now = snapshot()
        switch property {
        case "CanQuit", "CanControl": return append(reply, true)
        case "CanRaise", "HasTrackList": return append(reply, false)
        case "Identity": return append(reply, "tplayer")
        case "SupportedUriSchemes": return appendList(reply, ["file"])
        case "SupportedMimeTypes": return appendList(reply, ["audio/mpeg"])
        case "PlaybackStatus": return append(reply, now.status)
        case "LoopStatus": return append(reply, now.loop)
        case "Shuffle": return append(reply, now.shuffle)
        case "Volume": return append(reply, now.volume)
        case "Rate", "MinimumRate", "MaximumRate": return append(reply, 1.0)
        case "Position":
            return append(reply, state.song.map { MprisTime.microseconds(frames: position(), rate: $0.sampleRate) } ?? 0)
        case "CanGoNext": return append(reply, now.canGoNext)
        case "CanGoPrevious": return append(reply, now.canGoPrevious)
        case "CanPlay": return append(reply, now.canPlay)
        case "CanPause": return append(reply, now.canPause)
        case "CanSeek": return append(reply, now.canSeek)
        case "Metadata": return appendMetadata(reply)
        default: return -ENOENT
        }
    }

    private func write(_ property: String, from value: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        switch property {
        case "LoopStatus":
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(value, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return -EINVAL }
            switch String(cString: text) {
            case "None": session.perform(.setRepeat(false))
            // tplayer repeats the list; a single song repeats as a list of one.
            case "Playlist", "Track": session.perform(.setRepeat(true))
            default: return tp_bus_error(api, error, "org.freedesktop.DBus.Error.InvalidArgs", "LoopStatus is None, Track or Playlist")
            }
        case "Shuffle":
            var on: Int32 = 0
            guard sd_bus_message_read_basic(value, CChar(UInt8(ascii: "b")), &on) > 0 else { return -EINVAL }
            session.perform(.setShuffle(on != 0))
        case "Volume":
            var volume = 0.0
            guard sd_bus_message_read_basic(value, CChar(UInt8(ascii: "d")), &volume) > 0, volume.isFinite else { return -EINVAL }
            session.perform(.volume(Int((min(max(volume, 0), 1) * 100).rounded())))
            if session.muted { session.perform(.setMute(false)) }
        case "Rate":
            var rate = 0.0
            guard sd_bus_message_read_basic(value, CChar(UInt8(ascii: "d")), &rate) > 0 else { return -EINVAL }
            if rate == 0 { session.perform(.stop) }  // the spec's "Rate 0 is Pause"
        default:
            return tp_bus_error(api, error, "org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
        }
        return 1
    }

    private func appendMetadata(_ reply: OpaquePointer) -> Int32 {
        guard sd_bus_message_open_container(reply, CChar(UInt8(ascii: "a")), "{sv}") >= 0 else { return -ENOMEM }
        if let song = session.state.song, let token = session.state.token {
            entry(reply, "mpris:trackid", "o") { append(reply, trackPath(token), type: "o") }
            if let total = song.totalFrames {
                entry(reply, "mpris:length", "x") { append(reply, MprisTime.microseconds(frames: total, rate: song.sampleRate)) }
            }
            let title = nonEmpty(song.title) ?? session.songName ?? song.fileName
            entry(reply, "xesam:title", "s") { append(reply, title) }
            if let artist = nonEmpty(song.artist) {
                entry(reply, "xesam:artist", "as") { appendList(reply, [artist]) }
            }
            if let album = nonEmpty(song.album) {
                entry(reply, "xesam:album", "s") { append(reply, album) }
            }
            let absolute = song.path.isAbsolute ? song.path : song.path.resolved(against: FileSystem.currentFolder())
            entry(reply, "xesam:url", "s") { append(reply, FileURL.string(for: absolute)) }
        } else {
            entry(reply, "mpris:trackid", "o") { append(reply, "/org/mpris/MediaPlayer2/TrackList/NoTrack", type: "o") }
        }
        return sd_bus_message_close_container(reply)
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }

    /// One `{sv}` dictionary entry.
    private func entry(_ reply: OpaquePointer, _ key: String, _ signature: String, _ value: () -> Int32) {
        sd_bus_message_open_container(reply, CChar(UInt8(ascii: "e")), "sv")
        _ = append(reply, key)
        sd_bus_message_open_container(reply, CChar(UInt8(ascii: "v")), signature)
        _ = value()
        sd_bus_message_close_container(reply)
        sd_bus_message_close_container(reply)
    }

    @discardableResult
    private func append(_ reply: OpaquePointer, _ value: Bool) -> Int32 {
        var flag: Int32 = value ? 1 : 0
        return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "b")), &flag)
    }

    @discardableResult
    private func append(_ reply: OpaquePointer, _ value: Double) -> Int32 {
        var number = value
        return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "d")), &number)
    }

    @discardableResult
    private func append(_ reply: OpaquePointer, _ value: Int64) -> Int32 {
        var number = value
        return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "x")), &number)
    }

    /// A string (Swift strings are valid UTF-8, as D-Bus requires; a NUL ends it early).
    @discardableResult
    private func append(_ reply: OpaquePointer, _ value: String, type: Character = "s") -> Int32 {
        value.withCString { sd_bus_message_append_basic(reply, CChar(type.asciiValue!), $0) }
    }

    @discardableResult
    private func appendList(_ reply: OpaquePointer, _ values: [String]) -> Int32 {
        guard sd_bus_message_open_container(reply, CChar(UInt8(ascii: "a")), "s") >= 0 else { return -ENOMEM }
        for value in values { append(reply, value) }
        return sd_bus_message_close_container(reply)
    }

    // libsystemd's functions by their own names, through `api` (members shadow the C ones).
    private func sd_bus_add_object_vtable(_ bus: OpaquePointer, _ slot: UnsafeMutablePointer<OpaquePointer?>, _ path: String,
                                          _ interface: String, _ vtable: UnsafePointer<sd_bus_vtable>, _ userdata: UnsafeMutableRawPointer) -> Int32 {
        api.pointee.add_object_vtable(bus, slot, path, interface, vtable, userdata)
    }
    private func sd_bus_request_name(_ bus: OpaquePointer, _ name: String, _ flags: UInt64) -> Int32 { api.pointee.request_name(bus, name, flags) }
    private func sd_bus_slot_unref(_ slot: OpaquePointer?) { _ = api.pointee.slot_unref(slot) }
    private func sd_bus_flush_close_unref(_ bus: OpaquePointer) { _ = api.pointee.flush_close_unref(bus) }
    private func sd_bus_get_fd(_ bus: OpaquePointer) -> Int32 { api.pointee.get_fd(bus) }
    private func sd_bus_process(_ bus: OpaquePointer, _ ret: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 { api.pointee.process(bus, ret) }
    @discardableResult
    private func sd_bus_flush(_ bus: OpaquePointer) -> Int32 { api.pointee.flush(bus) }
    @discardableResult
    private func sd_bus_send(_ bus: OpaquePointer?, _ message: OpaquePointer, _ cookie: UnsafeMutablePointer<UInt64>?) -> Int32 {
        api.pointee.send(bus, message, cookie)
    }
    @discardableResult
    private func sd_bus_emit_properties_changed_strv(_ bus: OpaquePointer, _ path: String, _ interface: String,
                                                     _ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        api.pointee.emit_properties_changed_strv(bus, path, interface, names)
    }
    private func sd_bus_message_new_signal(_ bus: OpaquePointer, _ message: UnsafeMutablePointer<OpaquePointer?>, _ path: String,
                                           _ interface: String, _ member: String) -> Int32 {
        api.pointee.message_new_signal(bus, message, path, interface, member)
    }
    private func sd_bus_message_new_method_return(_ call: OpaquePointer, _ message: UnsafeMutablePointer<OpaquePointer?>) -> Int32 {
        api.pointee.message_new_method_return(call, message)
    }
    private func sd_bus_message_unref(_ message: OpaquePointer) { _ = api.pointee.message_unref(message) }
    @discardableResult
    private func sd_bus_message_append_basic(_ message: OpaquePointer, _ type: CChar, _ value: UnsafeRawPointer) -> Int32 {
        api.pointee.message_append_basic(message, type, value)
    }
    private func sd_bus_message_read_basic(_ message: OpaquePointer, _ type: CChar, _ value: UnsafeMutableRawPointer) -> Int32 {
        api.pointee.message_read_basic(message, type, value)
    }
    @discardableResult
    private func sd_bus_message_open_container(_ message: OpaquePointer, _ type: CChar, _ contents: String) -> Int32 {
        api.pointee.message_open_container(message, type, contents)
    }
    @discardableResult
    private func sd_bus_message_close_container(_ message: OpaquePointer) -> Int32 { api.pointee.message_close_container(message) }

    private func withCStrings<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        var pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
