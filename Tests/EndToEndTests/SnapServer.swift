import Foundation
import Testing
import Glibc

/// A real snapserver (Snapcast 0.26) on free ports of 127.0.0.1, reading a pipe source of its
/// own (or a `tcp` one), with a control script when asked; its rooms are real snapclients
/// writing what they play to files (`Room`). It can be killed and started again on the same
/// ports (`restart`). Stopped when released.
final class SnapServer {
    let folder: URL
    let streamPort: UInt16
    let controlPort: UInt16
    let httpPort: UInt16
    let pipe: String
    let source: String
    private let environment: [String: String]
    private var process: Process?

    /// `tcpSourcePort`: snapserver listens there for its audio instead of reading the pipe.
    /// `controlScript`: the stream plugin snapserver runs for the source, with `environment`.
    init(tcpSourcePort: UInt16? = nil, controlScript: String? = nil, environment: [String: String] = [:]) throws {
        folder = try Harness.temporaryFolder()
        streamPort = try MpdWire.freePort()
        controlPort = try MpdWire.freePort()
        httpPort = try MpdWire.freePort()
        pipe = folder.appendingPathComponent("snapfifo").path
        var uri = tcpSourcePort.map { "tcp://127.0.0.1:\($0)?name=tplayer&mode=server" } ?? "pipe://\(pipe)?name=tplayer"
        if let controlScript { uri += "&controlscript=\(controlScript)" }
        source = uri
        self.environment = environment
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try """
            [server]
            datadir = \(folder.path)/data
            [http]
            enabled = \(controlScript == nil ? "false" : "true")
            port = \(httpPort)
            bind_to_address = 127.0.0.1
            [tcp]
            port = \(controlPort)
            bind_to_address = 127.0.0.1
            [stream]
            port = \(streamPort)
            bind_to_address = 127.0.0.1
            source = \(uri)
            [logging]
            sink = file:\(folder.path)/server.log
            """.write(to: folder.appendingPathComponent("snapserver.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { kill() }

    var control: String { "127.0.0.1:\(controlPort)" }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/snapserver")
        process.arguments = ["-c", folder.appendingPathComponent("snapserver.conf").path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        for _ in 0..<100 {
            if (try? status()) != nil { return }
            usleep(50_000)
        }
        throw MpdWire.Failure("snapserver did not answer on \(control)")
    }

    /// Killed at once (SIGKILL), as a crash or a power cut ends it.
    func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
        self.process = nil
    }

    func restart() throws {
        kill()
        try start()
    }

    /// `method` with `params` over the control port; the reply's `result`.
    func call(_ method: String, _ params: [String: Any]? = nil) throws -> Any {
        let socket = try MpdWire.connect(controlPort, timeout: 3)
        defer { close(socket) }
        var request: [String: Any] = ["id": 7, "jsonrpc": "2.0", "method": method]
        if let params { request["params"] = params }
        let bytes = Array(try JSONSerialization.data(withJSONObject: request)) + Array("\r\n".utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var pending: [UInt8] = []
        while true {
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                // Notifications come on the same connection: the reply is the one with our id.
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], object["id"] as? Int == 7 {
                    if let error = object["error"] { throw MpdWire.Failure("snapserver: \(error)") }
                    return object["result"] ?? NSNull()
                }
            }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw MpdWire.Failure("snapserver's control port did not answer \(method)") }
            pending += buffer[..<count]
        }
    }

    /// The source's entry in `Server.GetStatus`.
    func stream() throws -> [String: Any] {
        let status = try self.status()
        let server = status["server"] as? [String: Any]
        let streams = server?["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first(where: { $0["id"] as? String == "tplayer" }) else { throw MpdWire.Failure("no stream tplayer") }
        return stream
    }

    func status() throws -> [String: Any] {
        guard let status = try call("Server.GetStatus") as? [String: Any] else { throw MpdWire.Failure("no status") }
        return status
    }

    /// Waits up to `seconds` for the source's state (`playing`, `idle`) to be `wanted`: the
    /// seconds it took, or `nil`.
    func await(state wanted: String, within seconds: Double) -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            if let state = try? stream()["status"] as? String, state == wanted { return Date().timeIntervalSince(started) }
            usleep(50_000)
        }
        return nil
    }

    /// A room: a snapclient playing the server's stream into a file (raw PCM in the stream's
    /// format), as a room's speakers would play it. A room is another machine: its snapclient
    /// runs above the busy tests' spinning processes (nice -10), which stand for the load of
    /// tplayer's machine, not the room's (one room of two, starved by them, once lost 5 ms of
    /// what snapserver gave both alike).
    final class Room {
        let recording: String
        private let process = Process()

        init(_ server: SnapServer, name: String) throws {
            recording = server.folder.appendingPathComponent("\(name).raw").path
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            process.arguments = ["-n", "-10", "/usr/bin/snapclient", "-h", "127.0.0.1", "-p", "\(server.streamPort)", "--hostID", name,
                                 "--player", "file:filename=\(recording)", "--logsink", "null"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        deinit { stop() }

        func stop() {
            guard process.isRunning else { return }
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
    }
}

/// What a room played (16-bit stereo at 48 kHz, snapserver's default format), read as a
/// listener hears it: where the sound starts and ends, its pitch, and any silence inside it.
/// (snapclient nudges samples to keep rooms in sync, so lengths, pitch and gaps are compared,
/// not bytes.)
struct RoomSound {
    let left: [Int16]
    static let rate = 48000.0
    /// Below this, a sample is silence.
    static let floor: Int16 = 50

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        left = stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
    }

    /// The first and last sounding sample.
    var span: ClosedRange<Int>? {
        guard let first = left.firstIndex(where: { abs(Int($0)) > Int(Self.floor) }),
              let last = left.lastIndex(where: { abs(Int($0)) > Int(Self.floor) }) else { return nil }
        return first...last
    }

    var seconds: Double { span.map { Double($0.count) / Self.rate } ?? 0 }

    /// Silences of `least` seconds or more inside `range` (defaults to the span): their starts
    /// and lengths in seconds.
    func gaps(least: Double = 0.002, in range: ClosedRange<Int>? = nil) -> [(at: Double, length: Double)] {
        guard let range = range ?? span else { return [] }
        var found: [(Double, Double)] = []
        var run = 0
        for index in range {
            if abs(Int(left[index])) <= Int(Self.floor) {
                run += 1
            } else {
                if Double(run) / Self.rate >= least { found.append((Double(index - run) / Self.rate, Double(run) / Self.rate)) }
                run = 0
            }
        }
        return found
    }

    /// Where a sine of `frequency` over `range` is broken (a sample not where the samples before
    /// it put it: one left out, one put in, a jump), in seconds from the span's start.
    func breaks(frequency: Double, in range: ClosedRange<Int>) -> [Double] {
        guard let span, range.count > 2 else { return [] }
        let twice = 2 * cos(2 * Double.pi * frequency / Self.rate)
        var found: [Double] = []
        for index in (range.lowerBound + 1)..<range.upperBound {
            let expected = twice * Double(left[index]) - Double(left[index - 1])
            if abs(Double(left[index + 1]) - expected) > 300 { found.append(Double(index - span.lowerBound) / Self.rate) }
        }
        return found
    }

    /// The pitch over `range` (defaults to the span), from its zero crossings.
    func pitch(in range: ClosedRange<Int>? = nil) -> Double {
        guard let range = range ?? span, range.count > 1 else { return 0 }
        var crossings = 0
        for index in range.dropFirst() where (left[index - 1] < 0) != (left[index] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(range.count) / Self.rate)
    }
}
