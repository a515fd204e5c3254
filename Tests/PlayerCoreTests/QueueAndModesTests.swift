import Testing
@testable import PlayerCore

/// An interactive run's session (a terminal keeps it open: `play` can come after a stop).
private func session(_ inputs: [String]) -> (Session, FakeEngine) {
    let engine = FakeEngine(goodPaths: Set(inputs.map { Path($0) }))
    let session = Session(engine: engine, entries: EntryList(inputs.map { Entry(path: Path($0)) }),
                          policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
    return (session, engine)
}

/// Ends the song playing, as the engine says when it has played it whole, and returns what
/// plays then.
private func endSong(_ session: Session) -> Path? {
    session.handle(.ended(token: session.token))
    session.settle()
    return session.state.id == .play ? session.state.song?.path : nil
}

struct PlayQueueUpNextTests {
    @Test func queuedEntriesPlayNextInTheirOrderThenTheListGoesOnWhereItWas() {
        var queue = PlayQueue(count: 6, seed: 1)
        _ = queue.advance()  // 0 plays
        queue.toggleQueued(4)
        queue.toggleQueued(2)
        #expect(queue.queuePlace(of: 4) == 1 && queue.queuePlace(of: 2) == 2)
        var played: [Int?] = []
        for _ in 0..<4 { played.append(queue.advance()) }
        #expect(played == [4, 2, 1, 2])
    }

    @Test func queuingAgainTakesOutAndEditsOfTheListKeepTheQueueOnItsEntries() {
        var queue = PlayQueue(count: 5, seed: 1)
        _ = queue.advance()
        queue.toggleQueued(3)
        queue.toggleQueued(1)
        let queuedAgain = queue.toggleQueued(3)
        #expect(!queuedAgain && queue.upNext == [1])
        queue.toggleQueued(4)
        queue.insert(2, at: 0)  // two entries before all: 1 is 3 now, 4 is 6
        #expect(queue.upNext == [3, 6])
        queue.remove(3)
        #expect(queue.upNext == [5])
        queue.swap(5, 4)
        #expect(queue.upNext == [4])
        let outside = queue.toggleQueued(99)
        #expect(!outside, "no such entry")
    }

    @Test func previousWhileQueuedSongsPlayGoesBackToTheListsOwnSong() {
        var queue = PlayQueue(count: 4, seed: 1)
        _ = queue.advance()
        _ = queue.advance()  // 1 plays
        queue.toggleQueued(3)
        let queued = queue.advance()
        #expect(queued == 3 && queue.playsQueued)
        let back = queue.retreat()
        #expect(back == 1 && !queue.playsQueued)
        let next = queue.advance()
        #expect(next == 2)
    }
}

struct QueueAndModesTests {
    @Test func aQueuedSongPlaysNextAndIsCuedGaplessly() {
        let (session, engine) = session(["a.mp3", "b.mp3", "c.mp3", "d.mp3"])
        session.start()
        session.settle()
        session.perform(.queueEntry(3))
        #expect(engine.cued == "d.mp3", "the engine opens the queued song ahead")
        #expect(endSong(session) == "d.mp3")
        #expect(endSong(session) == "b.mp3", "then the list goes on after a")
    }

    @Test func repeatOnePlaysTheSongAgainButNextStillMovesOn() {
        let (session, engine) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.perform(.toggleRepeatOne)
        #expect(session.modes.repeatsOne && engine.cued == "a.mp3")
        #expect(endSong(session) == "a.mp3")
        #expect(endSong(session) == "a.mp3")
        session.perform(.next)
        session.settle()
        #expect(session.state.song?.path == "b.mp3", "next is a person's: it goes on")
    }

    @Test func stopAfterStopsWithTheNextSongReadyAndTurnsItselfOff() {
        let (session, engine) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.setStopAfter(true))
        #expect(engine.cued == nil, "nothing is opened ahead: it will not play")
        #expect(endSong(session) == nil)
        #expect(session.state.song?.path == "b.mp3" && session.state.id != .play && !session.modes.stopsAfterCurrent)
        session.perform(.play)
        session.settle()
        #expect(session.state.id == .play && session.state.song?.path == "b.mp3")
        #expect(endSong(session) == "c.mp3", "once: the list plays on")
    }

    @Test func albumModeStopsAtTheEndOfEachAlbumWithTheNextReady() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "c.mp3"])
        let seams = TestSeams()
        engine.albums = ["a.mp3": "Post", "b.mp3": "Post", "c.mp3": "Debut"]
        seams.albums = engine.albums
        let session = Session(engine: engine, entries: EntryList(["a.mp3", "b.mp3", "c.mp3"].map { Entry(path: Path($0)) }),
                              policy: Session.Policy(keepsOpen: true), seams: seams.seams)
        session.start()
        session.settle()
        session.perform(.setAlbumMode(true))
        #expect(engine.cued == "b.mp3", "within the album: gapless")
        #expect(endSong(session) == "b.mp3")
        #expect(engine.cued == nil, "the album ends with b")
        #expect(endSong(session) == nil)
        #expect(session.state.song?.path == "c.mp3" && session.modes.albumMode, "stopped, the next album ready; the mode stays")
    }

    /// Album mode reads the next song's album off the main loop: no command waits on it. Until
    /// it comes the next song is not cued; when it comes, within the album, it is (gapless), and
    /// at an album's end the list stops there. A song that ends before the answer waits for it.
    @Test func albumModeAsksTheNextAlbumAndWaitsForNothing() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "c.mp3", "d.mp3"])
        engine.albums = ["c.mp3": "Debut", "d.mp3": "Debut"]
        let seams = TestSeams()
        seams.holdsAlbums = true
        let session = Session(engine: engine, entries: EntryList(["a.mp3", "b.mp3", "c.mp3", "d.mp3"].map { Entry(path: Path($0)) }),
                              policy: Session.Policy(keepsOpen: true), seams: seams.seams)
        session.start()
        session.settle()
        session.perform(.setAlbumMode(true))
        #expect(Array(seams.heldAlbums.keys) == ["b.mp3"], "asked once, for the song to follow")
        #expect(engine.cued == nil, "not cued before its album is known")
        session.perform(.volume(50))
        #expect(seams.heldAlbums.count == 1, "asked once, whatever comes meanwhile")
        seams.heldAlbums.removeValue(forKey: "b.mp3")?(nil)
        #expect(engine.cued == "b.mp3", "the same album (a has none either): cued when the answer comes")
        #expect(endSong(session) == "b.mp3")
        seams.heldAlbums.removeValue(forKey: "c.mp3")?("Debut")
        #expect(engine.cued == nil, "b ends its album")
        #expect(endSong(session) == nil)
        #expect(session.state.song?.path == "c.mp3", "stopped at the album's end, the next ready")
        session.perform(.play)
        session.settle()
        #expect(Array(seams.heldAlbums.keys) == ["d.mp3"])
        #expect(endSong(session) == nil, "not known when c ended: the list waits for it")
        seams.heldAlbums.removeValue(forKey: "d.mp3")?("Debut")
        session.settle()
        #expect(session.state.id == .play && session.state.song?.path == "d.mp3", "the same album: it goes on")
    }

    /// While a song that ended waits for the next one's album: play plays the next song (not
    /// the one that ended, and a late answer takes nothing away); album mode turned off lets the
    /// list go on at once; a quit is not undone by the answer.
    @Test func whatIsDoneWhileTheNextAlbumIsReadIsKept() {
        func waiting() -> (Session, TestSeams) {
            let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "c.mp3"])
            let seams = TestSeams()
            seams.holdsAlbums = true
            let session = Session(engine: engine, entries: EntryList(["a.mp3", "b.mp3", "c.mp3"].map { Entry(path: Path($0)) }),
                                  policy: Session.Policy(keepsOpen: true), seams: seams.seams)
            session.start()
            session.settle()
            session.perform(.setAlbumMode(true))
            #expect(endSong(session) == nil && session.awaitsAlbum, "waits for b's album")
            return (session, seams)
        }
        var (session, seams) = waiting()
        session.perform(.play)
        session.settle()
        #expect(session.state.id == .play && session.state.song?.path == "b.mp3" && !session.awaitsAlbum)
        seams.heldAlbums.removeValue(forKey: "b.mp3")?("Other")
        session.settle()
        #expect(session.state.id == .play && session.state.song?.path == "b.mp3", "the late answer changes nothing")

        (session, seams) = waiting()
        session.perform(.volume(40))
        #expect(session.awaitsAlbum, "a volume key leaves it waiting")
        session.perform(.setAlbumMode(false))
        session.settle()
        #expect(session.state.id == .play && session.state.song?.path == "b.mp3", "album mode off: the list goes on")

        (session, seams) = waiting()
        session.perform(.quit)
        seams.heldAlbums.removeValue(forKey: "b.mp3")?(nil)
        session.settle()
        #expect(session.isFinished && session.state.id != .play, "the answer does not undo the quit")
    }

    @Test func replacingTheListPlaysTheNewOneWithTheModesKeptAndTheQueueGone() {
        let (session, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.queueEntry(2))
        session.perform(.setRepeat(true))
        session.perform(.replaceWithSongs(["c.mp3", "b.mp3"]))
        session.settle()
        #expect(session.entries.map(\.path) == ["c.mp3", "b.mp3"] && session.state.song?.path == "c.mp3" && session.index == 0)
        #expect(session.queue.upNext.isEmpty && session.queue.repeats)
        #expect(endSong(session) == "b.mp3")
        #expect(endSong(session) == "c.mp3", "repeat: the new list again")
    }

    @Test func theModesAndTheQueueAreSavedAndResumed() {
        let (first, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        first.start()
        first.settle()
        first.perform(.setRepeatOne(true))
        first.perform(.setAlbumMode(true))
        first.perform(.queueEntry(2))
        let saved = first.saved
        #expect(saved.repeatsOne && saved.albumMode && saved.upNext == [2])
        let (resumed, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        resumed.resume(saved)
        resumed.settle()
        #expect(resumed.modes.repeatsOne && resumed.modes.albumMode && resumed.queue.upNext == [2])
    }

    @Test func theModesAreScriptCommandsAndMprisLoopStatus() {
        let parsed = ScriptParser.parse(Array("repeat-one on\nstop-after off\nqueue 3\nqueue 0\nrepeat-one maybe\n".utf8))
        #expect(parsed.statements.map(\.statement) == [.command(.perform(.setRepeatOne(true))), .command(.perform(.setStopAfter(false))),
                                                       .command(.perform(.queueEntry(2)))])
        #expect(parsed.problems.map(\.message) == ["queue needs the number of an entry of the list, from 1 (found '0')",
                                                   "repeat-one needs on or off (found 'maybe')"])
        let (session, _) = session(["a.mp3"])
        session.perform(.setRepeatOne(true))
        #expect(MprisProperties(session.status).loopStatus == "Track")
    }
}

/// The graphic equaliser from a script: on, off, a preset, or ten gains; what is not one of
/// them is a located problem.
struct EqualizerScriptTests {
    @Test func aScriptSetsTheEqualizer() {
        let parsed = ScriptParser.parse(Array("equalizer rock\nequalizer off\nequalizer on\nequalizer 1 2 3 4 5 6 7 8 9 10\nequalizer loud\nequalizer 1 2 3\n".utf8))
        #expect(parsed.statements.map(\.statement) == [
            .command(.perform(.setGraphicEqualizer([5, 4, 3, 1, -1, -1, 1, 3, 4, 5], on: true))),
            .command(.perform(.setEqualizerOn(false))), .command(.perform(.setEqualizerOn(true))),
            .command(.perform(.setGraphicEqualizer([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], on: true))),
        ])
        #expect(parsed.problems.count == 2 && parsed.problems.allSatisfy { $0.message.hasPrefix("equalizer needs on, off, a preset (flat, rock") },
                "\(parsed.problems.map(\.message))")
        #expect(EqualizerPresets.parse("1 2 3 4 5 6 7 8 9 13") == nil, "beyond 12 dB")
        #expect(EqualizerPresets.parse("1dB 2 3 4 5 6 7 8 9 -12dB") == [1, 2, 3, 4, 5, 6, 7, 8, 9, -12])
    }
}
