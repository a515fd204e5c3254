/// The audio engine the player's states share: what the state machine's calls go to.
///
/// The live implementation (`AudioEngine.Engine`) posts each call to its playback thread and
/// returns at once; what comes of it (a song opened, or why not; its end) arrives later as an
/// `EngineEvent`. The test implementation records the calls and answers to order.
public protocol PlaybackEngine: AnyObject {
    /// Makes one call: every effect the session and the script runner want goes through here.
    func perform(_ call: EngineCall)
    /// Makes several calls as one: the engine takes them together (a stop and an open: a skip).
    func perform(_ calls: [EngineCall])
    /// Frames of the current song already handed to the output.
    var position: Int64 { get }
    /// What is left of the current grant (`EngineCall.grant`); `.zero` with none.
    var grantLeft: AudioTime { get }
    /// Why it cannot play at another speed than the song's (`EngineCall.setSpeed`); `nil` when
    /// it can. Asked when a speed other than 1 is first wanted.
    var speedRefusal: String? { get }
}

extension PlaybackEngine {
    public var speedRefusal: String? { nil }

    public func perform(_ calls: [EngineCall]) {
        calls.forEach(perform)
    }
}

/// An engine a main loop drives: its reports arrive on a descriptor a `poll` loop watches, and
/// shutting it down is bounded in time.
public protocol PlayerEngine: PlaybackEngine {
    /// Readable when reports are waiting.
    var eventFD: Int32 { get }
    /// The reports since the last call, oldest first.
    func takeEvents() -> [EngineEvent]
    /// Closes the output (a file's final header) and ends the engine, waiting a bounded time.
    func shutdown() -> EngineShutdown
    /// The device or file it plays to, for messages (`pulse`, `out.wav`).
    var outputName: String { get }
    /// Whether it writes a file (as fast as decoding allows) rather than a live device.
    var writesFile: Bool { get }
    /// The spectrum of what is heard now in `bars` bars, each 0 to 1; `nil` when nothing is. The
    /// first call starts recording what the output is handed; `hideSpectrum` stops it.
    func spectrum(bars: Int) -> [Double]?
    func hideSpectrum()
}

extension PlayerEngine {
    public func spectrum(bars: Int) -> [Double]? { nil }
    public func hideSpectrum() {}
}

/// How the engine ended.
public enum EngineShutdown: Equatable, Sendable {
    /// The output closed cleanly (a file has its final header).
    case closed
    /// Closing the output failed: why, in one line.
    case failed(String)
    /// The playback thread did not stop in time (a device that no longer answers): it was left
    /// behind, and a file being written may lack its final header.
    case timedOut
}
