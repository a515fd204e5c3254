import Testing
@testable import PlayerCore

/// A session over the fake engine with `a.mp3` and `b.mp3`, playing the first when `playing`.
private func playingSession(_ playing: Bool = true) -> (Session, FakeEngine) {
    let engine = FakeEngine()
    let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: TestSeams().seams)
    if playing {
        session.start()
        session.settle()
    }
    return (session, engine)
}

private func seconds(_ value: Int64) -> AudioTime { AudioTime(flicks: value * AudioTime.flicksPerSecond) }

struct ControlsTests {
    /// A session and its script; the script's problems are kept in the last.
    private func scripted(_ commands: [ScriptCommand]) -> (Controls, ScriptRunner, Session, TestSeams) {
        let engine = FakeEngine()
        let session = Session(engine: engine, entries: [], seams: TestSeams().seams)
        let lines = commands.enumerated().map { ScriptLine(SourceLocation(file: "s.tps", line: $0.offset + 1), $0.element) }
        let reports = TestSeams()
        let runner = ScriptRunner(lines: lines, session: session, realTime: false, report: { reports.lines.append($0) }, onLine: nil)
        let controls = Controls(session: session, script: runner)
        return (controls, runner, session, reports)
    }

    /// Every front-end but the script takes over from a running script, each named in the
    /// report, and its command is then performed as asked.
    @Test func aCommandFromAnyFrontEndTakesOverFromTheScript() {
        for origin in [Origin.keys, .remote, .mpris] { takesOver(origin) }
    }

    private func takesOver(_ origin: Origin) {
        let (controls, runner, session, reports) = scripted([
            .add([Entry(path: "a.mp3"), Entry(path: "b.mp3")], playNow: false), .perform(.play), .wait(seconds(30)), .perform(.quit),
        ])
        runner.start()
        runner.settle()
        #expect(session.state.song?.path == "a.mp3")
        controls.submit(.next, from: origin)
        runner.settle()
        #expect(runner.isDone)
        #expect(session.state.song?.path == "b.mp3")
        #expect((session.engine as! FakeEngine).budget == nil, "playback is free again")
        #expect(reports.lines == ["\(origin): the script stops before line 4; the keys have control"])
        #expect(!session.isFinished, "the script's quit was dropped")
    }

    /// The script's own commands come through the same door without taking over.
    @Test func theScriptsOwnCommandsDoNotTakeOver() {
        let (controls, runner, session, reports) = scripted([
            .add([Entry(path: "a.mp3"), Entry(path: "b.mp3")], playNow: false), .perform(.play), .perform(.next), .wait(seconds(30)),
        ])
        runner.start()
        runner.settle()
        #expect(!runner.isDone)
        #expect(session.state.song?.path == "b.mp3")
        controls.submit(.volume(40), from: .script)
        #expect(!runner.isDone)
        #expect(reports.lines.isEmpty)
        #expect(session.sound.volume == 40)
    }

    @Test func withNoScriptACommandIsSimplyPerformed() {
        let (session, _) = playingSession()
        let controls = Controls(session: session)
        controls.submit([.stop, .volume(30)], from: .mpris)
        #expect(session.state.id == .stop)
        #expect(session.sound.volume == 30)
    }
}

struct MprisMappingTests {
    private func commands(_ request: MprisRequest, _ session: Session) -> Result<[Command], MprisRefusal> {
        MprisMapping.commands(for: request, in: session)
    }

    @Test func theSimpleMethodsAreTheKeysCommands() {
        let (session, _) = playingSession()
        #expect(commands(.raise, session) == .success([]))
        #expect(commands(.quit, session) == .success([.quit]))
        #expect(commands(.next, session) == .success([.next]))
        #expect(commands(.play, session) == .success([.play]))
        #expect(commands(.playPause, session) == .success([.toggle]))
    }

    /// Another Rate is a speed at the song's pitch, kept within MinimumRate and MaximumRate
    /// (0.25 and 4); one that is not a number is refused.
    @Test func aRateIsASpeedWithinTheRatesPlayed() {
        let (playing, engine) = playingSession()
        #expect(commands(.setRate(1.5), playing) == .success([.speed(1.5)]))
        #expect(commands(.setRate(.nan), playing) == .failure(.invalid))
        #expect(commands(.setRate(.infinity), playing) == .failure(.invalid))
        #expect(commands(.setRate(-2), playing) == .failure(.invalid), "outside MinimumRate: refused")
        playing.perform(.speed(10))
        #expect(playing.sound.speed == 4)
        #expect(MprisProperties(playing.status).rate == 4)
        playing.perform(.speed(-3))
        #expect(playing.sound.speed == 0.25)
        let before = MprisProperties(playing.status)
        playing.perform(.changeSpeed(by: 1.1))
        #expect(MprisProperties(playing.status).changed(since: before) == ["Rate"])
        #expect(engine.calls.suffix(3) == ["speed 4.0", "speed 0.25", "speed 0.28"])
    }

    /// An engine that cannot change speed (no librubberband): the speed stays 1, said once, and
    /// the status and MPRIS say 1; going back to 1 is always possible.
    @Test func aSpeedTheEngineCannotPlayIsRefusedAndSaid() {
        let (session, engine) = playingSession()
        engine.speedRefusal = "a speed other than 1 needs librubberband"
        let before = engine.calls.count
        session.perform(.speed(1.5))
        #expect(session.sound.speed == 1)
        #expect(MprisProperties(session.status).rate == 1)
        #expect(engine.calls.count == before, "nothing asked of the engine")
        session.perform(.speed(1))
        #expect(engine.calls.last == "speed 1.0")
    }

    /// Pause never starts a song (as a toggle would when stopped), and Rate 0 is a pause.
    @Test func pauseAndRateZeroPauseOnlyWhatPlays() {
        let (playing, _) = playingSession()
        #expect(commands(.pause, playing) == .success([.stop]))
        #expect(commands(.setRate(0), playing) == .success([.stop]))
        let (stopped, _) = playingSession(false)
        #expect(commands(.pause, stopped) == .success([]))
        #expect(commands(.setRate(0), stopped) == .success([]))
        playing.perform(.stop)
        #expect(commands(.pause, playing) == .success([]))
    }

    /// The spec's Stop goes back to the start and is Stopped; tplayer's own stop keeps the
    /// place and is Paused. A later Play plays from the start.
    @Test func stopRewindsAndIsStopped() {
        let (session, engine) = playingSession()
        #expect(commands(.stop, session) == .success([.rewind]))
        engine.position = 44_100 * 3
        Controls(session: session).submit(try! commands(.stop, session).get(), from: .mpris)
        #expect(session.state.id == .stop)
        #expect(engine.calls.suffix(2) == ["stop", "seek 0"])
        #expect(MprisProperties(session.status).playbackStatus == "Stopped")
        session.perform(.play)
        #expect(MprisProperties(session.status).playbackStatus == "Playing")
        session.perform(.stop)
        #expect(MprisProperties(session.status).playbackStatus == "Paused", "a pause after the Stop keeps its place")
    }

    @Test func seekIsRelativeAndAnOffsetThatCannotBeATimeIsRefused() {
        let (session, _) = playingSession()
        #expect(commands(.seek(offset: 5_000_000), session) == .success([.seek(.by(seconds(5)))]))
        #expect(commands(.seek(offset: -2_000_000), session) == .success([.seek(.by(seconds(-2)))]))
        #expect(commands(.seek(offset: .min), session) == .failure(.invalid))
    }

    /// SetPosition is ignored unless it names the song playing and lands inside it.
    @Test func setPositionMovesOnlyWithinTheSongItNames() throws {
        let (session, _) = playingSession()
        let entry = try #require(session.index)
        let track = MprisMapping.trackPath(entry)
        #expect(commands(.setPosition(track: track, microseconds: 3_000_000), session) == .success([.seek(.to(seconds(3)))]))
        #expect(commands(.setPosition(track: MprisMapping.trackPath(entry + 1), microseconds: 3_000_000), session) == .success([]))
        #expect(commands(.setPosition(track: track, microseconds: -1), session) == .success([]))
        // The fake's songs are 10 s long: the last microsecond is inside; its very end would
        // end the song and skip to the next, and past it is ignored.
        #expect(commands(.setPosition(track: track, microseconds: 9_999_999), session) != .success([]))
        #expect(commands(.setPosition(track: track, microseconds: 10_000_000), session) == .success([]))
        #expect(commands(.setPosition(track: track, microseconds: 10_000_001), session) == .success([]))
        #expect(commands(.setPosition(track: track, microseconds: 40_000_000), session) == .success([]))
        let (stopped, _) = playingSession(false)
        #expect(commands(.setPosition(track: track, microseconds: 0), stopped) == .success([]))
    }

    @Test func openUriTakesLocalFileURIsAndHttpStreamsOnly() {
        let (session, _) = playingSession()
        #expect(commands(.openUri("file:///music/a%20b.mp3"), session) == .success([.load("/music/a b.mp3")]))
        #expect(commands(.openUri("file://localhost/m/x.mp3"), session) == .success([.load("/m/x.mp3")]))
        #expect(commands(.openUri("http://example.com/x.mp3"), session) == .success([.load("http://example.com/x.mp3")]))
        #expect(commands(.openUri("https://radio.example/live"), session) == .success([.load("https://radio.example/live")]))
        for refused in ["ftp://example.com/x.mp3", "http://a b/", "http:///x", "file://otherhost/x.mp3", "relative.mp3", ""] {
            guard case .failure(.invalidArguments) = commands(.openUri(refused), session) else {
                Issue.record("\(refused) was not refused")
                continue
            }
        }
    }

    @Test func theWritablePropertiesAreCheckedAndMapped() {
        let (session, _) = playingSession()
        #expect(commands(.setLoopStatus("None"), session) == .success([.setRepeatOne(false), .setRepeat(false)]))
        #expect(commands(.setLoopStatus("Playlist"), session) == .success([.setRepeatOne(false), .setRepeat(true)]))
        #expect(commands(.setLoopStatus("Track"), session) == .success([.setRepeatOne(true)]))
        #expect(commands(.setLoopStatus("Always"), session) == .failure(.invalidArguments("LoopStatus is None, Track or Playlist")))
        #expect(commands(.setShuffle(true), session) == .success([.setShuffle(true)]))
        #expect(commands(.setVolume(0.424), session) == .success([.volume(42)]))
        #expect(commands(.setVolume(7), session) == .success([.volume(100)]))
        #expect(commands(.setVolume(-1), session) == .success([.volume(0)]))
        #expect(commands(.setVolume(.nan), session) == .failure(.invalid))
        session.perform(.setMute(true))
        #expect(commands(.setVolume(0.5), session) == .success([.volume(50), .setMute(false)]), "a volume set from a widget is heard")
    }
}

struct MprisPropertiesTests {
    @Test func aSessionWithNothingLoadedIsStoppedWithNoTrack() {
        let (session, _) = playingSession(false)
        let properties = MprisProperties(session.status)
        #expect(properties.playbackStatus == "Stopped")
        #expect(properties.track == nil)
        #expect(properties.canPlay && !properties.canPause && !properties.canSeek)
        #expect(properties.canGoNext && !properties.canGoPrevious, "two entries, none played yet")
        #expect(MprisMetadata(session, folder: "/home/u") == MprisMetadata(session, folder: "/"))
        #expect(MprisMetadata(session, folder: "/").trackID == MprisMetadata.noTrack)
        #expect(MprisMetadata(session, folder: "/").url == nil)
    }

    /// Each command changes what it should, and `changed` names exactly those properties.
    @Test func theChangedPropertiesAreNamed() {
        let (session, _) = playingSession()
        let playing = MprisProperties(session.status)
        #expect(playing.playbackStatus == "Playing")
        #expect(playing.canPause && playing.canSeek)
        session.perform(.stop)
        let paused = MprisProperties(session.status)
        #expect(paused.playbackStatus == "Paused")
        #expect(paused.changed(since: playing) == ["PlaybackStatus"])
        session.perform(.setRepeat(true))
        session.perform(.volume(40))
        let repeated = MprisProperties(session.status)
        #expect(repeated.changed(since: paused) == ["LoopStatus", "Volume", "CanGoPrevious"], "repeat goes round to the last")
        #expect(repeated.loopStatus == "Playlist" && repeated.volume == 0.4)
        session.perform(.setMute(true))
        #expect(MprisProperties(session.status).volume == 0, "muted is heard as 0")
        session.perform(.next)
        session.settle()
        let next = MprisProperties(session.status)
        #expect(next.changed(since: repeated).contains("Metadata"))
        #expect(next.track != repeated.track)
        #expect(next.changed(since: next).isEmpty)
    }

    @Test func theMetadataNamesTheSongByItsAbsoluteURL() throws {
        let (session, engine) = playingSession(false)
        engine.tagged = false
        session.start()
        session.settle()
        let metadata = MprisMetadata(session, folder: "/music/my songs")
        #expect(metadata.trackID == MprisMapping.trackPath(try #require(session.index)))
        #expect(metadata.length == 10_000_000)
        #expect(metadata.title == "a.mp3", "no tags: the file name")
        #expect(metadata.artist == nil && metadata.album == nil)
        #expect(metadata.url == "file:///music/my%20songs/a.mp3")
    }

    /// Tags and names reach MPRIS through the one sanitiser: `playerctl metadata title` in a
    /// terminal retitled the window and cleared the screen (ESC, BEL, CR, LF, C1, U+202E).
    @Test(arguments: [true, false])
    func theMetadataCarriesNoControlCharacters(tagged: Bool) throws {
        let hostile: Path = "\u{1B}]2;pwned\u{07}\u{1B}[2J\r\n\u{9B}1m\u{202E}3pm.mp3"
        let engine = FakeEngine(goodPaths: [hostile])
        engine.tagged = tagged
        let session = Session(engine: engine, entries: [Entry(path: hostile)], policy: Session.Policy(keepsOpen: true), seams: TestSeams().seams)
        session.start()
        session.settle()
        let metadata = MprisMetadata(session, folder: "/")
        let title = try #require(metadata.title)
        #expect(title == " ]2;pwned  [2J   1m 3pm.mp3")
        for text in [title, metadata.url ?? ""] {
            #expect(!text.unicodeScalars.contains(where: UntrustedText.isControl), "\(text.debugDescription)")
        }
    }
}
