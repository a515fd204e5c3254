import Files
import PlayerCore

/// A Snapcast source (`-o snapcast`): the stream is written to snapserver's pipe (`-a PATH`,
/// `/tmp/snapfifo` by default) or to its `tcp` source (`-a tcp://HOST:PORT`), and snapserver
/// plays it in every room, in sync. Snapcast is the multi-room engine; this is only its source,
/// as MPD's fifo output is.
///
/// The stream has one format, snapserver's (read from its control port, else `snapcast-format`):
/// every song is converted to it. A pipe has no clock: the output is held to real time, a
/// little ahead (`lead`) so that snapserver, which reads on its own timer, never finds it empty
/// when the machine is busy. A server that is not there, or goes away, is said once and the
/// song plays on unheard until it is back (`SnapcastSink`), as with MPD's fifo output.
final class SnapcastOutput: AudioOutput {
    /// Where snapserver reads.
    enum Destination: Equatable, CustomStringConvertible {
        case pipe(Path)
        case tcp(SocketAddress)

        /// `-a`'s text: `tcp://HOST:PORT` or a pipe's path; the reason it is neither.
        static func parse(_ text: String?) -> Result<Destination, OutputError> {
            guard let text else { return .success(.pipe(Path(SnapcastSetup.defaultPipe))) }
            guard text.hasPrefix("tcp://") else {
                guard !text.isEmpty, !text.contains("\0") else {
                    return .failure(OutputError(message: "-a: name snapserver's pipe (e.g. /tmp/snapfifo) or tcp://HOST:PORT"))
                }
                return .success(.pipe(Path(text)))
            }
            switch SocketAddress.parse(String(text.dropFirst(6)), defaultPort: 4953) {
            case .success(.unix): return .failure(OutputError(message: "-a \(text): give tcp://HOST:PORT, e.g. tcp://127.0.0.1:4953"))
            case .success(let address): return .success(.tcp(address))
            case .failure(let problem): return .failure(OutputError(message: "-a \(text): \(problem.reason)"))
            }
        }

        var description: String {
            switch self {
            case .pipe(let path): "\(path)"
            case .tcp(let address): "tcp://\(address)"
            }
        }
    }

    let destination: Destination
    private let setup: SnapcastSetup
    /// The stream's format, once asked for (24 bits are written from 32-bit samples, narrowed
    /// as they are written).
    private var stream: SnapcastFormat?
    private let notices = SnapcastNotices()

    /// How far ahead of real time it writes: what snapserver may find in the pipe at worst.
    static let lead = 0.2

    /// The pipe, opened when the output is made (`early`), and when.
    private var early: OutboundPipe?
    private let madeAt = MonotonicClock().now
    /// How long after its source is opened snapserver reads it steadily: it looks for a pipe
    /// every 100 ms, takes what it reads then for a new stream, and says it plays only half a
    /// second on. What is written before then its rooms stumble on (tens of milliseconds of the
    /// first chunks dropped or played twice, measured with two snapclients); written after,
    /// they hear it whole, as they hear MPD, which holds its fifo open from its start. So the
    /// first write waits for it (once: the pipe is then held to the end). A `tcp` source's
    /// stream starts with the first bytes of a connection instead: each connection begins with
    /// this much silence (`SnapcastSink`).
    static let settling = 0.5

    init(destination: Destination, setup: SnapcastSetup) {
        self.destination = destination
        self.setup = setup
        // Opened at once, and held to the end, as MPD holds its fifo: snapserver finds it
        // before the first song is written, and never sees it end between songs.
        if case .pipe(let path) = destination, case .success(let pipe) = OutboundPipe.open(path) { early = pipe }
    }

    var name: String { "snapcast (\(destination))" }
    var isFile: Bool { false }
    var pacing: Pacing { .realTime }
    var lead: Double { Self.lead }
    /// While the pipe opened early waits for its first write: when snapserver reads it steadily.
    var startsAt: Double? { early != nil ? madeAt + Self.settling : nil }
    var highestRate: Int { fixedFormat?.rate ?? setup.format.rate }

    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}

    /// snapserver's format for this source, asked of its control port (on the playback thread,
    /// when the first song opens), else the one set.
    var fixedFormat: PCMFormat? {
        Self.pcm(stream ?? ask())
    }

    /// When its control port did not answer: asked again when a song opens, once
    /// `askAgain` seconds have passed (snapserver started after tplayer).
    private var failedAt: Double?
    static let askAgain = 5.0

    /// Asks the control port again if it did not answer last time (a song opens: a new format,
    /// if it says one, is the next song's).
    func refreshFormat() {
        guard let failedAt, MonotonicClock().now - failedAt >= Self.askAgain else { return }
        _ = ask()
    }

    /// Asks the control port for the stream's format, keeping the one in use (or the one set)
    /// when it does not answer.
    private func ask() -> SnapcastFormat {
        let format: SnapcastFormat
        switch setup.control.map({ SnapcastControl.format(of: destination, askingAt: $0) }) {
        case .success(let told)?:
            if failedAt != nil, let used = stream, told != used {
                notices.say("snapcast: snapserver's stream is \(told): writing that from the next song")
            }
            format = told
            failedAt = nil
        case .failure(let why)?:
            format = stream ?? setup.format
            if failedAt == nil { notices.say("snapcast: \(why.reason); writing snapcast-format \(setup.format)") }
            failedAt = MonotonicClock().now
        case nil:
            format = setup.format
        }
        stream = format
        return format
    }

    func takeNotice() -> String? {
        notices.take()
    }

    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding {
        fixedFormat?.encoding ?? encoding
    }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        let bits = stream?.bits ?? format.encoding.bytes * 8
        let place = "\(destination)"
        switch destination {
        case .pipe(let path):
            let opened = early.map { Result<OutboundPipe, OutboundPipe.Failure>.success($0) } ?? OutboundPipe.open(path)
            let since = early == nil ? MonotonicClock().now : madeAt
            early = nil
            switch opened {
            case .success(let pipe):
                pipe.widen()
                return SnapcastSink(format: format, bits: bits, conduit: .pipe(pipe), connect: { nil }, place: place,
                                    notices: notices, bufferSeconds: setup.bufferSeconds,
                                    firstWrite: since + Self.settling)
            case .failure(let failure):
                throw OutputFailure(message: "\(path): \(failure)")
            }
        case .tcp(let address):
            // What the system holds unsent is kept to about twice what is written ahead.
            let sendBuffer = Int((Self.lead + Self.settling) * 2 * Double(format.rate * format.bytesPerFrame))
            let connect = { () -> SnapcastSink.Conduit? in
                guard case .success(let socket) = StreamSocket.connect(to: address, within: 200) else { return nil }
                socket.limitSendBuffer(toBytes: sendBuffer)
                return .socket(socket)
            }
            return SnapcastSink(format: format, bits: bits, conduit: connect(), connect: connect, place: place,
                                notices: notices, bufferSeconds: setup.bufferSeconds, firstWrite: 0)
        }
    }

    /// The samples tplayer writes for a Snapcast format: 16 or 32 bits as they are; 24 bits
    /// as 32 (snapserver holds them in 4 bytes), narrowed as they are written.
    private static func pcm(_ format: SnapcastFormat) -> PCMFormat {
        PCMFormat(rate: format.rate, channels: format.channels, encoding: format.bits == 16 ? .s16 : .s32)
    }
}
