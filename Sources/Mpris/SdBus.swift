import CSdBus
import Glibc

/// The sd-bus calls MPRIS makes, through libsystemd's functions loaded at start (`tp_sdbus`),
/// and the values it writes into messages and reads from them.
struct SdBus {
    let api: UnsafeMutablePointer<tp_sdbus>

    // MARK: - The bus

    func addObjectVtable(_ bus: OpaquePointer, _ slot: UnsafeMutablePointer<OpaquePointer?>, _ path: String, _ interface: String,
                         _ vtable: UnsafePointer<sd_bus_vtable>, _ userdata: UnsafeMutableRawPointer) -> Int32 {
        api.pointee.add_object_vtable(bus, slot, path, interface, vtable, userdata)
    }

    func requestName(_ bus: OpaquePointer, _ name: String) -> Int32 { api.pointee.request_name(bus, name, 0) }
    func unref(slot: OpaquePointer?) { _ = api.pointee.slot_unref(slot) }
    func flushCloseUnref(_ bus: OpaquePointer) { _ = api.pointee.flush_close_unref(bus) }
    func fd(_ bus: OpaquePointer) -> Int32 { api.pointee.get_fd(bus) }
    /// Handles one message; 0 when there was none, negative when the bus went away.
    func process(_ bus: OpaquePointer) -> Int32 { api.pointee.process(bus, nil) }

    @discardableResult
    func flush(_ bus: OpaquePointer) -> Int32 { api.pointee.flush(bus) }

    /// Sends `message`: a reply on the bus of the call it answers (`bus` nil), a signal on `bus`.
    @discardableResult
    func send(_ message: OpaquePointer, on bus: OpaquePointer? = nil) -> Int32 { api.pointee.send(bus, message, nil) }

    @discardableResult
    func emitPropertiesChanged(_ bus: OpaquePointer, _ path: String, _ interface: String, _ names: [String]) -> Int32 {
        var pointers = names.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { api.pointee.emit_properties_changed_strv(bus, path, interface, $0.baseAddress!) }
    }

    /// Sets `error` to the D-Bus error `name`, with `message`; returns what a handler returns.
    func error(_ error: UnsafeMutablePointer<sd_bus_error>?, _ name: String, _ message: String) -> Int32 {
        tp_bus_error(api, error, name, message)
    }

    // MARK: - Messages

    func newSignal(_ bus: OpaquePointer, _ message: UnsafeMutablePointer<OpaquePointer?>, _ path: String, _ interface: String,
                   _ member: String) -> Int32 {
        api.pointee.message_new_signal(bus, message, path, interface, member)
    }

    func newMethodReturn(_ call: OpaquePointer, _ message: UnsafeMutablePointer<OpaquePointer?>) -> Int32 {
        api.pointee.message_new_method_return(call, message)
    }

    func unref(_ message: OpaquePointer) { _ = api.pointee.message_unref(message) }

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
