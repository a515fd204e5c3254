import Testing
@testable import PlayerCore

private func parse(_ text: String) -> ScriptParser.Parsed { ScriptParser.parse(Array(text.utf8)) }

struct ScriptParserTests {
    @Test func everyCommandParses() throws {
        let parsed = parse("""
            # evening
            add a.mp3
              load "b c.mp3"
            play
            STOP
            next
            previous
            wait 1.5s
            wait END
            seek -5s
            seek 50%
            volume 80%
            volume 7
            repeat on
            shuffle off
            seed 18446744073709551615
            songs/x.mp3
            quit
            """)
        #expect(parsed.problems.isEmpty)
        let commands = parsed.statements.map(\.statement)
        #expect(commands == [
            .path("a.mp3", column: 5, playNow: false), .path("b c.mp3", column: 8, playNow: true),
            .command(.perform(.play)), .command(.perform(.stop)), .command(.perform(.next)), .command(.perform(.previous)),
            .command(.wait(try DurationParser.parse("1.5s").get())), .command(.waitEnd),
            .command(.perform(.seek(.by(AudioTime(flicks: -5 * AudioTime.flicksPerSecond))))),
            .command(.perform(.seek(.fraction(permyriad: 5000)))), .command(.perform(.volume(80))), .command(.perform(.volume(7))),
            .command(.perform(.setRepeat(true))), .command(.perform(.setShuffle(false))),
            .command(.seed(UInt64.max)), .bare("songs/x.mp3", word: "songs/x.mp3"), .command(.perform(.quit)),
        ])
        #expect(parsed.statements.map(\.location.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    }

    @Test func problemsNameTheLineAndColumn() {
        let parsed = parse("wait 1.5x\nplay now\n  volume 120%\nrepeat maybe\nadd\nseek\nwait\nseed -1\nseed 18446744073709551616\nseed")
        let found = parsed.problems.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        #expect(found == [
            "1:6: bad duration '1.5x': use e.g. 1.5s, 250ms, 2m, 1:30 or end",
            "2:6: play takes no argument (found 'now')",
            "3:10: bad volume '120%': use 0% to 100%",
            "4:8: repeat needs on or off (found 'maybe')",
            "5:4: add needs a path: add PATH",
            "6:5: bad seek '': use a time (1:30, 90s), +10s, -5s or a percentage (50%)",
            "7:5: wait needs a duration or 'end', e.g. wait 1.5s",
            "8:6: seed needs a whole number from 0 to 18446744073709551615 (found '-1')",
            "9:6: seed needs a whole number from 0 to 18446744073709551615 (found '18446744073709551616')",
            "10:5: seed needs a whole number from 0 to 18446744073709551615 (found '')",
        ])
    }

    @Test func mistypedCommandsGetASuggestion() {
        #expect(ScriptParser.suggestion(for: "plya") == "play")
        #expect(ScriptParser.suggestion(for: "volum") == "volume")
        #expect(ScriptParser.suggestion(for: "xyzzy") == nil)
    }
}

/// A session over the fake engine with a script, written as text lines already resolved.
private func runner(_ commands: [ScriptCommand], realTime: Bool = false, keepOpen: Bool = false, reports: TestSeams = TestSeams())
    -> (ScriptRunner, Session, FakeEngine)
{
    let engine = FakeEngine()
    let session = Session(engine: engine, entries: [], policy: Session.Policy(keepsOpen: keepOpen), seams: TestSeams().seams)
    let lines = commands.enumerated().map { ScriptLine(SourceLocation(file: "s.tps", line: $0.offset + 1), $0.element) }
    return (ScriptRunner(lines: lines, session: session, realTime: realTime, report: { reports.lines.append($0) }, onLine: nil),
            session, engine)
}

private let songs = [Entry(path: "a.mp3"), Entry(path: "b.mp3")]
private func seconds(_ text: String) -> AudioTime { (try? DurationParser.parse(Substring(text)).get()) ?? .zero }

struct ScriptRunnerTests {
    @Test func waitsGrantExactlyTheirAudioTimeAndResumeWhenItIsPlayed() {
        let (runner, session, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play), .wait(seconds("1s")), .perform(.stop), .perform(.seek(.to(.zero))), .perform(.play), .wait(seconds("0.5s")), .perform(.quit)])
        runner.start()
        runner.settle()
        // The song opens on the playback thread: the wait's grant is in before it plays.
        #expect(engine.calls == ["limit true", "stop", "open a.mp3", "grant 44100", "play"])
        engine.calls.removeAll()
        runner.handle(.budgetSpent(id: engine.grantID))
        runner.settle()
        #expect(engine.calls == ["stop", "seek 0", "play", "grant 22050"])
        runner.handle(.budgetSpent(id: engine.grantID))
        runner.settle()
        #expect(runner.isDone && session.isFinished)
    }

    @Test func aStaleBudgetReportDoesNotEndTheWait() {
        let (runner, _, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play), .wait(seconds("1s")), .perform(.stop)])
        runner.start()
        runner.settle()
        runner.handle(.budgetSpent(id: engine.grantID - 1))
        runner.settle()
        #expect(engine.calls.suffix(2) == ["grant 44100", "play"], "still waiting: no stop")
    }

    @Test func aWaitGoesOnIntoTheNextSong() {
        let (runner, session, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play), .wait(seconds("20s")), .perform(.quit)])
        runner.start()
        runner.settle()
        runner.handle(.ended(token: session.token))
        runner.settle()
        #expect(session.state.song?.path == "b.mp3")
        #expect(engine.budget == seconds("20s"), "the grant carries on; the fake does not spend it")
        #expect(!runner.isDone)
    }

    @Test func theListEndingMidWaitPassesTheRestAtOnceForAFile() {
        let (runner, session, engine) = runner([.add([songs[0]], playNow: false), .perform(.play), .wait(seconds("20s")), .perform(.play), .perform(.stop)])
        runner.start()
        runner.settle()
        runner.handle(.ended(token: session.token))
        runner.settle()
        #expect(engine.calls.suffix(3) == ["play", "stop", "limit false"], "the script ran on: play again, stop, done")
        #expect(runner.isDone)
        #expect(session.isFinished, "the script ended with nothing playing")
    }

    @Test func theListEndingMidWaitPassesTheRestInRealTimeLive() {
        let (runner, session, _) = runner([.add([songs[0]], playNow: false), .perform(.play), .wait(seconds("20s")), .perform(.quit)], realTime: true)
        runner.start()
        runner.settle()
        let before = ContinuousClock.now
        runner.handle(.ended(token: session.token))
        runner.settle()
        let deadline = runner.deadline
        #expect(deadline != nil)
        #expect(before.duration(to: deadline!) > .seconds(19))
        runner.run(now: deadline!)
        runner.settle()
        #expect(runner.isDone)
    }

    @Test func waitWhileStoppedIsAtOnceForAFileAndRealTimeLive() {
        let (file, _, _) = runner([.wait(seconds("5s")), .perform(.quit)])
        file.start()
        #expect(file.isDone)
        let (live, _, _) = runner([.wait(seconds("5s")), .perform(.quit)], realTime: true)
        let start = ContinuousClock.now
        live.start()
        #expect(!live.isDone)
        live.run(now: start.advanced(by: .seconds(4)))
        #expect(!live.isDone)
        live.run(now: start.advanced(by: .milliseconds(5100)))
        #expect(live.isDone)
    }

    @Test func waitEndTakesBackTheGrantBeforeTheNextSongStarts() {
        let (runner, session, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play), .waitEnd, .wait(seconds("1s"))])
        runner.start()
        runner.settle()
        #expect(engine.budget! > seconds("1h"))
        runner.handle(.ended(token: session.token))
        runner.settle()
        #expect(session.state.song?.path == "b.mp3")
        #expect(engine.budget == seconds("1s"), "revoked at the end, then the next wait's grant")
    }

    @Test func aKeyTakesOverAndFreesPlayback() {
        let reports = TestSeams()
        let (runner, session, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play), .wait(seconds("30s")), .perform(.quit)],
                                               reports: reports)
        runner.start()
        runner.settle()
        runner.takeOver()
        runner.settle()
        #expect(runner.isDone)
        #expect(engine.budget == nil)
        #expect(!session.isFinished)
        #expect(reports.lines == ["a key was pressed: the script stops before line 4; the keys have control"])
    }

    @Test func whenTheScriptRunsOutASongPlayingPlaysOn() {
        let (runner, session, engine) = runner([.add(EntryList(songs), playNow: false), .perform(.play)])
        runner.start()
        runner.settle()
        #expect(runner.isDone)
        #expect(engine.budget == nil)
        #expect(session.state.id == .play)
        session.handle(.ended(token: session.token))
        session.settle()
        session.handle(.ended(token: session.token))
        session.settle()
        #expect(session.isFinished)
    }
}
