import Files
import Glibc
import PlayerCore

/// The audio engine: each format's library decodes (`SongDecoder`), a sound server, libao or a
/// file plays, on one dedicated playback thread.
///
/// Callers on other threads never touch the C handles: every method posts a command to the
/// playback thread (`PlaybackLoop`) and returns at once, opening a song too (a slow file system
/// never freezes a key). What the thread has to report arrives
/// through `takeEvents()`, and `eventFD` turns readable when there is something to take, for a
/// `poll` loop. No wait on the playback thread is unbounded: `shutdown` gives it a moment to
/// close the output and then lets it go.
public final class Engine: PlayerEngine {
    private let shared = Locked(EngineShared())
    private let outbox: EventOutbox
    private var thread: pthread_t?
    /// What stops the decoders' internet streams (a network that stalls never holds the end).
    private var streams: [StreamInterruption] = []
    /// The song last cued (main thread only).
    private var lastCue: SongSource?
    /// The samples heard, and the spectrum made of them (main thread only).
    private let spectrumTap = SpectrumTap()
    /// Made when a spectrum is first shown.
    private lazy var analysis = SpectrumAnalysis()
    public let outputName: String
    /// Every output, the first first (several: `output = pulse, snapcast`), and the driver each
    /// is (`pulse`, `snapcast`, `icecast`), as MPD's `outputs` names them.
    public let outputs: [(name: String, driver: String)]
    public let writesFile: Bool

    /// Sets up the output and starts the playback thread. Nothing is opened on the device until
    /// the first song plays (its format decides the device's).
    /// `fades`: on a live device, stop, play, seek, next and load fade out and in over 10 ms
    /// (`--no-fade` turns it off; a file never fades).
    /// `measuresStartDelay`: each song's start delay is measured when it opens, for mpg123's
    /// remote protocol, which counts MPEG frames.
    /// `setup`: the device to play on (mpg123's `-a`: PulseAudio's sink, snapserver's pipe) and
    /// what a Snapcast output needs of its server.
    /// `bits`: 16, 24 or 32: every song is written in that many bits (`--bits`); `nil`: each
    /// song's own.
    public init(output target: OutputTarget, fades: Bool = true, measuresStartDelay: Bool = false,
                setup: OutputSetup = OutputSetup(), bits: Int? = nil, reconnects: Int? = nil) throws(OutputError) {
        let choice = try OutputChoice.choosing(target, setup: setup)
        outputName = target.name
        outputs = [(target.name, target.name)] + zip(setup.also, (choice.primary as? FanOutput)?.followers.names ?? []).map { ($1, $0) }
        writesFile = target.isFile
        do {
            outbox = try EventOutbox()
        } catch {
            throw OutputError(message: "cannot start the audio engine: \(error.reason)", isUsageError: false)
        }
        // The server's requests for audio and the decoders' threads wake the playback thread.
        // Weakly: the shared state holds the open sink (for the position heard), and the sink
        // holds this.
        let wake: @Sendable () -> Void = { [weak shared] in shared?.update { $0.woke = true } }
        var library = DecoderLibrary(measuresStartDelay: measuresStartDelay)
        let outbox = outbox, shared = shared
        let decoder = { (library: DecoderLibrary) -> SongDecoder in
            let decoder = SongDecoder(make: library.make)
            decoder.streamNews = { outbox.post(.stream(path: $0, news: $1)) }
            if let reconnects { decoder.streamLimits.reconnectTries = reconnects }
            decoder.streamTitle = { [weak shared] path, title, frame in
                shared?.update { state in
                    if state.titles.count >= EngineShared.titlesHeld { state.titles.removeFirst() }
                    state.titles.append((path, title, frame))
                }
            }
            return decoder
        }
        let live: AudioDecoder
        var spare: AudioDecoder?
        if target.isFile {
            // A file is written start to end, as fast as decoding goes: it has nothing to wait
            // for, and no seek to make fast. Its spare opens a song ahead only to crossfade.
            live = decoder(library)
            spare = decoder(library)
        } else {
            // Seeks matter where they are heard. Live output also opens the next song ahead, on
            // a second decoder, for gapless play; and both decode ahead on threads of their own,
            // so a slow disk is not heard.
            library.indexer = FrameIndexer()
            live = AheadDecoder.around(decoder(library), wake: wake)
            spare = AheadDecoder.around(decoder(library), wake: wake)
        }
        streams = [live.streams] + (spare.map { [$0.streams] } ?? [])
        // A song opening from the network is given up for one asked for after it, or for the end.
        for stream in streams {
            stream.isSuperseded = { [weak shared] in
                shared?.read { $0.shutdownAsked || $0.commands.contains(where: \.isOpen) } ?? true
            }
        }
        if let notice = choice.notice {
            outbox.post(.outputFallback(message: notice))
        }
        choice.primary.wakes(wake)
        let loop = PlaybackLoop(decoder: live, spare: spare, outputs: choice, clock: MonotonicClock(), fades: fades,
                                depth: bits.map { SampleEncoding.holding(bits: $0) }, shared: shared, spectrum: spectrumTap,
                                report: outbox.post)
        do {
            thread = try HelperThread.start(name: "tplayer-play") { loop.run() }
        } catch {
            throw OutputError(message: "cannot start the playback thread: \(error.reason)", isUsageError: false)
        }
    }

    deinit {
        _ = shutdown()
    }

    /// Readable when events are waiting.
    public var eventFD: Int32 { outbox.readFD }

    /// Events since the last call, oldest first.
    public func takeEvents() -> [EngineEvent] { outbox.take() }

    public func perform(_ call: EngineCall) {
        perform([call])
    }

    /// Makes `calls` together: the playback thread takes them as one (a stop and an open, a
    /// skip, are seen as one, and may fade into each other).
    public func perform(_ calls: [EngineCall]) {
        let made = calls.compactMap(prepared)
        guard !made.isEmpty else { return }
        // Pacing takes effect at once, under the lock; the rest is the playback thread's.
        shared.update { state in
            for call in made where !state.budget.apply(call) { state.commands.append(call) }
        }
        // A song still opening holds the playback thread while its server keeps it waiting:
        // stopped now, so that this one opens at once.
        if made.contains(where: \.isOpen) { streams.forEach { $0.supersede() } }
    }

    /// `call` as the playback thread takes it (bounded, a stream not cued); `nil`: nothing to do.
    private func prepared(_ call: EngineCall) -> EngineCall? {
        var call = call
        switch call {
        case .cue(let source):
            guard source != lastCue else { return nil }  // the session asks after everything it does
            lastCue = source
            // An internet stream is not opened ahead: connected to while another plays, a live
            // one would fill its buffer, be dropped by its server and reconnect unheard. Nothing
            // is cued instead; it opens when its turn comes (no gap to save: a stream has no end
            // to meet).
            if let source, source.isStream { call = .cue(nil) }
        case .setVolume(let fraction): call = .setVolume(min(max(fraction, 0), 1))
        case .setPitch(let value): call = .setPitch(EngineCall.pitch(value))
        case .setSpeed(let value): call = .setSpeed(EngineCall.speed(value))
        case .stop, .skip, .open, .play, .seek, .setOutputEnabled, .setReplayGain, .setEqualizer, .setGraphicEqualizer, .setCrossfade, .limitPlayback, .grant, .revokeGrant: break
        }
        return call
    }

    /// librubberband, loaded the first time a speed other than 1 is asked for.
    public var speedRefusal: String? {
        RubberBandLibrary.api == nil
            ? "a speed other than 1 needs librubberband (apt install librubberband2), which cannot be loaded" : nil
    }

    /// The spectrum of the last 2048 frames heard, in `bars` bars; `nil` before any is. The
    /// first call starts the recording of what is written; `hideSpectrum` stops it.
    public func spectrum(bars: Int) -> [Double]? {
        if !spectrumTap.wanted { spectrumTap.wanted = true }
        // What the sound server holds, asked outside the shared lock (libpulse's thread takes it
        // under its own).
        let holder = shared.read { $0.queueHolder }
        guard let (samples, rate) = spectrumTap.latest(SpectrumAnalysis.frameCount, queued: holder?.queuedFrames ?? 0) else { return nil }
        return analysis.bars(samples, rate: rate, count: bars)
    }

    public func hideSpectrum() {
        spectrumTap.wanted = false
    }

    /// The position heard: what a sound server still holds is not counted.
    public var position: Int64 { EngineShared.heard(shared) }
    public var grantLeft: AudioTime { shared.read { $0.budget.grantLeft } }

    /// Closes the output (writing a file's final header) and ends the playback thread, waiting
    /// at most `timeout` seconds for it: a frozen sound server never holds the player hostage.
    /// A file being written is given longer (its header makes it whole; on a machine busy
    /// enough, half a second was too short and the run ended saying the file was not finished).
    /// Safe to call twice.
    @discardableResult
    public func shutdown() -> EngineShutdown {
        shutdown(timeout: writesFile ? Self.fileShutdownSeconds : 0.5)
    }

    /// How long a file's writer is waited for at the end (a frozen disk is given up on after it).
    static let fileShutdownSeconds = 10.0

    @discardableResult
    public func shutdown(timeout: Double) -> EngineShutdown {
        guard let thread else { return .closed }
        self.thread = nil
        streams.forEach { $0.shutDown() }
        shared.update { $0.shutdownAsked = true }
        let finished = shared.wait(until: { $0.finished != nil }, timeout: timeout) { $0.finished }
        guard let finished else {
            pthread_detach(thread)
            return .timedOut
        }
        pthread_join(thread, nil)
        switch finished {
        case .success: return .closed
        case .failure(let failure): return .failed(failure.message)
        }
    }
}

/// Events from the playback thread to the main loop: a locked list, and a self-pipe that turns
/// readable when the list may hold something.
final class EventOutbox: @unchecked Sendable {
    // `@unchecked Sendable`: the list is only touched inside its lock; the pipe is thread-safe.
    private let events = Locked<[EngineEvent]>([])
    private let wake: SelfPipe

    init() throws(SystemError) {
        wake = try SelfPipe()
    }

    var readFD: Int32 { wake.readFD }

    func post(_ event: EngineEvent) {
        events.update { $0.append(event) }
        wake.wake()
    }

    func take() -> [EngineEvent] {
        _ = wake.drain()
        return events.update { list in
            defer { list.removeAll() }
            return list
        }
    }
}
