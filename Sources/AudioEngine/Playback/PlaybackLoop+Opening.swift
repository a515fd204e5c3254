import Files
import PlayerCore

/// A song opened for the loop: what reaches the output for it, and its ReplayGain.
extension PlaybackLoop {
    /// `opened` as the song playing: what reaches the output for it, and its ReplayGain in the
    /// mode in force where the stage applies it (said in its details as applied).
    func song(_ opened: OpenedSong, source: SongSource, token: Int?) -> Song {
        var info = opened.info
        info.played = played(opened.format)
        if !opened.appliedInDecoder.contains(.replayGain), let applied = info.replayGain.applied(replayGain) {
            info.appliedGain = applied.decibels
        }
        var made = Song(token: token, source: source, info: info, format: opened.format, appliedInDecoder: opened.appliedInDecoder)
        made.gain = gain(of: made)
        return made
    }

    /// `song`'s ReplayGain factor in the mode in force, where the stage applies it.
    func gain(of song: Song) -> Double {
        guard !song.appliedInDecoder.contains(.replayGain) else { return 1 }
        return song.info.replayGain.applied(replayGain)?.factor ?? 1
    }

    /// What the decoders give for this output: a file's first format, an output's one format,
    /// or each song's own.
    var formatRule: FormatRule {
        if slot.isFile { return slot.sink.map { .exactly($0.format) } ?? .first }
        let fixed = slot.output.fixedFormat
        if let notice = slot.output.takeNotice() { report(.outputNotice(message: notice)) }
        return fixed.map { .exactly($0) } ?? .any
    }

    func open(_ source: SongSource, token: Int) {
        if var current = song, current.token == nil, current.source == source {
            // The song the list goes on to is the one that took over: it plays on, gaplessly.
            current.token = token
            song = current
            report(.opened(current.info, token: token))
            return
        }
        shared.update { $0.titles.removeAll() }  // a stream's from before (the same URL again) are not this one's
        if case .deviceLost = phase {} else {
            leaveWithAFade(stays: true)  // a song left while it played (next, load); one that ended is already idle
            move(to: .idle)
        }
        sinceSplice = 0
        song = nil
        held = nil
        crossfader.abandon(&next)
        crossfader.restart(at: 0)
        stage.tail.reset()
        restartStretching()
        do throws(LoadFailure) {
            // A file keeps the format its first song starts in, from the first sample on (a
            // short first part too): libmpg123 converts the rest, and the later songs, to it.
            // An output that takes one format (a Snapcast stream's) has every song converted to it
            // (asked again here, where the song before is already left: never while one plays).
            slot.output.refreshFormat()
            try decoder.restrictFormat(to: formatRule)
            let opened = try decoder.open(source)
            decoder.promoted()
            let opening = song(opened, source: source, token: token)
            song = opening
            let ending = queueEnd?.songFrames ?? 0  // the frame of silence the queue may end on
            shared.update { $0.position = ending }
            report(.opened(opening.info, token: token))
        } catch .playlist(let served) {
            report(.servedPlaylist(served, path: source.path, token: token))
        } catch {
            report(.openFailed(LoadError(path: source.path, reason: error), token: token))
        }
    }

    // MARK: The song's decoder, with the crossfade

    /// At the clean end of `current`: the cued song takes over at once, on the spare decoder,
    /// so the device never runs dry between the two, whatever the disk's latency. Not while a
    /// script paces playback (its next command may be anything). Reports `current` ended; the
    /// session's `open` of the cued song then finds it playing.
    func takeOverByCue(from current: Song) -> Bool {
        guard !shared.read({ $0.budget.isLimited }) else { return false }
        // A file keeps one format: a song opened ahead in another is opened again by the session.
        if slot.isFile, let opened = next.cuedSong(), let sink = slot.sink, opened.format != sink.format { return false }
        guard let (spare, source, opened) = next.takeOver(from: decoder) else { return false }
        decoder = spare
        song = song(opened, source: source, token: nil)
        sinceSplice = 0
        // After a crossfade, the song plays on from the frames it was heard for in the overlap
        // (what the server holds of the mix is not this song's alone to write again).
        let from = crossfader.tookOver(spare)
        if from > 0 { stage.tail.reset() }
        // Through the same stretcher, the song before's last frames come out first.
        let before = songFramesStretching
        shared.update { $0.position = from - before }
        report(of: current) { .ended(token: $0) }
        return true
    }


    /// The song's next frames into `buffer`, the other song's mixed in where they overlap.
    func readSong(_ current: Song, capacity: Int) -> DecodeResult {
        let allowed = !shared.read { $0.budget.isLimited }  // a script's next command may be anything
        crossfader.approach(current, frames: capacity / current.format.bytesPerFrame, next: &next, allowed: allowed,
                            exact: decoder.lengthIsExact) { opened, source in
            gain(of: song(opened, source: source, token: nil))
        }
        return crossfader.read(decoder, next: &next, into: buffer, capacity: capacity, format: current.format)
    }

    /// Moves the song's decoder to `frame` (and the song it overlaps with it).
    func seekSong(to frame: Int64) -> Int64? {
        let landed = decoder.seek(toFrame: frame)
        crossfader.seeked(to: landed, next: &next)
        return landed
    }

    /// Opens the song the session cued ahead on the spare decoder: on a live output always, for
    /// a file only while a crossfade may need it (converted to the file's format, as the file
    /// will be when its first song is written).
    func cueAhead() {
        guard slot.isFile else { return next.cue(cueWanted, rule: formatRule) }
        let rule = slot.sink.map { FormatRule.exactly($0.format) } ?? song.map { .exactly(outputFormat($0.format)) } ?? .first
        next.cue(crossfader.setting.isOn ? cueWanted : nil, rule: rule)
    }

    /// A skip while playing (`source` asked for while the song plays): with a skip's fade set,
    /// the song left fades out while `source`, opened on the spare decoder, fades in, from
    /// where the song is heard (a sound server's queue taken back first). During a crossfade, a
    /// skip to the song fading in finishes that fade, faster. `false` where it cuts as before
    /// (decided before anything is taken back): no fade set, nothing playing, another speed, a
    /// stream, songs of other formats or too short for the fade, a skip elsewhere during a fade
    /// (no song is dropped mid-fade), or `source` not opened there.
    func fadeBySkip(to source: SongSource, token: Int) -> Bool {
        let seconds = crossfader.setting.skipFade
        guard seconds > 0, speed == 1, !source.isStream, let current = song, current.token != nil, !current.info.isStream else { return false }
        switch phase {
        case .playing, .starved, .heldByBudget: break
        case .idle, .deviceLost, .draining: return false
        }
        let intoCued = crossfader.overlap != nil
        if let overlap = crossfader.overlap {
            guard overlap.songFadesOut, !overlap.otherEnded, next.cued == source else { return false }
        } else {
            next.cue(source, rule: formatRule)
        }
        let length = Crossfader.length(seconds, rate: current.format.rate)
        guard let opened = next.cuedSong(), opened.format == current.format, !opened.info.isStream,
              let total = Crossfader.frames(of: opened.info, in: opened.format), intoCued || total / 2 >= Int64(length) else { return false }
        _ = takeBackQueue()  // heard from where the listener is (both songs, where they overlap)
        let left = crossfader.frame
        // The fade ends where the song left does, at the latest: never cut off at full gain.
        var frames = Crossfader.frames(of: current.info, in: current.format).map { $0 - left } ?? Int64(length)
        var into: (frame: Int64, from: Double)?
        if intoCued {
            guard let other = next.spare, let found = crossfader.handOver(other) else { return false }
            into = (found.frame, found.from)
            frames = found.left
        }
        guard let (spare, _) = next.skip(to: source, rule: formatRule, from: decoder) else { return false }
        let skippedTo = song(opened, source: source, token: token)
        decoder = spare
        held = nil
        sinceSplice = 0
        stage.tail.reset()
        let faded = Int(min(Double(length) * (1 - (into?.from ?? 0)), Double(max(frames, 0))).rounded())
        crossfader.skipped(length: faded, at: into?.frame ?? 0, left: left, from: into?.from ?? 0,
                           scale: current.gain / max(skippedTo.gain, .leastNormalMagnitude))
        shared.update { $0.titles.removeAll() }
        song = skippedTo
        let ending = queueEnd?.songFrames ?? 0  // the frame of silence the queue may end on
        shared.update { $0.position = (into?.frame ?? 0) + ending }
        report(.opened(skippedTo.info, token: token))
        return true
    }

    /// The song cued changes (`cue`) while it fades in at the song's end: the fade is given up,
    /// heard at once as a stop is (the mix taken back and faded out over 10 ms), and the song
    /// plays on alone to its end, into what is cued now.
    func dropEndFade() {
        guard crossfader.overlap?.songFadesOut == true, let current = song else { return }
        let playing = phase.decodes
        leaveWithAFade()
        crossfader.abandon(&next)
        crossfader.plan = .none
        if playing { stage.fader.starting(current.format, capacity: Self.bufferCapacity) }
    }
}
