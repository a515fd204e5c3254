import Files
import PlayerCore

/// The playback thread's side of the engine: it alone owns the decoder and the output. It
/// decodes and writes a chunk at a time (40 ms on a live device), keeping time itself
/// (`WritePacer`): between chunks it waits on its command queue, so a key takes effect at once,
/// and a stop is heard once the little kept queued in the device has played.
///
/// Its state is `phase`, the open `song` and a `held` chunk; the pieces with a life of their
/// own are values or objects of their own: the fades and the volume (`SampleStage`), the output and its pacing
/// (`OutputSlot`), the song opened ahead (`NextSong`). Its seams are three protocols
/// (`AudioDecoder`, `AudioOutput`, `PlaybackClock`), so it is driven in tests, a command and a
/// chunk at a time, with fakes: a format change mid-song, a device that fails and comes back, a
/// file that cannot be written, a script's budget that runs out mid-chunk.
final class PlaybackLoop {
    /// How often a lost device is tried again.
    static let deviceRetrySeconds = 0.5
    static let bufferCapacity = 1 << 16
    /// Less than this queued on a sound server is close to running dry.
    static let lowQueue = 0.25
    /// How long quitting lets a sound server play the fade out before the stream closes (the
    /// engine gives the thread half a second in all).
    static let quitting = 0.15

    /// What the playback thread is doing.
    enum Phase: Equatable {
        /// Nothing to play: no song, stopped, or at the song's end.
        case idle
        case playing
        /// Playing, but all that was decoded ahead has been written: the decoder's thread wakes
        /// the loop when it has more.
        case starved
        /// Playing, but the script's grant is used up: nothing more until the next one.
        case heldByBudget
        /// The device refused audio; it is tried again at `retryAt` (the `retries`th time).
        case deviceLost(retryAt: Double, retries: Int)
        /// The song's last frame is written; a sound server still plays what it holds.
        case draining
    }

    private(set) var phase = Phase.idle
    var song: Song?
    var held: Held?
    /// The frame of silence a sound server's queue ends on after `takeBackQueue`: its frames,
    /// the song frames the position counts it as (`EngineShared.filler`), and whether the next
    /// write goes over it. A fade out, a seek's new place or a new speed, written at once, go
    /// over it; what follows a stop or comes with another song comes later, and follows it (a
    /// write over a frame the server has played by then is not put where it was meant to be:
    /// PipeWire's server put one a few ms into what followed, a frame of silence heard there).
    var queueEnd: (frames: Int, songFrames: Int64, overwritten: Bool)?
    /// Frames written to the output since what is written stopped following on from the
    /// frame before: a seek, another song, a take-back, a resume. A take-back goes back no
    /// further: before them the queue holds another place, which the position does not count.
    var sinceSplice = 0
    /// While draining: when the song ends without the server's word (`checkDrained`).
    var drainEnds = 0.0
    /// The fade in what was written since then began with (its frames; 0: none).
    var spliceFadeIn = 0
    /// `PITCH` (mpg123's remote protocol): the song plays this fraction faster (and higher) on
    /// a live device, which is opened at the song's rate times `1 + pitch`.
    var pitch = 0.0
    /// `--speed`: the song plays this many times as fast at its own pitch (`PlaybackLoop+Speed`).
    var speed = 1.0
    var decoder: AudioDecoder
    var next: NextSong
    /// The crossfade at a song's end and a skip's fade: the other song mixed in while they overlap.
    let crossfader = Crossfader(capacity: PlaybackLoop.bufferCapacity)
    /// The song the session cued, whether opened ahead or not (a file opens it ahead only to
    /// crossfade: it is never starved).
    var cueWanted: SongSource?
    let slot: OutputSlot
    var stage: SampleStage
    let clock: PlaybackClock
    let shared: Locked<EngineShared>
    let report: (EngineEvent) -> Void
    let buffer: UnsafeMutableRawPointer
    /// The samples every song is written in (`--bits`), whatever its own; `nil`: its own.
    let depth: SampleEncoding?
    /// The ReplayGain mode in force (`--replaygain`, auto's choice, `-R`'s `RVA`).
    var replayGain = ReplayGainChoice.off
    /// What was written last, for the spectrum (recorded only while one is shown).
    let spectrum: SpectrumTap

    init(decoder: AudioDecoder, spare: AudioDecoder? = nil, outputs: OutputChoice, clock: PlaybackClock, fades: Bool = false,
         depth: SampleEncoding? = nil, shared: Locked<EngineShared>, spectrum: SpectrumTap = SpectrumTap(), report: @escaping (EngineEvent) -> Void) {
        stage = SampleStage(fades: fades && !outputs.primary.isFile)
        self.spectrum = spectrum
        self.depth = depth
        self.decoder = decoder
        next = NextSong(spare: spare)
        slot = OutputSlot(outputs)
        self.clock = clock
        self.shared = shared
        self.report = report
        buffer = .allocate(byteCount: Self.bufferCapacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Runs until `shutdown` is asked; never spins: with nothing to play it sleeps on the
    /// lock, a lost device is retried on a timer, and between chunks it waits for the next one
    /// to be due. A command ends any of these waits at once.
    func run() {
        while true {
            let rate = song.map { budgetRate($0.format) }  // as `step` asks the budget
            let now = clock.now
            var timeout: Double?
            if case .deviceLost(let retryAt, _) = phase { timeout = max(retryAt - now, 0) }
            if phase == .draining { timeout = Self.serverPoll }
            let due = nextWrite
            if let due { timeout = due - now }
            let (calls, ending) = shared.wait(until: { [phase, held] state in
                !state.commands.isEmpty || state.woke || state.shutdownAsked
                    || due == nil && Self.hasWork(phase: phase, holding: held != nil, budget: state.budget, rate: rate)
            }, timeout: timeout) { state in
                state.woke = false
                guard !state.commands.isEmpty else { return ([EngineCall](), state.shutdownAsked) }
                // Up to the first open: one that waits on the network is stopped by an open
                // behind it, which it can see only while that one is still queued.
                let taken = state.commands.firstIndex(where: \.isOpen).map { $0 + 1 } ?? state.commands.count
                defer { state.commands.removeFirst(taken) }
                return (Array(state.commands.prefix(taken)), state.shutdownAsked)
            }
            var index = calls.startIndex
            while index < calls.endIndex {
                // A skip and the open it is for (a next, a previous, a jump while playing),
                // made together: they fade into each other when a crossfade is on.
                if case .skip = calls[index], index + 1 < calls.endIndex, case .open(let source, let token) = calls[index + 1],
                   fadeBySkip(to: source, token: token) {
                    index += 2
                    continue
                }
                execute(calls[index])
                index += 1
            }
            if ending { return finish() }
            step()
            sayHeardTitles()
        }
    }

    private static func hasWork(phase: Phase, holding: Bool, budget: PlaybackBudget, rate: Int?) -> Bool {
        switch phase {
        case .idle, .deviceLost, .draining, .starved: false
        case .playing, .heldByBudget: holding || rate.map(budget.allows) ?? false
        }
    }

    /// Closes the output (a file's final header) and says how that went.
    func finish() {
        var result: Result<Void, OutputFailure> = .success(())
        // Quitting is heard at once, as a stop: a sound server's queue ends where the sink has
        // got to, faded out, and only that plays out before the stream closes.
        leaveWithAFade()
        do { try slot.close(within: Self.quitting) } catch { result = .failure(error) }
        decoder.close()
        holdQueue(of: nil)
        shared.update { $0.finished = result }
    }

    // MARK: Commands

    func execute(_ call: EngineCall) {
        switch call {
        case .open(let path, let token): open(path, token: token)
        case .play:
            guard let song, phase == .idle else { return }  // already, or waiting for the device
            sinceSplice = 0
            move(to: .playing)
            slot.restartPacing(at: clock.now)
            stage.fader.starting(song.format, capacity: Self.bufferCapacity)
        case .stop, .skip:
            // While the cued song has taken over, a stop is the ended song's (a load from
            // Prepare stops what is there first): the song taking over plays on.
            if phase.hasSong, song?.token != nil {
                // Play goes on from the frame after the last one heard (faded out, when fades are on).
                leaveWithAFade(stays: true)
                // What is left plays out whole, now: PipeWire's server holds back the last part
                // of a quantum until more comes (and played it, and the frame of silence after
                // it, only when play went on).
                slot.sink?.drain()
                move(to: .idle)
            }
        case .seek(let target):
            // While the cued song has taken over, a seek is the ended song's (its rewind).
            guard let song, let token = song.token else { return }
            let frame = target.frame(in: song.info, from: EngineShared.heard(shared))  // from where it was asked
            leaveWithAFade()
            let playing = phase.decodes  // a song draining its end plays on from the seek
            held = nil
            sinceSplice = 0
            let started = clock.now
            restartStretching()
            if let landed = seekSong(to: frame) {
                // The frame of silence the queue may end on counts as the song's until written over.
                let ending = queueEnd?.songFrames ?? 0
                shared.update { $0.position = landed + ending }
                report(.seeked(token: token, frame: landed, took: clock.now - started))
            } else {
                report(.decodeFailed(token: token, message: "cannot seek in this file"))
            }
            if playing { stage.fader.starting(song.format, capacity: Self.bufferCapacity) }
        case .setVolume(let fraction):
            stage.volume = fraction
            rewriteUnheard()  // heard at once, not after what a sound server holds
        case .setSpeed(let value):
            changeSpeed(to: value)
        case .setOutputEnabled(let index, let on):
            _ = (slot.output as? FanOutput)?.setEnabled(index, on)
        case .setPitch(let value):
            guard !slot.isFile, value != pitch else { return }
            takeBackQueue()  // the new speed heard at once: the device reopens at the next write
            pitch = value
        case .setReplayGain(let choice):
            decoder.setReplayGain(choice)
            next.setReplayGain(choice)
            replayGain = choice
            // A song whose gain the stage applies (one libmpg123 does not decode: FLAC, Vorbis,
            // Opus, FFmpeg's) takes the new mode at once, as a new volume does. An MP3 keeps the
            // gain libmpg123 applied as it opened: the mode is heard from the next MP3 opened.
            if var current = song, gain(of: current) != current.gain {
                current.gain = gain(of: current)
                song = current
                rewriteUnheard()
            }
        case .setEqualizer(let bands):
            decoder.setEqualizer(bands)
            next.setEqualizer(bands)
            stage.mpegEqualizer.set(bands)  // the other formats'; heard once what is queued has played, as libmpg123's
        case .setGraphicEqualizer(let gains):
            // Heard at once: what the server holds is equalised again from the frame heard.
            if !rewriteUnheard(changing: { $0.set(gains) }) { stage.equalizer.set(gains) }
        case .cue(let source):
            cueWanted = source
            if source != next.cued { dropEndFade() }  // a plan made for another cue is made again (`Crossfader.approach`)
            cueAhead()
        case .setCrossfade(let setting):
            crossfader.setting = setting
            if crossfader.overlap == nil { crossfader.plan = .undecided }
            cueAhead()
        case .limitPlayback, .grant, .revokeGrant:
            shared.update { _ = $0.budget.apply(call) }  // made on the budget by `Engine` already
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
        case .draining: return checkDrained()
        case .playing, .heldByBudget, .starved: break
        }
        guard let current = song else { return move(to: .idle) }
        if held != nil { return writeHeld() }
        if nextWrite != nil { return }  // not due yet
        let format = current.format
        // Counted in the song's frames: at a speed, a chunk of output holds `speed` times as many.
        var chunk = min(max(Int(Double(format.rate) * slot.pacer.chunk * speed), 1), Self.bufferCapacity / format.bytesPerFrame)
        if onServer {
            chunk = min(chunk, serverFrames(for: format))
            guard chunk > 0 else {
                slot.sink?.playWhatIsWritten()  // a script keeps the queue short: it never fills
                return  // the server's next request wakes the loop
            }
        }
        // A script's time is the listener's: at a speed, a second of it plays `speed` seconds of the song.
        let ticket = shared.read { $0.budget.allowance(frames: chunk, rate: budgetRate(format)) }
        guard ticket.frames > 0 else {
            slot.sink?.playWhatIsWritten()
            return move(to: .heldByBudget)
        }
        if phase == .heldByBudget {
            move(to: .playing)
            slot.restartPacing(at: clock.now)  // real time restarts from now, not from before the hold
        }
        let result = readSong(current, capacity: ticket.frames * format.bytesPerFrame)
        if phase == .starved, result != .pending { move(to: .playing) }
        switch result {
        case .pending:
            starve()
        case .data(let bytes):
            hold(bytes, ticket: ticket, format: format)
        case .newFormat(let next):
            flushStretcher()  // what it holds is in the format before
            song?.format = next
            formatChanged(to: next)
        case .skipped(let seconds):
            // Everything before it has been written: the place is where the damage was.
            let at = AudioTime(frames: shared.read(\.position), rate: current.info.sampleRate)
            song?.skippedDamage = true
            report(of: current) { .damageSkipped(token: $0, at: at, seconds: seconds) }
        case .done:
            if endStretching(current) { return }  // what the stretcher held is written; the end is read again next
            if let cut = decoder.truncation {
                held = Held(bytes: 0, end: .cutShort(was: cut.was, now: cut.now), flush: true)
                writeHeld()
            } else if let short = endsShort(current) {
                held = Held(bytes: 0, end: .damaged(short), flush: true)
                writeHeld()
            } else if !takeOverByCue(from: current) {
                endOfSong(current)
            }
        case .damaged(let bytes, let reason):
            // The last good bytes play; then the song ends there, as in mpg123. A file that
            // shrank while it played reads as damaged: that is said instead.
            hold(bytes, ticket: ticket, format: format,
                 end: decoder.truncation.map { .cutShort(was: $0.was, now: $0.now) } ?? .damaged(reason))
        }
    }

    /// Why a song that has ended was cut short: its audio ends before the length its header
    /// states exactly (as `--check` says it); `nil` when it played whole.
    private func endsShort(_ current: Song) -> String? {
        // After damage skipped, what is missing is the damage (as `--check` judges it too).
        guard decoder.lengthIsExact, !current.skippedDamage, let declared = current.info.totalFrames else { return nil }
        // What the stretcher holds was decoded: it plays out through the next song.
        let played = shared.read(\.position) + songFramesStretching
        guard played + Int64(current.format.rate / 20) < declared else { return nil }
        return "the file ends there, but its header says \(TimeFormat.precise(current.info.seconds(declared))); was it cut short?"
    }

    /// `bytes` decoded under `ticket`: charged to its grant, then written.
    private func hold(_ bytes: Int, ticket: PlaybackBudget.Ticket, format: PCMFormat, end: EarlyEnd? = nil) {
        let spent = shared.update { $0.budget.consume(ticket, frames: bytes / format.bytesPerFrame) }
        held = Held(bytes: bytes, spentGrant: spent, end: end)
        writeHeld()
    }

    /// Leaves what plays (a stop, a seek, another song, quitting) as soon as can be: a sound
    /// server's queue is taken back as far as it can be (`takeBackQueue`), and on a live device
    /// a fade out follows, from the gain the audio has there.
    /// `stays`: what follows comes later (a stop, another song): without a fade, the frame of
    /// silence the queue ends on stays there.
    func leaveWithAFade(stays: Bool = false) {
        fadeOut(from: takeBackQueue())
        if stays { queueEnd?.overwritten = false }
    }

    /// On a live device, the next 10 ms of the song played with a gain falling from `from`, so
    /// what stops or jumps does not click. Charged to no script: it is not the script's audio.
    private func fadeOut(from: Double) {
        guard stage.fader.enabled, phase == .playing, held == nil, let current = song else { return }
        stage.fader.fadedOut()
        // Taken back to where the last fade in had not begun: silence there already.
        guard from > 0 else { return }
        let format = current.format
        switch readSong(current, capacity: Fader.frames(in: format, capacity: Self.bufferCapacity) * format.bytesPerFrame) {
        case .data(let bytes):
            Fader.ramp(buffer, frames: bytes / format.bytesPerFrame, format: format, from: from, to: 0)
            held = Held(bytes: bytes, flush: true, fadesOut: true)  // all of it heard, through the stretcher too
            writeHeld()
        case .newFormat(let next):
            flushStretcher()
            song?.format = next
        case .done, .damaged, .pending, .skipped:
            break  // nothing more to fade: the song is over anyway, or the disk is slow
        }
    }

    func move(to next: Phase) {
        guard next != phase else { return }
        let before = phase.reported
        phase = next
        if next.reported != before { report(.playback(next.reported)) }
    }

    /// The decoder has nothing yet. Said (for `--trace`) only when the output is about to run
    /// dry: a sound server's buffer, filled at the start faster than the decoder's thread
    /// decodes, is not a slow disk.
    private func starve() {
        guard phase != .starved else { return }
        slot.sink?.playWhatIsWritten()  // a stream held back until it is full plays what it has
        move(to: .starved)
        let format = song?.format
        let queued = slot.sink?.queuedFrames.flatMap { frames in format.map { Double(frames) / Double($0.rate) } }
        if queued.map({ $0 < Self.lowQueue }) ?? true { report(.playback(.waitingForDecoder)) }
    }

    /// When the next chunk is due, while playing ahead of it; `nil` when there is work now.
    var nextWrite: Double? {
        guard phase == .playing, held == nil, let format = song?.format else { return nil }
        if onServer {
            // No room: the server's request wakes the loop, or this poll (a script's short queue).
            return serverFrames(for: format) > 0 ? nil : clock.now + Self.serverPoll
        }
        return slot.pacer.nextWrite(at: clock.now)
    }

    /// The output's buffer, once measured (the live device's, in seconds).
    var measuredBuffer: Double? { slot.pacer.capacity }
}
