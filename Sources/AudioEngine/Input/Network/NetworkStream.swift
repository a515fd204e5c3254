import CCurl
import Files
import Glibc
import PlayerCore

/// The internet stream a decoder has open, to be stopped from another thread: a read or a
/// connection that waits on the network (a stalled server, one that trickles a byte a second)
/// never holds up a new song, `q` or SIGTERM. `interrupt` stops the stream open now (and one
/// opening); `shutDown` every one from then on.
final class StreamInterruption: @unchecked Sendable {
    // `@unchecked Sendable`: everything is under the lock.
    private struct State {
        /// Weak: a stream closed and let go of is not kept (its buffer with it).
        weak var stream: NetworkStream?
        var isShutDown = false
    }
    private let state = Locked(State())

    /// Stops the stream open now: its waits end, its reads say it ended.
    func interrupt() {
        state.update { $0.stream?.close() }
    }

    /// Stops it, and every stream opened after it at once.
    func shutDown() {
        state.update {
            $0.isShutDown = true
            $0.stream?.close()
        }
    }

    /// `stream` is the one open now (false: the run is ending, it is closed already).
    func register(_ stream: NetworkStream) -> Bool {
        state.update { state in
            state.stream = stream
            if state.isShutDown { stream.close() }
            return !state.isShutDown
        }
    }
}

/// An internet stream (http, https) as a `ByteSource`: a thread of its own runs the request
/// with libcurl and fills a bounded buffer (`StreamLimits.bufferBytes`) that the decoder reads
/// from, waiting when it is empty. The ICY metadata cut into the body is taken out
/// (`IcyDemuxer`) and said as news. When the connection drops (the server restarted, the network
/// gone, nothing for `stallTimeout`), it is made again by itself, with backoff, up to
/// `reconnectTries` times in a row; the decoder only waits. A stream that cannot be opened at
/// all (refused, 404, no such host, a certificate that does not verify) fails its `open`, with
/// the reason.
///
/// Read sequentially: the decoder reads at the offset it is at; the first
/// `StreamLimits.historyBytes` behind the furthest read stay, so that the format's sniff and the
/// decoder can both read the start. Its length is unknown: the libraries read it as a pipe.
final class NetworkStream: ByteSource, @unchecked Sendable {
    // `@unchecked Sendable`: `shared` is under its lock; the rest is set before the thread starts.
    let url: String
    let limits: StreamLimits
    private let shared: Locked<Shared>
    /// Called on the network thread with each piece of news.
    private let news: @Sendable (StreamNews) -> Void

    struct Shared {
        var storage: [UInt8]
        /// Body bytes received in all (the buffer holds the last of them), and the furthest read.
        var written: Int64 = 0
        var furthestRead: Int64 = 0
        /// The body has ended (a file's end), or the stream failed (the reason) or was given up.
        var ended = false
        var failure: String?
        /// Asked to stop (closed, or a read interrupted): reads return at once.
        var cancelled = false
        /// Whether the first answer said how long its body is (a file's does; a live stream's
        /// never); `nil` before it came.
        var isFinite: Bool?
        /// What the first answer said its body is (`Content-Type`), and where it came from,
        /// redirects followed: a playlist's entries are resolved against it.
        var contentType: String?
        var finalURL: String?
        /// Bytes kept behind the furthest read.
        let history: Int64

        /// Bytes that can be taken now without overwriting what is kept: what was not read yet,
        /// and `history` bytes behind it.
        var room: Int {
            let kept = min(max(furthestRead - history, 0), written)
            return storage.count - Int(written - kept)
        }
    }

    private init(url: String, limits: StreamLimits, news: @escaping @Sendable (StreamNews) -> Void) {
        self.url = url
        self.limits = limits
        self.news = news
        shared = Locked(Shared(storage: [UInt8](repeating: 0, count: limits.bufferBytes + limits.historyBytes),
                               history: Int64(limits.historyBytes)))
    }

    /// Connects to `url` and waits for its first bytes (`prebufferBytes`, or its end), then
    /// reads on in the background. Throws the reason when it cannot be opened.
    static func open(_ url: String, limits: StreamLimits = StreamLimits(), interruption: StreamInterruption? = nil,
                     news: @escaping @Sendable (StreamNews) -> Void = { _ in }) throws(LoadFailure) -> NetworkStream {
        guard CurlLibrary.api != nil else { throw .decoderMissing("libcurl (libcurl4)") }
        let stream = NetworkStream(url: url, limits: limits, news: news)
        if let interruption, !interruption.register(stream) { throw .network("the player is ending") }
        do {
            let thread = try HelperThread.start(name: "tplayer-net") { [stream] in stream.run() }
            pthread_detach(thread)
        } catch {
            throw .notReadable("cannot start the network thread: \(error)")
        }
        let failure = stream.shared.wait(until: { $0.failure != nil || $0.ended || $0.cancelled || $0.written >= Int64(limits.prebufferBytes) },
                                         timeout: limits.connectTimeout + limits.stallTimeout) { state -> String? in
            // Bytes came before it failed (a file cut short): they play, and the failure is
            // met where they end.
            if let failure = state.failure, state.written == 0 { return failure }
            if state.cancelled { return "stopped" }
            return state.written > 0 || state.ended ? nil : "no answer within \(Int(limits.connectTimeout + limits.stallTimeout)) s"
        }
        if let failure {
            stream.close()
            throw .network(failure)
        }
        return stream
    }

    deinit {
        shared.update { $0.cancelled = true }
    }

    /// Stops the network side; reads return at once (0: the end).
    func close() {
        shared.update { $0.cancelled = true }
    }

    var length: Int64? { nil }

    /// Why the stream stopped, when it failed (a file cut short, the tries to reconnect used
    /// up): what the decoder's read error stands for.
    var failure: String? { shared.read(\.failure) }

    /// A live stream: its first answer did not say how long its body is. Its length is unknown
    /// whatever its first frames claim (a radio's encoder writes a Xing header of 0 frames; a
    /// song looped by a server has its own length in its LAME tag).
    var isLive: Bool { shared.read(\.isFinite) != true }

    /// What the first answer said its body is (`Content-Type`), if it said.
    var contentType: String? { shared.read(\.contentType) }

    /// The URL the body came from, redirects followed.
    var finalURL: String { shared.read(\.finalURL) ?? url }

    /// Where the decoder's byte 0 is in the body (the first AAC frame of a stream joined
    /// mid-frame: `AdtsSync`); set before the decoder reads.
    private(set) var start: Int64 = 0

    /// The decoder reads from body byte `offset` on, as if it were the first.
    func start(at offset: Int64) {
        start = offset
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        guard count > 0 else { return 0 }
        let offset = offset + start
        return shared.wait(until: { $0.written > offset || $0.ended || $0.failure != nil || $0.cancelled }, timeout: nil) { state in
            let oldest = state.written - Int64(state.storage.count)
            guard offset >= max(oldest, 0) else {
                errno = ESPIPE  // read past: a stream is read from its start to its end
                return -1
            }
            guard state.written > offset, !state.cancelled else {
                if state.failure != nil {
                    errno = EIO
                    return -1
                }
                return 0
            }
            let taken = Int(min(Int64(count), state.written - offset))
            let capacity = state.storage.count
            let start = Int(offset % Int64(capacity))
            let first = min(taken, capacity - start)
            state.storage.withUnsafeBytes { storage in
                buffer.copyMemory(from: storage.baseAddress! + start, byteCount: first)
                if taken > first { (buffer + first).copyMemory(from: storage.baseAddress!, byteCount: taken - first) }
            }
            state.furthestRead = max(state.furthestRead, offset + Int64(taken))
            return taken
        }
    }

    // MARK: The network thread

    /// Runs requests until the stream ends, fails, is given up or is closed.
    private func run() {
        while !shared.read(\.cancelled) {
            let outcome = transfer()
            switch outcome {
            case .cancelled:
                return
            case .ended:
                shared.update { $0.ended = true }
                return
            case .failed(let reason) where shared.read(\.written) == 0:
                // Never opened: the reason, once; the list goes on.
                shared.update { $0.failure = reason }
                return
            case .dropped(let reason) where shared.read(\.isFinite) == true:
                // A file over http cut short: asked again from its start, it would play twice.
                shared.update { $0.failure = "\(reason) before the end it stated" }
                return
            case .failed(let reason), .dropped(let reason):
                attempt += 1
                guard attempt <= limits.reconnectTries else {
                    shared.update { $0.failure = "gave up after \(limits.reconnectTries) tries to reconnect: \(reason)" }
                    return
                }
                news(.reconnecting(attempt: attempt, of: limits.reconnectTries, reason: reason))
                let delay = StreamLimits.backoff[min(attempt - 1, StreamLimits.backoff.count - 1)]
                if shared.wait(until: { $0.cancelled }, timeout: delay, then: { $0.cancelled }) { return }
            }
        }
    }

    enum Outcome {
        case ended
        case cancelled
        /// The request failed before any of its body came (the reason).
        case failed(String)
        /// The body stopped before its end (the reason).
        case dropped(String)
    }

    /// The station the last answer's headers described (said when it changes), and the tries
    /// to reconnect in a row so far (0 once a body comes). The network thread's alone.
    private var station: IcyMetadata.Station?
    private var attempt = 0

    /// One request, run to its end.
    private func transfer() -> Outcome {
        guard let transfer = CurlTransfer(url: url, limits: limits), let multi = transfer.api.pointee.multi_init() else {
            return .failed("libcurl cannot start a request")
        }
        let api = transfer.api.pointee
        defer { _ = api.multi_cleanup(multi) }
        _ = api.multi_add_handle(multi, transfer.handle)
        defer { _ = api.multi_remove_handle(multi, transfer.handle) }
        var demuxer: IcyDemuxer?
        var received = 0
        var lastByte = Monotonic.now()
        // `transfer` unowned, and the closure dropped at the end: the transfer holds it, and a
        // cycle would keep both, the stream's buffer and libcurl's handle with them.
        defer { transfer.body = { _ in true } }
        transfer.body = { [self, shared, news, unowned transfer] bytes in
            if demuxer == nil {
                // A body: the connection is made (again).
                if self.attempt > 0 { news(.resumed) }
                self.attempt = 0
                let station = IcyMetadata.station(headers: transfer.headers)
                demuxer = IcyDemuxer(interval: station.interval)
                if station != self.station {
                    self.station = station
                    news(.station(station))
                }
                let finite = transfer.contentLength != nil
                let type = transfer.header(named: "content-type"), answeredFrom = transfer.effectiveURL
                shared.update { state in
                    guard state.isFinite == nil else { return }
                    (state.isFinite, state.contentType, state.finalURL) = (finite, type, answeredFrom)
                }
            }
            // Whole pieces or none: a paused piece comes again, and the demuxer must not have
            // taken it apart yet. The audio in it is at most its length.
            guard shared.read({ $0.room >= bytes.count }) else { return false }
            var titles: [String] = []
            demuxer?.feed(bytes, audio: { audio in
                shared.update { state in
                    state.storage.withUnsafeMutableBytes { storage in
                        let capacity = storage.count
                        var at = 0
                        while at < audio.count {
                            let start = Int((state.written + Int64(at)) % Int64(capacity))
                            let piece = min(audio.count - at, capacity - start)
                            (storage.baseAddress! + start).copyMemory(from: audio.baseAddress! + at, byteCount: piece)
                            at += piece
                        }
                    }
                    state.written += Int64(audio.count)
                }
            }, metadata: { block in
                if let title = IcyMetadata.title(block) { titles.append(title) }
            })
            titles.forEach { news(.title($0)) }
            received += bytes.count
            lastByte = Monotonic.now()
            return true
        }
        while true {
            var running: Int32 = 0
            _ = api.multi_perform(multi, &running)
            var left: Int32 = 0
            if let message = api.multi_info_read(multi, &left), message.pointee.msg == CURLMSG_DONE {
                let code = tp_curl_message_result(message)
                guard let reason = transfer.reason(for: code) else {
                    // The body ended where it said: a file's end. A live stream has no end: a
                    // body without a stated length that ends was cut.
                    if transfer.contentLength != nil { return .ended }
                    return .dropped("the server closed the stream")
                }
                return received > 0 ? .dropped(reason) : .failed(reason)
            }
            if shared.read(\.cancelled) { return .cancelled }
            if transfer.isPaused {
                if shared.read({ $0.room >= 64 << 10 }) {
                    transfer.resume()
                    lastByte = Monotonic.now()
                }
            } else if Monotonic.now().seconds(since: lastByte) > limits.stallTimeout {
                let reason = "nothing came for \(Int(limits.stallTimeout)) s"
                return received > 0 ? .dropped(reason) : .failed(reason)
            }
            var ready: Int32 = 0
            _ = api.multi_poll(multi, nil, 0, transfer.isPaused ? 20 : 100, &ready)
        }
    }
}
