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
    /// How much audio the server holds for the stream: what a stall of the player may last
    /// without being heard. See README, "Outputs".
    static let bufferSeconds = 1.0
    /// How long to wait for the server to accept the connection or the stream.
    static let connectTimeout = 2.0

    private let api: tp_pulse
    private var connection: PulseConnection?
    /// Called (on libpulse's thread) when the server asks for audio: the playback thread wakes.
    var wake: @Sendable () -> Void = {}
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

/// One playback stream, in one format.
final class PulseSink: AudioSink {
    let format: PCMFormat
    private let connection: PulseConnection
    private var stream: OpaquePointer?
    private let signals = Locked(PulseSignals())
    private let waker: Waker

    /// What libpulse's callbacks reach: the stream's signals and the playback thread's wake.
    private final class Waker {
        let signals: Locked<PulseSignals>
        let api: tp_pulse
        let wake: @Sendable () -> Void
        init(signals: Locked<PulseSignals>, api: tp_pulse, wake: @escaping @Sendable () -> Void) {
            self.signals = signals
            self.api = api
            self.wake = wake
        }
    }

    /// `device`: the sink to play on (`nil`: the server's default).
    /// The server's name for samples in `encoding`, little-endian as tplayer keeps them.
    static func sampleFormat(_ encoding: SampleEncoding) -> pa_sample_format_t {
        switch encoding {
        case .u8: PA_SAMPLE_U8
        case .s16: PA_SAMPLE_S16LE
        case .s24: PA_SAMPLE_S24LE
        case .s32: PA_SAMPLE_S32LE
        case .float32: PA_SAMPLE_FLOAT32LE
        }
    }

    init(connection: PulseConnection, format: PCMFormat, bufferSeconds: Double, device: String? = nil,
         wake: @escaping @Sendable () -> Void) throws(OutputFailure) {
        self.format = format
        self.connection = connection
        waker = Waker(signals: signals, api: connection.api, wake: wake)
        let api = connection.api
        let bytesPerSecond = Double(format.rate * format.bytesPerFrame)
        let frameAligned = { (seconds: Double) in UInt32(Int(seconds * bytesPerSecond) / format.bytesPerFrame * format.bytesPerFrame) }
        var spec = pa_sample_spec(format: Self.sampleFormat(format.encoding), rate: UInt32(format.rate), channels: UInt8(format.channels))
        // The server asks for audio each time 50 ms have played, and starts playing once 20 ms
        // are queued (so the end of a song, however short, always plays).
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: frameAligned(bufferSeconds),
                                        prebuf: frameAligned(0.02), minreq: frameAligned(0.05), fragsize: UInt32.max)
        let box = Unmanaged.passUnretained(waker).toOpaque()
        let connected: Bool = connection.locked {
            guard let stream = api.stream_new(connection.context, "tplayer", &spec, nil) else { return false }
            self.stream = stream
            api.stream_set_state_callback(stream, { stream, box in
                guard let stream, let box else { return }
                let waker = Unmanaged<Waker>.fromOpaque(box).takeUnretainedValue()
                let state = waker.api.stream_get_state(stream)
                waker.signals.update { $0.stream = state }
                waker.wake()
            }, box)
            api.stream_set_write_callback(stream, { _, _, box in
                guard let box else { return }
                Unmanaged<Waker>.fromOpaque(box).takeUnretainedValue().wake()
            }, box)
            api.stream_set_underflow_callback(stream, { stream, box in
                guard let stream, let box else { return }
                let waker = Unmanaged<Waker>.fromOpaque(box).takeUnretainedValue()
                var microseconds: pa_usec_t = 0
                var negative: Int32 = 0
                let left = waker.api.stream_get_latency(stream, &microseconds, &negative) >= 0 && negative == 0
                    ? Double(microseconds) / 1_000_000 : 0
                let now = MonotonicClock().now
                waker.signals.update { $0.ranOut = (now, left) }
                waker.wake()
            }, box)
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
            guard let device else { return api.stream_connect_playback(stream, nil, &attributes, flags, nil, nil) >= 0 }
            return device.withCString { api.stream_connect_playback(stream, $0, &attributes, flags, nil, nil) } >= 0
        }
        guard connected else { throw OutputFailure(message: "the PulseAudio server refused the stream") }
        let state = signals.wait(until: { $0.stream == PA_STREAM_READY || (PA_STREAM_IS_GOOD($0.stream) == 0) },
                                 timeout: PulseOutput.connectTimeout) { $0.stream }
        guard state == PA_STREAM_READY else {
            release()
            throw OutputFailure(message: state == PA_STREAM_CREATING ? "the PulseAudio server does not answer"
                                                                     : "the PulseAudio server refused the stream")
        }
    }

    deinit { release() }

    /// The buffer the server granted: its length and request size, in seconds (for `--trace`).
    var grantedBuffer: (length: Double, request: Double)? {
        withStream { api, stream in
            guard let stream, let attributes = api.stream_get_buffer_attr(stream)?.pointee else { return nil }
            let bytesPerSecond = Double(format.rate * format.bytesPerFrame)
            return (Double(attributes.tlength) / bytesPerSecond, Double(attributes.minreq) / bytesPerSecond)
        }
    }

    /// Runs `body` with the stream under the main loop's lock (`nil` once it is closed).
    private func withStream<T>(_ body: (tp_pulse, OpaquePointer?) -> T) -> T {
        connection.locked { body(connection.api, stream) }
    }

    /// Bytes the server has room for now. A stream the server has dropped (it went away) has
    /// room for anything: the write that follows fails, and the device is waited for.
    var writableBytes: Int? {
        withStream { api, stream in
            guard let stream, PA_STREAM_IS_GOOD(api.stream_get_state(stream)) != 0 else { return Int.max }
            let size = api.stream_writable_size(stream)
            return size == Int.max || size == -1 ? 0 : size
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        try write(bytes, offset: 0)
        return false
    }

    /// A write that starts `frames` back from where the last one ended (the write index, which
    /// only the player moves): the server overwrites what it holds there, and where it had
    /// already handed some of it to the sound card it asks the card for it again ("rewind due
    /// to rewrite"), so the new samples are heard from the first not yet played, in the same
    /// place. Unlike a flush, the stream never empties on the way: no gap.
    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) {
        let (back, overflow) = max(frames, 0).multipliedReportingOverflow(by: format.bytesPerFrame)
        guard !overflow else { throw OutputFailure(message: "the pulse device stopped taking audio") }
        try write(bytes, offset: -Int64(back))
    }

    private func write(_ bytes: UnsafeRawBufferPointer, offset: Int64) throws(OutputFailure) {
        let result = withStream { api, stream -> Int32 in
            guard let stream, PA_STREAM_IS_GOOD(api.stream_get_state(stream)) != 0 else { return -1 }
            return api.stream_write(stream, bytes.baseAddress, bytes.count, nil, offset, PA_SEEK_RELATIVE)
        }
        guard result >= 0 else { throw OutputFailure(message: "the pulse device stopped taking audio") }
        signals.update { $0.ranOut = nil }
    }

    /// Frames written but not yet heard (the stream's queue and the sound card's); 0 once
    /// closed, `nil` before the server has said. Once the stream has run out, the server's
    /// latency counts the silence the sound card plays after it: what is left then is what
    /// the card had of the audio when it ran out, less the time since.
    var queuedFrames: Int? {
        if let ranOut = signals.read(\.ranOut) {
            return max(Int((ranOut.left - (MonotonicClock().now - ranOut.at)) * Double(format.rate)), 0)
        }
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        let result = withStream { api, stream -> Int32 in
            guard let stream else { return 0 }
            return api.stream_get_latency(stream, &microseconds, &negative)
        }
        guard result >= 0 else { return nil }
        // The server's word, in Double: a latency of days must not overflow.
        return negative != 0 ? 0 : Int(min(Double(microseconds) * Double(format.rate) / 1_000_000, Double(1 << 40)))
    }

    var canPause: Bool { true }

    /// Corks or uncorks the stream: it stops where it is and goes on from the same sample.
    func pause(_ paused: Bool) {
        run { api, stream in api.stream_cork(stream, paused ? 1 : 0, nil, nil) }
    }

    /// Drops what is queued: what is written next is heard at once.
    func discard() {
        run { api, stream in api.stream_flush(stream, nil, nil) }
    }

    /// Starts an operation and lets it run: nothing waits for the server.
    private func run(_ operation: (tp_pulse, OpaquePointer) -> OpaquePointer?) {
        withStream { api, stream in
            if let stream, let started = operation(api, stream) { api.operation_unref(started) }
        }
    }

    /// Asks the server to say when what is queued has been played (`isDrained`).
    func drain() {
        signals.update { $0.drained = false }
        let box = Unmanaged.passUnretained(waker).toOpaque()
        run { api, stream in
            api.stream_drain(stream, { _, _, box in
                guard let box else { return }
                let waker = Unmanaged<Waker>.fromOpaque(box).takeUnretainedValue()
                waker.signals.update { $0.drained = true }
                waker.wake()
            }, box)
        }
    }

    /// The server has played all that was queued when `drain` was asked (or the stream is gone).
    var isDrained: Bool { signals.read { $0.drained || PA_STREAM_IS_GOOD($0.stream) == 0 } }

    /// Plays what is queued (at most what it lasts, and a little more), then closes the stream.
    func close() throws(OutputFailure) {
        let left = Double(queuedFrames ?? 0) / Double(format.rate)
        drain()
        signals.wait(until: { $0.drained || (PA_STREAM_IS_GOOD($0.stream) == 0) }, timeout: left + 0.2) { _ in () }
        release()
    }

    private func release() {
        connection.locked {
            guard let stream else { return }
            self.stream = nil
            connection.api.stream_set_state_callback(stream, nil, nil)
            connection.api.stream_set_write_callback(stream, nil, nil)
            connection.api.stream_set_underflow_callback(stream, nil, nil)
            _ = connection.api.stream_disconnect(stream)
            connection.api.stream_unref(stream)
        }
    }
}
