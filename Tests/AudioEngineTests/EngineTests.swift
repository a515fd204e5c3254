import Glibc
import PlayerCore
import Testing
@testable import AudioEngine

private let resources = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
private let song = Path("/" + resources + "/Resources/01-morning-arpeggio.mp3")

extension Engine {
    /// Opens `path` and waits (at most 2 s) for the playback thread's answer, as the main loop would.
    func open(_ path: Path, token: Int) throws(LoadError) -> SongInfo {
        perform(.open(SongSource(path), token: token))
        for _ in 0..<200 {
            for event in takeEvents() {
                switch event {
                case .opened(let song, token): return song
                case .openFailed(let error, token): throw error
                default: continue
                }
            }
            usleep(10_000)
        }
        throw LoadError(path: path, reason: .notReadable("no answer from the playback thread"))
    }

    func play() { perform(.play) }
    func stop() { perform(.stop) }
    func seek(_ target: SeekTarget) { perform(.seek(target)) }
}

/// Whether `condition` comes true within `seconds` (asked every 10 ms): what the playback
/// thread does takes its time on a busy machine, and a fixed sleep guessed it short.
private func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// The real engine: libmpg123 decoding, libao's null device paced in real time.
@Suite struct EngineTests {
    /// The sound server is connected to on the playback thread when the first song plays, never
    /// while the engine is set up on the main thread (a slow server held the keys for up to 2 s).
    @Test func choosingTheDefaultOrPulseOutputConnectsToNothing() throws {
        let chosen = try OutputChoice(.live(driver: nil))
        #expect(chosen.primary is DefaultOutput)
        #expect(chosen.primary.name == "default")
        let pulse = try OutputChoice(.live(driver: "pulse"))
        if PulseLibrary.api != nil {
            let output = try #require(pulse.primary as? PulseOutput)
            #expect(!output.isConnected)
        }
        #expect(pulse.fallback is NullOutput)
    }

    @Test func openReadsFormatLengthAndTags() throws {
        let engine = try Engine(output: .live(driver: "null"))
        let info = try engine.open(song, token: 1)
        #expect(info.sampleRate == 44100)
        #expect(info.channels == 2)
        #expect(info.totalFrames == 396_900, "the LAME tag gives the exact gapless length")
        #expect(info.title == "Morning Arpeggio")
        #expect(info.artist == "tplayer demo band")
        #expect(info.album == "tplayer demos")
        #expect(info.displayName == "tplayer demo band – Morning Arpeggio")
    }

    @Test func stopHoldsThePositionAndPlayGoesOnFromIt() throws {
        let engine = try Engine(output: .live(driver: "null"))
        _ = try engine.open(song, token: 1)
        #expect(engine.position == 0)
        let started = ContinuousClock.now
        engine.play()
        #expect(waitUntil { engine.position > 0 }, "playing moved the position")
        engine.stop()
        // The stop is the playback thread's: it has landed once the position holds still.
        var held = engine.position
        #expect(waitUntil {
            usleep(100_000)
            defer { held = engine.position }
            return engine.position == held
        })
        let played = started.duration(to: .now)
        let realTime = Double(played.components.seconds) + Double(played.components.attoseconds) / 1e18
        #expect(Double(held) <= realTime * 44100 + 8192, "the null output is paced in real time, not decoded at once")
        usleep(300_000)
        #expect(engine.position == held, "stopped: the position holds")
        engine.play()
        #expect(waitUntil { engine.position > held })
    }

    @Test func theEndIsReportedWithTheSongsToken() throws {
        let engine = try Engine(output: .file(driver: "raw", path: "/dev/null", overwrite: true))
        _ = try engine.open(song, token: 7)
        engine.play()
        // Every report until the end (they may come apart: on a busy machine "playing" came
        // alone, and the test took it for all of them).
        var events: [EngineEvent] = []
        for _ in 0..<3000 where !events.contains(.ended(token: 7)) {
            usleep(20_000)
            events += engine.takeEvents()
        }
        #expect(events == [.playback(.playing), .playback(.idle), .ended(token: 7)])
        #expect(engine.position == 396_900, "every frame was written")
    }

    @Test func seekMovesToTheFrameAsked() throws {
        let engine = try Engine(output: .live(driver: "null"))
        _ = try engine.open(song, token: 1)
        engine.seek(.to(AudioTime(frames: 100_000, rate: 44100)))
        _ = try engine.open(song, token: 2)  // a round trip through the playback thread
        #expect(engine.position == 0, "a new song starts at 0")
        engine.seek(.to(AudioTime(frames: 100_000, rate: 44100)))
        #expect(waitUntil { engine.position == 100_000 })
    }

    @Test func loadFailuresSayWhatIsWrong() throws {
        let engine = try Engine(output: .live(driver: "null"))
        #expect(throws: LoadError(path: "/nonexistent.mp3", reason: .missing)) {
            try engine.open("/nonexistent.mp3", token: 1)
        }
        #expect(throws: LoadError(path: "/tmp", reason: .isDirectory)) {
            try engine.open("/tmp", token: 2)
        }
    }

    @Test func anUnknownOrFileDriverIsRefusedForLiveOutput() {
        #expect(throws: OutputError(message: "bogus: no such output driver; see tplayer --list-outputs")) {
            try Engine(output: .live(driver: "bogus"))
        }
        #expect(throws: OutputError(message: "wav: this driver writes a file; use -w PATH instead")) {
            try Engine(output: .live(driver: "wav"))
        }
    }

    @Test func theFileBeingWrittenIsNeverOpenedAsASong() throws {
        let out = Path("/tmp/tplayer-engine-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).wav")
        defer { _ = out.withCString { unlink($0) } }
        let engine = try Engine(output: .file(driver: "wav", path: out, overwrite: false))
        _ = try engine.open(song, token: 1)
        engine.play()
        for _ in 0..<200 where !engine.takeEvents().contains(.ended(token: 1)) { usleep(20_000) }
        // Reading the output while it grows would never end: it is refused by identity.
        #expect(throws: LoadError(path: out, reason: .isOutput)) {
            try engine.open(out, token: 2)
        }
    }

    @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = "/tmp/tplayer-engine-fifo-\(getpid()).mp3"
        mkfifo(fifo, 0o644)
        defer { unlink(fifo) }
        let engine = try Engine(output: .live(driver: "null"))
        #expect(throws: LoadError(path: Path(fifo), reason: .notRegular("named pipe (FIFO)"))) {
            try engine.open(Path(fifo), token: 1)
        }
    }
}
