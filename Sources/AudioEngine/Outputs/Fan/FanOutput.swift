import PlayerCore

/// Several outputs at once (`output = pulse, snapcast`): the first plays as it would alone (its
/// format, its pacing, its queue taken back for a pause or a seek, its clock the one shown),
/// and what is written to it goes on to the others (`Followers`), each in its own format.
/// The first can be turned off too: it then plays silence, so that it keeps the time.
final class FanOutput: AudioOutput {
    let main: AudioOutput
    let followers: Followers
    /// The followers' own thread, which gives them what the first output is given, each in
    /// real time (`FollowerFeed`).
    let feed: FollowerFeed
    /// The first output is on (off: silence is written to it).
    private(set) var mainEnabled = true
    /// The followers' names, and whether each is on, as asked (the feed's thread alone touches
    /// the followers themselves).
    private let followerNames: [String]
    private var followersOn: [Bool]

    init(main: AudioOutput, followers: Followers, feed: FollowerFeed) {
        self.main = main
        self.followers = followers
        self.feed = feed
        followerNames = followers.names
        followersOn = followers.names.map { _ in true }
    }

    var name: String { main.name }
    var isFile: Bool { main.isFile }
    var pacing: Pacing { main.pacing }
    var highestRate: Int { main.highestRate }
    var fixedFormat: PCMFormat? { main.fixedFormat }
    var lead: Double { main.lead }
    /// The first output's first write (a follower's is its feed's business).
    var startsAt: Double? { main.startsAt }

    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding { main.encoding(toPlay: encoding) }
    func wakes(_ wake: @escaping @Sendable () -> Void) { main.wakes(wake) }
    func settleName() { main.settleName() }

    func refreshFormat() {
        main.refreshFormat()
        feed.refreshFormats()
    }

    func takeNotice() -> String? {
        main.takeNotice() ?? feed.takeNotice()
    }

    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink {
        FanSink(main: try main.open(format), fan: self)
    }

    /// Turns output `index` (0: the first) on or off; whether there is one.
    func setEnabled(_ index: Int, _ enabled: Bool) -> Bool {
        guard index > 0 else {
            mainEnabled = enabled
            return index == 0
        }
        guard followersOn.indices.contains(index - 1) else { return false }
        followersOn[index - 1] = enabled
        feed.setEnabled(index - 1, enabled)
        return true
    }

    /// Every output's name and whether it is on, the first first.
    var states: [(name: String, enabled: Bool)] {
        [(main.name, mainEnabled)] + zip(followerNames, followersOn).map { ($0, $1) }
    }
}

/// The first output's sink, whose writes go on to the followers: everything the loop asks of a
/// sink (its queue, a take-back, a drain) is the first's.
///
/// A sound server starts a stream only once it holds enough, and a bare sink some time after
/// that (2 s after the first write, measured on a PulseAudio null sink): what the player writes
/// meanwhile is ahead of what plays. The followers are handed it only once the first output
/// plays (what it holds falls below what was written since it last held nothing), then each
/// write as it comes, through their feed (`FollowerFeed`), which gives it them in real time: a
/// room given it as it was written fell silent for 0.69 s after each start. What a write over
/// the queue replaces is replaced in what the followers were not handed yet; what they were
/// handed they keep, and get only what the write adds.
final class FanSink: AudioSink {
    let main: AudioSink
    private unowned let fan: FanOutput
    /// Zeros, for the first output while it is off.
    private var silence = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Written to the first output since it last held nothing, and not yet given to the
    /// followers (the first output has not started playing it).
    private var pending: [UInt8] = []
    private var sinceStart = 0
    private var started = false

    init(main: AudioSink, fan: FanOutput) {
        self.main = main
        self.fan = fan
    }

    deinit {
        silence.deallocate()
    }

    var format: PCMFormat { main.format }

    /// `bytes` for the first output: themselves, or silence while it is off.
    private func forMain<T>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(OutputFailure) -> T) throws(OutputFailure) -> T {
        guard !fan.mainEnabled else { return try body(bytes) }
        if silence.count < bytes.count {
            silence.deallocate()
            silence = .allocate(byteCount: bytes.count, alignment: 16)
            silence.initializeMemory(as: UInt8.self, repeating: format.encoding == .u8 ? 0x80 : 0)  // unsigned 8 bits: 128 is silence
        }
        return try body(UnsafeRawBufferPointer(rebasing: silence.prefix(bytes.count)))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool {
        if main.queuedFrames == 0 {
            started = false  // it holds nothing: what comes now is a new start
            sinceStart = 0
        }
        let blocked = try forMain(bytes) { bytes throws(OutputFailure) in try main.write(bytes) }
        sinceStart += bytes.count / format.bytesPerFrame
        if started {
            fan.feed.add(bytes, format: format)
        } else {
            pending.append(contentsOf: bytes)
            startIfPlaying()
        }
        return blocked
    }

    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) {
        try forMain(bytes) { bytes throws(OutputFailure) in try main.write(bytes, over: frames) }
        let unit = format.bytesPerFrame
        let (replaced, overflow) = max(frames, 0).multipliedReportingOverflow(by: unit)
        guard !overflow else { return }
        sinceStart += bytes.count / unit - frames
        // What the followers were not handed is replaced; the feed replaces what it has not
        // given them yet; what they were given they keep.
        let unsent = min(replaced, pending.count)
        pending.removeLast(unsent)
        let handed = replaced - unsent
        if started {
            fan.feed.replace(frames: handed / unit, with: bytes, format: format)
        } else if bytes.count > handed {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[handed...]))
        }
    }

    /// The followers are given what is pending once the first output plays (or says nothing
    /// of what it holds).
    private func startIfPlaying() {
        // A sound server's stream may not say yet (it has not started): waited for.
        guard let queued = main.queuedFrames else { return main.canTakeBack ? () : release() }
        if queued < sinceStart { release() }
    }

    private func release() {
        started = true
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { fan.feed.add($0, format: format) }
        pending.removeAll(keepingCapacity: true)
    }

    func close() throws(OutputFailure) {
        release()
        try main.close()
    }

    /// The run ends: the followers are given the rest and close (snapserver reading the end)
    /// while the first output closes; the engine gives all of it half a second.
    func close(within seconds: Double) throws(OutputFailure) {
        release()
        fan.feed.startClosing()
        defer { fan.feed.waitClosed(within: SnapcastSink.lastReads + 0.1) }
        try main.close(within: seconds)
    }

    func nowPlaying(_ info: SongInfo) {
        main.nowPlaying(info)
        fan.feed.announce(info)
    }

    func playWhatIsWritten() {
        main.playWhatIsWritten()
        release()
    }

    func dropIfUnplayed() -> Bool {
        guard main.dropIfUnplayed() else { return false }
        pending.removeAll()
        sinceStart = 0
        return true
    }

    func drain() {
        release()
        main.drain()
    }

    var grantedBuffer: (length: Double, request: Double)? { main.grantedBuffer }
    var writableBytes: Int? { main.writableBytes }
    var queuedFrames: Int? { main.queuedFrames }
    var rewritableFrames: Int? { main.rewritableFrames }
    var replaceableFrames: Int { main.replaceableFrames }
    var canTakeBack: Bool { main.canTakeBack }
    var keepsTime: Bool { main.keepsTime }
    /// The first output has played all it was given, and the followers have too (but for
    /// their lead): a list's end is heard in every room before the run ends.
    var isDrained: Bool { main.isDrained && fan.feed.caughtUp }
}
