import CCurl
import Files
import Glibc
import PlayerCore

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

    private init(url: String, limits: StreamLimits, news: @escaping @Sendable (StreamNews) -> Void) {
        self.url = url
        self.limits = limits
        self.news = news
        shared = Locked(Shared(storage: [UInt8](repeating: 0, count: limits.bufferBytes + limits.historyBytes),
                               history: Int64(limits.historyBytes)))
    }

    /// Connects to `url` and waits for its first bytes (`prebufferBytes`, `prebufferSeconds`, or its end), then
    /// reads on in the background. Throws the reason when it cannot be opened.
    static func open(_ url: String, limits: StreamLimits = StreamLimits(), interruption: StreamInterruption? = nil,
                     news: @escaping @Sendable (StreamNews) -> Void = { _ in }) throws(LoadFailure) -> NetworkStream {
        guard CurlLibrary.api != nil else { throw .decoderMissing("libcurl (libcurl4)") }
        let stream = NetworkStream(url: url, limits: limits, news: news)
        if let interruption {
            stream.interruption = interruption
            guard interruption.register(stream) else { throw .network("the player is ending") }
        }
        do {
            let thread = try HelperThread.start(name: "tplayer-net") { [stream] in stream.run() }
            pthread_detach(thread)
        } catch {
            throw .notReadable("cannot start the network thread: \(error)")
        }
        // The first byte, then `prebufferBytes` or `prebufferSeconds` more, whichever comes
        // first: a stream of few bytes a second (a 32 kbit/s Opus radio, or silence) starts
        // within that, not once 64 KiB have come.
        let settled = { (state: Shared) in state.failure != nil || state.ended || state.cancelled }
        let started = stream.shared.wait(until: { settled($0) || $0.written > 0 },
                                         timeout: limits.connectTimeout + limits.stallTimeout) { $0.written > 0 }
        let failure = stream.shared.wait(until: { settled($0) || $0.written >= Int64(limits.prebufferBytes) },
                                         timeout: started ? limits.prebufferSeconds : 0) { state -> String? in
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
        interruption?.release(self)
    }

    /// What stops it from another thread, which lets go of it once it is closed.
    private var interruption: StreamInterruption?

    /// A file's length when its server takes byte ranges (then the decoder seeks); else `nil`:
    /// the libraries read it as a pipe.
    var length: Int64? { shared.read(\.seekableLength) }
    var kind: ByteSourceKind { .stream(self) }

    /// Why the stream stopped, when it failed (a file cut short, the tries to reconnect used
    /// up): what the decoder's read error stands for.
    var failure: String? { shared.read(\.failure) }

    /// A live stream: its first answer did not say how long its body is. Its length is unknown
    /// whatever its first frames claim (a radio's encoder writes a Xing header of 0 frames; a
    /// song looped by a server has its own length in its LAME tag).
    var isLive: Bool { shared.read(\.isFinite) != true }

    /// The ICY titles before `offset` (the decoder's, from `start`), or with none the decoder's
    /// reads have reached, oldest first (taken).
    func takeReachedTitles(before offset: Int64? = nil) -> [String] {
        let start = start
        return shared.update { state in
            let limit = offset.map { $0 + start } ?? state.furthestRead
            let reached = state.titles.prefix { $0.offset <= limit }
            defer { state.titles.removeFirst(reached.count) }
            return reached.map(\.title)
        }
    }

    /// Its body read whole from its start, as a playlist's is (at most
    /// `ServedPlaylist.maxBytes`); throws why it cannot be.
    func playlist() throws(LoadFailure) -> [UInt8] {
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let read = chunk.withUnsafeMutableBytes { self.read(into: $0.baseAddress!, count: $0.count, at: Int64(body.count)) }
            guard read > 0 else {
                if read < 0 { throw .network(failure ?? "the playlist could not be read whole") }
                return body
            }
            guard body.count + read <= ServedPlaylist.maxBytes else {
                throw .network("a playlist (by its \(contentType.map { "type, \($0)" } ?? "content")) longer than "
                               + "\(ServedPlaylist.maxBytes >> 20) MiB; is it really one?")
            }
            body += chunk[..<read]
        }
    }

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
        while true {
            let past: Bool = shared.update { state in
                guard let length = state.seekableLength else { return false }
                if offset >= length { return true }  // past a file's end: its end, at once
                if offset < state.oldest || offset > state.written + Int64(limits.historyBytes) {
                    // Far from what is buffered (a seek): asked for from there.
                    (state.floor, state.written, state.furthestRead, state.restart, state.ended) = (offset, offset, offset, offset, false)
                    state.titles.removeAll()
                } else {
                    // A little ahead: what comes before it is not wanted (the buffer makes room for it).
                    state.furthestRead = max(state.furthestRead, offset)
                }
                return false
            }
            if past { return 0 }
            if let read = copy(into: buffer, count: count, at: offset) { return read }
        }
    }

    /// Waits for the bytes at `offset` and copies them: how many, 0 at the end, -1 with errno
    /// set; `nil` when a file that seeks wrote past them meanwhile (they are asked for again).
    private func copy(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int? {
        shared.wait(until: { $0.written > offset || $0.ended || $0.failure != nil || $0.cancelled }, timeout: nil) { state -> Int? in
            guard offset >= state.oldest else {
                if state.seekableLength != nil, !state.cancelled { return nil }
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
        var from: Int64 = 0
        while !shared.read(\.cancelled) {
            let outcome = transfer(from: from)
            switch outcome {
            case .cancelled:
                return
            case .restart(let offset):
                from = offset
            case .ended:
                // Unless a read asked for another place meanwhile: then the body is not over.
                shared.update { if $0.restart == nil { $0.ended = true } }
                // A file that seeks may be read again from anywhere (a seek back).
                guard shared.read(\.seekableLength) != nil else { return }
                guard let offset = shared.wait(until: { $0.cancelled || $0.restart != nil }, timeout: nil, then: { $0.restart }) else { return }
                from = offset
            case .failed(let reason) where shared.read(\.isFinite) == nil:
                // Never opened (no answer brought a body): the reason, once; the list goes on.
                shared.update { $0.failure = reason }
                return
            case .dropped(let reason) where shared.read({ $0.isFinite == true && $0.seekableLength == nil }):
                // A file over http cut short, whose server takes no ranges: asked again from its
                // start, it would play twice.
                shared.update { $0.failure = "\(reason) before the end it stated" }
                return
            case .failed(let reason), .dropped(let reason):
                // A file that seeks is asked for again from where it was cut; a live stream
                // from wherever it is now.
                if shared.read(\.seekableLength) != nil { from = shared.read(\.written) }
                attempt += 1
                guard attempt <= limits.reconnectTries else {
                    let tries = limits.reconnectTries
                    shared.update { $0.failure = tries == 0 ? "\(reason) (reconnect = 0: not tried again)" : "gave up after \(tries) tries to reconnect: \(reason)" }
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
        /// A read asked for the body from this offset on.
        case restart(Int64)
    }

    /// The station the last answer's headers described (said when it changes), and the tries
    /// to reconnect in a row so far (0 once a body comes). The network thread's alone.
    private var station: IcyMetadata.Station?
    private var attempt = 0
    /// Answers that brought a body so far.
    private var answers = 0

    /// Whether the body that just ended, with no length stated, is a playlist (by its type, its
    /// first bytes or its name, as `ServedPlaylist.format` tells one), ended by the server's
    /// closing the connection, as HTTP/1.0 ends a body: then it is whole, not a live stream
    /// cut short to be asked for again. Only the first answer's, and only as long as a playlist
    /// may be.
    private func isWholePlaylist() -> Bool {
        guard answers == 1 else { return false }
        let (head, type, answeredFrom) = shared.read { state -> ([UInt8]?, String?, String?) in
            guard state.floor == 0, state.written <= Int64(ServedPlaylist.maxBytes), state.written <= Int64(state.storage.count) else {
                return (nil, nil, nil)
            }
            return (Array(state.storage.prefix(Int(min(state.written, Int64(FileContent.headLength))))), state.contentType, state.finalURL)
        }
        guard let head, !head.isEmpty else { return false }
        return ServedPlaylist.format(contentType: type, head: head, url: answeredFrom ?? url) != nil
    }

    /// One request for the body from `from` on, run to its end (or until a read asks for
    /// another place).
    private func transfer(from: Int64) -> Outcome {
        shared.update { if $0.restart == from { $0.restart = nil } }  // a newer one asked meanwhile stays
        guard let transfer = CurlTransfer(url: url, limits: limits, from: from), let multi = transfer.api.pointee.multi_init() else {
            return .failed("libcurl cannot start a request")
        }
        let api = transfer.api.pointee
        defer { _ = api.multi_cleanup(multi) }
        _ = api.multi_add_handle(multi, transfer.handle)
        defer { _ = api.multi_remove_handle(multi, transfer.handle) }
        var demuxer: IcyDemuxer?
        var received = 0
        var skip: Int64 = 0
        var lastByte = Monotonic.now()
        // `transfer` unowned, and the closure dropped at the end: the transfer holds it, and a
        // cycle would keep both, the stream's buffer and libcurl's handle with them.
        defer { transfer.body = { _ in true } }
        transfer.body = { [self, shared, news, unowned transfer] bytes in
            if demuxer == nil {
                // A body: the connection is made (again).
                self.answers += 1
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
                let ranges = transfer.header(named: "accept-ranges")?.lowercased().contains("bytes") == true
                // A server that ignored the range sends the body from its start.
                skip = from > 0 && transfer.status != 206 ? from : 0
                shared.update { state in
                    guard state.isFinite == nil else { return }
                    (state.isFinite, state.contentType, state.finalURL) = (finite, type, answeredFrom)
                    if ranges, let length = transfer.contentLength { state.seekableLength = length }
                }
            }
            // Whole pieces or none: a paused piece comes again, and the demuxer must not have
            // taken it apart yet. The audio in it is at most its length.
            guard shared.read({ $0.room >= bytes.count }) else { return false }
            demuxer?.feed(bytes, audio: { whole in
                var audio = whole
                if skip > 0 {
                    let skipped = Int(min(skip, Int64(audio.count)))
                    skip -= Int64(skipped)
                    audio = UnsafeRawBufferPointer(rebasing: audio[skipped...])
                }
                shared.update { state in
                    guard state.restart == nil else { return }  // a seek asked for another place
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
                guard let title = IcyMetadata.title(block) else { return }
                shared.update { state in
                    // Bounded: a server sending a title every block to a decoder that waits.
                    if state.titles.count >= StreamLimits.titlesHeld { state.titles.removeFirst() }
                    state.titles.append((state.written, title))
                }
            })
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
                    // body without a stated length that ends was cut, unless it is a playlist's.
                    if transfer.contentLength != nil || isWholePlaylist() { return .ended }
                    return .dropped("the server closed the stream")
                }
                return received > 0 ? .dropped(reason) : .failed(reason)
            }
            if shared.read(\.cancelled) { return .cancelled }
            if let offset = shared.read(\.restart) { return .restart(offset) }
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
