import CPulse
import Files
import Glibc

/// One playback stream, in one format.
///
/// Its buffer is split as no player's stall is heard and nothing its sink renders is taken
/// back: the stream's own queue holds `bufferSeconds` (the player may stall that long unheard),
/// and its sink is asked to render no more than `sinkLatency` ahead of what it plays. (In
/// PulseAudio's and PipeWire's "traditional" mode a sink renders the queue's length less twice
/// the request size ahead, so the server asks for audio in requests of half the rest.) A start
/// takes back at most what the sink has rendered ahead, and each start is padded with that much
/// silence (`StreamStart`); an instant change is written over the queue from beyond it
/// (`replaceableFrames`).
final class PulseSink: AudioSink {
    /// How far ahead of what it plays the sink is asked to render: all a start may take back,
    /// and what an instant change is heard after. 24 ms: just over PipeWire's default quantum
    /// (1,024 frames, 21.3 ms at 48 kHz, 23.2 at 44.1), which PipeWire rounds a stream's latency
    /// down to a power of two of: 20 ms (882 or 960 frames) made the whole graph run at 512
    /// frames, twice as many wake-ups for every client and a quantum changed at every start.
    static let sinkLatency = 0.024
    /// Written over no nearer than this to what the sink may have rendered: the time a write
    /// takes to reach it.
    static let replaceMargin = 0.002
    /// A start plays once this much is written (a slow machine decoding a second would be
    /// heard late), the rest following while it plays.
    static let startsWith = 0.25

    let format: PCMFormat
    private let connection: PulseConnection
    private var stream: OpaquePointer?
    private let signals = Locked(PulseSignals())
    private let waker: PulseStreamWaker
    /// Silence, as long as the pad a start writes first.
    private let pad: [UInt8]
    /// The operations whose callbacks reach the waker, while they may still run: the question
    /// for the sink's latency and the drain. `release` cancels them, so that none runs once
    /// the waker is gone (a context's operation outlives the stream; a drain may be answered
    /// before the server has let go of the stream).
    private var latencyAsked: OpaquePointer?
    private var drainAsked: OpaquePointer?
    /// Timing older than this is asked for again when it is read.
    static let freshTiming = 0.05

    /// `device`: the sink to play on (`nil`: the server's default).
    init(connection: PulseConnection, format: PCMFormat, bufferSeconds: Double, device: String? = nil,
         wake: @escaping @Sendable () -> Void) throws(OutputFailure) {
        self.format = format
        self.connection = connection
        let bytesPerSecond = Double(format.rate * format.bytesPerFrame)
        let frameAligned = { (seconds: Double) in Int(seconds * bytesPerSecond) / format.bytesPerFrame * format.bytesPerFrame }
        let padBytes = frameAligned(Self.sinkLatency)
        // Silence is zero but in unsigned 8-bit samples, centred on 128.
        pad = [UInt8](repeating: format.encoding == .u8 ? 0x80 : 0, count: padBytes)
        waker = PulseStreamWaker(signals: signals, api: connection.api, start: StreamStart(padBytes: padBytes, enoughBytes: frameAligned(Self.startsWith)),
                      bytesPerSecond: bytesPerSecond, wake: wake)
        let api = connection.api
        var spec = pa_sample_spec(format: format.encoding.pulseFormat, rate: UInt32(format.rate), channels: UInt8(format.channels))
        let length = frameAligned(bufferSeconds)
        let request = frameAligned((bufferSeconds - Self.sinkLatency) / 2)
        // Playing starts once the pad (24 ms) is queued (never sooner than tplayer uncorks it): prebuf
        // must not be 0, or a stream written over to a shorter end would play on past it.
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32(length), prebuf: UInt32(padBytes),
                                        minreq: UInt32(request), fragsize: UInt32.max)
        let box = Unmanaged.passUnretained(waker).toOpaque()
        let connected: Bool = connection.locked {
            guard let stream = api.stream_new(connection.context, "tplayer", &spec, nil) else { return false }
            self.stream = stream
            api.stream_set_state_callback(stream, { stream, box in
                guard let stream, let box else { return }
                let waker = Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue()
                let state = waker.api.stream_get_state(stream)
                waker.signals.update { $0.stream = state }
                waker.wake()
            }, box)
            api.stream_set_write_callback(stream, { stream, _, box in
                guard let stream, let box else { return }
                let waker = Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue()
                PulseSink.askTiming(waker.api, stream, waker)  // the position stays fresh while it plays
                waker.wake()
            }, box)
            api.stream_set_underflow_callback(stream, { stream, box in
                guard let stream, let box else { return }
                let waker = Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue()
                let left = PulseSink.timing(waker.api, stream)?.unheard(bytesPerSecond: waker.bytesPerSecond) ?? 0
                let now = MonotonicClock().now
                waker.signals.update { $0.ranOut = (now, left) }
                // Ran dry, unless it has been written since (the server then started it again).
                let dryAt = waker.api.stream_get_underflow_index(stream)
                let timing = waker.api.stream_get_timing_info(stream)?.pointee
                if dryAt < 0 || timing.map({ $0.write_index_corrupt != 0 || $0.write_index <= dryAt }) ?? true {
                    waker.start.ranDry()
                }
                waker.wake()
            }, box)
            // No PA_STREAM_INTERPOLATE_TIMING: the position is counted from the server's figures
            // (`StreamTiming`), fresh ones asked for as it is read.
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_START_CORKED.rawValue)
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
        withStream { api, stream in askSinkLatency(api, stream) }
    }

    /// Asks the server for the latency the stream's sink plays at (`PulseStreamWaker.sinkLatency`, when
    /// it answers): what the sink renders ahead at most, less than the stream asked for when
    /// another client asks for less.
    private func askSinkLatency(_ api: tp_pulse, _ stream: OpaquePointer?) {
        guard let stream else { return }
        if let asked = latencyAsked, api.operation_get_state(asked) == PA_OPERATION_RUNNING { return }  // one at a time
        Self.forget(&latencyAsked, api, cancelling: false)
        let box = Unmanaged.passUnretained(waker).toOpaque()
        latencyAsked = api.context_get_sink_info_by_index(connection.context, api.stream_get_device_index(stream), { _, info, _, box in
            guard let info, let box else { return }
            let waker = Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue()
            waker.sinkLatency = info.pointee.configured_latency > 0 ? Double(info.pointee.configured_latency) / 1_000_000 : nil
        }, box)
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
            return Self.room(api, stream)
        }
    }

    private static func room(_ api: tp_pulse, _ stream: OpaquePointer) -> Int {
        let size = api.stream_writable_size(stream)
        return size == Int.max || size == -1 ? 0 : size
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        try write(bytes, offset: 0)
        return false
    }

    /// A write that starts `frames` back from where the last one ended (the write index, which
    /// only the player moves): the server overwrites what it holds there, and where it had
    /// already handed some of it to its sink it asks the sink for it again ("rewind due to
    /// rewrite"), so the new samples are heard from the first not yet played, in the same
    /// place. Unlike a flush, the stream never empties on the way: no gap.
    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) {
        let (back, overflow) = max(frames, 0).multipliedReportingOverflow(by: format.bytesPerFrame)
        guard !overflow else { throw OutputFailure(message: "the pulse device stopped taking audio") }
        try write(bytes, offset: -Int64(back))
    }

    private func write(_ bytes: UnsafeRawBufferPointer, offset: Int64) throws(OutputFailure) {
        let result = withStream { api, stream -> Int32 in
            guard let stream, PA_STREAM_IS_GOOD(api.stream_get_state(stream)) != 0 else { return -1 }
            // A drain asked for (a stop) is over: what is written now follows on, no new start.
            Self.forget(&drainAsked, api, cancelling: true)
            var offset = offset
            let (padFirst, cork) = waker.start.beforeWrite()
            if let cork { corking(cork, api, stream) }
            if padFirst {
                // A start: what there was to write over has played (the stream ran dry).
                offset = 0
                let padded = pad.withUnsafeBytes { api.stream_write(stream, $0.baseAddress, $0.count, nil, 0, PA_SEEK_RELATIVE) }
                guard padded >= 0 else { return padded }
            }
            let result = api.stream_write(stream, bytes.baseAddress, bytes.count, nil, offset, PA_SEEK_RELATIVE)
            if result >= 0, let cork = waker.start.wrote(bytes.count, room: Self.room(api, stream)) { corking(cork, api, stream) }
            if let timing = Self.timing(api, stream) { watchPace(api, stream, timing) }
            return result
        }
        guard result >= 0 else { throw OutputFailure(message: "the pulse device stopped taking audio") }
        signals.update {
            $0.ranOut = nil
            $0.empty = false
        }
    }

    /// Asks the server to cork or uncork the stream, and lets the operation run.
    private func corking(_ corked: Bool, _ api: tp_pulse, _ stream: OpaquePointer) {
        if let started = api.stream_cork(stream, corked ? 1 : 0, nil, nil) { api.operation_unref(started) }
    }

    /// The player has nothing more to write for now: what it wrote plays, though the stream is
    /// not full (see `StreamStart`).
    func playWhatIsWritten() {
        withStream { api, stream in
            if let stream, let cork = waker.start.nothingMoreForNow() { corking(cork, api, stream) }
        }
    }

    /// Drops all the stream holds if the server says, freshly, that its sink is not taking it
    /// (a start not yet heard: a bare null sink may still be playing seconds of silence it
    /// rendered before the stream came). Written over instead, every write to a stream its sink
    /// has not started makes the sink take back its render to start it ("end of underrun"),
    /// and the stream's first audio is lost to what reads the sink: the stream is started again,
    /// from a pad, as at its first start.
    func dropIfUnplayed() -> Bool {
        guard signals.read(\.ranOut) == nil, let timing = fresh(), !timing.playing, timing.age <= Self.knownUnplayed else { return false }
        return withStream { api, stream in
            guard let stream else { return false }
            if let cork = waker.start.restart() { corking(cork, api, stream) }
            if let flushed = api.stream_flush(stream, nil, nil) { api.operation_unref(flushed) }
            signals.update { $0.empty = true }
            return true
        }
    }

    /// Timing at most this old is trusted to say the sink is not taking the stream.
    static let knownUnplayed = 0.1

    /// The stream's timing, asked for and waited for (at most `knownUnplayed`: a server that
    /// does not answer by then leaves what it last said).
    private func fresh() -> StreamTiming? {
        let box = Unmanaged.passUnretained(waker).toOpaque()
        let before = signals.read(\.timingAnswers)
        let asked = withStream { api, stream -> Bool in
            guard let stream else { return false }
            if let running = waker.timingAsked, api.operation_get_state(running) == PA_OPERATION_RUNNING { api.operation_cancel(running) }
            Self.forget(&waker.timingAsked, api, cancelling: false)
            waker.timingAsked = api.stream_update_timing_info(stream, { _, _, box in
                guard let box else { return }
                Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue().signals.update { $0.timingAnswers += 1 }
            }, box)
            return waker.timingAsked != nil
        }
        if asked { signals.wait(until: { $0.timingAnswers != before }, timeout: Self.knownUnplayed) { _ in () } }
        return withStream { api, stream in stream.flatMap { Self.timing(api, $0) } }
    }

    /// Frames written but not yet heard (the stream's queue and its sink's); 0 once closed,
    /// `nil` before the server has said. Once the stream has run out, what is left is what the
    /// sink had of the audio when it ran out, less the time since.
    var queuedFrames: Int? {
        if let ranOut = signals.read(\.ranOut) {
            return max(Int((ranOut.left - (MonotonicClock().now - ranOut.at)) * Double(format.rate)), 0)
        }
        guard let timing = timing() else { return nil }
        // The server's word, in Double: a latency of days must not overflow.
        return Int(min(timing.unheard(bytesPerSecond: bytesPerSecond) * Double(format.rate), Double(1 << 40)))
    }

    /// The frames at the end of the queue that can be written over without taking back what
    /// the sink may have rendered: what it cannot have taken yet (`StreamTiming.untaken`), with
    /// the latency it renders ahead at (the latency it plays at, or the one the stream was
    /// granted, the least the server said).
    var replaceableFrames: Int {
        guard signals.read(\.ranOut) == nil, let timing = timing() else { return 0 }
        let latencies = withStream { api, stream -> [Double] in
            guard let stream else { return [] }
            defer { askSinkLatency(api, stream) }  // for the next time: other clients come and go
            let granted = api.stream_get_timing_info(stream).flatMap { timing in
                timing.pointee.configured_sink_usec > 0 ? Double(timing.pointee.configured_sink_usec) / 1_000_000 : nil
            }
            return [waker.sinkLatency, granted].compactMap { $0 }
        }
        let ahead = min(latencies.min() ?? Self.sinkLatency, PulseOutput.bufferSeconds)
        let untaken = timing.untaken(bytesPerSecond: bytesPerSecond, renderAhead: ahead, margin: Self.replaceMargin)
        return Int(min(untaken, PulseOutput.bufferSeconds) * Double(format.rate))
    }

    private var bytesPerSecond: Double { waker.bytesPerSecond }

    /// What the server last said of the stream, aged to now; fresh figures are asked for when
    /// they are older than `freshTiming` (one question at a time; its answer comes to the
    /// next reading). `nil` before it has said anything.
    private func timing() -> StreamTiming? {
        withStream { api, stream -> StreamTiming? in
            guard let stream, let timing = Self.timing(api, stream) else { return nil }
            if timing.age > Self.freshTiming { Self.askTiming(api, stream, waker) }
            watchPace(api, stream, timing)
            return timing
        }
    }

    /// Tells the sink's pace what the server last said it had taken (under the main loop's lock).
    private func watchPace(_ api: tp_pulse, _ stream: OpaquePointer, _ timing: StreamTiming) {
        guard waker.keepsTime, !waker.start.starting, let info = api.stream_get_timing_info(stream)?.pointee else { return }
        if waker.pace.observe(at: MonotonicClock().now - timing.age, taken: Double(info.read_index) / bytesPerSecond,
                              ahead: max(waker.sinkLatency ?? 0, timing.sinkLatency)) {
            waker.keepsTime = false
        }
    }

    var keepsTime: Bool { withStream { _, _ in waker.keepsTime } }

    /// Asks the server for the stream's timing, unless a question is under way (under the main
    /// loop's lock).
    private static func askTiming(_ api: tp_pulse, _ stream: OpaquePointer, _ waker: PulseStreamWaker) {
        if let asked = waker.timingAsked, api.operation_get_state(asked) == PA_OPERATION_RUNNING { return }
        forget(&waker.timingAsked, api, cancelling: false)
        waker.timingAsked = api.stream_update_timing_info(stream, nil, nil)
    }

    /// The stream's timing as the server last said it, aged to now (under the main loop's lock).
    private static func timing(_ api: tp_pulse, _ stream: OpaquePointer) -> StreamTiming? {
        guard let info = api.stream_get_timing_info(stream)?.pointee, info.write_index_corrupt == 0,
              info.read_index_corrupt == 0 else { return nil }
        var now = timeval()
        gettimeofday(&now, nil)
        let said = Double(info.timestamp.tv_sec) + Double(info.timestamp.tv_usec) / 1_000_000
        let age = max(Double(now.tv_sec) + Double(now.tv_usec) / 1_000_000 - said, 0) + Double(info.transport_usec) / 1_000_000
        return StreamTiming(queuedBytes: info.write_index &- info.read_index, sinkLatency: Double(info.sink_usec) / 1_000_000,
                            playing: info.playing != 0, age: age)
    }

    var canTakeBack: Bool { true }

    /// Asks the server to say when what is queued has been played (`isDrained`).
    func drain() {
        signals.update { $0.drained = false }
        let box = Unmanaged.passUnretained(waker).toOpaque()
        withStream { api, stream in
            guard let stream else { return }
            if let cork = waker.start.draining() { corking(cork, api, stream) }
            Self.forget(&drainAsked, api, cancelling: false)
            drainAsked = api.stream_drain(stream, { _, _, box in
                guard let box else { return }
                let waker = Unmanaged<PulseStreamWaker>.fromOpaque(box).takeUnretainedValue()
                waker.start.ranDry()
                waker.signals.update { $0.drained = true }
                waker.wake()
            }, box)
        }
    }

    /// The server has played all that was queued when `drain` was asked (or the stream is gone).
    var isDrained: Bool { signals.read { $0.drained || PA_STREAM_IS_GOOD($0.stream) == 0 } }

    /// Plays what is queued (at most what it lasts, and a little more), then closes the stream.
    func close() throws(OutputFailure) {
        close(within: Double(queuedFrames ?? 0) / Double(format.rate) + 0.2)
    }

    /// Plays what is queued for at most `seconds` (quitting: what a take-back left, the fade;
    /// a frozen server is not waited for), then closes the stream.
    func close(within seconds: Double) {
        // All it held was dropped before its sink took any: nothing to play out.
        guard !signals.read(\.empty) else { return release() }
        drain()
        signals.wait(until: { $0.drained || (PA_STREAM_IS_GOOD($0.stream) == 0) }, timeout: seconds) { _ in () }
        release()
    }

    /// Lets go of `operation`, cancelled first (its callback never runs) if asked and it still
    /// runs.
    private static func forget(_ operation: inout OpaquePointer?, _ api: tp_pulse, cancelling: Bool) {
        guard let held = operation else { return }
        operation = nil
        if cancelling, api.operation_get_state(held) == PA_OPERATION_RUNNING { api.operation_cancel(held) }
        api.operation_unref(held)
    }

    private func release() {
        connection.locked {
            Self.forget(&latencyAsked, connection.api, cancelling: true)
            Self.forget(&drainAsked, connection.api, cancelling: true)
            Self.forget(&waker.timingAsked, connection.api, cancelling: true)
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
