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
}
