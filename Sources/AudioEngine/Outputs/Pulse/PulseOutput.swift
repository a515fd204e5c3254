import CPulse
import Files
import Glibc

/// libpulse, loaded once, on first use (see CPulse's shim.h for why it is not linked).
enum PulseLibrary {
    static let api: tp_pulse? = {
        var api = tp_pulse()
        return tp_pulse_load(&api) == 0 ? api : nil
    }()
}

/// The native PulseAudio output (PipeWire's pipewire-pulse speaks the same protocol): one
/// stream on a threaded main loop, with a buffer on the server large enough that no scheduling
/// delay of the player is ever heard, and still a pause, stop or seek heard at once, because
/// the stream can be corked (paused where it is) and flushed (what is queued dropped).
///
/// The server's write requests drive the writing (`writableBytes`, and `wake` when there is
/// room); the position heard is what was written less what is still queued (`queuedFrames`).
final class PulseOutput: AudioOutput {
    /// How much audio the server holds for the stream (PulseAudio's own default). The server
    /// asks for more once its request size (nearly half of it: `PulseSink`) has played, so a
    /// stall of the player of up to about half of it is never heard. See README, "Outputs".
    static let bufferSeconds = 2.0
    /// How long to wait for the server to accept the connection or the stream.
    static let connectTimeout = 2.0

    private let api: tp_pulse
    private var connection: PulseConnection?
    /// Called (on libpulse's thread) when the server asks for audio: the playback thread wakes.
    private var wake: @Sendable () -> Void = {}

    func wakes(_ wake: @escaping @Sendable () -> Void) { self.wake = wake }
    func settleName() {}
    /// The sink to play on (mpg123's `-a`); `nil` (or one the server does not have): its default.
    var device: String?

    private init(api: tp_pulse, connection: PulseConnection?) {
        self.api = api
        self.connection = connection
    }

    /// The output with no connection yet: the first `open` connects (on the playback thread).
    /// `nil` when libpulse is not installed.
    static func unconnected() -> PulseOutput? {
        PulseLibrary.api.map { PulseOutput(api: $0, connection: nil) }
    }

    /// A connection to the default server (`PULSE_SERVER` or the user's), if one answers.
    static func connect() -> Result<PulseOutput, OutputFailure> {
        guard let api = PulseLibrary.api else { return .failure(OutputFailure(message: "libpulse is not installed")) }
        return PulseConnection.connect(api: api, timeout: connectTimeout).map { PulseOutput(api: api, connection: $0) }
    }

    /// Connected to a server (the first `open` connects).
    var isConnected: Bool { connection != nil }

    var name: String { "pulse" }
    var isFile: Bool { false }
    var pacing: Pacing { .server }
    /// PA_RATE_MAX: what a stream of this libpulse can be opened at.
    static let highestRate = Int(PA_RATE_MAX)
    var highestRate: Int { Self.highestRate }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        guard format.rate <= Self.highestRate, format.channels <= Int(PA_CHANNELS_MAX) else {
            throw OutputFailure(message: "the PulseAudio server plays at most \(Self.highestRate) Hz and \(PA_CHANNELS_MAX) channels, "
                                + "not \(format)", refusesFormat: true)
        }
        // A server that went away (restarted, killed) is connected to again.
        if connection?.isReady != true {
            connection = nil
            connection = try PulseConnection.connect(api: api, timeout: Self.connectTimeout).get()
        }
        guard let connection else { throw OutputFailure(message: "no PulseAudio server") }
        if let device {
            // A sink by that name (mpg123's `-a`) that the server does not have: its default plays.
            if let sink = try? PulseSink(connection: connection, format: format, bufferSeconds: Self.bufferSeconds,
                                         device: device, wake: wake) {
                return sink
            }
            self.device = nil
        }
        return try PulseSink(connection: connection, format: format, bufferSeconds: Self.bufferSeconds, wake: wake)
    }
}

/// What libpulse's thread tells the waiting threads, under a lock of ours (never libpulse's
/// own, so that every wait has a time limit: a frozen server never holds the player).
struct PulseSignals {
    var context = PA_CONTEXT_UNCONNECTED
    var stream = PA_STREAM_UNCONNECTED
    var drained = false
    /// The stream ran out of audio: when (monotonic seconds), and how long the sound card
    /// still had to play of it then. Cleared by the next write.
    var ranOut: (at: Double, left: Double)?
    /// Answers to the questions for the stream's timing that wait for them (`PulseSink.fresh`).
    var timingAnswers = 0
    /// What was written was all dropped (`dropIfUnplayed`), and nothing since: nothing to play out.
    var empty = false
}

/// A threaded main loop and a context connected to a server.
final class PulseConnection: @unchecked Sendable {
    // `@unchecked Sendable`: libpulse's objects are only touched under the main loop's lock.
    let api: tp_pulse
    let mainloop: OpaquePointer
    let context: OpaquePointer
    let signals = Locked(PulseSignals())

    private init(api: tp_pulse, mainloop: OpaquePointer, context: OpaquePointer) {
        self.api = api
        self.mainloop = mainloop
        self.context = context
    }

    static func connect(api: tp_pulse, timeout: Double) -> Result<PulseConnection, OutputFailure> {
        guard let mainloop = api.mainloop_new(), let context = api.context_new(api.mainloop_get_api(mainloop), "tplayer") else {
            return .failure(OutputFailure(message: "cannot start libpulse"))
        }
        let connection = PulseConnection(api: api, mainloop: mainloop, context: context)
        let box = Unmanaged.passUnretained(connection).toOpaque()
        api.context_set_state_callback(context, { context, box in
            guard let context, let box else { return }
            let connection = Unmanaged<PulseConnection>.fromOpaque(box).takeUnretainedValue()
            let state = connection.api.context_get_state(context)
            connection.signals.update { $0.context = state }
        }, box)
        // Never start a server: only one that runs already is the default device.
        guard api.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0, api.mainloop_start(mainloop) >= 0 else {
            return .failure(OutputFailure(message: "no PulseAudio server"))
        }
        let state = connection.signals.wait(until: { $0.context == PA_CONTEXT_READY || (PA_CONTEXT_IS_GOOD($0.context) == 0) },
                                            timeout: timeout) { $0.context }
        guard state == PA_CONTEXT_READY else {
            return .failure(OutputFailure(message: state == PA_CONTEXT_CONNECTING || state == PA_CONTEXT_AUTHORIZING
                                              || state == PA_CONTEXT_SETTING_NAME
                                              ? "the PulseAudio server does not answer" : "no PulseAudio server"))
        }
        return .success(connection)
    }

    var isReady: Bool { signals.read { $0.context == PA_CONTEXT_READY } }

    /// Runs `body` under the main loop's lock.
    func locked<T>(_ body: () -> T) -> T {
        api.mainloop_lock(mainloop)
        defer { api.mainloop_unlock(mainloop) }
        return body()
    }

    deinit {
        // The loop thread stops first: nothing of libpulse's runs while it is torn down.
        api.mainloop_stop(mainloop)
        api.context_disconnect(context)
        api.context_unref(context)
        api.mainloop_free(mainloop)
    }
}
