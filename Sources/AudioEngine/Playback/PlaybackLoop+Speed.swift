import PlayerCore

/// Speed without a change of pitch (`--speed`): the `SampleStage`'s stretcher, after the fades
/// and mpg123's 32-band equaliser, before the graphic equaliser and the volume. Position stays
/// song time: each frame written at a speed stands for `speed` frames of the song (the
/// stretcher counts them), and a sound server's queue is counted the same way
/// (`EngineShared.speed`). What the stretcher holds at a song's end is played out before what
/// follows, unless the next song carries on in the same format, gaplessly, through the same
/// stretcher.
extension PlaybackLoop {
    /// `chunk`'s samples (in `buffer`) at the speed: where they are to be written from, and the
    /// song frames they stand for. At the song's own speed, the samples as they are.
    func atSpeed(_ chunk: Held, format: PCMFormat) -> (samples: UnsafeRawBufferPointer, songFrames: Int64) {
        let samples = UnsafeRawBufferPointer(start: buffer, count: chunk.bytes)
        guard speed != 1 else { return (samples, Int64(chunk.bytes / format.bytesPerFrame)) }
        guard let stretcher = stage.stretcher(for: format, speed: speed) else {
            // librubberband refused this format: the song's own speed, said, and counted so.
            speed = 1
            shared.update { $0.speed = 1 }
            report(.outputFallback(message: "librubberband cannot stretch \(format): playing at the song's own speed"))
            return (samples, Int64(chunk.bytes / format.bytesPerFrame))
        }
        let out = stretcher.process(buffer, bytes: chunk.bytes, final: chunk.flush || chunk.end != nil,
                                    fadeTail: chunk.fadesOut, wanted: stage.filling ? prebuffer(format) : 0)
        if !out.samples.isEmpty { stage.filling = false }
        return out
    }

    /// The rate a script's budget is counted at: the song's over the speed, so that its time is
    /// the listener's (a second of it plays `speed` seconds of the song).
    func budgetRate(_ format: PCMFormat) -> Int {
        max(Int((Double(format.rate) * speed).rounded()), 1)
    }

    /// Bytes of `format` to gather before the first write after the stretcher starts (a start, a
    /// seek, a new speed), while a sound server's queue is nearly empty: what it has room for, up to its buffer, in one write, as the song's own
    /// speed writes it at once. Written a stretched chunk at a time instead, the server starts
    /// on the first and runs dry before the next; a sink that renders far ahead (a null sink,
    /// timer-scheduled ALSA: 0.9 s) then plays on past what was written, and drops it. 0
    /// elsewhere, and while a script keeps the queue short.
    private func prebuffer(_ format: PCMFormat) -> Int {
        guard onServer, let sink = slot.sink, !shared.read({ $0.budget.isLimited }),
              Double(sink.queuedFrames ?? 0) < Self.lowQueue * Double(sink.format.rate) else { return 0 }
        let most = Int(0.9 * Double(format.rate))  // as much as a sound server's queue of 1 s held
        let room = (sink.writableBytes ?? 0) / sink.format.bytesPerFrame
        return min(room > 0 ? room : most, most) * format.bytesPerFrame
    }

    /// A new speed, heard at once: on a sound server, what it holds at the old speed is dropped
    /// and the song taken back to the frame heard (as for a seek); elsewhere (a file, a device
    /// that cannot drop what it holds) what the stretcher holds is written first, so nothing of
    /// the song is lost.
    func changeSpeed(to value: Double) {
        guard value != speed else { return }
        if value != 1, RubberBandLibrary.api == nil {
            return report(.outputFallback(message:
                "a speed other than 1 needs librubberband (librubberband2), which cannot be loaded: playing at the song's own speed"))
        }
        if let sink = slot.sink, sink.canTakeBack { takeBackQueue() } else { flushStretcher() }
        speed = value
        stage.stretcher = nil
        shared.update { $0.speed = value }
    }

    /// Writes all the stretcher holds (nothing more follows it in its format). False when it
    /// held nothing.
    @discardableResult
    func flushStretcher() -> Bool {
        guard song != nil, held == nil, stage.stretcher?.holdsSong == true else { return false }
        held = Held(bytes: 0, flush: true)
        writeHeld()
        return true
    }

    /// At the clean end of `current`: writes what the stretcher holds, unless the cued song
    /// takes over in the same format (it then carries on through the same stretcher). True when
    /// it wrote (the end is read again at the next step, and goes on from there).
    func endStretching(_ current: Song) -> Bool {
        guard stage.stretcher?.holdsSong == true else { return false }
        if !shared.read({ $0.budget.isLimited }), next.cuedSong()?.format == current.format { return false }
        return flushStretcher()
    }

    /// Forgets what the stretcher holds (a seek, another song): what follows starts afresh.
    func restartStretching() {
        stage.stretcher?.reset()
        stage.filling = true
    }

    /// Song frames in the stretcher, not yet written: those of the song before, when the cued
    /// song takes over through it (its position starts that far below 0).
    var songFramesStretching: Int64 { stage.stretcher?.pendingSongFrames ?? 0 }
}
