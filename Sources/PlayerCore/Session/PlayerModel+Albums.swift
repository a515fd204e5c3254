/// Shuffle by album and the album keys: every song's album, read off the main loop a batch at a
/// time (`Seams.albums`), learnt by the queue (`PlayQueue+Albums`).
extension PlayerModel {
    /// How many songs' albums are read at a time.
    static let albumBatch = 256

    /// Shuffle off, by song or by album.
    mutating func setShuffle(_ mode: Shuffle) {
        queue.setShuffle(mode)
        keepPrioritiesFirst()
        applyReplayGain()
        if modes.startAwaitsAlbums, mode != .albums {
            modes.startAwaitsAlbums = false
            start()
        }
    }

    /// Something waits for an answer from off the main loop: the albums (the first song shuffled
    /// by album, an album key) or a playlist request.
    public var awaitsAnswer: Bool { modes.startAwaitsAlbums || modes.albumMoveAwaited != nil || modes.playlistAsked }

    /// Whether every song's album is wanted: shuffled by album, or an album key was pressed.
    var wantsAlbums: Bool { queue.byAlbum || modes.wantsAlbums }

    /// Asks for the albums of the next batch of songs whose album is not known, when they are
    /// wanted and no batch is being read (after every input: songs added are read too).
    mutating func readAlbumsIfWanted() {
        guard wantsAlbums, !modes.albumsReading, !isFinished, !queue.knowsEveryAlbum else { return }
        let batch = queue.entriesWithoutAlbum(limit: Self.albumBatch)
        guard !batch.isEmpty else { return }
        modes.albumsReading = true
        emit(.readAlbums(batch, batch.map { entries[$0].source }))
    }

    /// What `.readAlbums` asked for: the albums of the songs at `asked` (as the list was then: an
    /// entry that is another song now is asked again). Once every album is known, the songs
    /// still to play are put in album order again, and what waited for them goes on.
    mutating func learnAlbums(_ tracks: [AlbumTrack], of sources: [SongSource], entries asked: [Int]) {
        modes.albumsReading = false
        guard !isFinished else { return }
        for (index, entry) in asked.enumerated() where index < sources.count {
            guard entry < entries.count, entries[entry].source == sources[index] else { continue }
            queue.learnAlbum(index < tracks.count ? tracks[index] : AlbumTrack(unreadable: sources[index].path), of: entry)
        }
        guard queue.knowsEveryAlbum else { return }
        queue.regroup()
        keepPrioritiesFirst()
        if modes.startAwaitsAlbums {
            modes.startAwaitsAlbums = false
            if context.state.song == nil { start() }
        }
        if let forward = modes.albumMoveAwaited {
            modes.albumMoveAwaited = nil
            moveByAlbum(forward: forward)
        }
        cueNext()
    }

    /// The first song of the next album in the play order (after the last, without repeat:
    /// nothing), or of the album before (before the first: the song from its start). The
    /// albums are read first when they are not all known.
    mutating func moveByAlbum(forward: Bool) {
        guard queue.knowsEveryAlbum else {
            modes.wantsAlbums = true
            modes.albumMoveAwaited = forward
            return
        }
        var moved = queue  // a value: moved only if there is an album to go to
        guard forward else {
            guard let entry = moved.retreatAlbum() else {
                apply(.seek(.to(.zero)))
                return
            }
            queue = moved
            if skips(entry) { advance(atEnd: .rewind) } else { open(entry, moving: .backward) }
            return
        }
        guard let entry = moved.advanceAlbum() else { return }
        noteSkip()
        let played = index
        queue = moved
        if skips(entry) { advance(atEnd: .rewind) } else { open(entry, moving: .forward(.rewind)) }
        consume(played)
    }
}
