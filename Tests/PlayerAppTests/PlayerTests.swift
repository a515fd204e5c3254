import Files
import Glibc
import PlayerCore
import Terminal
import Testing
@testable import PlayerApp

/// An engine that answers like the real one, later and through its descriptor: an open is
/// answered `opened` (or `openFailed` for a path not in `goodPaths`; never, for one in
/// `silentPaths`: a server that never answers), and a song that plays ends at once unless
/// `songsEnd` is false.
final class PipeEngine: PlayerEngine {
    private let pipe: SelfPipe
    private var pending: [EngineEvent] = []
    var calls: [String] = []
    var position: Int64 = 0
    var goodPaths: Set<Path>
    var silentPaths: Set<Path> = []
    var songsEnd = true
    var shutdownAnswer = EngineShutdown.closed
    var outputName = "null"
    var writesFile = false
    private(set) var shutDown = false
    private var token = 0

    init(goodPaths: Set<Path> = ["a.mp3", "b.mp3"]) throws {
        pipe = try SelfPipe()
        self.goodPaths = goodPaths
    }

    var eventFD: Int32 { pipe.readFD }

    func post(_ event: EngineEvent) {
        pending.append(event)
        pipe.wake()
    }

    func takeEvents() -> [EngineEvent] {
        _ = pipe.drain()
        defer { pending.removeAll() }
        return pending
    }

    func perform(_ call: EngineCall) {
        switch call {
        case .cue, .setCrossfade, .setReplayGain, .setEqualizer, .setGraphicEqualizer, .limitPlayback, .grant, .revokeGrant: break
        case .stop, .skip, .open, .play, .seek, .setVolume, .setPitch, .setSpeed, .setOutputEnabled: calls.append("\(call)")
        }
        switch call {
        case .open(let source, let token):
            let path = source.path
            self.token = token
            if silentPaths.contains(path) {
                break
            } else if goodPaths.contains(path) {
                post(.opened(SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 44100), token: token))
            } else {
                post(.openFailed(LoadError(path: path, reason: .missing), token: token))
            }
        case .play where songsEnd: post(.ended(token: token))
        default: break
        }
    }

    /// Grants are never used up: a script's wait lasts until something else happens.
    var grantLeft: AudioTime { .zero }

    func shutdown() -> EngineShutdown {
        shutDown = true
        return shutdownAnswer
    }
}

/// A screen that records what it is shown, and turns keys into commands as the real one does
/// for the plain keys (one byte each).
final class FakeScreen: PlayerScreen {
    private(set) var lines: [String] = []
    private(set) var statuses: [StatusSnapshot] = []
    private(set) var suspended = 0

    private var decoder = KeyDecoder()
    var nextChange: ContinuousClock.Instant? { nil }
    var takesMessages: Bool { true }

    func commands(from bytes: [UInt8], list: () -> ListSnapshot) -> [Command] {
        decoder.decode(bytes).compactMap(KeyMap.command)
    }
    func show(_ status: StatusSnapshot) { statuses.append(status) }
    func print(_ line: String) { lines.append(line) }
    func resized() {}
    func suspend() { suspended += 1 }
    /// Whether a prompt is open: Ctrl-C then cancels it.
    var promptOpen = false
    func interrupted() -> Bool {
        defer { promptOpen = false }
        return promptOpen
    }
}

/// Stands in for the signal handler: a test writes signal numbers into the pipe.
final class PipeSignals: SignalSource {
    let pipe: SelfPipe
    init() throws { pipe = try SelfPipe() }
    var readFD: Int32 { pipe.readFD }
    func take() -> [Int32] { pipe.drain().map { Int32($0) } }
    func raise(_ signals: Int32...) { signals.forEach { pipe.wake(UInt8($0)) } }
}

/// A pipe standing in for stdin: a test types into it. The player reads it by its number: a
/// test holds it until the run is over (let go before, its number went to another test's pipe
/// running at the same time, whose bytes the player then read as keys: that test hung).
final class Keyboard {
    let pipe: SelfPipe
    init() throws { pipe = try SelfPipe() }
    func type(_ text: String) { text.utf8.forEach { pipe.wake($0) } }
}

struct PlayerTests {
    private func player(_ entries: [Path], engine: PipeEngine, screen: FakeScreen? = nil, keys: Keyboard? = nil,
                        signals: PipeSignals, script: [ScriptCommand]? = nil, keepsOpen: Bool = false,
                        trace: Bool = false, quiet: Bool = true, output: (String, Bool) = ("null", false),
                        log: @escaping (String) -> Void = { _ in },
                        statusChanged: ((PlayerStatus, StatusChanges) -> Void)? = nil)
        -> Player
    {
        // Said as the player's wiring says it: on the screen when it takes messages, else logged.
        let say: (String) -> Void = { line in
            if let screen, screen.takesMessages { screen.print(line) } else { log(line) }
        }
        let seams = Session.Seams(report: { say("tplayer: " + $0) }, expand: Session.Seams.oneSong, saveList: { _, _ in },
                                  onTransition: trace ? { say("\($0)") } : nil, listened: { _ in }, albums: { sources, _, answer in answer(sources.map { AlbumTrack(unreadable: $0.path) }) },
                                  playlists: { request, _, _, done in
                                      say("\(request)")
                                      done(nil)
                                  })
        let session = Session(engine: engine, entries: EntryList(entries.map { Entry(path: $0) }),
                              policy: Session.Policy(keepsOpen: keepsOpen), seams: seams)
        let runner = script.map { commands in
            ScriptRunner(lines: commands.enumerated().map { ScriptLine(SourceLocation(file: "s.tps", line: $0.offset + 1), $0.element) },
                         session: session, realTime: false, report: { say("tplayer: " + $0) },
                         onLine: trace ? { say("\($0.location.brief): \($0.command)") } : nil)
        }
        engine.outputName = output.0
        engine.writesFile = output.1
        var io = Player.IO(engine: engine, screen: screen, keys: keys?.pipe.readFD, signals: signals, log: log)
        io.statusChanged = statusChanged
        return Player(controls: Controls(session: session, script: runner), io: io, options: Player.Options(quiet: quiet, trace: trace))
    }

    @Test func theListPlaysToItsEndAndTheEngineIsShutDown() throws {
        let engine = try PipeEngine()
        let status = player(["a.mp3", "b.mp3"], engine: engine, signals: try PipeSignals()).run()
        #expect(status == 0)
        #expect(engine.calls == ["stop", "open a.mp3", "play", "seek 0.0s", "stop", "open b.mp3", "play", "seek 0.0s"])
        #expect(engine.shutDown)
    }

    @Test func anEntryThatCannotBeOpenedIsReportedAndMakesTheStatusOne() throws {
        let engine = try PipeEngine()
        var logged: [String] = []
        let status = player(["gone.mp3", "a.mp3"], engine: engine, signals: try PipeSignals(), log: { logged.append($0) }).run()
        #expect(status == 1)
        #expect(logged == ["tplayer: gone.mp3: no such file"])
        #expect(engine.calls.contains("open a.mp3"))
    }

    /// After each turn, a front-end that waits for changes is told the status and what changed in
    /// it, in MPD's idle groups: the start as every group, a volume key as the mixer, a pause as
    /// the player; a playlist saved or a play counted as the front-end says them.
    @Test(.timeLimit(.minutes(10))) func eachTurnTellsWhatChanged() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        let keys = try Keyboard()
        var told: [(PlayerStatus, StatusChanges)] = []
        var made: Player?
        var typed = ""
        // Each key typed once the turn before it is told, one change at a time: `-` at the first
        // turn, space once the volume's change is told, `q` once the pause (or a stop while
        // loading, on a busy machine) is.
        made = player(["a.mp3"], engine: engine, screen: FakeScreen(), keys: keys, signals: try PipeSignals(), statusChanged: { status, changes in
            told.append((status, changes))
            let next = switch typed {
            case "": "-"
            case "-" where changes.contains(.mixer): " "
            case "- " where changes.contains(.player): "q"
            default: ""
            }
            guard !next.isEmpty else { return }
            if next == " " { made?.noteChanged(.storedPlaylist) }
            typed += next
            keys.type(next)
        })
        #expect(made?.run() == 0)
        let groups = told.map(\.1)
        #expect(groups.first == [.player, .mixer, .options, .playlist], "the first says every group: \(groups)")
        #expect(typed == "- q", "\(typed) \(groups)")
        #expect(groups.contains(.mixer), "the volume key alone: \(groups)")
        #expect(groups.contains { $0.isSuperset(of: [.player, .storedPlaylist]) }, "the pause, and what the front-end noted, told with it: \(groups)")
        #expect(told.last?.0.playback != .playing)
        #expect(!groups.contains([]), "nothing told when nothing changed")
    }

    @Test func keysBecomeCommandsAndTheStatusLineFollows() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        let screen = FakeScreen()
        let keys = try Keyboard()
        let signals = try PipeSignals()
        keys.type(" ")  // stop
        keys.type("q")
        let status = player(["a.mp3"], engine: engine, screen: screen, keys: keys, signals: signals).run()
        #expect(status == 0)
        #expect(engine.calls.suffix(2) == ["play", "stop"], "space stopped it (and q found it stopped)")
        #expect(screen.statuses.last?.state == .play, "shown before the keys came")
    }

    /// A list that cannot be played, kept open: Idle, and the status line says why.
    @Test func theStatusLineShowsWhyTheLastLoadFailed() throws {
        let engine = try PipeEngine()
        let screen = FakeScreen()
        let keys = try Keyboard()
        let signals = try PipeSignals()
        keys.type("q")
        let status = player(["gone.mp3"], engine: engine, screen: screen, keys: keys, signals: signals, keepsOpen: true).run()
        #expect(status == 1)
        #expect(screen.statuses.last?.state == .idle)
        #expect(screen.statuses.last?.failure == "gone.mp3: no such file")
    }

    @Test func theFirstOfTwoEndingSignalsDecidesTheStatus() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        let signals = try PipeSignals()
        signals.raise(SIGHUP, SIGTERM)
        #expect(player(["a.mp3"], engine: engine, signals: signals).run() == 128 + SIGHUP)
        #expect(engine.shutDown, "the output is closed on every way out")
    }

    @Test func ctrlZSuspendsAndResizeIsNotAnEnd() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        let screen = FakeScreen()
        let signals = try PipeSignals()
        signals.raise(SIGTSTP, SIGWINCH, SIGCONT, SIGINT)
        let keys = try Keyboard()
        withExtendedLifetime(keys) {
            #expect(player(["a.mp3"], engine: engine, screen: screen, keys: keys, signals: signals).run() == 128 + SIGINT)
        }
        #expect(screen.suspended == 1)
    }

    @Test func aFileThatCannotBeFinishedIsSaidAndMakesTheStatusOne() throws {
        let engine = try PipeEngine()
        engine.shutdownAnswer = .failed("could not finish the file: no space left on device")
        var logged: [String] = []
        let status = player(["a.mp3"], engine: engine, signals: try PipeSignals(), output: ("out.wav", true),
                            log: { logged.append($0) }).run()
        #expect(status == 1)
        #expect(logged == ["tplayer: out.wav: could not finish the file: no space left on device"])
    }

    @Test func aDeviceThatDoesNotStopInTimeIsSaidButIsNotAFailure() throws {
        let engine = try PipeEngine()
        engine.shutdownAnswer = .timedOut
        var logged: [String] = []
        let status = player(["a.mp3"], engine: engine, signals: try PipeSignals(), output: ("pulse", false),
                            log: { logged.append($0) }).run()
        #expect(status == 0)
        #expect(logged == ["tplayer: output: the pulse device did not stop in time; left as it is"])
    }

    @Test func aKeyTakesOverFromAScript() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        let screen = FakeScreen()
        let keys = try Keyboard()
        keys.type("q")
        let script: [ScriptCommand] = [.perform(.play), .wait(.seconds(60)), .perform(.next)]
        let status = player(["a.mp3", "b.mp3"], engine: engine, screen: screen, keys: keys, signals: try PipeSignals(),
                            script: script).run()
        #expect(status == 0)
        #expect(screen.lines == ["tplayer: a key was pressed: the script stops before line 3; the keys have control"])
        #expect(!engine.calls.contains("open b.mp3"), "the rest of the script was dropped")
    }

    @Test func theTraceShowsTransitionsAndScriptLines() throws {
        let engine = try PipeEngine()
        var logged: [String] = []
        let status = player(["a.mp3"], engine: engine, signals: try PipeSignals(), script: [.perform(.play), .perform(.quit)],
                            trace: true, log: { logged.append($0) }).run()
        #expect(status == 0)
        #expect(logged == ["s.tps:1: play", "Idle -> Idle (play)", "Idle -> Loading (load a.mp3)", "Loading -> Loading (play)",
                           "s.tps:2: quit", "Loading -> Loading (stop)"])
    }

    @Test func theTraceShowsTheEnginesHoldsAndRetries() throws {
        let engine = try PipeEngine()
        engine.songsEnd = false
        engine.post(.playback(.heldByBudget))
        engine.post(.playback(.waitingForDevice(retries: 2)))
        engine.post(.playback(.playing))
        let signals = try PipeSignals()
        signals.raise(SIGTERM)
        var logged: [String] = []
        _ = player(["a.mp3"], engine: engine, signals: signals, trace: true, log: { logged.append($0) }).run()
        #expect(logged.filter { $0.hasPrefix("engine: ") } == [
            "engine: held (the script's time is used up)", "engine: waiting for the device (tried 2 times)",
        ], "holds and retries, not every start and stop")
    }

    @Test func withNoScreenEachSongThatStartsIsNamedOnceUnlessQuiet() throws {
        let engine = try PipeEngine()
        var logged: [String] = []
        _ = player(["a.mp3", "gone.mp3", "b.mp3"], engine: engine, signals: try PipeSignals(), quiet: false,
                   log: { logged.append($0) }).run()
        #expect(logged == ["Playing 1/3: a.mp3", "tplayer: gone.mp3: no such file", "Playing 3/3: b.mp3"])
    }
}

/// Work off the main loop: a newer job in a slot cancels the one before (its result never
/// arrives), and results reach `then` only through `deliver`, on the caller's thread.
struct BackgroundWorkTests {
    /// Waits until the work's descriptor is readable, then delivers.
    static func deliver(_ work: BackgroundWork, until done: () -> Bool) {
        for _ in 0..<500 where !done() {
            var fd = pollfd(fd: work.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 20) > 0 { work.deliver() }
        }
    }

    @Test func aNewerJobCancelsTheOneBeforeItAndOnlyItsResultArrives() throws {
        let work = try BackgroundWork()
        let release = Locked(false)
        var results: [String] = []
        var firstWasCancelled = false
        work.start(.load, { cancel in
            // Runs until it is cancelled or released: a walk of / stands for it.
            while !cancel.isSet && !release.read({ $0 }) { usleep(1000) }
            return cancel.isSet ? "first, cancelled" : "first"
        }, then: { results.append($0) })
        #expect(work.isBusy(.load))
        work.start(.load, { _ in "second" }, then: { results.append($0) })
        work.start(.completion, { _ in "tab" }, then: { results.append($0) })
        Self.deliver(work) { results.count == 2 }
        release.update { $0 = true }
        usleep(50_000)
        work.deliver()
        firstWasCancelled = !results.contains("first")
        #expect(firstWasCancelled)
        #expect(results.sorted() == ["second", "tab"])
        #expect(!work.isBusy(.load) && !work.isBusy(.completion))
    }

    @Test func cancelAllDropsEveryResult() throws {
        let work = try BackgroundWork()
        var results: [Int] = []
        for slot in [BackgroundWork.Slot.load, .list, .completion] {
            work.start(slot, { cancel in
                while !cancel.isSet { usleep(1000) }
                return 1
            }, then: { results.append($0) })
        }
        work.cancelAll()
        usleep(50_000)
        work.deliver()
        #expect(results.isEmpty)
    }
}
