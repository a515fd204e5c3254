import Testing
@testable import PlayerCore

/// The player model on its own, as swift-nio's state machines are tested: a value, one input at
/// a time, and the effects it returns looked at whole. No engine, no seams: an effect that asks
/// for something (a path's entries, an album) is answered by handing the answer in.
struct PlayerModelTests {
    private func model(_ paths: [String], policy: PlayerModel.Policy = PlayerModel.Policy()) -> PlayerModel {
        PlayerModel(entries: paths.reduce(into: EntryList()) { $0.append(Entry(path: Path($1))) }, policy: policy)
    }

    private func song(_ path: String, album: String? = nil) -> SongInfo {
        SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: 441_000, title: nil, album: album)
    }

    /// Each effect in a line, the engine's as `--trace` names its calls, transitions left out.
    private func lines(_ effects: [PlayerModel.Effect]) -> [String] {
        effects.compactMap { effect in
            switch effect {
            case .engine(let call): "engine \(call)"
            case .report(let line): "report \(line)"
            case .transition: nil
            case .listened(let listen): "listened \(listen.kind) \(listen.song.path)"
            case .saveList(let path, let entries): "save \(entries.count) to \(path)"
            case .playlist(let request, let entries, _): "\(request) (\(entries.count))"
            case .expand(let path, let purpose): "expand \(path) for \(purpose)"
            case .readAlbum(let source): "album of \(source.path)?"
            case .readAlbums(let entries, _): "albums of \(entries.count)?"
            case .answerLoad(let answer): "answer \(answer)"
            }
        }
    }

    @Test func startOpensTheFirstSongAndCuesTheNextOnceItIsOpen() {
        var model = model(["a.mp3", "b.mp3"])
        #expect(lines(model.handle(.start)) == ["engine stop", "engine open a.mp3"])
        #expect(model.state.id == .loading)
        let effects = model.handle(.event(.opened(song("a.mp3"), token: model.state.token ?? -1)))
        #expect(lines(effects) == ["engine play", "engine cue b.mp3"])
        #expect(model.state.id == .play && model.index == 0)
    }

    @Test func theModelIsAValue() {
        var model = model(["a.mp3", "b.mp3"])
        _ = model.handle(.start)
        let before = model
        var copy = model
        _ = copy.handle(.command(.next))
        #expect(copy.index == 1 && model.index == 0, "the copy moved on, the original did not")
        #expect(model.status == before.status)
    }

    @Test func aSongThatCannotBeOpenedIsSaidAndTheListGoesOn() {
        var model = model(["gone.mp3", "b.mp3"])
        _ = model.handle(.start)
        let failed = model.handle(.event(.openFailed(LoadError(path: "gone.mp3", reason: .missing), token: model.state.token ?? -1)))
        #expect(lines(failed).first?.hasPrefix("report gone.mp3: ") == true)
        #expect(lines(failed).contains("engine open b.mp3"))
        #expect(model.exitStatus == 1 && model.outcome.failures[0] != nil)
    }

    /// A load reads nothing itself: it asks for the path's entries, and only the newest load's
    /// answer plays; the asker of the one overtaken is told so.
    @Test func aLoadAsksForItsEntriesAndOnlyTheNewestPlays() {
        var model = model(["a.mp3"])
        _ = model.handle(.start)
        _ = model.handle(.event(.opened(song("a.mp3"), token: model.state.token ?? -1)))
        #expect(lines(model.handle(.load("x", answered: true))).prefix(1) == ["expand x for load(1)"])
        #expect(lines(model.handle(.load("y", answered: false))).prefix(2) == ["answer overtaken", "expand y for load(2)"])
        #expect(lines(model.handle(.expanded([Entry(path: "x.mp3")], problems: [], for: .load(1)))).isEmpty, "overtaken")
        let played = lines(model.handle(.expanded([Entry(path: "y.mp3")], problems: [], for: .load(2))))
        #expect(played.contains("engine open y.mp3") && !played.contains { $0.hasPrefix("answer") })
        #expect(model.entries.count == 2 && model.index == 1)
    }

    @Test func aLoadOfNothingIsRefusedWithItsProblems() {
        var model = model(["a.mp3"])
        _ = model.handle(.start)
        _ = model.handle(.load("empty/", answered: true))
        let refused = lines(model.handle(.expanded(EntryList(), problems: ["empty/: no songs"], for: .load(1))))
        #expect(refused == ["answer refused([\"empty/: no songs\"])"])
        #expect(model.entries.count == 1)
    }

    /// Album mode asks for the next song's album and never reads it itself: a song that ends
    /// before the answer waits for it, and the answer decides.
    @Test func albumModeAsksForTheNextAlbumAndTheAnswerDecides() {
        var model = model(["a1.mp3", "b1.mp3"], policy: PlayerModel.Policy(keepsOpen: true))
        _ = model.handle(.command(.setAlbumMode(true)))
        _ = model.handle(.start)
        let opened = lines(model.handle(.event(.opened(song("a1.mp3", album: "A"), token: model.state.token ?? -1))))
        #expect(opened == ["engine play", "album of b1.mp3?", "engine cue nothing"], "not cued before its album is known")
        let ended = lines(model.handle(.event(.ended(token: model.state.token ?? -1))))
        #expect(!ended.contains("engine open b1.mp3") && model.awaitsAlbum, "waits for the answer")
        let answered = lines(model.handle(.album("B", of: SongSource("b1.mp3"))))
        #expect(!answered.contains("engine play") && model.state.id != .play, "another album: stopped, the next ready")
        #expect(answered.contains("engine open b1.mp3") && !model.awaitsAlbum)
        _ = model.handle(.event(.opened(song("b1.mp3", album: "B"), token: model.state.token ?? -1)))
        #expect(model.state.id == .prepare && model.index == 1, "b1 ready; play plays it")
    }

    @Test func aSongHeardPastHalfIsPlayedAndTheEnginesPositionSaysHowFar() {
        var model = model(["a.mp3", "b.mp3"])
        _ = model.handle(.start)
        _ = model.handle(.event(.opened(song("a.mp3"), token: model.state.token ?? -1)))
        for second in 1...4 {
            #expect(lines(model.handle(.observe, engine: .init(position: Int64(second) * 44100))).isEmpty)
        }
        #expect(lines(model.handle(.command(.next), engine: .init(position: 6 * 44100))).prefix(1) == ["listened played a.mp3"])
    }

    @Test func aSpeedTheEngineCannotPlayIsRefusedInOneLine() {
        var model = model(["a.mp3"])
        let refused = model.handle(.command(.speed(1.5)), engine: .init(speedRefusal: { "no librubberband" }))
        #expect(lines(refused) == ["report no librubberband", "engine cue nothing"] && model.sound.speed == 1)
        #expect(lines(model.handle(.command(.speed(1.5)))) == ["engine speed 1.5", "engine cue nothing"] && model.sound.speed == 1.5)
    }
}

/// The shell that makes the model's effects: one input's effects whole, in order, before an
/// answer that came while they were made is handed in.
struct SessionShellTests {
    /// A load answered at once (mpg123's `LOAD`: the one song it names) plays, and what is cued
    /// last is what follows it, not what the input before cued for the song it replaced (made
    /// after the answer's effects, `a` was left cued while `x` opened).
    @Test func anAnswerThatComesAtOnceIsHandledAfterTheEffectsBeforeIt() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "x.mp3"])
        let seams = TestSeams()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: seams.seams)
        session.perform(.setRepeatOne(true))
        session.start()
        session.settle()
        #expect(engine.cued == "a.mp3")
        session.perform(.load("x.mp3"))
        #expect(engine.cued == nil, "while x opens nothing is cued (not a, cued for the song x replaced)")
        session.settle()
        #expect(session.index == 1 && session.state.song?.path == "x.mp3", "x plays, after a")
        #expect(engine.cued == "x.mp3", "what follows x is cued last")
        #expect(engine.calls.suffix(3) == ["skip", "open x.mp3", "play"], "\(engine.calls)")
    }

    /// An album read while a song plays comes back as an input, and the song to follow is cued
    /// with it; an asker of a load is answered once, in order.
    @Test func answersComeBackAsInputsAndEachAskerIsAnsweredOnce() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3", "c.mp3"])
        engine.albums = ["a.mp3": "A", "b.mp3": "A"]
        let seams = TestSeams()
        seams.holdsAlbums = true
        seams.holdLoads()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: seams.seams)
        session.perform(.setAlbumMode(true))
        session.start()
        session.settle()
        #expect(engine.cued == nil, "b's album not known yet")
        seams.heldAlbums["b.mp3"]?("A")
        #expect(engine.cued == "b.mp3", "the same album: cued")
        var answers: [Session.LoadAnswer] = []
        session.load("one") { answers.append($0) }
        session.load("two") { answers.append($0) }
        #expect(answers == [.overtaken])
        seams.heldLoads["two"]?([Entry(path: "c.mp3")], [])
        #expect(answers == [.overtaken, .playing])
        seams.heldLoads["one"]?([Entry(path: "a.mp3")], [])
        #expect(answers == [.overtaken, .playing], "the load overtaken is answered once")
    }
}
