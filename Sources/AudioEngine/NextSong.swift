import PlayerCore

/// The song that follows the one playing, opened ahead on a spare decoder so that it starts
/// without a gap whatever the disk's latency (live output only: a file is never starved).
struct NextSong {
    /// The second decoder; `nil` where nothing is opened ahead.
    private(set) var spare: AudioDecoder?
    /// The song open on `spare`, if it could be opened.
    private(set) var cued: OpenedSong?

    init(spare: AudioDecoder?) {
        self.spare = spare
    }

    /// Opens `path` ahead (`nil`: nothing follows), unless it is the one open already.
    mutating func cue(_ path: Path?) {
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

    /// At the clean end of the song on `finished`: the spare decoder, with the cued song open
    /// on it, takes over; `finished` is closed and becomes the spare. `nil` when nothing is cued.
    mutating func takeOver(from finished: AudioDecoder) -> (decoder: AudioDecoder, song: OpenedSong)? {
        guard let next = cued, let decoder = spare else { return nil }
        cued = nil
        spare = finished
        finished.close()
        decoder.promoted()
        return (decoder, next)
    }

    func setVolume(_ fraction: Double) {
        spare?.setVolume(fraction)
    }
}
