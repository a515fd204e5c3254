import Foundation
import Glibc
import Testing

/// A sound server a test starts and stops: its clients reach it through `environment`.
protocol SoundServerProcess {
    var environment: [String: String] { get }
    func stop()
    /// What the server said of dropouts (a client's stream that ran dry, a graph cycle missed),
    /// for a test that heard one: whose they were.
    var dropouts: [String] { get }
}

extension SoundServerProcess {
    var dropouts: [String] { [] }
}

extension PulseServer: SoundServerProcess {}

/// A private PipeWire, as most desktops run now: the daemon, its session manager (WirePlumber,
/// which links streams to sinks, on a D-Bus session bus of its own) and its PulseAudio server
/// (pipewire-pulse, which tplayer speaks to), in a runtime folder of their own. Its clock runs at
/// 44.1 kHz (PipeWire's default is 48 kHz: CD audio would be resampled, not heard as written).
/// `sink` is a null sink made through pipewire-pulse (`module-null-sink`, PipeWire's
/// `support.null-audio-sink`), the default for its clients (`PULSE_SINK`); `virtual`: a
/// remap sink on it (`module-remap-sink`, a virtual sink as an equaliser or a mixer makes one)
/// is theirs instead, and the null sink's monitor hears what passes through it.
final class PipeWireServer: SoundServerProcess {
    let runtime: URL
    private let config: URL
    private var processes: [Process] = []
    private var bus: pid_t?
    private var busAddress = ""
    private let sinkName: String

    /// Whether this machine has PipeWire, its session manager and its PulseAudio server.
    static var installed: Bool {
        ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pipewire-pulse", "/usr/bin/dbus-daemon"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime.path, "PIPEWIRE_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": config.path,
         "HOME": runtime.path, "PULSE_SERVER": "unix:\(runtime.path)/pulse/native", "DBUS_SESSION_BUS_ADDRESS": busAddress,
         "PULSE_SINK": sinkName]
    }

    init(sink: String, virtual: Bool = false) throws {
        runtime = try Harness.temporaryFolder()
        config = try Harness.temporaryFolder()
        sinkName = virtual ? "\(sink)-virtual" : sink
        let drop = config.appendingPathComponent("pipewire/pipewire.conf.d")
        try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: true)
        try """
            context.properties = {
                default.clock.rate = 44100
                default.clock.allowed-rates = [ 44100 48000 96000 ]
            }
            """.write(to: drop.appendingPathComponent("rate.conf"), atomically: true, encoding: .utf8)
        // It forks: what it prints goes to a file (a pipe would stay open in the daemon).
        let said = runtime.appendingPathComponent("bus")
        let started = try Harness.run("/bin/sh", ["-c", "exec /usr/bin/dbus-daemon --session --fork --print-address=1 --print-pid=1 > '\(said.path)'"],
                                      environment: ["XDG_RUNTIME_DIR": runtime.path], detached: true)
        let lines = ((try? String(contentsOf: said, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        try #require(started.status == 0 && lines.count >= 2, "dbus-daemon did not start")
        busAddress = lines[0]
        bus = pid_t(lines[1])
        for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/\(program)")
            // At info level each says a dropout once (at most every 2 s): pipewire-pulse a stream
            // that ran dry (UNDERFLOW) or a cycle its thread missed, the daemon a client too slow.
            let log = ["PIPEWIRE_DEBUG": "3", "PIPEWIRE_LOG": runtime.appendingPathComponent("\(program).log").path]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(program == "wireplumber" ? [:] : log) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            if program == "pipewire" {
                for _ in 0..<100 where !FileManager.default.fileExists(atPath: runtime.path + "/pipewire-0") { usleep(20_000) }
            }
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: runtime.path + "/pulse/native") { usleep(25_000) }
        try #require(FileManager.default.fileExists(atPath: runtime.path + "/pulse/native"), "pipewire-pulse did not start")
        try load(["module-null-sink", "sink_name=\(sink)", "rate=44100", "channels=2"], sink: sink)
        if virtual { try load(["module-remap-sink", "sink_name=\(sinkName)", "master=\(sink)"], sink: sinkName) }
        try Harness.run("/usr/bin/pactl", ["set-sink-volume", sinkName, "100%"], environment: environment)
    }

    /// Loads a pipewire-pulse module and waits until WirePlumber has made its sink.
    private func load(_ module: [String], sink: String) throws {
        let loaded = try Harness.run("/usr/bin/pactl", ["load-module"] + module, environment: environment)
        try #require(loaded.status == 0, "\(module[0]): \(loaded.stderr)")
        for _ in 0..<100 {
            let sinks = try Harness.run("/usr/bin/pactl", ["list", "short", "sinks"], environment: environment).stdout
            if sinks.split(separator: "\n").contains(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink) }) { return }
            usleep(50_000)
        }
        Issue.record("PipeWire never made the sink \(sink)")
    }

    var dropouts: [String] {
        ["pipewire", "pipewire-pulse"].flatMap { program in
            ((try? String(contentsOf: runtime.appendingPathComponent("\(program).log"), encoding: .utf8)) ?? "")
                .split(separator: "\n").filter { line in
                    ["UNDERFLOW", "too slow", "missed", "not finished", "overrun"].contains { line.contains($0) }
                }.map { "\(program): \($0)" }
        }
    }

    func stop() {
        // SIGKILL: the test runner leaves SIGTERM ignored in the processes it starts.
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit(within: BoundedWait.defaultSeconds)
        }
        processes = []
        if let bus { kill(bus, SIGKILL) }
        bus = nil
    }

    deinit { stop() }
}
