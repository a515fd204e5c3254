import Testing
@testable import PlayerCore

/// Shuffle by album in the queue: albums in a random order, each whole and in disc and track
/// order; the album keys; albums learnt while it plays.
struct AlbumShuffleTests {
    /// Four albums listed out of order: A (3 tracks), B (2 discs of 2), C (2 tracks, no album
    /// artist, one folder), and two untagged songs of one folder (an album of their folder).
    static let tracks: [AlbumTrack] = [
        AlbumTrack(album: "A", albumArtist: "X", track: 3, folder: "/m/A"),
        AlbumTrack(album: "B", albumArtist: "Y", disc: 2, track: 1, folder: "/m/B/CD2"),
        AlbumTrack(album: "A", albumArtist: "X", track: 1, folder: "/m/A"),
        AlbumTrack(album: "C", track: 2, folder: "/m/C"),
        AlbumTrack(album: nil, folder: "/m/loose"),
        AlbumTrack(album: "B", albumArtist: "Y", disc: 1, track: 2, folder: "/m/B/CD1"),
        AlbumTrack(album: "A", albumArtist: "X", track: 2, folder: "/m/A"),
        AlbumTrack(album: "C", track: 1, folder: "/m/C"),
        AlbumTrack(album: "B", albumArtist: "Y", disc: 1, track: 1, folder: "/m/B/CD1"),
        AlbumTrack(album: nil, folder: "/m/loose"),
        AlbumTrack(album: "B", albumArtist: "Y", disc: 2, track: 2, folder: "/m/B/CD2"),
        // Another folder's album called C, with no album artist: an album of its own.
        AlbumTrack(album: "C", track: 1, folder: "/n/C"),
    ]
    /// Each album's entries in the order they must play.
    static let albums: [[Int]] = [[2, 6, 0], [8, 5, 1, 10], [7, 3], [4, 9], [11]]

    static func queue(seed: UInt64, shuffle: Shuffle = .albums) -> PlayQueue {
        var queue = PlayQueue(count: tracks.count, seed: seed)
        for (entry, track) in tracks.enumerated() { queue.learnAlbum(track, of: entry) }
        queue.setShuffle(shuffle)
        return queue
    }

    /// The albums in the order `order` plays them, checking that each is whole and in order.
    static func albumOrder(_ order: some Collection<Int>) -> [Int] {
        var played: [Int] = []
        var rest = Array(order)[...]
        while let first = rest.first {
            guard let album = albums.firstIndex(where: { $0.first == first }) else {
                Issue.record("entry \(first) starts no album: \(order)")
                return played
            }
            #expect(Array(rest.prefix(albums[album].count)) == albums[album], "album \(album) whole and in order in \(order)")
            played.append(album)
            rest = rest.dropFirst(albums[album].count)
        }
        return played
    }

    @Test func everyAlbumPlaysWholeInOrderAndTheSeedsGiveOtherOrders() {
        var orders: Set<[Int]> = []
        for seed in UInt64(1)...8 {
            var queue = Self.queue(seed: seed)
            let played = (0..<Self.tracks.count).compactMap { _ in queue.advance() }
            #expect(queue.advance() == nil, "one round")
            #expect(played.sorted() == Array(0..<Self.tracks.count), "every entry once")
            let albums = Self.albumOrder(played)
            #expect(albums.sorted() == [0, 1, 2, 3, 4])
            orders.insert(albums)
            var again = Self.queue(seed: seed)
            #expect((0..<Self.tracks.count).compactMap { _ in again.advance() } == played, "the same seed, the same order")
        }
        #expect(orders.count >= 4, "the album orders differ: \(orders)")
    }

    @Test func repeatPlaysANewRoundOfWholeAlbums() {
        var queue = Self.queue(seed: 3)
        queue.repeats = true
        let rounds = (0..<(Self.tracks.count * 3)).compactMap { _ in queue.advance() }
        for round in 0..<3 {
            _ = Self.albumOrder(Array(rounds[(round * Self.tracks.count)..<((round + 1) * Self.tracks.count)]))
        }
    }

    @Test func turnedOnMidAlbumTheAlbumPlaysOnInOrder() {
        var queue = Self.queue(seed: 5, shuffle: .off)
        queue.select(5)  // B, disc 1 track 2
        queue.setShuffle(.albums)
        #expect(queue.current == 5)
        #expect(Array(queue.order.prefix(4)) == [8, 5, 1, 10], "B's first track counts as played, the rest follows")
        #expect(queue.cursor == 1)
        _ = Self.albumOrder(queue.order)
        queue.setShuffle(.songs)
        #expect(queue.current == 5 && queue.cursor == 0 && queue.shuffle == .songs)
        queue.setShuffle(.off)
        #expect(queue.order == Array(0..<Self.tracks.count) && queue.current == 5)
    }

    @Test func theShuffleKeyGoesRoundTheThree() {
        #expect(Shuffle.off.next == .songs && Shuffle.songs.next == .albums && Shuffle.albums.next == .off)
        #expect(Shuffle(words: "on") == .songs && Shuffle(words: "Albums") == .albums && Shuffle(words: "off") == .off)
        #expect(Shuffle(words: "album order") == nil)
        var queue = Self.queue(seed: 1, shuffle: .albums)
        queue.setShuffle(true)  // MPD's random 1 leaves albums as they are
        #expect(queue.shuffle == .albums)
        queue.setShuffle(false)
        #expect(queue.shuffle == .off && !queue.shuffles)
    }

    @Test func albumsLearntWhilePlayingComeTogetherAfterTheSongPlaying() {
        var queue = PlayQueue(count: Self.tracks.count, seed: 9)
        queue.setShuffle(.albums)
        #expect(!queue.knowsEveryAlbum && queue.entriesWithoutAlbum(limit: 5) == [0, 1, 2, 3, 4])
        let first = queue.advance()!  // not known yet: an album of its own
        for (entry, track) in Self.tracks.enumerated() { queue.learnAlbum(track, of: entry) }
        #expect(queue.knowsEveryAlbum && queue.entriesWithoutAlbum(limit: 5).isEmpty)
        queue.regroup()
        #expect(queue.current == first && queue.cursor == 0)
        let album = Self.albums.first { $0.contains(first) }!
        let rest = Array(queue.order.dropFirst())
        let after = album.filter { $0 != first }
        #expect(Array(rest.prefix(after.count)) == after, "the album playing goes on: \(queue.order)")
        _ = Self.albumOrder(Array(rest.dropFirst(after.count)))
    }

    @Test func theAlbumKeysGoToTheFirstSongOfTheNextAndTheAlbumBefore() {
        var queue = Self.queue(seed: 1, shuffle: .off)  // list order: the albums as the list runs
        queue.select(0)  // A track 3: its album is entry 0 alone in list order (2 and 6 come later)
        #expect(queue.advanceAlbum() == 1)
        #expect(queue.advanceAlbum() == 2)
        queue.select(5)
        #expect(queue.advanceAlbum() == 6)
        queue.select(7)
        #expect(queue.retreatAlbum() == 6)
        #expect(queue.retreatAlbum() == 5)
        queue.select(0)
        #expect(queue.retreatAlbum() == nil && queue.current == 0, "before the first: nothing")
        queue.select(11)
        #expect(queue.advanceAlbum() == nil && queue.current == 11, "after the last, without repeat: nothing")
        queue.repeats = true
        #expect(queue.advanceAlbum() == 0, "with repeat: the first again")

        var shuffled = Self.queue(seed: 4)
        let albums = Self.albumOrder(shuffled.order)
        let starts = albums.map { Self.albums[$0][0] }
        func albumPlaying() -> Int { albums.firstIndex { Self.albums[$0].contains(shuffled.current ?? -1) } ?? -1 }
        _ = shuffled.advance()
        #expect(shuffled.advanceAlbum() == starts[1])
        #expect(shuffled.advanceAlbum() == starts[2])
        _ = shuffled.advance()  // inside the third album, or the fourth's first song
        let here = albumPlaying()
        #expect(shuffled.retreatAlbum() == starts[here - 1], "the album before's first song")
    }

    @Test func editsKeepEachEntrysAlbum() {
        var queue = Self.queue(seed: 2, shuffle: .off)
        queue.insert(1, at: 0)
        #expect(!queue.knowsEveryAlbum && queue.entriesWithoutAlbum(limit: 3) == [0])
        queue.learnAlbum(AlbumTrack(album: "A", albumArtist: "X", track: 4, folder: "/m/A"), of: 0)
        queue.remove(1)  // the old entry 0 (A track 3)
        queue.setShuffle(.albums)
        var played: [Int] = []
        while let entry = queue.advance() { played.append(entry) }
        // A's tracks 1 and 2 moved down one and up one again (2, 6); its new track 4 is entry 0.
        let a = played.firstIndex(of: 2)!
        #expect(Array(played[a..<(a + 3)]) == [2, 6, 0], "\(played)")
    }
}

/// What the review of shuffle by album found: songs added reshuffle nothing already arranged,
/// the known albums are counted, and the player never waits for albums it no longer needs.
struct AlbumShuffleReviewTests {
    @Test func songsAddedJoinTheAlbumsAsTheyStand() {
        var queue = AlbumShuffleTests.queue(seed: 6)
        _ = queue.advance()
        _ = queue.advance()
        let before = AlbumShuffleTests.albumOrder(queue.order)
        queue.append(2)  // two songs of a new album
        #expect(!queue.knowsEveryAlbum)
        #expect(queue.entriesWithoutAlbum(limit: 10) == [12, 13])
        queue.learnAlbum(AlbumTrack(album: "New", albumArtist: "Z", track: 2, folder: "/m/New"), of: 12)
        queue.learnAlbum(AlbumTrack(album: "New", albumArtist: "Z", track: 1, folder: "/m/New"), of: 13)
        #expect(queue.knowsEveryAlbum)
        queue.regroup()
        let rest = queue.order.filter { $0 < 12 }
        #expect(AlbumShuffleTests.albumOrder(rest) == before, "the albums arranged keep their order")
        let new = queue.order.firstIndex(of: 13)!
        #expect(queue.order[new + 1] == 12, "the new album together, in track order: \(queue.order)")
        queue.remove(13)
        #expect(queue.knowsEveryAlbum && queue.entriesWithoutAlbum(limit: 3).isEmpty)
    }

    private func model(_ count: Int, shuffle: Shuffle) -> PlayerModel {
        var queue = PlayQueue(count: 0, seed: 1)
        queue.setShuffle(shuffle)
        return PlayerModel(entries: EntryList(paths: (0..<count).map { Path("/m/\($0).flac") }), queue: queue)
    }

    private func opens(_ effects: [PlayerModel.Effect]) -> Bool {
        effects.contains { if case .engine(.open) = $0 { true } else { false } }
    }

    @Test func theFirstSongWaitsForTheAlbumsAndNoLongerOnceAlbumShuffleIsOff() {
        var model = model(3, shuffle: .albums)
        let started = model.handle(.start)
        #expect(!opens(started) && model.awaitsAnswer)
        #expect(started.contains { if case .readAlbums(let asked, _) = $0 { asked == [0, 1, 2] } else { false } })
        #expect(!opens(model.handle(.command(.playFromStart))), "play from start waits too")
        let off = model.handle(.command(.setShuffleMode(.songs)))
        #expect(opens(off) && !model.awaitsAnswer, "shuffle by song: it plays now")
    }

    @Test func aListReplacedWhileShufflingByAlbumWaitsForItsAlbums() {
        var model = model(2, shuffle: .albums)
        _ = model.handle(.start)
        let sources = (0..<2).map { SongSource(Path("/m/\($0).flac")) }
        let tracks = (0..<2).map { AlbumTrack(album: "A", track: 2 - $0, folder: "/m") }
        #expect(opens(model.handle(.albums(tracks, of: sources, entries: [0, 1]))), "known: the first plays")
        #expect(model.index == 1, "track 1 first")
        let replaced = model.handle(.replaceList(EntryList(paths: ["/n/x.flac", "/n/y.flac"])))
        #expect(!opens(replaced) && model.awaitsAnswer, "the new list's albums first")
    }
}
