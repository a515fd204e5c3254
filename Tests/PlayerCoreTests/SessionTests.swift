import Testing
@testable import PlayerCore

/// A session over `inputs`, started, whose loads wait for the test to hand their songs over.
private func sessionHoldingLoads(_ inputs: [String]) -> (Session, TestSeams) {
    let (session, _, seams) = session(inputs)
    seams.holdLoads()
    session.start()
    session.settle()
    return (session, seams)
}

private func session(_ inputs: [String], good: Set<Path> = ["a.mp3", "b.mp3", "c.mp3"],
                     policy: Session.Policy = Session.Policy()) -> (Session, FakeEngine, TestSeams) {
    let engine = FakeEngine(goodPaths: good)
    let seams = TestSeams()
    let session = Session(engine: engine, entries: EntryList(inputs.map { Entry(path: Path($0)) }), policy: policy, seams: seams.seams)
    return (session, engine, seams)
}

struct SessionTests {
    /// Loads whose songs come later (a folder walked off the main loop): only the newest plays,
    /// whatever order the walks end in, and nothing plays once the player has quit.
    @Test func onlyTheNewestLoadPlaysWhenItsSongsArrive() {
        let (session, seams) = sessionHoldingLoads(["a.mp3"])
        session.perform(.load("first"))
        session.perform(.load("second"))
        seams.heldLoads["second"]?([Entry(path: "c.mp3")], [])
        session.settle()
        seams.heldLoads["first"]?([Entry(path: "b.mp3")], [])
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        #expect(session.entries.map(\.path) == ["a.mp3", "c.mp3"])
        session.perform(.load("third"))
        session.perform(.quit)
        seams.heldLoads["third"]?([Entry(path: "b.mp3")], [])
        #expect(session.entries.count == 2)
    }

    /// A load whose asker waits (MPRIS's OpenUri) is answered: playing, refused with its
    /// problems (nothing added, the song playing untouched), or overtaken by a newer load or
    /// by quitting.
    @Test func aLoadIsAnsweredOnceItsSongsAreKnown() {
        let (session, seams) = sessionHoldingLoads(["a.mp3"])
        var answers: [Session.LoadAnswer] = []
        session.load("gone.mp3") { answers.append($0) }
        seams.heldLoads["gone.mp3"]?([], ["gone.mp3: no such file"])
        session.settle()
        #expect(answers == [.refused(["gone.mp3: no such file"])])
        #expect(session.entries.count == 1 && session.state.song?.path == "a.mp3" && session.state.token == 1)
        session.load("first") { answers.append($0) }
        session.load("b.mp3") { answers.append($0) }
        #expect(answers.last == .overtaken)
        seams.heldLoads["b.mp3"]?([Entry(path: "b.mp3")], [])
        session.settle()
        #expect(answers.last == .playing)
        #expect(session.state.song?.path == "b.mp3")
        session.load("c.mp3") { answers.append($0) }
        session.perform(.quit)
        #expect(answers == [.refused(["gone.mp3: no such file"]), .overtaken, .playing, .overtaken])
    }

    /// cmus's `x` (play from start): the song playing or paused starts again from its start and
    /// plays; cmus's `v` (stop) is `rewind`: stopped at the song's start, `play` starts it there.
    @Test func playFromStartRestartsTheSongAndStopRewinds() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.perform(.seek(.to(.seconds(4))))
        engine.calls = []
        session.perform(.playFromStart)
        #expect(engine.calls.contains("seek 0") && session.state.isPlaying && engine.position == 0)
        session.perform(.seek(.to(.seconds(3))))
        session.perform(.stop)
        #expect(!session.state.isPlaying && engine.position == 132300)
        session.perform(.playFromStart)
        #expect(session.state.isPlaying && engine.position == 0 && session.state.song?.path == "a.mp3", "paused: from the start")
        session.perform(.seek(.to(.seconds(2))))
        session.perform(.rewind)
        #expect(session.isStoppedAtStart && !session.state.isPlaying)
        session.perform(.play)
        session.settle()
        #expect(session.state.isPlaying && engine.position == 0 && session.state.song?.path == "a.mp3")
    }

    /// What is saved holds the play order when it is not list order, and none when it is.
    @Test func theSavedSessionHoldsThePlayOrder() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        #expect(session.saved.order == nil)
        session.seedShuffles(7)
        session.perform(.toggleShuffle)
        let order = session.queue.order
        #expect(order != [0, 1, 2] && session.saved.order == order.array && session.saved.shuffles)
    }

    /// Entries set aside (saved songs not there) are passed over both ways, without a word and
    /// without failing the run, and stay in the list (and in what is saved).
    @Test func entriesSetAsideArePassedOverAndKept() {
        let (session, _, reports) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.setAside([0, 1])
        session.start()
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        session.perform(.previous)
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        #expect(reports.lines.isEmpty && session.exitStatus == 0)
        #expect(session.saved.entries.count == 3 && session.saved.current == 2)
    }

    @Test func playsTheFirstInputAndMovesOnWhenItEnds() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        #expect(session.state.id == .play)
        #expect(session.state.song?.path == "a.mp3")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "b.mp3")
        #expect(session.index == 1)
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.isFinished)
        #expect(session.exitStatus == 0)
    }

    /// A long list plays from its first songs while the rest is read: the end of what is there
    /// waits for more (the run does not end), the list goes on with what arrives, and ends with
    /// the last piece.
    @Test func theRestOfAListArrivesWhileItPlaysAndTheListGoesOnWithIt() {
        let (session, engine, _) = session(["a.mp3"])
        session.expectMore()
        session.start()
        session.settle()
        #expect(engine.cued == nil, "nothing is there yet to follow")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished, "more is coming: the run waits for it")
        session.arrive(EntryList([Entry(path: "missing.mp3"), Entry(path: "b.mp3")]), isLast: false)
        session.settle()
        #expect(session.state.song?.path == "b.mp3" && session.state.id == .play, "it goes on past the one that fails")
        #expect(session.entries.map(\.path) == ["a.mp3", "missing.mp3", "b.mp3"])
        session.arrive(EntryList([Entry(path: "c.mp3")]), isLast: false)
        #expect(engine.cued == "c.mp3", "a piece that arrives while a song plays is cued to follow it")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished)
        session.arrive([], isLast: true)
        session.settle()
        #expect(session.isFinished, "the list is all there and played")
        #expect(session.exitStatus == 1)
    }

    /// A run that ends with its list waits for a load under way (MPRIS's OpenUri), plays what
    /// it brings, and ends when nothing came of it.
    @Test func theEndOfTheListWaitsForALoadUnderWay() {
        let (session, seams) = sessionHoldingLoads(["a.mp3"])
        session.load("b.mp3") { _ in }
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished, "the load is still coming")
        seams.heldLoads["b.mp3"]?([Entry(path: "b.mp3")], [])
        session.settle()
        #expect(session.state.song?.path == "b.mp3" && session.state.id == .play)
        session.load("gone.mp3") { _ in }
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished)
        seams.heldLoads["gone.mp3"]?([], ["gone.mp3: no such file"])
        session.settle()
        #expect(session.isFinished, "nothing came of it: the run ends with its list")
    }

    /// A person's run stays at the end of the list as ever; when more arrives after the songs
    /// there played out it goes on, but not over a song the person chose to play again.
    @Test func aPersonsRunGoesOnWithWhatArrivesUnlessASongWasChosen() {
        let (session, _, _) = session(["a.mp3"], policy: Session.Policy(keepsOpen: true))
        session.expectMore()
        session.start()
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished && session.state.id != .play)
        session.arrive(EntryList([Entry(path: "b.mp3")]), isLast: false)
        session.settle()
        #expect(session.state.song?.path == "b.mp3" && session.state.id == .play)
        session.perform(.playEntry(0))
        session.settle()
        session.arrive(EntryList([Entry(path: "c.mp3")]), isLast: true)
        session.settle()
        #expect(session.state.song?.path == "a.mp3", "the song chosen plays on")
        #expect(!session.listIsComing)
    }

    /// The song that follows is cued through the one engine seam, and cleared when nothing follows.
    @Test func theNextSongIsCuedThroughTheEnginesOneDoor() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        #expect(engine.cued == "b.mp3")
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(engine.cued == nil, "the last song: nothing follows")
        session.perform(.setRepeat(true))
        #expect(engine.cued == "a.mp3")
    }

    @Test func anInputThatCannotLoadIsReportedAndTheNextOnePlays() {
        let (session, _, reports) = session(["a.mp3", "missing.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(reports.lines == ["missing.mp3: no such file"])
        #expect(session.state.song?.path == "c.mp3")
        #expect(session.state.id == .play)
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
    }

    @Test func whenNoInputCanLoadTheSessionFinishesWithStatusOne() {
        let (session, _, reports) = session(["x.mp3", "y.mp3"])
        session.start()
        session.settle()
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines.count == 2)
    }

    @Test func anEndReportAboutAnEarlierSongIsIgnored() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        let stale = session.token
        session.perform(.next)
        session.settle()
        session.handle(.ended(token: stale))
        session.settle()
        #expect(session.state.song?.path == "b.mp3")
        #expect(session.state.id == .play)
    }

    @Test func nextAndPreviousMoveThroughTheList() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.next)
        session.settle()
        session.perform(.next)
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        session.perform(.previous)
        session.settle()
        #expect(session.state.song?.path == "b.mp3")
        session.perform(.previous)
        session.settle()
        session.perform(.previous)  // at the first: plays it again from the start
        session.settle()
        #expect(session.state.song?.path == "a.mp3")
        #expect(!session.isFinished)
        session.perform(.next)
        session.settle()
        session.perform(.next)
        session.settle()
        session.perform(.next)  // past the last: done
        session.settle()
        #expect(session.isFinished)
    }

    @Test func previousSkipsBackOverInputsThatCannotLoad() {
        let (session, _, _) = session(["a.mp3", "bad.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.next)
        session.settle()
        #expect(session.index == 2)
        session.perform(.previous)
        session.settle()
        #expect(session.index == 0)
    }

    @Test func loadPlaysAnotherSongNowAndTheListGoesOnAfterIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.perform(.load("c.mp3"))
        session.settle()
        #expect(session.state.song?.path == "c.mp3")
        #expect(session.state.id == .play)
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "b.mp3")
    }

    @Test func quitStopsAndFinishes() {
        let (session, engine, _) = session(["a.mp3"])
        session.start()
        session.settle()
        session.perform(.quit)
        session.settle()
        #expect(session.isFinished)
        #expect(engine.calls.last == "stop")
        #expect(session.exitStatus == 0)
    }

    @Test func aLostDeviceHoldsTheSongAndItsReturnResumesIt() {
        let (session, engine, reports) = session(["a.mp3"])
        session.start()
        session.settle()
        engine.position = 500
        session.handle(.deviceLost(token: session.token, message: "gone"))
        session.settle()
        #expect(session.state.id == .deviceLost)
        #expect(reports.lines == ["output: gone; will resume when it is back"])
        session.handle(.deviceRestored(token: session.token))
        session.settle()
        #expect(session.state.id == .play)
        #expect(engine.position == 500)
    }

    @Test func anOutputThatFailsEndsTheRunWithStatusOne() {
        let (session, _, reports) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.handle(.outputFailed(message: "out.wav: cannot write"))
        session.settle()
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines == ["out.wav: cannot write"])
    }

    @Test func keepOpenStaysOnTheLastSongRewound() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"], policy: Session.Policy(keepsOpen: true))
        session.start()
        session.settle()
        session.perform(.next)
        session.settle()
        engine.position = 1000
        session.perform(.next)  // past the end: stop on b, rewound
        session.settle()
        #expect(!session.isFinished)
        #expect(session.state.id == .stop)
        #expect(session.state.song?.path == "b.mp3")
        #expect(engine.position == 0)
        session.perform(.play)
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished)
        #expect(session.state.id == .prepare, "a natural end leaves it rewound, ready to play")
        #expect(session.place == 2)
    }

    @Test func repeatGoesRoundAndTheKeyTogglesIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.perform(.toggleRepeat)
        session.settle()
        session.start()
        session.settle()
        for expected: Path in ["b.mp3", "a.mp3", "b.mp3"] {
            session.handle(.ended(token: session.token))
            session.settle()
            #expect(session.state.song?.path == expected)
        }
        session.perform(.toggleRepeat)
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.isFinished)
    }

    @Test func repeatWithNothingPlayableEndsInsteadOfLooping() {
        let (session, _, reports) = session(["x.mp3", "y.mp3"])
        session.perform(.setRepeat(true))
        session.settle()
        session.start()
        session.settle()
        #expect(session.isFinished)
        #expect(reports.lines.count == 2, "each bad entry reported once")
    }

    @Test func shufflePlaysEachEntryOnce() {
        let engine = FakeEngine(goodPaths: Set((0..<20).map { Path("\($0).mp3") }))
        let queue = PlayQueue(shuffle: true, seed: 3)
        let session = Session(engine: engine, entries: EntryList((0..<20).map { Entry(path: Path("\($0).mp3")) }), queue: queue, seams: TestSeams().seams)
        session.start()
        session.settle()
        var played = [session.state.song!.path]
        while !session.isFinished {
            session.handle(.ended(token: session.token))
            session.settle()
            if let path = session.state.song?.path, !session.isFinished { played.append(path) }
        }
        #expect(played.count == 20 && Set(played).count == 20)
        #expect(played != (0..<20).map { Path("\($0).mp3") })
    }

    @Test func aPlaylistTitleNamesASongWithoutTags() {
        let engine = FakeEngine()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3", title: "From the list")], seams: TestSeams().seams)
        session.start()
        session.settle()
        #expect(session.songName == "a.mp3", "the fake's songs have a title tag, which wins")
        engine.goodPaths = ["a.mp3"]
        let plain = FakeEngine(goodPaths: ["u.mp3"])
        plain.tagged = false
        let untagged = Session(engine: plain, entries: [Entry(path: "u.mp3", title: "From the list")], seams: TestSeams().seams)
        untagged.start()
        untagged.settle()
        #expect(untagged.songName == "From the list")
    }

    @Test func seekAndVolumeReachTheEngineAndVolumeHoldsAcrossSongs() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.perform(.volume(40))
        session.settle()
        session.perform(.seek(.to(.seconds(3))))
        session.settle()
        #expect(engine.calls.suffix(2) == ["volume 0.4", "seek 132300"])
        session.perform(.next)
        session.settle()
        #expect(session.sound.volume == 40)
        #expect(!engine.calls.contains("volume 1.0"), "a new song does not reset the volume")
        session.perform(.volume(250))
        session.settle()
        #expect(session.sound.volume == 100)
    }

    @Test func playWithNothingLoadedStartsTheList() {
        let (session, _, _) = session(["a.mp3"])
        session.perform(.play)
        session.settle()
        #expect(session.state.id == .play)
        #expect(session.state.song?.path == "a.mp3")
    }

    @Test func aSongAskedForThatCannotBeOpenedHandsBackToTheOneThatWasPlaying() {
        let (session, engine, reports) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        engine.position = 88_200  // two seconds in
        session.perform(.load("broken.mp3"))
        session.settle()
        #expect(reports.lines == ["broken.mp3: no such file"])
        #expect(session.state.id == .play && session.state.song?.path == "a.mp3", "the song goes on")
        #expect(engine.calls.suffix(4) == ["stop", "open a.mp3", "seek 88200", "play"], "from where it was")
        #expect(session.index == 0)
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "b.mp3", "and the list goes on after it")
    }

    @Test func theRemotePolicyLeavesNoSongAfterAFailedLoadAndDoesNotCountIt() {
        let (session, engine, reports) = session([], policy: .remote)
        session.perform(.load("a.mp3"))
        session.settle()
        engine.position = 88_200
        session.perform(.load("broken.mp3"))
        session.settle()
        #expect(reports.lines == ["broken.mp3: no such file"])
        #expect(session.state.song == nil, "mpg123's front-ends expect no song after a failed load")
        #expect(!session.isFinished, "open until told to quit")
        session.perform(.quit)
        #expect(session.exitStatus == 0, "the failure was answered, not counted")
    }

    @Test func aScriptHoldsTheRunOpenOnlyWhileItRuns() {
        let (session, _, _) = session(["a.mp3"])
        session.holdOpen(true)
        session.start()
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(!session.isFinished, "held open at the end of the list")
        session.holdOpen(false)
        #expect(!session.keepsOpen)
        session.perform(.next)
        session.settle()
        #expect(session.isFinished, "let go, the end of the list ends the run")
    }
}

/// The list view's commands: play an entry, take one out (the playing one too), move one.
struct SessionListEditTests {
    @Test func enterPlaysTheEntryAndTheListGoesOnFromIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.playEntry(2))
        session.settle()
        #expect(session.state.song?.path == "c.mp3" && session.index == 2 && session.state.id == .play)
        session.perform(.playEntry(7))
        #expect(session.index == 2, "no such entry: nothing changes")
    }

    @Test func takingOutThePlayingEntryPlaysTheNextAndThePlaceFollows() {
        let (session, engine, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.removeEntry(0))
        session.settle()
        #expect(session.entries.map(\.path) == ["b.mp3", "c.mp3"])
        #expect(session.state.song?.path == "b.mp3" && session.index == 0 && session.state.id == .play)
        #expect(engine.cued == "c.mp3")
        session.perform(.removeEntry(1))
        #expect(engine.cued == nil && session.state.song?.path == "b.mp3", "another entry: the song plays on")
        session.perform(.removeEntry(0))
        session.settle()
        #expect(session.isFinished, "the list is empty: the run is over, as at the end of the list")
    }

    @Test func aFailedEntryStaysMarkedWhereItMoves() {
        let (session, _, reports) = session(["a.mp3", "gone.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.state.song?.path == "c.mp3" && reports.lines.count == 1)
        #expect(session.outcome.failures.keys.sorted() == [1] && reports.lines[0].hasSuffix(session.outcome.failures[1] ?? "?"))
        session.perform(.moveEntry(1, by: -1))
        #expect(session.entries.map(\.path) == ["gone.mp3", "a.mp3", "c.mp3"] && session.outcome.failures.keys.sorted() == [0])
        session.perform(.previous)
        session.settle()
        #expect(session.state.song?.path == "a.mp3", "the failed entry is still passed over, in its new place")
        session.perform(.previous)
        session.settle()
        #expect(session.state.song?.path == "a.mp3")
        session.perform(.removeEntry(0))
        #expect(session.outcome.failures.isEmpty && session.exitStatus == 1, "taken out, it still failed this run")
    }

    @Test func movingThePlayingEntryKeepsItPlayingAndTheNextFollowsTheList() {
        let (session, engine, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.settle()
        session.perform(.moveEntry(0, by: 1))
        #expect(session.entries.map(\.path) == ["b.mp3", "a.mp3", "c.mp3"])
        #expect(session.index == 1 && session.state.song?.path == "a.mp3" && engine.cued == "c.mp3")
        session.perform(.moveEntry(2, by: -2))
        #expect(session.entries.map(\.path) == ["c.mp3", "b.mp3", "a.mp3"] && engine.cued == nil)
    }

    @Test func aLoadGoesIntoTheListAfterTheSongPlaying() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.settle()
        session.perform(.load("c.mp3"))
        session.settle()
        #expect(session.entries.map(\.path) == ["a.mp3", "c.mp3", "b.mp3"])
        #expect(session.state.song?.path == "c.mp3" && session.place == 2)
    }
}

/// The list view's `l`: what a path names goes into the list after the cursor, not played.
struct SessionAddTests {
    @Test func addedEntriesGoWhereAskedAndPlayInTheirTurn() {
        let (session, engine, seams) = session(["a.mp3", "b.mp3"])
        seams.expand = { path, done in done([Entry(path: path), Entry(path: "x.mp3")], []) }
        session.start()
        session.settle()
        session.perform(.add("c.mp3", at: 1))
        #expect(session.entries.map(\.path) == ["a.mp3", "c.mp3", "x.mp3", "b.mp3"])
        #expect(session.state.song?.path == "a.mp3" && engine.cued == "c.mp3", "not played now: next in its turn")
        session.perform(.add("d.mp3", at: 99))
        #expect(session.entries.map(\.path).suffix(2) == ["d.mp3", "x.mp3"], "past the end: at the end")
    }

    /// One numbering: the place the status line and the "Playing" lines give is the entry's
    /// number in the list, as the list view shows it, shuffled or not (it was the place in the
    /// play order: `1/20` while the view marked entry 9).
    @Test func thePlaceIsTheEntrysNumberInTheList() {
        let names = (0..<20).map { "s\($0).mp3" }
        let engine = FakeEngine(goodPaths: Set(names.map { Path($0) }))
        let session = Session(engine: engine, entries: EntryList(names.map { Entry(path: Path($0)) }),
                              queue: PlayQueue(shuffle: true, repeats: false, seed: 7), seams: TestSeams().seams)
        session.start()
        session.settle()
        for _ in 0..<5 {
            let index = try? #require(session.index)
            #expect(session.place == index.map { $0 + 1 })
            session.perform(.next)
            session.settle()
        }
        #expect(session.place != session.queue.cursor.map { $0 + 1 }, "shuffled: the list's number, not the play order's")
    }
}
