import CShout
import PlayerCore

/// libshout, loaded the first time an Icecast output is made (its shim.h).
enum ShoutLibrary {
    nonisolated(unsafe) static let api: UnsafePointer<tp_shout>? = {
        let api = UnsafeMutablePointer<tp_shout>.allocate(capacity: 1)
        api.initialize(to: tp_shout())
        guard tp_shout_load(api) == 0 else {
            api.deallocate()
            return nil
        }
        return UnsafePointer(api)
    }()
}

/// One source connection to an Icecast mount, through libshout in its non-blocking mode: the
/// connection is made while the broadcast's thread goes on (`poll`), a write never waits for
/// the server (libshout queues what the socket does not take: `queued`), and a server that
/// stops reading is found by that queue growing, not by a thread stuck in a write.
final class ShoutConnection {
    struct Failure: Error, CustomStringConvertible {
        /// One line, never the password.
        let description: String
        /// The server refused the source: asked again less often.
        var refused = false
    }

    enum Progress {
        case connecting
        case connected
    }

    private let api: UnsafePointer<tp_shout>
    private let shout: OpaquePointer

    /// Starts connecting to `mount` for a stream of `codec`.
    init(to mount: IcecastMount, codec: IcecastEncoding.Codec) throws(Failure) {
        guard let api = ShoutLibrary.api else {
            throw Failure(description: "libshout is not installed (apt install libshout3)")
        }
        guard let shout = api.pointee.make() else { throw Failure(description: "out of memory") }
        self.api = api
        self.shout = shout
        let calls = api.pointee
        let format = UInt32(codec == .mp3 ? SHOUT_FORMAT_MP3 : SHOUT_FORMAT_OGG)
        let set = [
            calls.set_host(shout, mount.host), calls.set_port(shout, UInt16(mount.port)), calls.set_user(shout, mount.user),
            calls.set_password(shout, mount.password), calls.set_mount(shout, mount.mount), calls.set_agent(shout, "tplayer"),
            calls.set_tls(shout, SHOUT_TLS_DISABLED), calls.set_protocol(shout, UInt32(SHOUT_PROTOCOL_HTTP)),
            calls.set_content_format(shout, format, UInt32(SHOUT_USAGE_AUDIO), nil), calls.set_nonblocking(shout, UInt32(SHOUT_BLOCKING_NONE)),
        ]
        guard set.allSatisfy({ $0 == SHOUTERR_SUCCESS }) else { throw Failure(description: "libshout refused the settings") }
        let opened = calls.open(shout)
        guard opened == SHOUTERR_SUCCESS || opened == SHOUTERR_BUSY || opened == SHOUTERR_RETRY else {
            throw failure(opened == SHOUTERR_SOCKET ? SHOUTERR_NOCONNECT : opened)  // refused before it was made
        }
    }

    deinit {
        _ = api.pointee.close(shout)
        api.pointee.free(shout)
    }

    /// Where the connection is; throws when it failed (refused, or no server there).
    func poll() throws(Failure) -> Progress {
        let state = api.pointee.get_connected(shout)
        switch state {
        case SHOUTERR_CONNECTED: return .connected
        case SHOUTERR_BUSY, SHOUTERR_RETRY: return .connecting
        case SHOUTERR_SOCKET, SHOUTERR_UNCONNECTED: throw failure(SHOUTERR_NOCONNECT)  // refused before it was made
        default: throw failure(state)
        }
    }

    /// Sends `bytes` (what the socket does not take now is queued by libshout).
    func send(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        let result = api.pointee.send(shout, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        guard result == SHOUTERR_SUCCESS || result == SHOUTERR_BUSY || result == SHOUTERR_RETRY else { throw failure(result) }
    }

    /// Bytes libshout holds that the server has not taken yet.
    var queued: Int { max(Int(api.pointee.queuelen(shout)), 0) }

    /// An MP3 stream's title (Icecast's `StreamTitle`, which it puts in the stream for each
    /// listener from here on).
    func setTitle(_ title: String) throws(Failure) {
        guard let metadata = api.pointee.metadata_new() else { return }
        defer { api.pointee.metadata_free(metadata) }
        guard api.pointee.metadata_add(metadata, "song", title) == SHOUTERR_SUCCESS else { return }
        let result = api.pointee.set_metadata_utf8(shout, metadata)
        guard result == SHOUTERR_SUCCESS || result == SHOUTERR_BUSY || result == SHOUTERR_RETRY else { throw failure(result) }
    }

    private func failure(_ code: Int32) -> Failure {
        switch code {
        case SHOUTERR_NOLOGIN:
            Failure(description: "the server refused the source (check the user and password in icecast =, and that the mount is free)", refused: true)
        case SHOUTERR_NOCONNECT:
            Failure(description: "no server answers there (is Icecast running?)")
        case SHOUTERR_SOCKET, SHOUTERR_UNCONNECTED:
            Failure(description: "the connection was lost")
        default:
            Failure(description: UntrustedText.flattened(api.pointee.get_error(shout).map { String(cString: $0) } ?? "libshout failed (\(code))"))
        }
    }
}
