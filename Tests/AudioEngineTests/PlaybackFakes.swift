import Files
import PlayerCore
@testable import AudioEngine

/// A decoder that makes PCM to order: each sample is the running count of samples decoded (so
/// a test can tell exactly which samples reached the output), in segments whose format may
/// change partway (a "Frankenstein" stream), with damage where a test puts it.
final class FakeDecoder: AudioDecoder {
    struct Segment {
        var format: PCMFormat
        var frames: Int
    }

    var segments: [Segment]
    /// After this many frames (of the whole song) the stream is damaged: the read that reaches
    /// it returns what came before, with the error.
    var damagedAt: Int?
    /// At most this many frames a read, as decoders that give one codec frame at a time
    /// (FFmpeg's AAC: 1,024).
    var framesPerRead = Int.max
    var failingPaths: [Path: LoadFailure] = [:]
    /// The songs' ReplayGain tags.
    var replayGain = ReplayGain()
    private(set) var restrictions: [FormatRule] = []
    private(set) var reads: [Int] = []
    /// Every open and seek asked of it.
    private(set) var opens = 0
    private(set) var seeks: [Int64] = []
    private var restriction: FormatRule = .any
    private var segment = 0
    private var frameInSegment = 0
    private var framesOut = 0
    var sample: Int16 = 0
    /// Each sample is its place in the song, after a seek too.
    var countsFromTheFrame = false
    private var announced: PCMFormat?

    init(_ segments: [Segment]) {
        self.segments = segments
    }

    static let cd = PCMFormat(rate: 44100, channels: 2)
    static let halfMono = PCMFormat(rate: 22050, channels: 1)

    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        let path = source.path
        opens += 1
        if let failure = failingPaths[path] { throw failure }
        segment = 0
        frameInSegment = 0
        framesOut = 0
        let format = fixedFormat ?? segments[0].format
        announced = format
        let total = segments.reduce(0) { $0 + frames(of: $1, in: fixedFormat ?? $1.format) }
        var info = SongInfo(path: path, sampleRate: format.rate, channels: format.channels, totalFrames: Int64(total))
        info.replayGain = replayGain
        return OpenedSong(info: info, format: format)
    }

    func close() {}

    /// Frames `segment` gives when decoded to `format` (a converted rate scales the count).
    private func frames(of segment: Segment, in format: PCMFormat) -> Int {
        segment.frames * format.rate / segment.format.rate
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        while segment < segments.count, frameInSegment >= frames(of: segments[segment], in: current) {
            segment += 1
            frameInSegment = 0
        }
        guard segment < segments.count else { return .done }
        let format = current
        if format != announced {
            announced = format
            return .newFormat(format)
        }
        var count = min(capacity / format.bytesPerFrame, frames(of: segments[segment], in: format) - frameInSegment, framesPerRead)
        var damaged = false
        if let damagedAt, framesOut + count >= damagedAt {
            count = damagedAt - framesOut
            damaged = true
        }
        let samples = buffer.assumingMemoryBound(to: Int16.self)
        for index in 0..<(count * format.channels) {
            samples[index] = sample
            sample &+= 1
        }
        frameInSegment += count
        framesOut += count
        reads.append(capacity / format.bytesPerFrame)
        let bytes = count * format.bytesPerFrame
        if damaged {
            damagedAt = nil
            return .damaged(bytes: bytes, reason: "lost the MPEG frame sync")
        }
        return .data(bytes: bytes)
    }

    /// The format the decoder gives now: the restriction, when there is one (libmpg123 converts).
    private var current: PCMFormat { fixedFormat ?? segments[min(segment, segments.count - 1)].format }

    /// The one format of the whole song, when the rule fixes one.
    private var fixedFormat: PCMFormat? {
        switch restriction {
        case .any: nil
        case .first: segments[0].format
        case .exactly(let format): format
        }
    }

    /// Lands on `frame` exactly; with `countsFromTheFrame`, the samples go on from that
    /// frame's count, as the song's own samples would be there (else the count goes on).
    func seek(toFrame frame: Int64) -> Int64? {
        seeks.append(frame)
        segment = 0
        frameInSegment = Int(frame)
        framesOut = Int(frame)
        if countsFromTheFrame { sample = Int16(truncatingIfNeeded: Int(frame) * current.channels) }
        return frame
    }

    func restrictFormat(to rule: FormatRule) throws(LoadFailure) {
        restrictions.append(rule)
        restriction = rule
    }

    func promoted() {}
    func startOpening(_ source: SongSource) {}
    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong { try open(source) }
    func setReplayGain(_ choice: ReplayGainChoice) {}
    func setEqualizer(_ bands: [[Double]]) {}

    var truncation: (was: Int64, now: Int64)? { nil }
    /// Its stated length is exact (as FLAC's is): a crossfade may plan on it.
    var lengthIsExact = false
}

/// An output that records what it is given and fails to order. A live one is a device with a
/// buffer of `deviceBuffer` seconds, played at `deviceSpeed` times the fake clock's pace: a
/// write that does not fit waits (moves the clock on) until it does, and says it blocked.
final class FakeOutput: AudioOutput {
    func wakes(_ wake: @escaping @Sendable () -> Void) {}
    func settleName() {}
    let name: String
    let isFile: Bool
    lazy var pacing: Pacing = isFile ? .none : .device
    /// The clock a live device plays by; without one it takes everything at once.
    var clock: FakeClock?
    var deviceBuffer = 0.2
    var deviceSpeed = 1.0
    /// Writes that say they blocked although they did not (a wait on a lock, say).
    var falseBlocks: Set<Int> = []
    /// The next this many opens fail.
    var failingOpens = 0
    /// The one format it takes (a Snapcast stream's), if any.
    var fixedFormat: PCMFormat?
    private(set) var sinks: [FakeSink] = []
    /// Events in order: "open 44100 Hz stereo", "close", for checking that a device drains
    /// before it reopens.
    private(set) var log: [String] = []

    init(name: String = "fake", isFile: Bool = false) {
        self.name = name
        self.isFile = isFile
    }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        guard failingOpens == 0 else {
            failingOpens -= 1
            log.append("open failed")
            throw OutputFailure(message: "cannot open the audio device")
        }
        let sink = FakeSink(format: format, output: self)
        sinks.append(sink)
        log.append("open \(format)")
        return sink
    }

    fileprivate func record(_ entry: String) { log.append(entry) }

    /// Every sample written, in order, to every sink.
    var samples: [Int16] { sinks.flatMap(\.samples) }
}

final class FakeSink: BlockingSink {
    let format: PCMFormat
    private weak var output: FakeOutput?
    private(set) var samples: [Int16] = []
    private(set) var writes = 0
    /// The simulated device: seconds queued as of `played`, and how long it ran dry while fed.
    private(set) var queued = 0.0
    private var played: Double?
    private(set) var starved = 0.0
    /// The most queued after each write, and when each write happened.
    private(set) var queuedAfterWrites: [Double] = []
    private(set) var writeTimes: [Double] = []
    /// Writes fail from this write on (counted from 1).
    var failingFromWrite: Int?
    /// Each song it was told it plays (`nowPlaying`), and how many samples it had been given then.
    private(set) var announced: [(path: String, atSample: Int)] = []

    init(format: PCMFormat, output: FakeOutput) {
        self.format = format
        self.output = output
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        writes += 1
        if let failingFromWrite, writes >= failingFromWrite {
            throw OutputFailure(message: output?.isFile == true ? "cannot write to the file: no space left on device"
                                                                : "the fake device stopped taking audio")
        }
        samples += bytes.bindMemory(to: Int16.self)
        guard let output, !output.isFile, let clock = output.clock else { return false }
        let seconds = Double(bytes.count / format.bytesPerFrame) / Double(format.rate)
        play(until: clock.now, speed: output.deviceSpeed)
        var blocked = output.falseBlocks.contains(writes)
        if queued + seconds > output.deviceBuffer {
            // What fits goes in; the write returns once the rest has room: the buffer is full.
            clock.now += (queued + seconds - output.deviceBuffer) / output.deviceSpeed
            played = clock.now
            queued = output.deviceBuffer
            blocked = true
        } else {
            queued += seconds
        }
        queuedAfterWrites.append(queued)
        writeTimes.append(clock.now)
        return blocked
    }

    /// Plays what is queued up to `now`; time with nothing queued is counted as starved.
    func play(until now: Double, speed: Double) {
        if let played {
            let elapsed = (now - played) * speed
            starved += max(elapsed - queued, 0)
            queued = max(queued - elapsed, 0)
        }
        played = now
    }

    func close() throws(OutputFailure) {
        output?.record("close")
    }

    func nowPlaying(_ info: SongInfo) {
        announced.append(("\(info.path)", samples.count))
    }
}

/// Time that passes only when a test says so.
final class FakeClock: PlaybackClock {
    var now = 1000.0
}

/// A playback loop on fakes, and everything it reported.
final class LoopRig {
    let decoder: FakeDecoder
    let output: FakeOutput
    let clock = FakeClock()
    let shared = Locked(EngineShared())
    let loop: PlaybackLoop
    private let reported = Locked<[EngineEvent]>([])

    /// `ahead`: the decoders decode ahead on threads of their own (`AheadDecoder`), as live.
    /// `followers`: outputs fed beside `output` (`FanOutput`).
    init(decoder: FakeDecoder, spare: FakeDecoder? = nil, output: FakeOutput, followers: Followers? = nil, fades: Bool = false, ahead: Bool = false) {
        self.decoder = decoder
        self.output = output
        output.clock = clock
        let reported = self.reported
        let shared = self.shared
        let wake = { shared.update { $0.woke = true } }
        let live = ahead ? AheadDecoder.around(decoder, wake: wake) : decoder
        let second: AudioDecoder? = ahead ? spare.map { AheadDecoder.around($0, wake: wake) } : spare
        let primary: AudioOutput = followers.map { FanOutput(main: output, followers: $0, feed: try! FollowerFeed($0, inline: true)) } ?? output
        loop = PlaybackLoop(decoder: live, spare: second, outputs: OutputChoice(primary: primary, fallback: nil), clock: clock,
                            fades: fades, shared: shared) { event in
            reported.update { $0.append(event) }
        }
    }

    /// The events reported since the last call, without the phase reports unless asked.
    func events(withPhases: Bool = false) -> [EngineEvent] {
        reported.update { list in
            defer { list.removeAll() }
            return withPhases ? list : list.filter { if case .playback = $0 { false } else { true } }
        }
    }

    /// Steps until the loop has nothing to do (or `limit` steps).
    func run(limit: Int = 10_000) {
        for _ in 0..<limit {
            switch loop.phase {
            case .idle, .deviceLost, .heldByBudget, .draining: return
            case .playing, .starved: advance()
            }
        }
    }

    /// One step, after the wait the engine would make: for the next chunk to be due, or for a
    /// decoder decoding ahead on its own thread to wake it.
    func advance() {
        if loop.phase == .starved {
            shared.wait(until: { $0.woke }, timeout: nil) { $0.woke = false }
        } else if let due = loop.nextWrite {
            clock.now = due
        }
        loop.step()
    }
}
