import CLinux
import Glibc
import PlayerCore

/// Why an address cannot be listened on, as one clause.
public struct SocketProblem: Error, Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public init(stringLiteral value: String) { reason = value }
    public init(stringInterpolation: DefaultStringInterpolation) { reason = String(stringInterpolation: stringInterpolation) }
}

/// Where a server listens: a TCP address (IPv4 or IPv6, by number) and port, or a Unix socket's
/// path.
public enum SocketAddress: Hashable, Sendable, CustomStringConvertible {
    case inet4(host: String, port: UInt16)
    case inet6(host: String, port: UInt16)
    case unix(Path)

    /// `HOST:PORT`, `[IPV6]:PORT`, `HOST` (port `defaultPort`), `:PORT` or a port alone
    /// (127.0.0.1), `localhost`, `any` (every address), or a Unix socket's path (`/…`, `./…`,
    /// `~/…` read by the caller). The reason it is not one otherwise.
    public static func parse(_ text: String, defaultPort: UInt16) -> Result<SocketAddress, SocketProblem> {
        if text.hasPrefix("/") || text.hasPrefix("./") || text.hasPrefix("../") {
            guard text.utf8.count < 108 else { return .failure("a Unix socket's path has at most 107 bytes") }
            return .success(.unix(Path(text)))
        }
        var host = text, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure("an IPv6 address ends with ]: [::1]:6600") }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return .failure("after [ADDRESS] comes :PORT") }
                portText = rest.dropFirst()
            }
            guard isIPv6(host) else { return .failure("\(host) is not an IPv6 address") }
            return port(portText, defaultPort).map { .inet6(host: host, port: $0) }
        }
        if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else { return .failure("write an IPv6 address in brackets: [::1]:6600") }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        } else if !text.isEmpty, text.allSatisfy(\.isASCIIDigitCharacter) {
            (host, portText) = ("", Substring(text))
        }
        switch host {
        case "", "localhost": host = "127.0.0.1"
        case "any", "*": host = "0.0.0.0"
        default: break
        }
        guard isIPv4(host) else {
            return .failure("\(host) is not an address: name it by number (127.0.0.1, [::1]), or a Unix socket's path (/run/…)")
        }
        return port(portText, defaultPort).map { .inet4(host: host, port: $0) }
    }

    private static func port(_ text: Substring?, _ defaultPort: UInt16) -> Result<UInt16, SocketProblem> {
        guard let text else { return .success(defaultPort) }
        guard !text.isEmpty, text.count <= 5, text.allSatisfy(\.isASCIIDigitCharacter), let port = UInt16(text), port > 0 else {
            return .failure("the port is a number from 1 to 65535")
        }
        return .success(port)
    }

    private static func isIPv4(_ host: String) -> Bool {
        var address = in_addr()
        return !host.contains("\0") && inet_pton(AF_INET, host, &address) == 1
    }

    private static func isIPv6(_ host: String) -> Bool {
        var address = in6_addr()
        return !host.contains("\0") && inet_pton(AF_INET6, host, &address) == 1
    }

    /// Its socket family.
    var family: Int32 {
        switch self {
        case .inet4: AF_INET
        case .inet6: AF_INET6
        case .unix: AF_UNIX
        }
    }

    /// Calls `body` with it as the system's socket address (a Unix socket's path cut at 107 bytes).
    func withName<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch self {
        case .inet4(let host, let port):
            var name = sockaddr_in()
            name.sin_family = sa_family_t(AF_INET)
            name.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, host, &name.sin_addr)
            return Self.with(&name, body)
        case .inet6(let host, let port):
            var name = sockaddr_in6()
            name.sin6_family = sa_family_t(AF_INET6)
            name.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &name.sin6_addr)
            return Self.with(&name, body)
        case .unix(let path):
            var name = sockaddr_un()
            name.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.bytes.prefix(107))
            withUnsafeMutableBytes(of: &name.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            return Self.with(&name, body)
        }
    }

    private static func with<Name, T>(_ name: inout Name, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: &name) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Name>.size)) } }
    }

    /// Reached only from this machine: a loopback address or a Unix socket.
    public var isLocal: Bool {
        switch self {
        case .inet4(let host, _): host.hasPrefix("127.")
        case .inet6(let host, _): host == "::1"
        case .unix: true
        }
    }

    public var description: String {
        switch self {
        case .inet4(let host, let port): "\(host):\(port)"
        case .inet6(let host, let port): "[\(host)]:\(port)"
        case .unix(let path): "\(path)"
        }
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

/// A socket a server listens on (non-blocking). A Unix socket's file is made by it and removed
/// when it closes, if it is still the one it made; a stale one (nothing listening) is replaced,
/// anything else at the path is left alone and refused.
public final class ListeningSocket {
    public let descriptor: Int32
    public let address: SocketAddress
    private var made: (path: Path, id: FileStatus.ID?)?
    private var closed = false

    private init(descriptor: Int32, address: SocketAddress) {
        self.descriptor = descriptor
        self.address = address
    }

    deinit { close() }

    /// Listens on `address`; the reason it cannot, as one clause.
    public static func listen(on address: SocketAddress, backlog: Int32 = 64) -> Result<ListeningSocket, SocketProblem> {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(SocketProblem(SystemError.current.reason)) }
        let listening = ListeningSocket(descriptor: descriptor, address: address)
        var on: Int32 = 1
        switch address {
        case .inet4:
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        case .inet6:
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        case .unix(let path):
            if let stale = Self.refusal(at: path) { return .failure(stale) }
        }
        let bound = address.withName { Glibc.bind(descriptor, $0, $1) }
        if bound == 0, case .unix(let path) = address { listening.made = (path, try? FileSystem.linkStatus(of: path).get().id) }
        guard bound == 0 else {
            let error = SystemError.current
            return .failure(error == SystemError(code: EADDRINUSE) ? "the address is in use (another server listens there)" : SocketProblem(error.reason))
        }
        guard Glibc.listen(descriptor, backlog) == 0 else { return .failure(SocketProblem(SystemError.current.reason)) }
        return .success(listening)
    }

    private static func refusal(at path: Path) -> SocketProblem? {
        guard case .success(let info) = FileSystem.linkStatus(of: path) else { return nil }
        guard info.kind == .socket else { return "something other than a socket is there; name a new path" }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return SocketProblem(SystemError.current.reason) }
        defer { Glibc.close(probe) }
        if SocketAddress.unix(path).withName({ connect(probe, $0, $1) }) == 0 { return "another server listens there" }
        guard SystemError.current == SystemError(code: ECONNREFUSED) else { return SocketProblem(SystemError.current.reason) }
        _ = path.withCString { unlink($0) }
        return nil
    }

    /// The next connection waiting, non-blocking; `nil` when none is.
    public func accept() -> StreamSocket? {
        while true {
            let client = tp_accept(descriptor)
            if client >= 0 { return StreamSocket(descriptor: client, isLocal: address.isLocal) }
            if SystemError.current == .interrupted { continue }
            return nil
        }
    }

    /// Stops listening; a Unix socket's file is removed if it is still the one made.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
        if let made, case .success(let info) = FileSystem.linkStatus(of: made.path), info.id == made.id {
            _ = made.path.withCString { unlink($0) }
        }
    }
}

/// One connection (non-blocking): bytes read as they come, written as the peer takes them.
public final class StreamSocket {
    public let descriptor: Int32
    /// Whether the peer is on this machine (it came by a loopback address or a Unix socket).
    public let isLocal: Bool
    private var closed = false

    init(descriptor: Int32, isLocal: Bool) {
        self.descriptor = descriptor
        self.isLocal = isLocal
    }

    deinit { close() }

    public enum Read: Equatable {
        case bytes([UInt8])
        /// Nothing now.
        case waiting
        /// The peer closed, or the connection failed.
        case ended
    }

    /// What has come, up to `most` bytes.
    public func read(most: Int = 65536) -> Read {
        var buffer = [UInt8](repeating: 0, count: most)
        while true {
            let count = Glibc.read(descriptor, &buffer, most)
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .ended }
            switch SystemError.current {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return .waiting
            default: return .ended
            }
        }
    }

    /// Writes what the peer takes now of `bytes`: how many it took, or `nil` when the connection
    /// failed. Never raises SIGPIPE.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            let count = send(descriptor, base, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return count }
            switch SystemError.current {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return 0
            default: return nil
            }
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }
}
