import CSdBus
import Glibc

/// A connection to the D-Bus user bus, owned as GRDB's `Database` owns its `sqlite3 *`: this
/// handle holds the `sd_bus *`, the objects it serves (their slots and vtables) and libsystemd's
/// functions, loaded when it opens; every sd-bus call goes through it; closing it (or releasing
/// it) takes the objects off the bus, gives up the names and frees what it holds. Messages are
/// sd-bus's own, borrowed for the length of a callback or made and released around one send.
final class SdBus {
    private let api: UnsafeMutablePointer<tp_sdbus>
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer?] = []
    /// Built when an object is added; freed once it has left the bus.
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>] = []

    /// Connects to the user's session bus; `nil` when libsystemd or the bus is not there.
    static func openUser() -> SdBus? {
        let api = UnsafeMutablePointer<tp_sdbus>.allocate(capacity: 1)
        api.initialize(to: tp_sdbus())
        var bus: OpaquePointer?
        guard tp_sdbus_load(api) == 0, api.pointee.open_user(&bus) >= 0, let bus else {
            api.deallocate()
            return nil
        }
        return SdBus(api: api, bus: bus)
    }

    private init(api: UnsafeMutablePointer<tp_sdbus>, bus: OpaquePointer) {
        self.api = api
        self.bus = bus
    }

    deinit {
        close()
        api.deallocate()
    }

    /// libsystemd's functions, for the C trampolines that call back into Swift.
    var functions: UnsafePointer<tp_sdbus> { UnsafePointer(api) }

    var isOpen: Bool { bus != nil }

    /// The descriptor to poll; `nil` once closed.
    var descriptor: Int32? {
        guard let bus else { return nil }
        let fd = api.pointee.get_fd(bus)
        return fd >= 0 ? fd : nil
    }

    /// Serves `interface` at `path` with the vtable `build` makes (given sd-bus's vtable format),
    /// calling back with `userdata`; false when the bus refuses.
    func addObject(_ path: String, _ interface: String, userdata: UnsafeMutableRawPointer,
                   vtable build: (UnsafePointer<UInt32>) -> UnsafeMutablePointer<sd_bus_vtable>?) -> Bool {
        guard let bus, let vtable = build(api.pointee.vtable_format) else { return false }
        vtables.append(vtable)
        var slot: OpaquePointer?
        guard api.pointee.add_object_vtable(bus, &slot, path, interface, vtable, userdata) >= 0 else { return false }
        slots.append(slot)
        return true
    }

    /// Takes the well-known `name`; false when another connection has it.
    func requestName(_ name: String) -> Bool {
        guard let bus else { return false }
        return api.pointee.request_name(bus, name, 0) >= 0
    }

    /// Leaves the bus: the objects first, then the connection (its names go with it).
    func close() {
        for slot in slots where slot != nil { _ = api.pointee.slot_unref(slot) }
        slots = []
        if let bus { _ = api.pointee.flush_close_unref(bus) }
        bus = nil
        vtables.forEach { free($0) }
        vtables = []
    }

    /// Handles one message; 0 when there was none, negative when the bus went away (or is closed).
    func process() -> Int32 {
        guard let bus else { return -ENOTCONN }
        return api.pointee.process(bus, nil)
    }

    func flush() {
        if let bus { _ = api.pointee.flush(bus) }
    }

    /// Sends `message`: a reply goes on the bus of the call it answers.
    @discardableResult
    func send(_ message: OpaquePointer) -> Int32 { api.pointee.send(nil, message, nil) }

    func emitPropertiesChanged(_ path: String, _ interface: String, _ names: [String]) {
        guard let bus else { return }
        var pointers = names.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        _ = pointers.withUnsafeMutableBufferPointer { api.pointee.emit_properties_changed_strv(bus, path, interface, $0.baseAddress!) }
    }

    /// Emits the signal `member` with what `fill` appends.
    func emitSignal(_ path: String, _ interface: String, _ member: String, _ fill: (OpaquePointer) -> Void) {
        var message: OpaquePointer?
        guard let bus, api.pointee.message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return }
        defer { unref(message) }
        fill(message)
        _ = api.pointee.send(bus, message, nil)
    }

    /// Replies to `call` with an empty return.
    func replyEmpty(to call: OpaquePointer) -> Int32 {
        var reply: OpaquePointer?
        guard api.pointee.message_new_method_return(call, &reply) >= 0, let reply else { return -ENOMEM }
        defer { unref(reply) }
        return send(reply)
    }

    /// Keeps the method call `call` (its handler returns without replying) to `answer` later.
    func keep(_ call: OpaquePointer) -> OpaquePointer {
        _ = api.pointee.message_ref(call)
        return call
    }

    /// Answers a call kept with `keep`, with an empty return or `error` (its name and message),
    /// and lets it go. Once the bus is closed the caller has nothing to hear.
    func answer(_ call: OpaquePointer, error: (name: String, message: String)?) {
        defer { unref(call) }
        guard isOpen else { return }
        if let error {
            _ = tp_bus_reply_error(api, call, error.name, error.message)
        } else {
            _ = replyEmpty(to: call)
        }
        flush()
    }

    /// Sets `error` to the D-Bus error `name`, with `message`; returns what a handler returns.
    func error(_ error: UnsafeMutablePointer<sd_bus_error>?, _ name: String, _ message: String) -> Int32 {
        tp_bus_error(api, error, name, message)
    }

    // MARK: - Messages

    private func unref(_ message: OpaquePointer) { _ = api.pointee.message_unref(message) }

    /// Reads the next value, of D-Bus type `type`, into `value`; positive when one was read.
    func read(_ message: OpaquePointer, _ type: Character, _ value: UnsafeMutableRawPointer) -> Int32 {
        api.pointee.message_read_basic(message, CChar(type.asciiValue!), value)
    }

    @discardableResult
    func openContainer(_ message: OpaquePointer, _ type: Character, _ contents: String) -> Int32 {
        api.pointee.message_open_container(message, CChar(type.asciiValue!), contents)
    }

    @discardableResult
    func closeContainer(_ message: OpaquePointer) -> Int32 { api.pointee.message_close_container(message) }

    /// One `{sv}` dictionary entry.
    func entry(_ reply: OpaquePointer, _ key: String, _ signature: String, _ value: () -> Int32) {
        openContainer(reply, "e", "sv")
        append(reply, key)
        openContainer(reply, "v", signature)
        _ = value()
        closeContainer(reply)
        closeContainer(reply)
    }

    @discardableResult
    func append(_ reply: OpaquePointer, _ value: Bool) -> Int32 {
        var flag: Int32 = value ? 1 : 0
        return api.pointee.message_append_basic(reply, CChar(UInt8(ascii: "b")), &flag)
    }

    @discardableResult
    func append(_ reply: OpaquePointer, _ value: Double) -> Int32 {
        var number = value
        return api.pointee.message_append_basic(reply, CChar(UInt8(ascii: "d")), &number)
    }

    @discardableResult
    func append(_ reply: OpaquePointer, _ value: Int64) -> Int32 {
        var number = value
        return api.pointee.message_append_basic(reply, CChar(UInt8(ascii: "x")), &number)
    }

    @discardableResult
    func append(_ reply: OpaquePointer, _ value: Int32) -> Int32 {
        var number = value
        return api.pointee.message_append_basic(reply, CChar(UInt8(ascii: "i")), &number)
    }

    /// A string (Swift strings are valid UTF-8, as D-Bus requires; a NUL ends it early).
    @discardableResult
    func append(_ reply: OpaquePointer, _ value: String, type: Character = "s") -> Int32 {
        value.withCString { api.pointee.message_append_basic(reply, CChar(type.asciiValue!), $0) }
    }

    @discardableResult
    func appendList(_ reply: OpaquePointer, _ values: [String]) -> Int32 {
        guard openContainer(reply, "a", "s") >= 0 else { return -ENOMEM }
        for value in values { append(reply, value) }
        return closeContainer(reply)
    }
}
