/// Silence in real time: what a live output that cannot be opened gives way to, so that the
/// player and its keys still work. Written by tplayer itself, so that falling back never loads
/// libao (whose start-up also sets the latency libao's pulse plugin asks for, for the process).
final class NullOutput: AudioOutput {
    var name: String { "null" }
    var isFile: Bool { false }
    var pacing: Pacing { .realTime }

    /// Its writes wait until there is room: nothing to wake.
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        NullSink(format: format)
    }

    private final class NullSink: BlockingSink {
        let format: PCMFormat
        init(format: PCMFormat) { self.format = format }
        func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool { false }
        func close() throws(OutputFailure) {}
    }
}
