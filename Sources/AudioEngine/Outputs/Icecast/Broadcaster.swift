import Files
import Glibc
import PlayerCore

/// A broadcast's own thread: it encodes what the playback loop hands it (`IcecastSink`) and
/// sends it to Icecast through libshout, so that nothing the server does (a slow connect, a
/// name to resolve, a title to send, a server that stops reading) ever holds the playback
/// thread or the keys.
///
/// The stream never stops while the output is open: when nothing comes (a pause, a stop, the
/// space between songs) it is filled with silence in real time, as MPD's shout output sends
/// while paused, so that Icecast keeps the mount and its listeners (it drops a source silent
/// for its `source-timeout`, 10 s). A server that is not there, refuses the source, goes away
/// or stops reading is said once, asked again every second (every 10 s when it refused), and
/// the songs play on meanwhile, unheard; once back, the stream starts again from an Ogg
/// link's headers, so that every listener can decode it.
final class Broadcaster: @unchecked Sendable {
    enum Item {
        case samples([Int16])
        case title(BroadcastTitle)
    }

    private struct Shared {
        var items: [Item] = []
        var frames = 0
        var closing = false
        var finished = false
        var notices: [String] = []
    }

    let mount: IcecastMount
    let encoding: IcecastEncoding
    let channels: Int
    private let shared = Locked(Shared())

    /// What may wait for the thread, in seconds: beyond it the newest is dropped (a thread
    /// held up by a title request to a server that does not answer).
    static let backlog = 5.0
    /// Nothing came for this long: silence is sent.
    static let quiet = 0.1
    /// What libshout may hold unsent before the server is taken to have stopped reading.
    static let stalled = 5.0
    /// A connection not made (the server's answer to the source not come) within this is let go.
    static let answerWithin = 5.0

    init(mount: IcecastMount, encoding: IcecastEncoding, channels: Int) throws(OutputFailure) {
        self.mount = mount
        self.encoding = encoding
        self.channels = channels
        do {
            _ = try HelperThread.start(name: "tplayer-icecast") { [self] in run() }
        } catch {
            throw OutputFailure(message: "icecast: no thread to broadcast on (\(error))")
        }
    }

    /// Hands samples (interleaved, 16 bits) to the thread.
    func add(_ samples: [Int16]) {
        let frames = samples.count / channels
        let limit = Int(Self.backlog * Double(encoding.codec.rate))
        shared.update { state in
            guard state.frames + frames <= limit else { return }
            state.items.append(.samples(samples))
            state.frames += frames
        }
    }

    /// The samples added from now on are `title`'s.
    func announce(_ title: BroadcastTitle) {
        shared.update { $0.items.append(.title(title)) }
    }

    /// What is to be said, once.
    func takeNotice() -> String? {
        shared.update { $0.notices.isEmpty ? nil : $0.notices.removeFirst() }
    }

    /// Ends the broadcast: what was added is sent (an Ogg link's end too), waiting `seconds`
    /// at most for the thread.
    func close(within seconds: Double) {
        shared.update { $0.closing = true }
        shared.wait(until: \.finished, timeout: seconds) { _ in }
    }

    private func say(_ notice: String) {
        shared.update { state in if state.notices.count < 8 { state.notices.append(notice) } }
    }

    // MARK: The thread

    private var connection: ShoutConnection?
    private var connected = false
    private var encoder: BroadcastEncoder?
    private var title = BroadcastTitle()
    private var nextAttempt = 0.0
    /// What was said of the server since the broadcast was last heard (a lost connection, then
    /// no server while it restarts, is one line; a refusal is said too), and whether the
    /// broadcast has ever been heard (its return is said).
    private var lastFailure: ShoutConnection.Failure?
    private var everConnected = false
    /// When what has been sent will have played: silence fills in when it falls behind.
    private var sentUntil = 0.0
    private var connectingSince = 0.0

    private func run() {
        let clock = MonotonicClock()
        while true {
            let (items, closing) = shared.wait(until: { !$0.items.isEmpty || $0.closing }, timeout: 0.05) { state in
                defer { state.items.removeAll(); state.frames = 0 }
                return (state.items, state.closing)
            }
            let now = clock.now
            keepConnected(at: now)
            for item in items { take(item) }
            if closing { return finish(clock) }
            if connected, sentUntil < now - Self.quiet {
                let frames = min(Int((now + Self.quiet / 2 - sentUntil) * Double(encoding.codec.rate)), encoding.codec.rate)
                if frames > 0 { encode(nil, frames: frames) }
                sentUntil = max(sentUntil, now)
            }
            send(at: now)
        }
    }

    private func keepConnected(at now: Double) {
        if connection == nil, now >= nextAttempt {
            do {
                connection = try ShoutConnection(to: mount, codec: encoding.codec)
                connectingSince = now
            } catch {
                fail(error, at: now)
            }
        }
        guard let connection, !connected else { return }
        do {
            guard case .connected = try connection.poll() else {
                if now - connectingSince > Self.answerWithin {
                    fail(ShoutConnection.Failure(description: "the server did not answer within \(Int(Self.answerWithin)) s"), at: now)
                }
                return
            }
        } catch {
            return fail(error, at: now)
        }
        do {
            encoder = try BroadcastEncoder(encoding: encoding, channels: channels, title: title)
        } catch {
            say("icecast: \(error)")
            self.connection = nil
            nextAttempt = now + 10
            return
        }
        connected = true
        sentUntil = now
        say(everConnected ? "icecast: broadcasting again to \(mount)" : "icecast: broadcasting to \(mount) (\(encoding))")
        everConnected = true
        lastFailure = nil
        if encoding.codec == .mp3 { sendTitle() }
    }

    private func fail(_ failure: ShoutConnection.Failure, at now: Double) {
        if lastFailure == nil || failure.refused && lastFailure?.refused == false {
            let playing = everConnected && connected ? "; the songs play on unheard until it is back" : ""
            say("icecast \(mount): \(failure)\(playing)")
            lastFailure = failure
        }
        connection = nil
        connected = false
        encoder = nil
        nextAttempt = now + (failure.refused ? 10 : 1)
    }

    private func take(_ item: Item) {
        switch item {
        case .title(let next):
            title = next
            guard connected else { return }
            if encoding.codec == .mp3 {
                sendEncoded()  // the title follows the last song's audio
                sendTitle()
            } else {
                do { try encoder?.startLink(next) } catch { encoderFailed(error) }
            }
        case .samples(let samples):
            guard connected else { return }
            let frames = samples.count / channels
            samples.withUnsafeBufferPointer { encode($0.baseAddress, frames: frames) }
            sentUntil += Double(frames) / Double(encoding.codec.rate)
        }
    }

    /// An encoder that fails is made again with the connection (a stream that stopped would
    /// be dropped by Icecast after its source-timeout).
    private func encoderFailed(_ error: BroadcastEncoder.Failure) {
        fail(ShoutConnection.Failure(description: "the encoder failed: \(error)"), at: MonotonicClock().now)
    }

    private func encode(_ samples: UnsafePointer<Int16>?, frames: Int) {
        do { try encoder?.write(samples, frames: frames) } catch { encoderFailed(error) }
        if samples == nil { sentUntil += Double(frames) / Double(encoding.codec.rate) }
    }

    private func sendTitle() {
        do { try connection?.setTitle(title.streamTitle) } catch { fail(error, at: MonotonicClock().now) }
    }

    private func sendEncoded() {
        guard let connection, let encoder else { return }
        var failure: ShoutConnection.Failure?
        encoder.take { bytes in
            do throws(ShoutConnection.Failure) { try connection.send(bytes) } catch { failure = error }
        }
        if let failure { fail(failure, at: MonotonicClock().now) }
    }

    /// Sends what was encoded; a server that has taken nothing for `stalled` seconds is let go
    /// and asked again.
    private func send(at now: Double) {
        guard connected, let connection else { return }
        sendEncoded()
        let limit = Int(Self.stalled * Double(encoding.kbps) * 125)
        if connection.queued > limit {
            fail(ShoutConnection.Failure(description: "the server stopped reading"), at: now)
        }
    }

    /// The stream's end sent (an Ogg link's last page), and the server given a quarter of a
    /// second to take it.
    private func finish(_ clock: MonotonicClock) {
        if connected {
            encoder?.end()
            sendEncoded()
            let deadline = clock.now + 0.25
            while let connection, connection.queued > 0, clock.now < deadline {
                try? connection.send(UnsafeRawBufferPointer(start: nil, count: 0))
                usleep(10_000)
            }
        }
        encoder = nil
        connection = nil
        shared.update { $0.finished = true }
    }
}
