import CMpg123
import Files
import Glibc
import PlayerCore

/// The audio engine: libmpg123 decodes, libao plays, on one dedicated playback thread.
///
/// Callers on other threads never touch the C handles: every method posts a command to the
/// playback thread (`PlaybackLoop`) and returns at once, except `open` and `shutdown`, which wait
/// for its answer. What the thread has to report arrives through `takeEvents()`, and
/// `eventFD` turns readable when there is something to take, for a `poll` loop.
public final class Engine: PlaybackEngine {
    private let mailbox: Mailbox
    private var thread: pthread_t?

    /// Sets up the output and starts the playback thread. Nothing is opened on the device until
    /// the first song plays (its format decides the device's).
    public init(output target: OutputTarget) throws(OutputError) {
        let output = try ResolvedOutput(target)
        do {
            mailbox = try Mailbox()
        } catch {
            throw OutputError(message: "cannot start the audio engine: \(error.reason)", isUsageError: false)
        }
        mpg123_init()
        let decoder: Mpg123Decoder
        do {
            decoder = try Mpg123Decoder()
        } catch {
            throw OutputError(message: "decoder: \(error)", isUsageError: false)
        }
        if let notice = output.fallbackNotice {
            mailbox.report(.outputFallback(message: notice))
        }
        let loop = PlaybackLoop(mailbox: mailbox, output: output, decoder: decoder)
        thread = Self.start(loop)
    }

    deinit {
        shutdown()
    }

    /// Readable when events are waiting.
    public var eventFD: Int32 { mailbox.wakeReadFD }

    /// Events since the last call, oldest first.
    public func takeEvents() -> [EngineEvent] { mailbox.takeEvents() }

    public func open(_ path: Path, token: Int) throws(LoadError) -> SongInfo {
        let reply = mailbox.makeReplyID()
        mailbox.post(.open(path: path, token: token, reply: reply))
        switch mailbox.awaitReply(reply) {
        case .success(let info?): return info
        case .success(nil): throw LoadError(path: path, reason: "the engine has shut down")
        case .failure(let error): throw error
        }
    }

    public func play() { mailbox.post(.play) }
    public func stop() { mailbox.post(.stop) }
    public func seek(toFrame frame: Int64) { mailbox.post(.seek(frame: frame)) }
    public var position: Int64 { mailbox.position }
    public func setVolume(_ fraction: Double) { mailbox.post(.volume(min(max(fraction, 0), 1))) }
    public func limitPlayback(_ limited: Bool) { mailbox.limitPlayback(limited) }
    public func grant(_ time: AudioTime, id: Int) { mailbox.grant(time, id: id) }
    public func revokeGrant() -> AudioTime { mailbox.revokeGrant() }

    /// Closes the output (writing a file's final header) and ends the playback thread. Waits for
    /// the chunk being written, so at most ~25 ms plus the device's drain; safe to call twice.
    public func shutdown() {
        guard let thread else { return }
        self.thread = nil
        let reply = mailbox.makeReplyID()
        mailbox.post(.shutdown(reply: reply))
        _ = mailbox.awaitReply(reply)
        pthread_join(thread, nil)
    }

    /// Starts `loop.run()` on a new thread that keeps the process's signals blocked, so they are
    /// always handled by the main thread's loop.
    private static func start(_ loop: PlaybackLoop) -> pthread_t? {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigfillset(&blocked)
        pthread_sigmask(SIG_SETMASK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(loop).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<PlaybackLoop>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<PlaybackLoop>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}
