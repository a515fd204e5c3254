import Testing
@testable import PlayerCore

private func session(_ inputs: [String], good: Set<Path> = ["a.mp3", "b.mp3", "c.mp3"]) -> (Session, FakeEngine, Reports) {
    let engine = FakeEngine(goodPaths: good)
    let session = Session(context: PlayerContext(engine: engine), entries: inputs.map { Entry(path: Path($0)) })
    let reports = Reports()
    session.report = { reports.lines.append($0) }
    return (session, engine, reports)
}

private final class Reports { var lines: [String] = [] }

struct SessionTests {
    @Test func playsTheFirstInputAndMovesOnWhenItEnds() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        #expect(session.context.state.id == .play)
        #expect(session.context.state.song?.path == "a.mp3")
        session.handle(.ended(token: session.context.token))
        #expect(session.context.state.song?.path == "b.mp3")
        #expect(session.index == 1)
        session.handle(.ended(token: session.context.token))
        #expect(session.isFinished)
        #expect(session.exitStatus == 0)
    }

    @Test func anInputThatCannotLoadIsReportedAndTheNextOnePlays() {
        let (session, _, reports) = session(["a.mp3", "missing.mp3", "c.mp3"])
        session.start()
        session.handle(.ended(token: session.context.token))
        #expect(reports.lines == ["missing.mp3: no such file"])
        #expect(session.context.state.song?.path == "c.mp3")
        #expect(session.context.state.id == .play)
        session.handle(.ended(token: session.context.token))
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
    }

    @Test func whenNoInputCanLoadTheSessionFinishesWithStatusOne() {
        let (session, _, reports) = session(["x.mp3", "y.mp3"])
        session.start()
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines.count == 2)
    }

    @Test func anEndReportAboutAnEarlierSongIsIgnored() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        let stale = session.context.token
        session.perform(.next)
        session.handle(.ended(token: stale))
        #expect(session.context.state.song?.path == "b.mp3")
        #expect(session.context.state.id == .play)
    }

    @Test func nextAndPreviousMoveThroughTheList() {
        let (session, _, _) = session(["a.mp3", "b.mp3", "c.mp3"])
        session.start()
        session.perform(.next)
        session.perform(.next)
        #expect(session.context.state.song?.path == "c.mp3")
        session.perform(.previous)
        #expect(session.context.state.song?.path == "b.mp3")
        session.perform(.previous)
        session.perform(.previous)  // at the first: plays it again from the start
        #expect(session.context.state.song?.path == "a.mp3")
        #expect(!session.isFinished)
        session.perform(.next)
        session.perform(.next)
        session.perform(.next)  // past the last: done
        #expect(session.isFinished)
    }

    @Test func previousSkipsBackOverInputsThatCannotLoad() {
        let (session, _, _) = session(["a.mp3", "bad.mp3", "c.mp3"])
        session.start()
        session.perform(.next)
        #expect(session.index == 2)
        session.perform(.previous)
        #expect(session.index == 0)
    }

    @Test func loadPlaysAnotherSongNowAndTheListGoesOnAfterIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.perform(.load("c.mp3"))
        #expect(session.context.state.song?.path == "c.mp3")
        #expect(session.context.state.id == .play)
        session.handle(.ended(token: session.context.token))
        #expect(session.context.state.song?.path == "b.mp3")
    }

    @Test func quitStopsAndFinishes() {
        let (session, engine, _) = session(["a.mp3"])
        session.start()
        session.perform(.quit)
        #expect(session.isFinished)
        #expect(engine.calls.last == "stop")
        #expect(session.exitStatus == 0)
    }

    @Test func aLostDeviceHoldsTheSongAndItsReturnResumesIt() {
        let (session, engine, reports) = session(["a.mp3"])
        session.start()
        engine.position = 500
        session.handle(.deviceLost(token: session.context.token, message: "gone"))
        #expect(session.context.state.id == .deviceLost)
        #expect(reports.lines == ["output: gone; will resume when it is back"])
        session.handle(.deviceRestored(token: session.context.token))
        #expect(session.context.state.id == .play)
        #expect(engine.position == 500)
    }

    @Test func anOutputThatFailsEndsTheRunWithStatusOne() {
        let (session, _, reports) = session(["a.mp3", "b.mp3"])
        session.start()
        session.handle(.outputFailed(message: "out.wav: cannot write"))
        #expect(session.isFinished)
        #expect(session.exitStatus == 1)
        #expect(reports.lines == ["out.wav: cannot write"])
    }

    @Test func keepOpenStaysOnTheLastSongRewound() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"])
        session.keepsOpen = true
        session.start()
        session.perform(.next)
        engine.position = 1000
        session.perform(.next)  // past the end: stop on b, rewound
        #expect(!session.isFinished)
        #expect(session.context.state.id == .stop)
        #expect(session.context.state.song?.path == "b.mp3")
        #expect(engine.position == 0)
        session.perform(.play)
        session.handle(.ended(token: session.context.token))
        #expect(!session.isFinished)
        #expect(session.context.state.id == .prepare, "a natural end leaves it rewound, ready to play")
        #expect(session.place == 2)
    }

    @Test func repeatGoesRoundAndTheKeyTogglesIt() {
        let (session, _, _) = session(["a.mp3", "b.mp3"])
        session.perform(.toggleRepeat)
        session.start()
        for expected: Path in ["b.mp3", "a.mp3", "b.mp3"] {
            session.handle(.ended(token: session.context.token))
            #expect(session.context.state.song?.path == expected)
        }
        session.perform(.toggleRepeat)
        session.handle(.ended(token: session.context.token))
        #expect(session.isFinished)
    }

    @Test func repeatWithNothingPlayableEndsInsteadOfLooping() {
        let (session, _, reports) = session(["x.mp3", "y.mp3"])
        session.perform(.setRepeat(true))
        session.start()
        #expect(session.isFinished)
        #expect(reports.lines.count == 2, "each bad entry reported once")
    }

    @Test func shufflePlaysEachEntryOnce() {
        let engine = FakeEngine(goodPaths: Set((0..<20).map { Path("\($0).mp3") }))
        let queue = PlayQueue(shuffle: true, seed: 3)
        let session = Session(context: PlayerContext(engine: engine), entries: (0..<20).map { Entry(path: Path("\($0).mp3")) }, queue: queue)
        session.start()
        var played = [session.context.state.song!.path]
        while !session.isFinished {
            session.handle(.ended(token: session.context.token))
            if let path = session.context.state.song?.path, !session.isFinished { played.append(path) }
        }
        #expect(played.count == 20 && Set(played).count == 20)
        #expect(played != (0..<20).map { Path("\($0).mp3") })
    }

    @Test func aPlaylistTitleNamesASongWithoutTags() {
        let engine = FakeEngine()
        let session = Session(context: PlayerContext(engine: engine), entries: [Entry(path: "a.mp3", title: "From the list")])
        session.start()
        #expect(session.songName == "a.mp3", "the fake's songs have a title tag, which wins")
        engine.goodPaths = ["a.mp3"]
        let untagged = Session(context: PlayerContext(engine: UntaggedEngine()), entries: [Entry(path: "u.mp3", title: "From the list")])
        untagged.start()
        #expect(untagged.songName == "From the list")
    }

    @Test func seekAndVolumeReachTheEngineAndVolumeHoldsAcrossSongs() {
        let (session, engine, _) = session(["a.mp3", "b.mp3"])
        session.start()
        session.perform(.volume(40))
        session.perform(.seek(.to(.seconds(3))))
        #expect(engine.calls.suffix(2) == ["volume 0.4", "seek 132300"])
        session.perform(.next)
        #expect(session.context.volume == 40)
        #expect(!engine.calls.contains("volume 1.0"), "a new song does not reset the volume")
        session.perform(.volume(250))
        #expect(session.context.volume == 100)
    }

    @Test func playWithNothingLoadedStartsTheList() {
        let (session, _, _) = session(["a.mp3"])
        session.perform(.play)
        #expect(session.context.state.id == .play)
        #expect(session.context.state.song?.path == "a.mp3")
    }
}

/// Opens anything, with no tags.
private final class UntaggedEngine: PlaybackEngine {
    var position: Int64 = 0
    func open(_ path: Path, token: Int) throws(LoadError) -> SongInfo {
        SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 100)
    }
    func play() {}
    func stop() {}
    func seek(_ target: SeekTarget) {}
    func setVolume(_ fraction: Double) {}
    func limitPlayback(_ limited: Bool) {}
    func grant(_ time: AudioTime, id: Int) {}
    func revokeGrant() -> AudioTime { .zero }
}
