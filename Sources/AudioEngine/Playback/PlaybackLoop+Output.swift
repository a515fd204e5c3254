import PlayerCore

/// The playback loop's writing: the held chunk to the output, opened for its format, and what
/// happens when the output fails (a file ends the run; a live device is waited for).
extension PlaybackLoop {
    /// Writes what is held, opening or reopening the output for the song's format first; then
    /// reports the grant it used up and the early end it carried.
    func writeHeld() {
        guard let current = song, var chunk = held else { return }
        let format = current.format
        if chunk.bytes > 0 || chunk.flush && stage.stretcher != nil {
            let played = outputFormat(format)
            guard let sink = openSink(for: played, song: current) else { return }
            slot.announce(current.source, info: current.info, on: sink)
            if chunk.output == nil {
                // Once, though the chunk may be written again (a device lost and found).
                if sinceSplice == 0 {
                    spliceFadeIn = stage.fader.fadeInLeft == stage.fader.fadeInLength ? stage.fader.fadeInLength : 0
                }
                stage.fader.fadeIn(buffer, bytes: chunk.bytes, format: format)
                // `-R`'s EQ: libmpg123 applies it to what it decodes; the stage to the rest.
                if !current.appliedInDecoder.contains(.mpegEqualizer) { stage.equalizeAsMpeg(buffer, bytes: chunk.bytes, format: format) }
                let (samples, songFrames) = atSpeed(chunk, format: format)
                chunk.owner = samples.baseAddress == UnsafeRawPointer(buffer) ? nil : stage.stretcher
                if sink.canTakeBack { stage.tail.record(samples, format: format, to: sink, state: stage.snapshot) }
                if let base = samples.baseAddress {
                    stage.finish(UnsafeMutableRawPointer(mutating: base), bytes: samples.count, format: format,
                                 for: played.encoding, gain: current.gain)
                }
                chunk.output = samples
                chunk.songFrames = songFrames
                held = chunk
            }
            let samples = chunk.output ?? UnsafeRawBufferPointer(start: buffer, count: 0)
            let frames = samples.count / format.bytesPerFrame
            if frames > 0 {
                let written = stage.encode(samples, format: format, for: played.encoding, gain: current.gain)
                do {
                    spectrum.record(written, encoding: played.encoding, channels: played.channels, rate: played.rate)
                    let measured = try slot.write(written, seconds: Double(frames) / Double(played.rate),
                                                  over: queueEnd.map { $0.overwritten ? $0.frames : 0 } ?? 0, to: sink, clock: clock)
                    forgetQueueEnd()
                    if let notice = slot.output.takeNotice() { report(.outputNotice(message: notice)) }
                    sinceSplice += frames
                    if onServer, !sink.keepsTime { paceByClock() }
                    if let measured {
                        let pacer = slot.pacer
                        report(.deviceBuffer(seconds: measured, kept: pacer.low...(pacer.low + pacer.chunk)))
                    }
                } catch {
                    return lose(error, song: current)
                }
            }
            shared.update { $0.position += chunk.songFrames }
        }
        held = nil
        if let spent = chunk.spentGrant { report(.budgetSpent(id: spent)) }
        guard let end = chunk.end else { return }
        move(to: .idle)
        switch end {
        case .damaged(let reason):
            let position = shared.read(\.position)
            report(of: current) { .damaged(token: $0, at: AudioTime(frames: position, rate: current.info.sampleRate), reason: reason) }
        case .cutShort(let was, let now):
            report(of: current) { .decodeFailed(token: $0, message:
                "the file was cut short while it played (\(was) bytes when it started, \(now) now)") }
        }
    }

    /// What reaches the output for a song in `format`: the driver or file, and the samples.
    func played(_ format: PCMFormat) -> String {
        slot.output.settleName()
        let output = outputFormat(format)
        let converted = output.encoding == format.encoding ? "" : " (from \(format.sampleName))"
        return "\(slot.isFile ? "the file" : slot.output.name): \(output.sampleName)\(converted), \(output.rate) Hz, \(ChannelLayout.name(output.channels))"
    }

    /// Sets the sink whose queue the position heard leaves out. The sink it replaces is let go
    /// only after the lock is released: letting go of a PulseAudio stream takes libpulse's lock,
    /// and libpulse's thread takes this one (to wake the playback thread) while it holds its
    /// own. Done under the lock, reopening the stream (a new format, a pitch) deadlocked.
    func holdQueue(of sink: AudioSink?) {
        let replaced = shared.update { state -> AudioSink? in
            defer { state.queueHolder = sink }
            return state.queueHolder
        }
        withExtendedLifetime(replaced) {}
    }

    /// What the device is opened for to play `format`: its rate changed by the pitch (a file
    /// is written as decoded).
    /// A pitch takes the rate no higher than the output plays (mpg123 stops at the hardware's
    /// limit too), and no lower than 1 Hz.
    /// Samples are written in `depth` when one is set (`--bits`); those the output does not
    /// take, in the nearest it does (`encoding(toPlay:)`).
    func outputFormat(_ format: PCMFormat) -> PCMFormat {
        var played = format
        let encoding = slot.output.encoding(toPlay: depth ?? format.encoding)
        if encoding != format.encoding {
            played = PCMFormat(rate: format.rate, channels: format.channels, encoding: encoding)
        }
        guard pitch != 0, !slot.isFile, slot.output.fixedFormat == nil else { return played }
        let rate = min(max((Double(format.rate) * (1 + pitch)).rounded(), 1), Double(slot.output.highestRate))
        played.rate = rate.isFinite ? Int(rate) : format.rate
        return played
    }

    /// Opens the file for `current`'s samples, nothing written to it yet.
    func openFile(for current: Song) {
        _ = openSink(for: outputFormat(current.format), song: current)
    }

    /// The output open for `format`, or `nil` when nothing can be written (said, and the song
    /// stopped; a format the output refuses fails only `song`).
    private func openSink(for format: PCMFormat, song current: Song) -> AudioSink? {
        switch slot.sink(for: format, at: clock.now) {
        case .ready(let sink, let isNew):
            // A file's format is the one its first song was opened to keep (`FormatRule.first`).
            guard isNew else { return sink }
            forgetQueueEnd()  // what was to be gone over was another stream's
            sinceSplice = 0
            // The position heard leaves out what the sink holds, where it can say (a sound
            // server's stream; snapserver's, whose rooms hear it a buffer later).
            holdQueue(of: sink.canTakeBack || sink.queuedFrames != nil ? sink : nil)
            if let granted = sink.grantedBuffer {
                report(.deviceBuffer(seconds: granted.length, kept: max(granted.length - granted.request, 0)...granted.length))
            }
            return sink
        case .fellBack(let sink, let notice):
            holdQueue(of: nil)
            report(.outputFallback(message: notice))
            return sink
        case .failed(let message):
            fail(with: message)
            return nil
        case .refused(let message):
            held = nil
            move(to: .idle)
            report(of: current) { .decodeFailed(token: $0, message: message) }
            return nil
        }
    }

    /// The stream's format changed mid-song. A live device is reopened (after draining) at the
    /// next write; a file cannot change format, so the decoder must have converted.
    func formatChanged(to format: PCMFormat) {
        guard slot.isFile, let sink = slot.sink, sink.format != format else { return }
        fail(with: "\(slot.name): the song changes to \(format), which cannot be converted to the file's \(sink.format)")
    }

    /// The sound server's sink takes audio faster than real time (`SinkPace`): from now on the
    /// output is held to the clock, and what was written is taken as heard. Said once.
    private func paceByClock() {
        slot.paceByClock(at: clock.now)
        holdQueue(of: nil)
        report(.outputFallback(message: "\(slot.name): the sink takes audio faster than it could play it (it keeps no time: "
                                 + "a pipe read faster than real time?); playing paced by the clock instead"))
    }

    /// The output refused a write: a file ends the run; a live device is waited for, what was
    /// held kept for it.
    private func lose(_ error: OutputFailure, song current: Song) {
        slot.drop()
        forgetQueueEnd()
        guard !slot.isFile else { return fail(with: "\(slot.name): \(error)") }
        move(to: .deviceLost(retryAt: clock.now + Self.deviceRetrySeconds, retries: 0))
        report(of: current) { .deviceLost(token: $0, message: error.message) }
    }

    func retryDevice(retries: Int) {
        guard let current = song else { return move(to: .idle) }
        do {
            try slot.reopen(outputFormat(current.format))
        } catch {
            return move(to: .deviceLost(retryAt: clock.now + Self.deviceRetrySeconds, retries: retries + 1))
        }
        move(to: .idle)  // resumes (what is held first) when the player says play
        report(of: current) { .deviceRestored(token: $0) }
    }

    private func fail(with message: String) {
        held = nil
        move(to: .idle)
        report(.outputFailed(message: message))
    }
}
