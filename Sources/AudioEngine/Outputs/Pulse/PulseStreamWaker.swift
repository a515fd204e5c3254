import CPulse
import Files
import Glibc

/// What libpulse's callbacks reach for one `PulseSink`: the stream's signals, its start and its
/// sink's latency (both touched only under the main loop's lock, by callbacks and by the sink's
/// `withStream`) and the playback thread's wake.
final class PulseStreamWaker {
    let signals: Locked<PulseSignals>
    let api: tp_pulse
    let wake: @Sendable () -> Void
    let bytesPerSecond: Double
    var start: StreamStart
    /// The latency the sink plays at, as the server last said (the least its clients ask).
    var sinkLatency: Double?
    /// The question for fresh timing (no callback: the answer updates the stream's own).
    var timingAsked: OpaquePointer?
    /// Whether the sink takes the stream no faster than it could play it, watched from each
    /// start on the read index the server says; false once it is found out.
    var pace = SinkPace()
    var keepsTime = true
    init(signals: Locked<PulseSignals>, api: tp_pulse, start: StreamStart, bytesPerSecond: Double,
         wake: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.api = api
        self.start = start
        self.bytesPerSecond = bytesPerSecond
        self.wake = wake
    }
}
