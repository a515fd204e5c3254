import Foundation
import Testing

/// A private PulseAudio server whose null sink runs at the songs' format (44.1 kHz, 16-bit
/// stereo) at 100 % volume, so nothing is resampled or scaled, and a recording of its monitor:
/// what the player wrote, as the server played it.
///
/// Kept (the default), the sink never rewinds and silence is played into it at 20 ms of latency
/// all along, as a sound card plays in real time: a cork or a flush takes effect after the
/// little it has rendered ahead, and the recording measures timing. Bare (`bare`), it is the
/// null sink users have (a headless box, a virtual sink, a streaming setup): it renders as far
/// ahead as its clients let it and rewinds when a stream starts; its monitor cannot take back
/// what it passed on, so whatever a player makes the sink render again is missing from the
/// recording, as it is from whatever reads that monitor. Its recorder asks for no latency of its
/// own (the user's `parec -d sink.monitor`), so the sink's pace is the player's alone.
final class MonitorRecording {
    let server: SoundServerProcess
    private let recorder = Process()
    private let file: URL
    private var running = true
    private let bare: Bool

    init(sink name: String = "exact", rate: Int = 44100, format: String = "s16le", bare: Bool = false) throws {
        self.bare = bare
        let server = try PulseServer.start(sink: "module-null-sink sink_name=\(name) rate=\(rate) format=\(format) channels=2"
                                               + (bare ? "" : " norewinds=1"), kept: !bare)
        try Harness.run("/usr/bin/pactl", ["set-sink-volume", name, "100%"], environment: server.environment)
        self.server = server
        file = try Harness.temporaryFolder().appendingPathComponent("recorded.raw")
        try record(name, rate: rate, format: format, latency: bare ? nil : 10)
    }

    /// A private PipeWire's null sink (`virtual`: played to through a virtual sink on it),
    /// 16-bit stereo at 44.1 kHz. PipeWire never takes back what a sink rendered: the recorder's
    /// latency changes nothing of what is heard, and is kept short.
    init(pipeWire name: String = "exact", virtual: Bool = false) throws {
        bare = false
        server = try PipeWireServer(sink: name, virtual: virtual)
        file = try Harness.temporaryFolder().appendingPathComponent("recorded.raw")
        // Its sink sleeps while nothing plays, and its monitor with it: nothing to wait for.
        try record(name, rate: 44100, format: "s16le", latency: 100, waiting: false)
    }

    /// Starts recording the monitor of `name`, asking for `latency` ms (none: the server's).
    private func record(_ name: String, rate: Int, format: String, latency: Int?, waiting: Bool = true) throws {
        FileManager.default.createFile(atPath: file.path, contents: nil)
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        recorder.arguments = ["-d", "\(name).monitor", "--raw", "--format=\(format)", "--rate=\(rate)", "--channels=2"]
            + (latency.map { ["--latency-msec=\($0)"] } ?? [])
        recorder.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        recorder.standardOutput = try FileHandle(forWritingTo: file)
        try recorder.run()
        // On a server just started, the monitor may take a second to deliver anything (a bare
        // one's recorder gets it in pieces of 2 s): what plays before then would be missing.
        for _ in 0..<200 where waiting && ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) < 17640 {
            usleep(50_000)
        }
        usleep(200_000)
    }

    deinit {
        _ = stop()
        server.stop()
    }

    /// Frames recorded so far (the monitor is read every 10 ms).
    var framesRecorded: Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) / 4
    }

    /// Stops recording (after the last of what was played has reached the monitor) and gives
    /// the frames recorded, each stereo frame as one 32-bit value.
    func stop() -> [UInt32] {
        Heard.frames(stopRaw())
    }

    /// Stops recording and gives the bytes recorded, in the sink's format.
    /// The left channel of what was recorded (a 16-bit stereo sink), as numbers.
    func stopLeft() -> [Double] {
        stopRaw().withUnsafeBytes { raw in
            stride(from: 0, to: raw.count / 2 - 1, by: 2).map { Double(raw.load(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    func stopRaw() -> Data {
        if running {
            // Until the last of what was played has reached the recorder: a bare one's comes
            // in pieces of 2 s.
            usleep(bare ? 2_600_000 : 700_000)
            // SIGKILL: parec may inherit SIGTERM blocked from the test process.
            kill(recorder.processIdentifier, SIGKILL)
            recorder.waitUntilExit(within: BoundedWait.defaultSeconds)
            running = false
        }
        return (try? Data(contentsOf: file)) ?? Data()
    }
}

/// What was heard, set against what `tplayer -w` writes.
struct Heard {
    /// Where in ours the recording starts (the monitor starts once the sink wakes, a little into
    /// the first song).
    var start: Int
    /// Silences inside the recording, each where it fell in ours and how many frames long: a
    /// pause, or a dropout.
    var gaps: [(at: Int, frames: Int)] = []
    /// The first frame of ours that was heard differently, or not at all.
    var difference: Int?

    static func frames(_ data: Data) -> [UInt32] {
        data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }

    /// Frames of `bytes` bytes each (6: 24-bit stereo), each as one number.
    static func frames(_ data: Data, bytes: Int) -> [UInt64] {
        let raw = [UInt8](data)
        return stride(from: 0, to: raw.count - bytes + 1, by: bytes).map { start in
            raw[start..<(start + bytes)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// Lines `heard` up with `ours` and walks both: equal frames match; a run of silence in
    /// `heard` that `ours` does not have is a gap; anything else is a difference.
    static func compare<Frame: FixedWidthInteger>(_ heard: [Frame], with ours: [Frame]) throws -> Heard {
        let sound = try #require(heard.firstIndex { $0 != 0 }, "nothing was heard")
        let probe = Array(heard[sound..<min(sound + 256, heard.count)])
        try #require(probe.count == 256, "less than 256 frames were heard")
        let start = try #require((0..<min(ours.count - 256, 44100)).first { ours[$0..<($0 + 256)].elementsEqual(probe) },
                                 "the recording does not start within the first second of the songs")
        var result = Heard(start: start)
        var index = sound
        var frame = start
        while frame < ours.count {
            guard index < heard.count else {
                result.difference = frame
                break
            }
            if heard[index] == ours[frame] {
                index += 1
                frame += 1
                continue
            }
            guard heard[index] == 0 else {
                result.difference = frame
                break
            }
            // Silence that is not ours: skip it, but not the silent frames ours has next.
            let run = heard[index...].prefix { $0 == 0 }.count
            let oursSilent = ours[frame...].prefix { $0 == 0 }.count
            let gap = run - min(run, oursSilent)
            result.gaps.append((frame, gap))
            index += gap  // > 0: ours is not silent here, or the frames would have matched
        }
        return result
    }
}

/// `tplayer -R` driven line by line through pipes, as a front-end drives it: commands sent,
/// replies waited for in order.
final class RemotePlayer: @unchecked Sendable {
    // `@unchecked Sendable`: what the reading handler shares is touched only under `condition`.
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    private var cursor = 0

    /// `mergingErrors`: what tplayer writes to stderr is among the lines too.
    init(_ arguments: [String], environment: [String: String], mergingErrors: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["-R"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = mergingErrors ? output : FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.take(handle.availableData) }
        try process.run()
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
    }

    private func take(_ data: Data) {
        condition.lock()
        defer { condition.unlock() }
        partial += data
        while let newline = partial.firstIndex(of: 10) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
        }
        condition.broadcast()
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for `line` among the replies after the last one waited for (at most `timeout`
    /// seconds: a guard against a hang, not a measure).
    /// `prefix`: a line that starts so will do.
    func waitFor(_ line: String, prefix: Bool = false, timeout: Double = 60) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let found = lines[cursor...].firstIndex(where: { $0 == line || (prefix && $0.hasPrefix(line)) }) {
                cursor = found + 1
                return
            }
            guard condition.wait(until: deadline) else { break }
        }
        throw Failure(message: "no \"\(line)\" in \(timeout) s; the replies: \(lines.filter { !$0.hasPrefix("@F") })")
    }

    /// Asks for the position (`SAMPLE`) until it says `seconds` have been heard (44.1 kHz).
    func waitUntilHeard(seconds: Double, timeout: Double = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            send("SAMPLE")
            try waitFor("@SAMPLE ", prefix: true)
            let reply = received.last { $0.hasPrefix("@SAMPLE ") }
            if let sample = reply?.split(separator: " ").dropFirst().first.flatMap({ Double($0) }), sample >= seconds * 44100 { return }
            usleep(20_000)
        }
        throw Failure(message: "\(seconds) s were never heard in \(timeout) s")
    }

    /// Asks for the position (`SAMPLE`) until it stands still (the same twice, 100 ms apart):
    /// a pause heard, not only said (a loaded machine's player may take a while to reach its
    /// sound server). A position that never stands still in `timeout` seconds fails.
    func waitUntilStill(timeout: Double = 10) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var last: Double?
        while Date() < deadline {
            send("SAMPLE")
            try waitFor("@SAMPLE ", prefix: true)
            let sample = received.last { $0.hasPrefix("@SAMPLE ") }?.split(separator: " ").dropFirst().first.flatMap { Double($0) }
            if let sample, sample == last { return }
            last = sample
            usleep(100_000)
        }
        throw Failure(message: "the position never stood still in \(timeout) s: the pause was not heard (last at sample \(last ?? -1))")
    }

    /// Every line received so far.
    var received: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// Quits and waits for the player to end; its exit status.
    func quit() -> Int32 {
        send("QUIT")
        process.waitUntilExit(within: BoundedWait.defaultSeconds)
        return process.exitStatus
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
