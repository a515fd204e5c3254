/// When a sound server's stream plays, and what goes first each time it starts again.
///
/// PulseAudio starts a stream (a new one, one uncorked, one that ran dry and is written again)
/// at once: it takes back what its sink has rendered ahead (a "rewind") and renders again with
/// the stream's audio in it. A sound card just plays the new render. But what a sink hands on
/// as it renders cannot be taken back: a null sink's monitor (what recorders, streamers and
/// Snapcast read) has already passed on the old render, and drops the new one. Each start so
/// costs the stream's first audio, up to what the sink renders ahead. A start made of many
/// small writes to a sink that renders far ahead costs that once per write: tplayer lost the
/// first 1 to 4 s of a run that way on a bare null sink rendering 0.9 s ahead.
///
/// So a stream starts corked, its first write after each start goes after a pad of silence as
/// long as its sink may render ahead (all a start can take back), and it is uncorked once: when
/// a quarter of a second is written (or it is full), or when the player has nothing more to
/// write for now (its decoder is waiting, the song ends, a script holds it back). A start then
/// takes back silence only.
///
/// A value, driven by the stream's events; each returns the cork to ask for, if it changes.
struct StreamStart: Equatable {
    /// Whether the stream is corked, as last asked (a new stream is created corked).
    private(set) var corked = true
    /// Held corked until it is full or told to play.
    private(set) var starting = true
    /// The next write goes after the pad.
    private(set) var padDue = true
    /// Bytes written since the start, the pad's among them.
    private var written = 0
    /// The pad's length, and what is written when the stream plays (the pad's among it).
    let padBytes: Int
    let enoughBytes: Int

    init(padBytes: Int, enoughBytes: Int) {
        self.padBytes = padBytes
        self.enoughBytes = max(enoughBytes, padBytes + 1)
    }

    /// Before a write: whether the pad goes first, and a cork to ask for first (a stream that
    /// ran dry is corked again before its new start is written).
    mutating func beforeWrite() -> (pad: Bool, cork: Bool?) {
        guard padDue else { return (false, nil) }
        padDue = false
        written += padBytes
        guard !corked else { return (true, nil) }
        corked = true
        return (true, true)
    }

    /// `bytes` were written and the stream has room for `room` more: it starts once enough is
    /// written, or it is full.
    mutating func wrote(_ bytes: Int, room: Int) -> Bool? {
        written += bytes
        return room <= 0 || written >= enoughBytes ? play() : nil
    }

    /// The player has nothing more to write for now: what is written plays (once there is more
    /// than the pad).
    mutating func nothingMoreForNow() -> Bool? {
        written > padBytes ? play() : nil
    }

    /// A drain plays what is written, however little.
    mutating func draining() -> Bool? {
        play()
    }

    /// The stream is empty: it was flushed, drained, or it ran dry. Its next write is a start.
    /// It is corked again at that write, not now: until then it may still be playing out the
    /// last of what it held.
    mutating func ranDry() {
        starting = true
        padDue = true
        written = 0
    }

    /// What was written is dropped before the sink took any of it: the next write is a start.
    /// Corked now, so that none of what follows plays before it is full again.
    mutating func restart() -> Bool? {
        ranDry()
        guard !corked else { return nil }
        corked = true
        return true
    }

    private mutating func play() -> Bool? {
        guard starting else { return nil }
        starting = false
        guard corked else { return nil }
        corked = false
        return false
    }
}
