/// The list's order as the session walks it: the next and previous entries that play, what is
/// cued to follow, and the modes at a song's end (repeat one, stop after).
extension PlayerModel {
    /// Advances `queue` to the next entry that has not failed, and returns it; `nil` past the
    /// end (the queue is then left wherever it stopped).
    func nextPlayable(advancing queue: inout PlayQueue) -> Int? {
        for _ in 0...entries.count {
            guard let entry = queue.advance() else { return nil }
            if !skips(entry) { return entry }
        }
        return nil
    }

    /// What plays when the song playing ends by itself: the same one again with `repeatsOne`,
    /// else the next that plays.
    func following(advancing queue: inout PlayQueue) -> Int? {
        if modes.repeatsOne, let current = queue.current, !skips(current) { return current }
        return nextPlayable(advancing: &queue)
    }

    /// Moves `queue` back to the previous entry that has not failed, and returns it; `nil` at
    /// the start of the list (without repeat).
    func previousPlayable(retreating queue: inout PlayQueue) -> Int? {
        for _ in 0..<entries.count {
            let before = queue.cursor
            guard let entry = queue.retreat(), queue.cursor != before else { return nil }
            if !skips(entry) { return entry }
        }
        return nil
    }

    /// Tells the engine the entry that follows the song playing if it plays to its end, as
    /// `advance` will choose it then, so that the engine can open it ahead (gapless on a live
    /// device). Asked after everything that may change it; the engine ignores a repeat.
    mutating func cueNext() {
        guard !isFinished, context.state.song != nil, !modes.stopsAfterCurrent, !modes.stopsAfterEach || modes.repeatsOne, endsAlbum() == false else { return emit(.engine(.cue(nil))) }
        var ahead = queue  // a value: advancing the copy leaves the list as it is
        emit(.engine(.cue(following(advancing: &ahead).map { entries[$0].source })))
    }

    /// Plays the next playable entry in the queue's order. Past the end: finish, or with
    /// `keepsOpen` stay on the last song, rewound.
    mutating func advance(atEnd: AtEnd, checkingAlbum: Bool = true) {
        let original = queue.current
        modes.endedAwaitingAlbum = false
        let stops = modes.stopsAfterCurrent || modes.stopsAfterEach && !modes.repeatsOne
        if atEnd == .rest, checkingAlbum, !stops, endsAlbum() == nil {
            modes.endedAwaitingAlbum = true  // the list goes on when the next song's album is known
            return
        }
        if atEnd == .rest, stops || checkingAlbum && endsAlbum() == true {
            // Stopped where the song ended, the next one ready: `play` plays it. A run that ends
            // with its list (no terminal, no script to say play) ends there.
            modes.stopsAfterCurrent = false
            if modes.sleep.setting == .afterAlbum, endsAlbum() == true { modes.sleep.set(.off, now: turn.engine.now) }  // done
            guard keepsOpen else { return finish() }
            if let entry = nextPlayable(advancing: &queue) {
                listPlace = .inList
                loading.opening = (entry, .forward(.rest))
                apply(.load(entries[entry].source))
                return
            }
            // Nothing follows: the list's end, as below (stop-after-each stays on: asked again
            // here, it would ask again forever).
            listPlace = .atEnd(stoppedAtStart: false)
            if let original { queue.select(original) }
            return
        }
        let next = atEnd == .rest ? following(advancing: &queue) : nextPlayable(advancing: &queue)
        if let entry = next { return open(entry, moving: .forward(atEnd)) }
        guard keepsOpen else { return finish() }
        listPlace = .atEnd(stoppedAtStart: false)
        if let original { queue.select(original) }
        if atEnd == .rewind, context.state.song != nil { rewind() }
    }

    /// Plays the previous playable entry; with none before it, starts the current song again.
    mutating func retreat() {
        let original = queue.current
        if let entry = previousPlayable(retreating: &queue) { return open(entry, moving: .backward) }
        if let original { queue.select(original) }
        apply(.seek(.to(.zero)))
    }

    mutating func playCurrentOrNext() {
        guard let entry = queue.current, !skips(entry) else { return advance(atEnd: .rewind) }
        open(entry, moving: .forward(.rewind))
    }

    /// What the engine says is heard now: the listen followed, the damage passed said.
    mutating func observeHeard() {
        checkSleep()
        guard let song = context.state.song else { return }
        let position = AudioTime(frames: turn.position, rate: song.sampleRate)
        settleDamage(at: position)
        observePlayback(at: position)
    }

    /// The song playing is at `position`: a place of damage played past is said.
    mutating func settleDamage(at position: AudioTime) {
        hearing.damage.settle(at: position.seconds).forEach { emit(.report($0)) }
    }

    /// The song playing is at `position`: what is heard counts.
    mutating func observePlayback(at position: AudioTime) {
        guard let song = context.state.song, let token = context.state.token, context.state.isPlaying else { return }
        heard(song, at: position.seconds, token: token)
    }

    mutating func heard(_ song: SongInfo, at seconds: Double, token: Int, ended: Bool = false) {
        let length = song.totalFrames.map(song.seconds)
        if hearing.listening.reach(token, min(seconds, length ?? seconds), length: length, ended: ended) {
            emit(.listened(Listen(kind: .played, song: song, heard: hearing.listening.heard)))
        }
    }

    /// `next` on a song not heard long enough to count: skipped.
    mutating func noteSkip() {
        guard let song = context.state.song, context.state.token == hearing.listening.token, !hearing.listening.counted else { return }
        emit(.listened(Listen(kind: .skipped, song: song, heard: hearing.listening.heard)))
    }

    /// In album mode, whether the song playing is the last of its album: the one to follow is
    /// on another. Its album is asked of `Seams.album` once, and read off the main loop: until
    /// the answer comes (`nil`) the next song is not cued, and a song that ends before it waits
    /// for it (a file written with `-w` ends its songs in milliseconds; a read that takes a
    /// whole song is a disk that would hold the next song's open as long).
    mutating func endsAlbum() -> Bool? {
        guard modes.stopsAtAlbumEnd, let song = context.state.song else { return false }
        var ahead = queue
        guard let next = following(advancing: &ahead), next != queue.current else { return false }
        let source = entries[next].source
        if modes.albums[source] == nil, modes.albumAsked != source {
            modes.albumAsked = source
            emit(.readAlbum(source))
        }
        return modes.albums[source].map { $0 != AlbumTrack.name(song.album) }
    }

    /// The album of `source`, as asked: kept, and the list goes on or the next song is cued
    /// again with it.
    mutating func learn(_ album: String?, of source: SongSource) {
        guard modes.albumAsked == source, !isFinished else { return }
        modes.albumAsked = nil
        if modes.albums.count > 10_000 { modes.albums = [:] }
        modes.albums[source] = .some(album)
        goOnIfAlbumNeedsNoAnswer()
        cueNext()
    }

    /// A song ended while the next one's album was read: the list goes on once that no longer
    /// waits for an answer (it came, album mode was turned off, the list changed).
    mutating func goOnIfAlbumNeedsNoAnswer() {
        guard modes.endedAwaitingAlbum, !isFinished, context.state.id == .prepare, endsAlbum() != nil else { return }
        advance(atEnd: .rest)
    }
}

extension PlayerModel {
    /// A song ended and the list goes on once album mode knows the next song's album.
    public var awaitsAlbum: Bool { modes.endedAwaitingAlbum }
}
