import PlayerCore

/// What the playback loop does differently on a sound server's stream (`Pacing.server`): it
/// writes when the server has room, up to a second ahead of what is heard, and so before
/// anything that must be heard at once (a stop, a seek, the next song, a volume change) it
/// drops what the server holds and takes the decoder back to the frame heard. At the end of a
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
        let room = min(sink.writableBytes ?? Self.bufferCapacity, Self.bufferCapacity)
        return room / format.bytesPerFrame * format.bytesPerFrame
    }

    /// Drops what the server holds and moves the decoder back to the frame heard, so that what
    /// is written next is heard at once, from where the listener is. Nothing on other outputs.
    func rewindToHeard() {
        guard let sink = slot.sink, sink.canPause, song != nil else { return }
        let heard = EngineShared.heard(shared)
        sink.discard()
        held = nil
        let written = shared.read(\.position)
        guard heard < written else { return }
        let landed = decoder.seek(toFrame: heard) ?? written
        shared.update { $0.position = landed }
        if phase == .draining { move(to: .playing) }
    }

    /// The song's last frame was written: on a server's stream, what it holds plays out first.
    func endOfSong(_ current: Song) {
        guard onServer, let sink = slot.sink else { return ended(current) }
        sink.drain()
        move(to: .draining)
    }

    /// While draining: the song has ended once the server says all of it has played (as mpv and
    /// paplay wait for it: an estimate from the latency ended songs early on some sinks).
    func checkDrained() {
        if let current = song, slot.sink?.isDrained ?? true { ended(current) }
    }

    private func ended(_ current: Song) {
        move(to: .idle)
        report(.ended(token: current.reportedToken))
    }
}
