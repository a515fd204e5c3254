import Files
import Foundation
import PlayerCore

/// What tplayer asks snapserver's JSON-RPC control port (`snapcast-control`): the format of the
/// source it writes to (`Server.GetStatus`, the stream whose URI names the same pipe or port:
/// its `sampleformat`). Its answer is untrusted: read with a limit on time and size, parsed,
/// and checked as a setting is (`SnapcastFormat.parse`).
enum SnapcastControl {
    /// The longest the whole question takes, and the most of an answer read.
    static let timeLimit: Int64 = 1000
    static let sizeLimit = 4 << 20

    /// The format snapserver reads `destination` in, or why it cannot be known (one clause).
    static func format(of destination: SnapcastOutput.Destination, askingAt control: String) -> Result<SnapcastFormat, SocketProblem> {
        let address: SocketAddress
        switch SocketAddress.parse(control, defaultPort: 1705) {
        case .success(let parsed): address = parsed
        case .failure(let problem): return .failure("snapcast-control \(control): \(problem.reason)")
        }
        let reply: [UInt8]
        switch ask(address, #"{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}"# + "\r\n") {
        case .success(let bytes): reply = bytes
        case .failure(let why): return .failure("snapserver's control port \(address): \(why.reason)")
        }
        guard let status = try? JSONDecoder().decode(StatusReply.self, from: Data(reply)), let streams = status.result?.server.streams else {
            return .failure("snapserver's control port \(address) did not answer Server.GetStatus")
        }
        guard let stream = streams.first(where: { $0.reads(destination) }) else {
            return .failure("snapserver at \(address) has no source reading \(destination)")
        }
        guard let text = stream.uri.query?["sampleformat"], let format = SnapcastFormat.parse(text) else {
            return .failure("snapserver's source \(UntrustedText.shown(stream.id)) has no sample format tplayer can write")
        }
        return .success(format)
    }

    /// Sends `request` and reads one line of reply, within the limits.
    private static func ask(_ address: SocketAddress, _ request: String) -> Result<[UInt8], SocketProblem> {
        let deadline = Monotonic.milliseconds() + timeLimit
        let connection: StreamSocket
        switch StreamSocket.connect(to: address, within: Int32(timeLimit)) {
        case .success(let made): connection = made
        case .failure(let failure): return .failure(SocketProblem(failure.description))
        }
        defer { connection.close() }
        var sent = Array(request.utf8)[...]
        while !sent.isEmpty {
            guard let taken = sent.withUnsafeBytes({ connection.write($0) }) else { return .failure("the connection failed") }
            sent = sent.dropFirst(taken)
            if taken == 0, !Waiting.writable(connection.descriptor, within: left(deadline)) { return .failure("no answer") }
        }
        // snapserver may say something else on the connection first (a notification): the
        // reply is the line with the question's id.
        var reply: [UInt8] = []
        var read = 0
        while true {
            while let newline = reply.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(reply[..<newline])
                reply.removeSubrange(...newline)
                if (try? JSONDecoder().decode(Envelope.self, from: Data(line)))?.id == 1 { return .success(line) }
            }
            guard read < sizeLimit else { return .failure("an answer past \(sizeLimit >> 20) MiB") }
            switch connection.read() {
            case .bytes(let bytes):
                reply += bytes
                read += bytes.count
            case .ended: return reply.isEmpty ? .failure("it closed the connection") : .success(reply)
            case .waiting:
                guard Waiting.readable(connection.descriptor, within: left(deadline)) else { return .failure("no answer within a second") }
            }
        }
    }

    /// A reply's id (a notification has none).
    private struct Envelope: Decodable {
        let id: Int?
    }

    private static func left(_ deadline: Int64) -> Int32 {
        Int32(clamping: max(deadline - Monotonic.milliseconds(), 0))
    }

    /// The parts of `Server.GetStatus`'s reply read here.
    private struct StatusReply: Decodable {
        let result: Result?
        struct Result: Decodable { let server: Server }
        struct Server: Decodable { let streams: [Stream] }
        struct Stream: Decodable {
            let id: String
            let uri: URI

            /// Whether this source reads what tplayer writes to `destination`.
            func reads(_ destination: SnapcastOutput.Destination) -> Bool {
                switch destination {
                case .pipe(let path):
                    guard uri.scheme == "pipe", let own = uri.path else { return false }
                    return own == "\(path)" || FileSystem.canonicalPath(Path(own)).map { $0 == FileSystem.canonicalPath(path) } ?? false
                case .tcp(let address):
                    // snapserver listens where its URI says: that address, or every one (0.0.0.0).
                    guard uri.scheme == "tcp", let host = uri.host, case .inet4(_, let port) = address else { return false }
                    return host == "\(address)" || host == "0.0.0.0:\(port)" || host == "0.0.0.0" && port == 4953
                }
            }
        }
        struct URI: Decodable {
            let scheme: String
            let host: String?
            let path: String?
            let query: [String: String]?
        }
    }
}
