@testable import PlayerCore
import Testing

/// One status for every front-end, and what each command changes in it, in MPD's `idle` groups:
/// a client waiting for `mixer` hears of a volume key and of nothing else.
struct PlayerStatusTests {
    /// A session playing the first of four songs, the second queued after the third's move.
    private func playing() -> Session {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "c.mp3", "d.mp3"])
        let session = Session(engine: engine, entries: EntryList(["a.mp3", "b.mp3", "c.mp3", "d.mp3"].map { Entry(path: Path($0)) }),
                              policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
        session.start()
        session.settle()
        return session
    }

    static let cases: [(Command, StatusChanges)] = [
        (.volume(50), .mixer), (.changeVolume(by: -5), .mixer), (.toggleMute, [.mixer, .output]),
        (.toggleRepeat, .options), (.setRepeatOne(true), .options), (.setAlbumMode(true), .options), (.toggleStopAfter, .options),
        (.speed(1.5), .options), (.setGraphicEqualizer([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], on: true), .options),
        (.toggle, .player), (.stop, .player), (.seek(.to(AudioTime.seconds(1))), .player), (.next, .player),
        (.queueEntry(2), .playlist), (.appendSongs(["e.mp3"]), .playlist), (.removeEntry(3), .playlist),
        (.moveEntry(3, by: -1), .playlist),
        // What shows nowhere in the status changes nothing in it: the terminal's own keys.
        (.info, []), (.help, []), (.listView, []),
    ]

    @Test(arguments: cases)
    func eachCommandChangesItsGroupsOnly(command: Command, groups: StatusChanges) {
        let session = playing()
        let before = session.status
        session.perform(command)
        session.settle()
        #expect(StatusChanges.between(before, session.status) == groups, "\(command)")
    }

    /// Shuffle reorders the list: an option, and where `next` goes (the player's); the songs in
    /// the list and their queue are the same.
    @Test func shuffleIsAnOptionAndMovesWhatIsNext() {
        let session = playing()
        let before = session.status
        session.perform(.toggleShuffle)
        #expect(StatusChanges.between(before, session.status).contains(.options))
        #expect(!StatusChanges.between(before, session.status).contains(.playlist))
    }

    /// The names MPD's `idle` answers with.
    @Test func groupsAreNamedAsMPDNamesThem() {
        #expect(StatusChanges([.player, .mixer, .storedPlaylist]).description == "player mixer stored_playlist")
        #expect(StatusChanges.names.count == 8)
    }

    /// The status line's snapshot reads the status: the same song, place and modes.
    @Test func theStatusSaysWhatTheSessionDoes() {
        let session = playing()
        session.perform(.volume(30))
        session.perform(.queueEntry(2))
        let status = session.status
        #expect(status.state == .play && status.song?.path == "a.mp3" && status.entry == 0)
        #expect(status.volume == 30 && status.upNext == [2] && status.entryCount == 4 && status.hasNext && !status.hasPrevious)
    }
}

/// What changed since the status last told: the first time every group the status shows; then
/// what differs, with what was noted meanwhile; nothing when nothing did.
struct StatusChangeTrackerTests {
    @Test func changesAreToldOnceWithWhatWasNoted() {
        var tracker = StatusChangeTracker()
        var status = PlayerStatus(state: .play)
        #expect(tracker.take(status) == [.player, .mixer, .options, .playlist])
        #expect(tracker.take(status) == [])
        status.volume = 50
        tracker.note(.sticker)
        tracker.note(.outputFallback(message: "pulse: gone; playing on ao"))
        tracker.note(.ended(token: 1))
        #expect(tracker.take(status) == [.mixer, .sticker, .output])
        #expect(tracker.take(status) == [])
    }
}
