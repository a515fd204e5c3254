import PlayerCore

/// Where the playback thread's audio goes: the output the command line chose, the device or
/// file open on it (`sink`), the null device it falls back to, and the pacer that keeps a live
/// device's writes to time. Opens lazily, for the format of the audio to write.
final class OutputSlot {
    private(set) var output: AudioOutput
    private let fallback: AudioOutput?
    private(set) var sink: AudioSink?
    private(set) var pacer: WritePacer
    /// Its sound server's sink took audio faster than real time: held to the clock from then on.
    private(set) var pacedByClock = false
    /// The sink last told which song it plays (`announce`), and that song.
    private var announced: (sink: ObjectIdentifier, source: SongSource)?

    /// What happened when a sink was asked for.
    enum Opening {
        /// `isNew`: opened by this call.
        case ready(AudioSink, isNew: Bool)
        /// The live output could not be opened: the null device plays instead (`notice` says why).
        case fellBack(AudioSink, notice: String)
        /// Nothing can be written: a file that cannot be created, or no fallback either.
        case failed(String)
        /// The output cannot play this format (a rate past a sound server's): this song cannot
        /// play here, the others can.
        case refused(String)
    }

    init(_ choice: OutputChoice) {
        output = choice.primary
        fallback = choice.fallback
        pacer = WritePacer(pacing: choice.primary.pacing, lead: choice.primary.lead)
    }

    var isFile: Bool { output.isFile }
    var name: String { output.name }

    /// The output, open for `format`. A live device is reopened when the format changes
    /// (closing drains it, so nothing is lost); a file keeps its first format.
    func sink(for format: PCMFormat, at now: Double) -> Opening {
        if let sink, sink.format == format || output.isFile { return .ready(sink, isNew: false) }
        if let old = sink {
            sink = nil
            try? old.close()
        }
        do {
            let opened = try output.open(format)
            sink = opened
            pacer = WritePacer(pacing: pacedByClock ? .realTime : output.pacing, lead: output.lead)  // a new device: its buffer is measured anew
            pacer.restart(at: now)
            return .ready(opened, isNew: true)
        } catch {
            if error.refusesFormat { return .refused("\(output.name): \(error)") }
            // A live device that cannot be opened gives way to the null output paced in real
            // time, so the player and its keys still work; a file that cannot be opened ends the run.
            guard let fallback, fallback !== output else { return .failed("\(output.name): \(error)") }
            let notice = "output \(output.name): \(error); playing silently in real time instead"
            output = fallback
            switch sink(for: format, at: now) {
            case .ready(let sink, _), .fellBack(let sink, _): return .fellBack(sink, notice: notice)
            case .failed(let message), .refused(let message): return .failed(message)
            }
        }
    }

    /// Writes `bytes` (`seconds` of audio) to `sink`, over its last `over` frames; returns the
    /// device's buffer when this write was the one that measured it.
    func write(_ bytes: UnsafeRawBufferPointer, seconds: Double, over: Int = 0, to sink: AudioSink,
               clock: PlaybackClock) throws(OutputFailure) -> Double? {
        let started = clock.now
        var blocked = false
        if over > 0 { try sink.write(bytes, over: over) } else { blocked = try sink.write(bytes) }
        let measured = pacer.capacity
        let now = clock.now
        pacer.wrote(seconds, took: now - started, blocked: blocked, at: now)
        return measured == nil ? pacer.capacity : nil
    }

    /// Tells `sink` that what is written next is `source`'s (`info`), once a song and sink.
    func announce(_ source: SongSource, info: SongInfo, on sink: AudioSink) {
        let identity = ObjectIdentifier(sink)
        if let announced, announced.sink == identity, announced.source == source { return }
        announced = (identity, source)
        sink.nowPlaying(info)
    }

    /// The sink refused a write: it is closed, to be opened again by `reopen`.
    func drop() {
        guard let failed = sink else { return }
        sink = nil
        try? failed.close()
    }

    /// Opens the device again after it was lost.
    func reopen(_ format: PCMFormat) throws(OutputFailure) {
        sink = try output.open(format)
    }

    /// Closes the sink (a file's final header, what a device holds played out); throws when
    /// that fails. A sound server's stream plays out for `within` seconds at most: quitting
    /// waits for the fade, never for a server that does not answer.
    func close(within: Double) throws(OutputFailure) {
        guard let sink else { return }
        self.sink = nil
        try sink.close(within: within)
    }

    /// Holds the output to the clock from `now` on (a sound server whose sink keeps no time).
    func paceByClock(at now: Double) {
        pacedByClock = true
        pacer = WritePacer(pacing: .realTime, lead: output.lead)
        pacer.restart(at: now)
    }

    /// Starts the pacing over at `now`, or later where the output's first write is due later
    /// (snapserver finding its pipe: `SnapcastOutput.settling`).
    func restartPacing(at now: Double) {
        pacer.restart(at: max(now, output.startsAt.map { $0 + output.lead } ?? now))
    }
}
