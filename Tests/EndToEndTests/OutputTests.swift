import Foundation
import Glibc
import Testing

/// Live and null outputs in real time, the no-device fallback, and interrupted file writes.
@Suite(.timeLimit(.minutes(10))) struct OutputTests {
    /// Runs tplayer under /usr/bin/time; returns its result and (wall, cpu) seconds.
    private func timed(_ arguments: [String], environment: [String: String] = [:]) throws -> (Harness.Result, wall: Double, cpu: Double) {
        let folder = try Harness.temporaryFolder()
        let times = folder.appendingPathComponent("times").path
        let result = try Harness.run("/usr/bin/time", ["-f", "%e %U %S", "-o", times, Harness.binary] + arguments,
                                     environment: environment)
        let numbers = try String(contentsOfFile: times, encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(numbers.count == 3)
        return (result, numbers[0], numbers[1] + numbers[2])
    }

    @Test func withNoLiveDeviceItSaysSoAndPlaysInRealTimeWithoutSpinning() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 2, in: folder)
        // A PulseAudio server that is not there: the live device cannot open.
        let (result, wall, cpu) = try timed(["-q", "-o", "pulse", song], environment: ["PULSE_SERVER": "unix:\(folder.path)/no-server"])
        #expect(result.status == 0)
        #expect(result.stderrLines == ["tplayer: output pulse: no PulseAudio server; playing silently in real time instead"])
        #expect(wall >= 1.8, "the fallback is paced in real time")
        #expect(cpu < wall / 4, "no spinning: \(cpu) s of CPU in \(wall) s")
    }

    /// Playing silently is said once and then kept on the status line (it said "Playing" for
    /// the rest of the run, as if it were heard).
    @Test func playingSilentlyStaysOnTheStatusLine() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 30, in: folder)
        let pane = try Pane(arguments: ["-o", "pulse", song], environment: ["PULSE_SERVER": "unix:\(folder.path)/no-server"])
        try pane.waitForLine { $0.contains("playing silently in real time instead") }
        let line = try pane.waitForStatus { $0.hasPrefix("Silent ") && $0.contains("0:0") }
        #expect(line.contains("short.mp3"))
        try pane.send("space")
        try pane.waitForStatus { $0.hasPrefix("Paused ") }
        try pane.send("space")
        try pane.waitForStatus { $0.hasPrefix("Silent ") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }

    @Test func nullOutputIsPacedInRealTime() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 2, in: folder)
        let (result, wall, cpu) = try timed(["-q", "-o", "null", song])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(wall >= 1.8)
        #expect(cpu < wall / 4)
    }

    @Test func ctrlCDuringAWriteLeavesAValidWavFile() throws {
        let folder = try Harness.temporaryFolder()
        let out = folder.appendingPathComponent("cut.wav").path
        // About 25 minutes of audio: long enough to be interrupted mid-write.
        let inputs = Array(repeating: Harness.songs[2], count: 140)
        let result = try Harness.run(Harness.binary, ["-q", "-w", out] + inputs) { process in
            var waited = 0
            while Harness.fileSize(out) < 1_000_000, waited < 1000 {
                usleep(5_000)
                waited += 1
            }
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 128 + SIGINT, "tplayer was still writing when interrupted")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Int(Harness.littleEndian32(bytes, 4)) == bytes.count - 8, "RIFF size matches the file")
        let pcm = try Harness.pcm(ofWAV: out)
        #expect(pcm.count == bytes.count - 44, "data size matches the samples written")
        #expect(pcm.count % 4 == 0 && pcm.count > 1_000_000)
        // What was written is the start of the reference decode.
        let reference = try Harness.referenceDecode([Harness.songs[2]], in: folder)
        let common = min(pcm.count, reference.count)
        _ = Harness.samePCM(Data(pcm.prefix(common)), Data(reference.prefix(common)))
    }

    @Test func playsThroughARealPulseAudioServer() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 2, in: folder)
        let (result, wall, cpu) = try timed(["-q", "-o", "pulse", song], environment: server.environment)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "the live device opened: no fallback")
        #expect(wall >= 1.5, "a live device plays in real time")
        #expect(cpu < wall / 4)
    }
}

extension OutputTests {
    @Test func aSoundServerThatGoesAwayAndComesBackIsWaitedForAndPlayResumes() throws {
        var server = try PulseServer.start()
        defer { server.stop() }
        let song = Harness.songs[2]  // 10.8 s
        let result = try Harness.run(Harness.binary, ["-q", "--trace", "-o", "pulse", song], environment: server.environment) { _ in
            usleep(1_500_000)
            server.stop()
            usleep(1_500_000)
            if let again = try? PulseServer.start(in: server.runtime) { server = again }
        }
        #expect(result.status == 0)
        // The engine's retries show in the trace, as many as the time the server was away allows.
        let retries = result.stderrLines.filter { $0.hasPrefix("engine: waiting for the device") }
        #expect(!retries.isEmpty)
        #expect(result.stderrLines.filter { !$0.hasPrefix("engine: ") } == [
            "Idle -> Loading (load \(song))",
            "Loading -> Loading (play)",
            "Loading -> Play (opened, play asked)",
            "tplayer: output: the pulse device stopped taking audio; will resume when it is back",
            "Play -> DeviceLost (device lost)",
            "DeviceLost -> Play (device restored)",
            "Play -> Prepare (ended)",
        ])
    }
}

/// A private PulseAudio server with a null sink, in its own runtime folder.
struct PulseServer {
    let runtime: URL
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime.path, "PULSE_SERVER": "unix:\(runtime.path)/pulse/native", "HOME": runtime.path]
    }

    /// Starts a server in a new runtime folder, or in `runtime` again after a `stop`.
    /// `sink` is the null sink's module line (its name, rate and format). `kept`: silence is
    /// played into it at a short latency all along (`keepRunning`); else it is left bare, as
    /// a user's null sink is.
    static func start(in runtime: URL? = nil, sink: String = "module-null-sink", kept: Bool = true) throws -> PulseServer {
        let runtime = try runtime ?? Harness.temporaryFolder()
        let server = PulseServer(runtime: runtime)
        let result = try Harness.run("/usr/bin/pulseaudio", [
            "-D", "-n", "--exit-idle-time=-1", "--use-pid-file=yes",
            "--load=\(sink)", "--load=module-native-protocol-unix",
        ], environment: server.environment, detached: true)
        try #require(result.status == 0, "pulseaudio did not start: \(result.stderr)")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: runtime.path + "/pulse/native") {
            usleep(50_000)
        }
        try #require(FileManager.default.fileExists(atPath: runtime.path + "/pulse/native"))
        if kept { try server.keepRunning() }
        return server
    }

    /// Plays silence into the sink, asking for 20 ms of latency, for as long as the server runs.
    /// A null sink has no clock of its own to keep: it renders as far ahead as the latency its
    /// clients ask for allows (2 s when none asks), and idles, its monitor silent, while nothing
    /// plays. Kept busy at a short latency it plays in real time, as a sound card does: a song
    /// takes its length, a pause is heard as a pause on the monitor. (The silence adds nothing
    /// to the samples.) It ends when the server does.
    private func keepRunning() throws {
        let keeper = Process()
        keeper.executableURL = URL(fileURLWithPath: "/usr/bin/pacat")
        keeper.arguments = ["-p", "--raw", "--format=s16le", "--rate=44100", "--channels=2", "--latency-msec=20",
                            "--client-name=tplayer-tests-keep-running"]
        keeper.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        keeper.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        keeper.standardOutput = FileHandle.nullDevice
        keeper.standardError = FileHandle.nullDevice
        try keeper.run()
    }

    func stop() {
        _ = try? Harness.run("/usr/bin/pulseaudio", ["--kill"], environment: environment, detached: true)
    }

    /// The server's process, from its pid file.
    var pid: pid_t? {
        (try? String(contentsOfFile: runtime.path + "/pulse/pid", encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// A sound server that is slow to answer (stopped with SIGSTOP while tplayer starts): the keys
/// are taken and answered at once, and the song plays once it answers. The connection was made
/// on the main thread before the terminal was taken: keys typed meanwhile waited up to 2 s or
/// were thrown away.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SlowServerTests {
    @Test func keysAreAnsweredWhileTheServerIsSlowToAnswer() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let pid = try #require(server.pid)
        kill(pid, SIGSTOP)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }
        let pane = try Pane(arguments: Harness.songs, environment: server.environment, width: 150)
        try pane.waitForStatus { $0.contains(" 1/3 ") }
        try pane.send("n")
        try pane.waitForStatus { $0.contains(" 2/3 ") && $0.contains("02-night-drive.mp3") }
        kill(pid, SIGCONT)
        stopped = false
        try pane.waitForStatus(20) { $0.hasPrefix("Playing ") && $0.contains(" 2/3 ") && $0.contains("Night Drive") }
        try pane.send("q")
        #expect(try pane.waitForExit() == 0)
    }
}

/// A sink that keeps no time (a pipe sink whose reader takes all it is given at once): tplayer
/// finds it out, says so once, and paces itself by the clock (a 10 s song "played" in 30 ms).
@Suite(.serialized, .timeLimit(.minutes(10))) struct UnpacedSinkTests {
    @Test func aSinkThatTakesAudioAsFastAsItComesIsPlayedToByTheClock() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let fifo = try Harness.temporaryFolder().appendingPathComponent("pipe")
        try Harness.run("/usr/bin/pactl", ["load-module", "module-pipe-sink", "file=\(fifo.path)", "sink_name=pipe",
                                           "format=s16le", "rate=44100", "channels=2"], environment: server.environment)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "exec cat '\(fifo.path)' > /dev/null"]
        try reader.run()
        defer { kill(reader.processIdentifier, SIGKILL) }
        let folder = try Harness.temporaryFolder()
        let song = folder.appendingPathComponent("ten.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-b", "16", "-c", "2", song, "synth", "10", "sine", "440"])
        let started = Date()
        let result = try Harness.tplayer(["-q", "-o", "pulse", song], environment: server.environment.merging(["PULSE_SINK": "pipe"]) { $1 })
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines == ["tplayer: pulse: the sink takes audio faster than it could play it (it keeps no time: "
                                       + "a pipe read faster than real time?); playing paced by the clock instead"])
        // What it took before it was found out (a second or two) is not played again.
        #expect(took >= 5, "paced by the clock: \(took) s for a 10 s song")
    }
}
