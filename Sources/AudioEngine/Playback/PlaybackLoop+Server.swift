import PlayerCore

/// What the playback loop does differently on a sound server's stream (`Pacing.server`): it
/// writes when the server has room, up to a second ahead of what is heard, and so before
/// anything that must be heard at once (a stop, a seek, the next song) it takes back what the
/// server holds beyond what its sink may have rendered, and takes the decoder back to the frame
/// there: what is written next goes over it, a fade first; for a new volume it writes what the
/// server holds again, over itself, from the `UnheardTail`, at the new volume. At the end of a
/// song it waits for what is queued to play before it says the song ended.
extension PlaybackLoop {
    /// How often the queue is looked at while it drains, or while a script's grant keeps it short.
    static let serverPoll = 0.02
    /// While a script paces playback, no more than this is queued ahead of what is heard, so its
    /// next command (a stop, a seek) comes when its audio has been heard, as on a device.
    static let scriptedAhead = 0.1

    var onServer: Bool { slot.pacer.pacing == .server }

    /// Bytes to decode and write now on a server's stream: what it has room for, at most a
    /// buffer; 0 when it has no room (the loop waits for its request, or for `serverPoll`).
    func serverRoom(for format: PCMFormat) -> Int {
        guard let sink = slot.sink, sink.format == outputFormat(format) else { return Self.bufferCapacity }  // opened at the write
        if shared.read({ $0.budget.isLimited }),
           Double(sink.queuedFrames ?? 0) > Self.scriptedAhead * Double(sink.format.rate) {
            return 0
        }
        // The server counts its room in its stream's format, which `--bits` may make another
        // depth than the song's: counted in frames, then in the song's bytes.
        let frames = min(sink.writableBytes ?? Self.bufferCapacity, Self.bufferCapacity) / sink.format.bytesPerFrame
        return min(frames * format.bytesPerFrame, Self.bufferCapacity / format.bytesPerFrame * format.bytesPerFrame)
    }

    /// The song's frames to decode now on a server's stream: what fills its room at the speed
    /// (0 until a whole frame does: the loop waits, never spins).
    func serverFrames(for format: PCMFormat) -> Int {
        Int(Double(serverRoom(for: format) / format.bytesPerFrame) * speed)
    }

    /// Takes back what the server holds beyond what its sink may have rendered and moves the
    /// decoder back to the frame there, so that what is written next is heard as soon as can
    /// be, right after what was already on its way: the stream ends there now (on a frame of
    /// silence, which the next write replaces), and the next write goes over it. Nothing that
    /// was rendered is taken back: a sink that hands on what it renders (a null sink's monitor,
    /// a recorder, a stream to other rooms) has already passed it on, and a fade written over
    /// it would be lost there, a click in its place. Nothing on other outputs.
    /// Returns the gain the audio has where the queue now ends (less than 1 within the fade in
    /// that began what was written since the last splice): where a fade out starts.
    @discardableResult
    func takeBackQueue() -> Double {
        // Stopped, what is queued is the fade out that ended the song: it plays out.
        guard phase.hasSong, let sink = slot.sink, sink.canTakeBack, song != nil else { return 1 }
        if sink.dropIfUnplayed() { return restartUnheard() }
        let back = min(sink.replaceableFrames, sinceSplice)
        // Where that is in the fade in what was written since began with, if it is: a fade
        // out from there starts at the gain it has there, and without one, the fade in goes on.
        let kept = sinceSplice - back
        let gain = Fader.gain(at: kept, afterFadeIn: spliceFadeIn)
        stage.fader.takenBack(toFrame: kept, ofFadeIn: spliceFadeIn)
        sinceSplice = 0
        stage.tail.reset()
        held = nil
        // The decoder is past what was written by what the stretcher holds.
        let written = shared.read(\.position)
        let decoded = written + songFramesStretching
        restartStretching()
        let splice = written - EngineShared.songFrames(back, at: speed)
        if back > 0, splice < decoded {
            // The stream ends there at once, before the decoder seeks (which may take a while):
            // the sink goes on taking what it holds meanwhile.
            replaceQueue(back, on: sink)
            // Where it cannot seek (a stream from the network), it goes on from where it was.
            let landed = seekSong(to: max(splice, 0)) ?? decoded
            let ending = queueEnd?.songFrames ?? 0
            shared.update { $0.position = landed + ending }
        } else if decoded > written, let landed = seekSong(to: max(written, 0)) {
            shared.update { $0.position = landed }  // what the stretcher held is decoded again
        } else {
            shared.update { $0.position = decoded }  // all of it on its way (after a take-over: from 0)
        }
        if phase == .draining { move(to: .playing) }
        return gain
    }

    /// Nothing the output held was heard, and it dropped it all: the decoder goes back to the
    /// first frame written since the last splice (what was before it was another place, not
    /// heard either), and what follows starts the stream again. No fade out: nothing plays.
    private func restartUnheard() -> Double {
        stage.tail.reset()
        held = nil
        forgetQueueEnd()
        let written = shared.read(\.position)
        let decoded = written + songFramesStretching
        restartStretching()
        let first = written - EngineShared.songFrames(sinceSplice, at: speed)
        sinceSplice = 0
        let landed = seekSong(to: max(first, 0)) ?? decoded
        shared.update { $0.position = landed }
        if phase == .draining { move(to: .playing) }
        return 0
    }

    /// The stream the queue's end was on is gone: the position no longer counts it.
    func forgetQueueEnd() {
        guard let end = queueEnd else { return }
        queueEnd = nil
        shared.update {
            $0.position -= end.songFrames
            $0.filler = 0
        }
    }

    /// Ends the stream `frames` before its end, on a frame of silence that the next write
    /// goes over (`queueEnd`; the position, set by the caller, counts it).
    private func replaceQueue(_ frames: Int, on sink: AudioSink) {
        let format = sink.format
        let silence = [UInt8](repeating: format.encoding == .u8 ? 0x80 : 0, count: format.bytesPerFrame)
        let ended = silence.withUnsafeBytes { bytes in
            do {
                try sink.write(bytes, over: frames)
                return true
            } catch {
                return false  // the next write finds the device gone, and waits for it
            }
        }
        let counted = EngineShared.songFrames(1, at: speed)
        queueEnd = ended ? (1, counted, true) : nil
        shared.update { $0.filler = ended ? counted : 0 }
    }

    /// A new volume, gain or equaliser setting (`change`), heard at once: what the server holds
    /// and has not played is written again over itself from the tail (kept before the equaliser
    /// and the volume), the equaliser brought from its state at the write before to the frame
    /// heard, changed there (its cross-fade starts at the frame heard), and on. Nothing is
    /// decoded again. False where the tail does not hold all of it (the song before still
    /// playing out, a format just changed) or the song is draining its end: the change is then
    /// heard once what is queued has played.
    @discardableResult
    func rewriteUnheard(changing change: (inout GraphicEqualizer) -> Void = { _ in }) -> Bool {
        guard let sink = slot.sink, sink.canTakeBack, song != nil, held == nil, phase != .draining,
              let queued = sink.rewritableFrames, queued > 0, EngineShared.songFrames(queued, at: speed) <= shared.read(\.position),
              let (state, lead, unheard) = stage.tail.replay(queued, of: sink), let format = stage.tail.format else { return false }
        // The bands in force (set while nothing could be written again, they are newer than
        // the snapshot's), from the frame heard on.
        let live = stage.equalizer.gains
        stage.equalizer = state.equalizer
        stage.dither = state.dither
        forEachChunk(of: lead, format: format) { count in stage.equalize(buffer, bytes: count, format: format) }
        stage.equalizer.set(live)
        change(&stage.equalizer)
        stage.tail.restarted(queued, with: stage.snapshot)
        let gain = song?.gain ?? 1
        var failed = false
        // Written over the frames the server holds, in place: the first write goes back by all
        // of them, the rest follow it. The stream never runs dry (a flush would empty it), as
        // long as the first write reaches past what the server has handed its sound card: so
        // it is a whole buffer (371 ms of CD audio), never the odd end of the tail's ring.
        var back = queued
        forEachChunk(of: unheard, format: format) { count in
            guard !failed else { return }
            // As `writeHeld` writes them, in the stream's samples (`--bits`).
            let written = stage.afterSpeed(buffer, bytes: count, format: format, for: sink.format.encoding, gain: gain)
            do {
                try sink.write(written, over: back)
                back = 0
            } catch {
                failed = true  // the next write finds the device gone, and waits for it
            }
        }
        return true
    }

    /// Copies `pieces` into `buffer` a buffer's worth of whole frames at a time, across the
    /// pieces' edges (every chunk a whole buffer but the last), and hands each to `body` (its
    /// byte count).
    private func forEachChunk(of pieces: [UnsafeRawBufferPointer], format: PCMFormat, _ body: (Int) -> Void) {
        let most = Self.bufferCapacity / format.bytesPerFrame * format.bytesPerFrame
        var filled = 0
        for piece in pieces {
            var offset = 0
            while offset < piece.count {
                let count = min(piece.count - offset, most - filled)
                (buffer + filled).copyMemory(from: piece.baseAddress! + offset, byteCount: count)
                offset += count
                filled += count
                if filled == most {
                    body(filled)
                    filled = 0
                }
            }
        }
        if filled > 0 { body(filled) }
    }

    /// The song's last frame was written: on a server's stream, what it holds plays out first.
    func endOfSong(_ current: Song) {
        // A file is made though nothing was written to it (`--start 100%`, a song of no
        // frames): the file asked for is there, with no audio in it, not missing after exit 0.
        if slot.isFile, slot.sink == nil { openFile(for: current) }
        guard onServer, let sink = slot.sink else { return ended(current) }
        sink.drain()
        // What it holds has played by then, unless the server never says so.
        let rate = max(sink.format.rate, 1)
        let queued = Double(sink.queuedFrames ?? 2 * rate) / Double(rate)
        drainEnds = clock.now + min(queued, Self.longestDrain) + Self.drainGrace
        move(to: .draining)
    }

    /// A drain may take what the stream holds (at most this, whatever the server says) and this
    /// much more before the song ends without the server's word.
    static let longestDrain = 30.0
    static let drainGrace = 3.0

    /// While draining: the song has ended once the server says all of it has played (as mpv and
    /// paplay wait for it: an estimate from the latency ended songs early on some sinks). A
    /// server that never says so (stopped, or its sink no longer playing) does not hold the list
    /// at the song's end for ever: past `drainEnds` it goes on without its word, as mpv gives up
    /// on a drain that outlasts what was queued.
    func checkDrained() {
        guard let current = song else { return }
        if slot.sink?.isDrained ?? true { return ended(current) }
        guard clock.now >= drainEnds else { return }
        report(.outputNotice(message: "the sound server never said the song had played: going on without it"))
        ended(current)
    }

    private func ended(_ current: Song) {
        move(to: .idle)
        report(of: current) { .ended(token: $0) }
    }
}
