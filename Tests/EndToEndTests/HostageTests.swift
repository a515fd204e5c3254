import Foundation
import Glibc
import Testing

/// The engine never holds the player hostage: a frozen sound server, a crash on the playback
/// thread. Each ends tplayer at once, with the terminal as it was.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostageTests {
    /// A sanitizer slows the exit (and handles faults itself): the promises are about plain builds.
    static let sanitized = ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] != nil
    static let limit = sanitized ? 5.0 : 1.0

    /// The PulseAudio daemon's process id, from the pid file it keeps in its runtime folder.
    static func daemonPID(_ server: PulseServer) throws -> pid_t {
        let text = try String(contentsOfFile: server.runtime.path + "/pulse/pid", encoding: .utf8)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Native PulseAudio (`pulse`): nothing waits on the server, so tplayer ends cleanly. libao's
    /// pulse plugin (`ao`) blocks in ao_play: its thread is left, and that is said.
    @Test(arguments: [("pulse", [String]()), ("ao", ["tplayer: output: the ao device did not stop in time; left as it is"])])
    func sigtermEndsTplayerWithinASecondWhileTheSoundServerIsFrozen(output: String, said: [String]) throws {
        let server = try PulseServer.start()
        let daemon = try Self.daemonPID(server)
        defer {
            kill(daemon, SIGCONT)
            server.stop()
        }
        var took = 0.0
        let result = try Harness.run(Harness.binary, ["-q", "-o", output, Harness.songs[2]], environment: server.environment) { process in
            usleep(1_000_000)
            kill(daemon, SIGSTOP)
            // Long enough for the device's buffer to fill: the playback thread is stuck in ao_play.
            usleep(3_000_000)
            let start = Date()
            kill(process.processIdentifier, SIGTERM)
            while process.isRunning, Date().timeIntervalSince(start) < 5 { usleep(10_000) }
            took = Date().timeIntervalSince(start)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }  // a hostage: fail, not hang
        }
        #expect(result.status == 128 + SIGTERM)
        #expect(took < Self.limit, "SIGTERM took \(took) s")
        #expect(result.stderrLines == said)
    }

    @Test func qEndsTplayerWithinASecondWhileTheSoundServerIsFrozenAndTheTerminalIsAsBefore() throws {
        let server = try PulseServer.start()
        let daemon = try Self.daemonPID(server)
        defer {
            kill(daemon, SIGCONT)
            server.stop()
        }
        let pane = try Pane(arguments: ["-o", "pulse", Harness.songs[2]], environment: server.environment)
        _ = try pane.waitForLine { $0.hasPrefix("Playing ") }
        kill(daemon, SIGSTOP)
        usleep(3_000_000)
        let start = Date()
        try pane.send("q")
        #expect(try pane.waitForExit(5) == 0)
        let took = Date().timeIntervalSince(start)
        #expect(took < Self.limit + 0.2, "q took \(took) s (the harness polls every 50 ms)")
        #expect(try pane.sttyUnchanged())
    }

    /// A sink that never plays (suspended, as `pactl suspend-sink` or a sound card switched off
    /// leaves it) takes a short list whole into its stream and never says it played: the drain
    /// at the list's end was waited for for ever, and tplayer never ended. The list's end (its
    /// songs follow on gaplessly, so it is the one drain) now comes once what the stream held has
    /// had time to play, and that is said; on a sink that plays, nothing is. (The songs are 20 ms
    /// each: on a loaded machine the stream may be granted 100 ms. What does not fit in it waits
    /// for the sink to take it, as a paused device is waited for.)
    @Test func aListGoesOnWhenTheSinkNeverSaysASongHasPlayed() throws {
        let server = try PulseServer.start(kept: false)
        defer { server.stop() }
        let folder = try Harness.temporaryFolder()
        let short = folder.appendingPathComponent("short.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-b", "16", "-c", "2", short, "synth", "0.02", "sine", "440", "gain", "-6"])
        let notice = "tplayer: the sound server never said the song had played: going on without it"
        let playing = try Harness.tplayer(["-q", "-o", "pulse", short, short], environment: server.environment)
        #expect(playing.status == 0)
        #expect(!playing.stderrLines.contains(notice), "\(playing.stderr)")
        let sink = try Harness.run("/usr/bin/pactl", ["suspend-sink", "null", "1"], environment: server.environment)
        try #require(sink.status == 0, "\(sink.stderr)")
        let start = Date()
        let suspended = try Harness.tplayer(["-q", "--trace", "-o", "pulse", short, short], environment: server.environment)
        let took = Date().timeIntervalSince(start)
        #expect(suspended.status == 0, "\(suspended.stderr)")
        #expect(suspended.stderrLines.filter { $0.hasPrefix("tplayer: ") } == [notice], "\(suspended.stderr)")
        // What the stream held (40 ms) and the 3 s grace; far more on a loaded machine.
        #expect(took < 20, "the list took \(took) s")
    }

    @Test func aCrashOnThePlaybackThreadStillRestoresTheTerminal() throws {
        let pane = try Pane(arguments: ["-o", "null", Harness.songs[2]], environment: ["SWIFT_BACKTRACE": "enable=no"])
        _ = try pane.waitForLine { $0.hasPrefix("Playing ") }
        let pid = try pane.playerPID()
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        let thread = try #require(tasks.first { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?.hasPrefix("tplayer-play") == true
        })
        // A fault delivered to the playback thread itself, as a bad pointer there would raise it.
        try Harness.run("/usr/bin/python3", ["-c", "import ctypes; ctypes.CDLL(None).syscall(234, \(pid), \(thread), \(SIGSEGV))"])
        let status = try pane.waitForExit()
        if !Self.sanitized { #expect(status == 128 + SIGSEGV) }
        #expect(try pane.sttyUnchanged(), "the crash handler ran on the playback thread")
    }
}
