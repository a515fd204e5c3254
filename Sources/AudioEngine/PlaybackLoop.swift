import Files
import PlayerCore

/// What other threads ask of the playback thread.
enum EngineCommand: Equatable, Sendable {
    case open(Path, token: Int)
    case play
    case stop
    case seek(SeekTarget)
    case volume(Double)
    /// The song that follows if the current one plays to its end (`nil`: none), opened ahead
    /// on the spare decoder so that it starts without a gap.
    case cue(Path?)
    case shutdown
}

/// What the playback thread shares with the rest of the process, behind one lock (`Locked`):
/// commands in, the script's budget, the play position, and how it ended.
struct EngineShared {
    var commands: [EngineCommand] = []
    var budget = PlaybackBudget()
    /// Frames of the current song handed to the output.
    var position: Int64 = 0
    /// Set by the playback thread as its last act: whether the output closed cleanly.
    var finished: Result<Void, OutputFailure>?
}

/// The playback thread's side of the engine: it alone owns the decoder and the output. It
/// decodes and writes a chunk at a time (40 ms on a live device), keeping time itself
/// (`WritePacer`): between chunks it waits on its command queue, so a key takes effect at once,
/// and a stop is heard once the little kept queued in the device has played.
///
/// Its state is one value, `phase`, and its seams are three protocols (`AudioDecoder`,
/// `AudioOutput`, `PlaybackClock`), so it is driven in tests, a command and a chunk at a time,
/// with fakes: a format change mid-song, a device that fails and comes back, a file that cannot
/// be written, a script's budget that runs out mid-chunk.
final class PlaybackLoop {
    /// How often a lost device is tried again.
    static let deviceRetrySeconds = 0.5
    /// How long a fade out or in takes on a live device: short enough not to be heard as one,
    /// long enough that nothing clicks.
    static let fadeSeconds = 0.01
    static let bufferCapacity = 1 << 16

    /// What the playback thread is doing.
    enum Phase: Equatable {
        /// Nothing to play: no song, stopped, or at the song's end.
        case idle
        case playing
        /// Playing, but the script's grant is used up: nothing more until the next one.
        case heldByBudget
        /// The device refused audio; it is tried again at `retryAt` (the `retries`th time).
        case deviceLost(retryAt: Double, retries: Int)
    }

    /// The open song: its token, what it is, and the format it decodes to now.
    struct Song {
        var token: Int
        let info: SongInfo
        var format: PCMFormat
    }

    private(set) var phase = Phase.idle
    private(set) var song: Song?
    private var decoder: AudioDecoder
    /// A second decoder, where the cued song is opened ahead (live output only).
    private var spare: AudioDecoder?
    /// The cued song, open on `spare`.
    private var cued: OpenedSong?
    /// The cued song took over at the end of the last one and plays, until the session's
    /// `open` for it arrives (it then keeps playing, adopted) or for another song.
    private var provisional = false
    private var output: AudioOutput
    private let fallback: AudioOutput?
    private var sink: AudioSink?
    private let clock: PlaybackClock
    private let shared: Locked<EngineShared>
    private let report: (EngineEvent) -> Void
    private var pacer: WritePacer
    /// Bytes decoded into `buffer` but not yet taken by the output (kept across a device loss).
    private var pending = 0
    /// Why the song ends early, once `pending` is written.
    private var earlyEnd: EarlyEnd?

    private enum EarlyEnd {
        /// libmpg123 found damage (its reason).
        case damaged(String)
        /// The file shrank while it played.
        case cutShort(was: Int64, now: Int64)
    }
    /// The grant to report as spent once `pending` is written.
    private var pendingSpent: Int?
    private let buffer: UnsafeMutableRawPointer
    /// Stop, play, seek, next and load fade out and in (live devices only: a file stays
    /// sample-identical to mpg123's).
    private let fades: Bool
    /// The next play starts with a fade in (the song was stopped or left with a fade out).
    private var fadeInNext = false
    /// Frames of the fade in still to come, and how long it is.
    private var fadeIn = (left: 0, length: 0)

    init(decoder: AudioDecoder, spare: AudioDecoder? = nil, outputs: OutputChoice, clock: PlaybackClock, fades: Bool = false,
         shared: Locked<EngineShared>, report: @escaping (EngineEvent) -> Void) {
        self.fades = fades && !outputs.primary.isFile
        self.decoder = decoder
        // A file is never starved: it is written start to end, song after song, as it is.
        self.spare = outputs.primary.isFile ? nil : spare
        output = outputs.primary
        fallback = outputs.fallback
        pacer = WritePacer(pacing: outputs.primary.pacing)
        self.clock = clock
        self.shared = shared
        self.report = report
        buffer = .allocate(byteCount: Self.bufferCapacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Runs until a `shutdown` command; never spins: with nothing to play it sleeps on the
    /// lock, a lost device is retried on a timer, and between chunks it waits for the next one
    /// to be due. A command ends any of these waits at once.
    func run() {
        while true {
            let rate = song?.format.rate
            let now = clock.now
            var timeout: Double?
            if case .deviceLost(let retryAt, _) = phase { timeout = max(retryAt - now, 0) }
            let due = nextWrite
            if let due { timeout = due - now }
            let commands = shared.wait(until: { [phase, pending] state in
                !state.commands.isEmpty
                    || due == nil && Self.hasWork(phase: phase, pending: pending, budget: state.budget, rate: rate)
            }, timeout: timeout) { state in
                guard !state.commands.isEmpty else { return [EngineCommand]() }
                defer { state.commands.removeAll(keepingCapacity: true) }
                return state.commands
            }
            for command in commands {
                if command == .shutdown { return finish() }
                execute(command)
            }
            step()
        }
    }

    private static func hasWork(phase: Phase, pending: Int, budget: PlaybackBudget, rate: Int?) -> Bool {
        switch phase {
        case .idle, .deviceLost: false
        case .playing, .heldByBudget: pending > 0 || rate.map(budget.allows) ?? false
        }
    }

    /// Closes the output (a file's final header) and says how that went.
    func finish() {
        var result: Result<Void, OutputFailure> = .success(())
        if let sink {
            self.sink = nil
            do { try sink.close() } catch { result = .failure(error) }
        }
        decoder.close()
        shared.update { $0.finished = result }
    }

    // MARK: Commands

    func execute(_ command: EngineCommand) {
        switch command {
        case .open(let path, let token): open(path, token: token)
        case .play:
            guard song != nil else { return }
            switch phase {
            case .idle:
                move(to: .playing)
                restartPacing()
                if fadeInNext { startFadeIn() }
            case .playing, .heldByBudget, .deviceLost: break  // already, or waiting for the device
            }
        case .stop:
            // While the cued song has taken over, a stop is the ended song's (a load from
            // Prepare stops what is there first): the song taking over plays on.
            if (phase == .playing || phase == .heldByBudget) && !provisional {
                fadeOut()
                move(to: .idle)
            }
        case .seek(let target):
            // While the cued song has taken over, a seek is the ended song's (its rewind).
            guard let song, !provisional else { return }
            let position = shared.read(\.position)
            let frame = target.frame(in: song.info, from: position)  // from where it was asked
            let playing = phase == .playing
            fadeOut()
            pending = 0
            pendingSpent = nil
            let started = clock.now
            if let landed = decoder.seek(toFrame: frame) {
                shared.update { $0.position = landed }
                report(.seeked(token: song.token, frame: landed, took: clock.now - started))
            } else {
                report(.decodeFailed(token: song.token, message: "cannot seek in this file"))
            }
            if playing, fadeInNext { startFadeIn() }
        case .volume(let fraction):
            decoder.setVolume(fraction)
            spare?.setVolume(fraction)
        case .cue(let path):
            cue(path)
        case .shutdown:
            break  // `run` ends the thread
        }
    }

    private func open(_ path: Path, token: Int) {
        if provisional, var current = song, current.info.path == path {
            // The song the list goes on to is the one that took over: it plays on, gaplessly.
            provisional = false
            current.token = token
            song = current
            report(.opened(current.info, token: token))
            return
        }
        provisional = false
        if case .deviceLost = phase {} else {
            fadeOut()  // a song left while it played (next, load); one that ended is already idle
            move(to: .idle)
        }
        song = nil
        pending = 0
        earlyEnd = nil
        pendingSpent = nil
        do throws(LoadFailure) {
            // A file keeps the format it started with: libmpg123 converts later songs to it.
            try decoder.restrictFormat(to: output.isFile ? sink?.format : nil)
            let opened = try decoder.open(path)
            decoder.promoted()
            song = Song(token: token, info: opened.info, format: opened.format)
            shared.update { $0.position = 0 }
            report(.opened(opened.info, token: token))
        } catch {
            report(.openFailed(LoadError(path: path, reason: error), token: token))
        }
    }

    // MARK: Chunks

    /// Does the next piece of work: a chunk decoded and written, a held chunk written, or a
    /// lost device tried again.
    func step() {
        switch phase {
        case .idle: return
        case .deviceLost(let retryAt, let retries):
            if clock.now >= retryAt { retryDevice(retries: retries) }
            return
        case .playing, .heldByBudget: break
        }
        guard let current = song else { return move(to: .idle) }
        if pending > 0 { return flush() }
        if nextWrite != nil { return }  // not due yet
        let format = current.format
        let chunk = min(max(Int(Double(format.rate) * pacer.chunk), 1), Self.bufferCapacity / format.bytesPerFrame)
        let ticket = shared.read { $0.budget.allowance(frames: chunk, rate: format.rate) }
        guard ticket.frames > 0 else { return move(to: .heldByBudget) }
        if phase == .heldByBudget {
            move(to: .playing)
            restartPacing()  // real time restarts from now, not from before the hold
        }
        switch decoder.read(into: buffer, capacity: ticket.frames * format.bytesPerFrame) {
        case .data(let bytes):
            take(bytes, ticket: ticket, format: format)
        case .newFormat(let next):
            song?.format = next
            formatChanged(to: next)
        case .done:
            if let cut = decoder.truncation {
                earlyEnd = .cutShort(was: cut.was, now: cut.now)
                flush()
            } else if !takeOverByCue(from: current) {
                move(to: .idle)
                report(.ended(token: current.token))
            }
        case .damaged(let bytes, let reason):
            // The last good bytes play; then the song ends there, as in mpg123. A file that
            // shrank while it played reads as damaged: that is said instead.
            earlyEnd = decoder.truncation.map { .cutShort(was: $0.was, now: $0.now) } ?? .damaged(reason)
            take(bytes, ticket: ticket, format: format)
        }
    }

    /// `bytes` decoded under `ticket`: charged to its grant, then written.
    private func take(_ bytes: Int, ticket: PlaybackBudget.Ticket, format: PCMFormat) {
        pending = bytes
        pendingSpent = shared.update { $0.budget.consume(ticket, frames: bytes / format.bytesPerFrame) }
        flush()
    }

    /// The stream's format changed mid-song. A live device is reopened (after draining) at the
    /// next write; a file cannot change format, so the decoder must have converted.
    private func formatChanged(to format: PCMFormat) {
        guard output.isFile, let sink, sink.format != format else { return }
        fail(with: "\(output.name): the song changes to \(format), which cannot be converted to the file's \(sink.format)")
    }

    private func keepFileFormat(_ format: PCMFormat) {
        do {
            try decoder.restrictFormat(to: format)
        } catch {
            fail(with: "\(output.name): cannot keep the file's format: \(error)")
        }
    }

    // MARK: The next song, ahead

    private func cue(_ path: Path?) {
        guard let spare, cued?.info.path != path else { return }
        cued = nil
        spare.close()
        guard let path else { return }
        do throws(LoadFailure) {
            try spare.restrictFormat(to: nil)
            cued = try spare.open(path)
        } catch {
            // Not now: the session's own open of it says why, in its turn.
        }
    }

    /// At the clean end of `current`: the cued song takes over at once, on the spare decoder,
    /// so the device never runs dry between the two, whatever the disk's latency. Not while a
    /// script paces playback (its next command may be anything). Reports `current` ended; the
    /// session's `open` of the cued song then finds it playing.
    private func takeOverByCue(from current: Song) -> Bool {
        guard let next = cued, let spare, !shared.read({ $0.budget.isLimited }) else { return false }
        cued = nil
        let finished = decoder
        decoder = spare
        self.spare = finished
        finished.close()
        decoder.promoted()
        song = Song(token: -1, info: next.info, format: next.format)
        provisional = true
        shared.update { $0.position = 0 }
        report(.ended(token: current.token))
        return true
    }

    // MARK: Fades

    private func fadeFrames(_ format: PCMFormat) -> Int {
        min(max(Int(Double(format.rate) * Self.fadeSeconds), 1), Self.bufferCapacity / format.bytesPerFrame)
    }

    /// On a live device, the next 10 ms of the song played with a falling gain, so what stops
    /// or jumps does not click. Charged to no script: it is not the script's audio.
    private func fadeOut() {
        guard fades, phase == .playing, pending == 0, let current = song else { return }
        fadeInNext = true
        let format = current.format
        switch decoder.read(into: buffer, capacity: fadeFrames(format) * format.bytesPerFrame) {
        case .data(let bytes):
            ramp(bytes: bytes, format: format, from: 1, to: 0)
            pending = bytes
            flush()
        case .newFormat(let next):
            song?.format = next
        case .done, .damaged:
            break  // nothing more to fade: the song is over anyway
        }
    }

    private func startFadeIn() {
        fadeInNext = false
        guard fades, let current = song else { return }
        let length = fadeFrames(current.format)
        fadeIn = (length, length)
    }

    /// Scales the first `bytes` of the buffer by a gain going linearly from `start` to `end`.
    private func ramp(bytes: Int, format: PCMFormat, from start: Double, to end: Double, over total: Int? = nil, skipping done: Int = 0) {
        let frames = bytes / format.bytesPerFrame
        let length = Double(total ?? frames)
        let samples = buffer.assumingMemoryBound(to: Int16.self)
        for frame in 0..<frames {
            let gain = start + (end - start) * Double(frame + done) / length
            for channel in 0..<format.channels {
                let index = frame * format.channels + channel
                samples[index] = Int16((Double(samples[index]) * gain).rounded())
            }
        }
    }

    /// Writes what is pending, opening or reopening the output for the song's format first.
    private func flush() {
        guard let current = song else { return }
        if pending > 0 {
            if fadeIn.left > 0 {
                let frames = min(fadeIn.left, pending / current.format.bytesPerFrame)
                ramp(bytes: frames * current.format.bytesPerFrame, format: current.format, from: 0, to: 1,
                     over: fadeIn.length, skipping: fadeIn.length - fadeIn.left)
                fadeIn.left -= frames
            }
            guard let sink = sink(for: current.format) else { return }
            let blocked: Bool
            let started = clock.now
            do {
                blocked = try sink.write(UnsafeRawBufferPointer(start: buffer, count: pending))
            } catch {
                return lose(sink, error, token: current.token)
            }
            let frames = pending / current.format.bytesPerFrame
            pending = 0
            shared.update { $0.position += Int64(frames) }
            let measured = pacer.capacity
            let now = clock.now
            pacer.wrote(Double(frames) / Double(current.format.rate), took: now - started, blocked: blocked, at: now)
            if measured == nil, let capacity = pacer.capacity {
                report(.deviceBuffer(seconds: capacity, kept: pacer.low...(pacer.low + pacer.chunk)))
            }
        }
        if let spent = pendingSpent {
            pendingSpent = nil
            report(.budgetSpent(id: spent))
        }
        if let end = earlyEnd {
            earlyEnd = nil
            move(to: .idle)
            switch end {
            case .damaged(let reason):
                let position = shared.read(\.position)
                report(.damaged(token: current.token, at: AudioTime(frames: position, rate: current.info.sampleRate), reason: reason))
            case .cutShort(let was, let now):
                report(.decodeFailed(token: current.token, message:
                    "the file was cut short while it played (\(was) bytes when it started, \(now) now)"))
            }
        }
    }

    /// The output, open for `format`. A live device is reopened when the format changes
    /// (closing drains it, so nothing is lost); a file keeps its first format.
    private func sink(for format: PCMFormat) -> AudioSink? {
        if let sink, sink.format == format || output.isFile { return sink }
        if let old = sink {
            sink = nil
            try? old.close()
        }
        do {
            let opened = try output.open(format)
            sink = opened
            // From here on the file's format is the only one the decoder may give: a stream
            // that changes format partway is converted, not written under the wrong header.
            if output.isFile { keepFileFormat(opened.format) }
            pacer = WritePacer(pacing: output.pacing)  // a new device: its buffer is measured anew
            restartPacing()
            return opened
        } catch {
            return fallBack(from: error, format: format)
        }
    }

    /// A live device that cannot be opened gives way to the null output paced in real time, so
    /// the player and its keys still work; a file that cannot be opened ends the run.
    private func fallBack(from error: OutputFailure, format: PCMFormat) -> AudioSink? {
        guard let fallback, fallback !== output else {
            fail(with: "\(output.name): \(error)")
            return nil
        }
        report(.outputFallback(message: "output \(output.name): \(error); playing silently in real time instead"))
        output = fallback
        return sink(for: format)
    }

    /// The output refused a write: a file ends the run; a live device is waited for.
    private func lose(_ failed: AudioSink, _ error: OutputFailure, token: Int) {
        sink = nil
        try? failed.close()
        guard !output.isFile else { return fail(with: "\(output.name): \(error)") }
        move(to: .deviceLost(retryAt: clock.now + Self.deviceRetrySeconds, retries: 0))
        report(.deviceLost(token: token, message: error.message))
    }

    private func retryDevice(retries: Int) {
        guard let current = song else { return move(to: .idle) }
        do {
            sink = try output.open(current.format)
        } catch {
            return move(to: .deviceLost(retryAt: clock.now + Self.deviceRetrySeconds, retries: retries + 1))
        }
        move(to: .idle)  // resumes (what is pending first) when the player says play
        report(.deviceRestored(token: current.token))
    }

    private func fail(with message: String) {
        pending = 0
        earlyEnd = nil
        move(to: .idle)
        report(.outputFailed(message: message))
    }

    private func move(to next: Phase) {
        guard next != phase else { return }
        phase = next
        report(.playback(next.reported))
    }

    /// When the next chunk is due, while playing ahead of it; `nil` when there is work now.
    var nextWrite: Double? {
        phase == .playing && pending == 0 ? pacer.nextWrite(at: clock.now) : nil
    }

    /// The output's buffer, once measured (the live device's, in seconds).
    var measuredBuffer: Double? { pacer.capacity }

    private func restartPacing() {
        pacer.restart(at: clock.now)
    }
}

extension PlaybackLoop.Phase {
    /// The phase as the rest of the player sees it (for `--trace`).
    var reported: PlaybackPhase {
        switch self {
        case .idle: .idle
        case .playing: .playing
        case .heldByBudget: .heldByBudget
        case .deviceLost(_, let retries): .waitingForDevice(retries: retries)
        }
    }
}
