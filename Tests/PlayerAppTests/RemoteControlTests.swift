import Testing
@testable import PlayerApp
import PlayerCore

/// mpg123's remote protocol driven without a process: lines in, `@` lines out, the engine's
/// answers handed over as the main loop does, and time moved by hand.
private final class RemoteRig {
    let engine: PipeEngine
    let session: Session
    let remote: RemoteControl
    private let outside = Outside()
    var sent: [String] {
        get { outside.sent }
        set { outside.sent = newValue }
    }
    var clock: ContinuousClock.Instant {
        get { outside.clock }
        set { outside.clock = newValue }
    }

    /// What the remote writes to and reads the time from.
    private final class Outside {
        var sent: [String] = []
        var clock = ContinuousClock.now
    }

    init() throws {
        engine = try PipeEngine(goodPaths: ["a.mp3", "b.mp3"])
        engine.songsEnd = false
        session = Session(engine: engine, entries: [], policy: .remote, seams: TestSeams().seams)
        let outside = outside
        remote = RemoteControl(controls: Controls(session: session), position: { [engine] in engine.position },
                               send: { outside.sent.append($0); return true },
                               readList: { _, done in done([]) }, onLine: nil, now: { outside.clock })
        remote.start()
    }

    /// Sends `line` and hands the engine's answers over until there are none.
    func send(_ line: String) {
        remote.received(Array((line + "\n").utf8))
        settle()
    }

    func settle() {
        while case let events = engine.takeEvents(), !events.isEmpty {
            for event in events {
                session.handle(event)
                remote.observe(event)
            }
        }
    }

    /// The lines sent since the last call.
    func replies() -> [String] {
        defer { sent = [] }
        return sent
    }
}

struct RemoteControlTests {
    @Test func aLoadIsAnsweredOnceTheSongHasOpened() throws {
        let rig = try RemoteRig()
        #expect(rig.replies() == ["R MPG123 (ThOr) v10"])
        rig.send("LOAD a.mp3")
        #expect(rig.replies() == ["I a", "P 2"])
        rig.send("PAUSE")
        #expect(rig.replies() == ["P 1"])
        #expect(rig.session.state.id == .stop)
        rig.send("LOAD missing.mp3")
        #expect(rig.replies() == ["E Error opening stream: missing.mp3", "P 0"])
    }

    /// A stream being loaded holds no line after it (its server may never answer): the next
    /// load goes on at once, and the stream's failure when the engine gives it up for the next
    /// is not said. A stream that fails while it is the one loaded is, late or not.
    @Test func aStreamBeingLoadedHoldsNoLine() throws {
        let rig = try RemoteRig()
        let silent = "http://radio.example/silent.mp3"
        rig.engine.silentPaths = [Path(silent)]
        _ = rig.replies()
        rig.send("LOAD \(silent)")
        #expect(rig.replies().isEmpty)
        rig.send("STATE")
        #expect(rig.replies().first == "STATE {", "answered at once")
        rig.send("LOAD a.mp3")
        #expect(rig.replies() == ["I a", "P 2"])
        rig.engine.post(.openFailed(LoadError(path: Path(silent), reason: .network("stopped")), token: 1))
        rig.settle()
        #expect(rig.replies().isEmpty, "the stream given up for a.mp3 is not said")
        rig.send("LOAD \(silent)")
        rig.send("V 30")
        #expect(rig.replies() == ["V 30.000000%"])
        rig.engine.post(.openFailed(LoadError(path: Path(silent), reason: .network("no answer within 20 s")), token: rig.session.state.token ?? 0))
        rig.settle()
        #expect(rig.replies() == ["E Error opening stream: \(silent)", "P 0"])
    }

    /// A jump waits for the engine's answer before the lines after it run; when none comes in
    /// five seconds (on the injected clock) the lines go on regardless.
    @Test func linesAfterASeekWaitForItsAnswerButNotForever() throws {
        let rig = try RemoteRig()
        rig.send("LOAD a.mp3")
        _ = rig.replies()
        rig.send("J +1")  // the fake engine never reports a seek
        rig.send("V 30")
        #expect(rig.replies() == [])
        #expect(rig.remote.deadline == rig.clock + .seconds(5))
        rig.clock += .seconds(4)
        rig.remote.tick()
        #expect(!rig.replies().contains("V 30.000000%"))
        rig.clock += .seconds(1)
        rig.remote.tick()
        let replies = rig.replies()
        #expect(replies.first?.hasPrefix("J ") == true)
        #expect(replies.contains("V 30.000000%"))
        #expect(rig.session.sound.volume == 30)
    }

    /// `@F` lines come once per MPEG frame while a song plays, checked each frame's time by the
    /// injected clock.
    @Test func progressLinesArePacedByTheClock() throws {
        let rig = try RemoteRig()
        rig.send("LOAD a.mp3")
        _ = rig.replies()
        rig.remote.tick()
        #expect(rig.replies().count == 1)
        rig.clock += .milliseconds(10)
        rig.remote.tick()
        #expect(rig.replies().isEmpty, "a frame of 1152 samples at 44.1 kHz lasts 26 ms")
        rig.clock += .milliseconds(17)
        rig.remote.tick()
        #expect(rig.replies().isEmpty, "the same frame still plays: no second line for it")
        rig.engine.position = 1152 * 3
        rig.clock += .milliseconds(30)
        rig.remote.tick()
        #expect(rig.replies().map { $0.split(separator: " ")[1] } == ["1", "2", "3"], "one line per frame since the last")
        rig.send("SILENCE")
        _ = rig.replies()
        rig.clock += .seconds(1)
        rig.remote.tick()
        #expect(rig.replies().isEmpty)
    }

    /// STOP is mpg123's: the track closes, and only a new load plays again.
    @Test func stopClosesTheTrack() throws {
        let rig = try RemoteRig()
        rig.send("LOAD a.mp3")
        _ = rig.replies()
        rig.send("STOP")
        #expect(rig.replies() == ["P 0"])
        rig.send("PAUSE")
        #expect(rig.replies() == ["P 0"], "as mpg123 answers a pause with no track")
        #expect(rig.session.state.id == .stop)
        rig.send("SAMPLE")
        #expect(rig.replies() == ["E No stream opened. (code 24)"])
    }

    @Test func quitEndsTheSession() throws {
        let rig = try RemoteRig()
        rig.send("QUIT")
        #expect(rig.remote.isDone)
        #expect(rig.session.isFinished)
    }
}
