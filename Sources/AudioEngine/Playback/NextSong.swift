import PlayerCore

/// The song that follows the one playing, opened ahead on a spare decoder so that it starts
/// without a gap whatever the disk's latency (live output only: a file is never starved).
struct NextSong {
    /// The second decoder; `nil` where nothing is opened ahead.
    private(set) var spare: AudioDecoder?
    /// The song asked to open on `spare` (on its own thread, where it has one).
    private(set) var cued: SongSource?
    /// The cued song, once asked for opened (`cuedSong`).
    private var readied: OpenedSong?
    /// The spare holds the song a skip left, fading out (`Crossfader`): a cue waits for its end.
    private(set) var fadingOut = false
    /// The cue that waits for it, and the formats it was asked in.
    private var waiting: (source: SongSource?, rule: FormatRule)?

    init(spare: AudioDecoder?) {
        self.spare = spare
    }

    /// Begins to open `source` ahead (`nil`: nothing follows), unless it is the one cued already.
    mutating func cue(_ source: SongSource?, rule: @autoclosure () -> FormatRule = .any) {
        if fadingOut { return waiting = (source, rule()) }
        guard let spare, cued != source else { return }
        cued = nil
        readied = nil
        spare.close()
        guard let source else { return }
        do throws(LoadFailure) {
            try spare.restrictFormat(to: rule())
        } catch {
            return  // not now: the session's own open of it says why, in its turn
        }
        spare.startOpening(source)
        cued = source
    }

    /// At the clean end of the song on `finished`: the spare decoder, with the cued song open
    /// on it, takes over; `finished` is closed and becomes the spare. `nil` when nothing is cued
    /// or it could not be opened (the session's own open of it says why).
    mutating func takeOver(from finished: AudioDecoder) -> (decoder: AudioDecoder, source: SongSource, song: OpenedSong)? {
        guard let source = cued, let decoder = spare, let next = cuedSong() else { return nil }
        cued = nil
        readied = nil
        spare = finished
        finished.close()
        decoder.promoted()
        return (decoder, source, next)
    }

    /// A skip to `source` that fades: the spare, with `source` open on it (cued already, or
    /// opened now), plays it; `playing`, the song left, becomes the spare, still open, to fade
    /// out (until `fadeOutEnded`). `nil` when it cannot be opened there (nothing is changed but
    /// the cue; the session's own open of it says why).
    mutating func skip(to source: SongSource, rule: FormatRule, from playing: AudioDecoder) -> (decoder: AudioDecoder, song: OpenedSong)? {
        guard !fadingOut else { return nil }
        cue(source, rule: rule)
        guard cued == source, let decoder = spare, let opened = cuedSong() else { return nil }
        cued = nil
        readied = nil
        spare = playing
        fadingOut = true
        decoder.promoted()
        return (decoder, opened)
    }

    /// The song a skip left has faded out: the spare is closed, and the cue that waited is made.
    mutating func fadeOutEnded() {
        guard fadingOut else { return }
        fadingOut = false
        spare?.close()
        if let (source, rule) = waiting {
            waiting = nil
            cue(source, rule: rule)
        }
    }

    /// The cued song was read into a crossfade that was given up: it is opened again from its
    /// start when cued again. A skip's song fading out ends too.
    mutating func forget() {
        guard !fadingOut else { return fadeOutEnded() }
        cued = nil
        readied = nil
        spare?.close()
    }

    /// The cued song as it opened on the spare decoder (waiting for it, where it opens on its
    /// own thread); `nil` when nothing is cued or it could not be opened.
    mutating func cuedSong() -> OpenedSong? {
        if let readied { return readied }
        guard let source = cued, let spare, let opened = try? spare.opened(source) else { return nil }
        readied = opened
        return opened
    }

    func setEqualizer(_ bands: [[Double]]) {
        spare?.setEqualizer(bands)
    }

    func setReplayGain(_ choice: ReplayGainChoice) {
        spare?.setReplayGain(choice)
    }
}
