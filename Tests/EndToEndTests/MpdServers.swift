import Foundation
import Testing
import Glibc

/// A private `mpd` on a free port of 127.0.0.1, over a music folder (an empty one unless
/// named), playing to no device; stopped when the test ends.
final class ReferenceServer {
    let process = Process()
    let port: UInt16

    init(music: URL? = nil) throws {
        let folder = try Harness.temporaryFolder()
        for name in ["music", "playlists"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        port = try MpdWire.freePort()
        let config = folder.appendingPathComponent("mpd.conf")
        try """
            music_directory "\((music ?? folder.appendingPathComponent("music")).path)"
            playlist_directory "\(folder.path)/playlists"
            db_file "\(folder.path)/database"
            log_file "\(folder.path)/log"
            sticker_file "\(folder.path)/sticker.sql"
            bind_to_address "127.0.0.1"
            port "\(port)"
            audio_output {
                type "null"
                name "null"
            }
            """.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpd")
        process.arguments = ["--no-daemon", "--stderr", config.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try MpdWire.awaitGreeting(port: port, "mpd")
        guard music != nil else { return }
        // The database read from the folder, and waited for.
        let client = try MpdWire.Client(port: port)
        _ = try client.send("update")
        for _ in 0..<200 {
            if !(try client.send("status")).contains(where: { $0.hasPrefix("updating_db:") }) { return }
            usleep(50_000)
        }
        throw MpdWire.Failure("mpd did not finish reading \(music!.path)")
    }

    deinit {
        process.terminate()
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
    }

    /// Connects, sends `lines` and reads until the last is answered; see `MpdWire.exchange`.
    func exchange(_ lines: [[UInt8]]) throws -> String {
        try MpdWire.exchange(port: port, lines)
    }
}

/// tplayer serving MPD's protocol on a free port of 127.0.0.1 (`--mpd=127.0.0.1:PORT -o null`),
/// with no terminal: a service, in the environment given (its library, settings and state);
/// stopped (SIGTERM) when the test ends, unless it ended first.
final class ServedPlayer {
    let process = Process()
    let port: UInt16
    let errors: URL

    init(environment: [String: String], arguments: [String] = [], output: [String] = ["-o", "null"], port: UInt16? = nil) throws {
        self.port = try port ?? MpdWire.freePort()
        errors = try Harness.temporaryFolder().appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["--mpd=127.0.0.1:\(self.port)"] + output + ["--no-mpris"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try MpdWire.awaitGreeting(port: self.port, "tplayer (\(stderr))")
    }

    var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
    }
}

/// Talking MPD's protocol to a server on 127.0.0.1, as a client does.
enum MpdWire {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Failure("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    static func awaitGreeting(port: UInt16, _ name: @autoclosure () -> String) throws {
        for _ in 0..<200 {
            if let greeting = try? exchange(port: port, []), greeting.hasPrefix("OK MPD 0.23") { return }
            usleep(50_000)
        }
        throw Failure("\(name()) did not answer on 127.0.0.1:\(port)")
    }

    /// A socket connected to `port` of 127.0.0.1, reads timing out after `timeout` seconds.
    static func connect(_ port: UInt16, timeout: Int = 5) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(socket)
            throw Failure("cannot connect to 127.0.0.1:\(port)")
        }
        return socket
    }

    /// Connects, sends `lines` (each with a newline) and reads until the server answers the last
    /// of them (`OK` or `ACK` at a line's start) or closes; returns what it said after its
    /// greeting (or the greeting, for no lines).
    static func exchange(port: UInt16, _ lines: [[UInt8]]) throws -> String {
        let socket = try connect(port)
        defer { close(socket) }
        var received: [UInt8] = []
        func readMore() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer[..<count]
            return true
        }
        while !received.contains(0x0A) { if !readMore() { throw Failure("no greeting") } }
        let greeting = String(decoding: received, as: UTF8.self)
        guard !lines.isEmpty else { return greeting }
        received.removeFirst(received.firstIndex(of: 0x0A)! + 1)
        var request: [UInt8] = []
        for line in lines { request += line + [0x0A] }
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        while true {
            let text = String(decoding: received, as: UTF8.self)
            let answered = text.hasSuffix("\n") && (text.hasPrefix("OK\n") || text.contains("\nOK\n") || text.hasPrefix("ACK ")
                                                     || text.contains("\nACK "))
            if answered { return text }
            if !readMore() { return text }  // closed (or silent for 5 s)
        }
    }

    /// One connection kept open: each command sent and its reply read whole, line by line.
    final class Client {
        let socket: Int32
        private var pending: [UInt8] = []
        let greeting: String

        init(port: UInt16, timeout: Int = 5) throws {
            socket = try MpdWire.connect(port, timeout: timeout)
            greeting = try Self.line(socket, &pending) ?? ""
        }

        deinit { close(socket) }

        /// Sends `text` and a newline (unless told not to), unread.
        func write(_ text: String, newline: Bool = true) {
            let bytes = Array((text + (newline ? "\n" : "")).utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Sends `command` and returns its reply's lines, up to and with `OK` or the `ACK`
        /// (`<closed>` last when the server closed first).
        func send(_ command: String) throws -> [String] {
            write(command)
            return try reply()
        }

        /// The next reply's lines.
        func reply() throws -> [String] {
            var lines: [String] = []
            var at = 0
            defer { pending.removeSubrange(..<at) }
            while true {
                guard let newline = pending[at...].firstIndex(of: 0x0A) else {
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count == 0 { return lines + ["<closed>"] }
                    guard count > 0 else { throw Failure("no reply within the time limit (errno \(errno))") }
                    pending += buffer[..<count]
                    continue
                }
                let line = String(decoding: pending[at..<newline], as: UTF8.self)
                at = newline + 1
                lines.append(line)
                if line == "OK" || line.hasPrefix("ACK ") { return lines }
            }
        }

        private static func line(_ socket: Int32, _ pending: inout [UInt8]) throws -> String? {
            while true {
                if let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(..<(newline + 1))
                    return line
                }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return nil }
                guard count > 0 else { throw Failure("no reply within the time limit (errno \(errno))") }
                pending += buffer[..<count]
            }
        }
    }
}
