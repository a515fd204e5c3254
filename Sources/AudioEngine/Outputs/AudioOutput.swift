import PlayerCore

/// Why the output failed: one line for the user.
struct OutputFailure: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    /// The output works, but not in the format asked for (a rate past what the server takes):
    /// the song cannot play there, the output can still play the others.
    var refusesFormat = false
    var description: String { message }
}

/// Where PCM goes: a live device or a file, opened in a format: a sound server's stream
/// (`PulseOutput`), a libao device (`AoOutput`), a file (`FileOutput`) or the null device;
/// tests use a fake that records what it is given and fails to order.
protocol AudioOutput: AnyObject {
    /// The driver or the file, for messages.
    var name: String { get }
    /// A file runs as fast as decoding allows and keeps its first format.
    var isFile: Bool { get }
    /// How it is kept to time: not at all (a file), held to real time (the null device), or
    /// kept a little ahead of a device's clock.
    var pacing: Pacing { get }
    /// Opens the device or creates the file for `format`.
    func open(_ format: PCMFormat) throws(OutputFailure) -> AudioSink
    /// The highest rate it can be opened at: what a pitch may raise a song's rate to.
    var highestRate: Int { get }
    /// The samples it is opened for to play samples in `encoding`: the same, where it takes
    /// them (a sound server, a file), else the nearest it takes without loss, or with the least.
    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding
    /// Calls `wake` (on any thread) when it can take more: a sound server asks for audio
    /// (PulseAudio); an output whose writes wait until there is room never calls it.
    func wakes(_ wake: @escaping @Sendable () -> Void)
    /// Settles what `name` says before a song opens on it: the default output chooses its
    /// device now (the first song said `default`, the next `pulse`); the others are what they are.
    func settleName()
    /// The one format every song is converted to, where the output takes no other (a Snapcast
    /// stream's); `nil`: each song's own.
    var fixedFormat: PCMFormat? { get }
    /// Asks again for a one format that could not be learnt (a song opens).
    func refreshFormat()
    /// How far ahead of real time an output held to it is written (`Pacing.realTime`).
    var lead: Double { get }
    /// The first write is not due before this (monotonic seconds): the playback loop waits for
    /// it as for any write, keys answered meanwhile. `nil`: no such time.
    var startsAt: Double? { get }
    /// What is to be said of the output, once: how it was set up, a server that stopped or
    /// came back (asked when a song opens and after each write).
    func takeNotice() -> String?
}

extension AudioOutput {
    var highestRate: Int { PlayableFormat.rates.upperBound }
    func encoding(toPlay encoding: SampleEncoding) -> SampleEncoding { encoding }
    var fixedFormat: PCMFormat? { nil }
    func refreshFormat() {}
    var lead: Double { 0 }
    var startsAt: Double? { nil }
    func takeNotice() -> String? { nil }
}

/// An open device or file.
protocol AudioSink: AnyObject {
    var format: PCMFormat { get }
    /// Hands `bytes` to the device or file; throws when it takes them no more. Returns whether
    /// the device's buffer was full, so that the write waited for it to make room.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFailure) -> Bool
    /// Drains a device, or finishes a file (its final header). Throws when that fails.
    func close() throws(OutputFailure)
    /// Closes it as the run ends: a sound server's stream plays out what it holds for `seconds`
    /// at most (quitting waits for the fade, never for a server that does not answer).
    func close(within seconds: Double) throws(OutputFailure)
    /// The buffer a sound server granted and what it asks for at a time, in seconds; `nil`
    /// where there is none to say.
    var grantedBuffer: (length: Double, request: Double)? { get }

    // A sound server's stream (`PulseSink`) can say more, and take back what it holds:

    /// Bytes the output has room for now; `nil` for an output that says nothing (it blocks).
    var writableBytes: Int? { get }
    /// Frames written but not yet heard; `nil` for an output that cannot say.
    var queuedFrames: Int? { get }
    /// Of those, the last ones a new volume writes again over themselves (`write(_:over:)`):
    /// all of them on a sound server's stream (the default); on snapserver's pipe, what it has
    /// not read yet (what it has read, its rooms hear a buffer later whatever is written now).
    var rewritableFrames: Int? { get }
    /// The last frames written that a write can still go back over (`write(_:over:)`) and
    /// nothing of what they replace be heard: what is queued less what the server may have
    /// handed its sink. 0 for an output that cannot take back what it holds.
    var replaceableFrames: Int { get }
    /// Whether it holds what is written in a queue that can be written over (a sound server's).
    var canTakeBack: Bool { get }
    /// The player has nothing more to write for now: what it wrote plays, though there is room
    /// for more (a stream held back until it is full starts).
    func playWhatIsWritten()
    /// Drops all it holds if its sink has taken none of it yet (a start not yet heard); whether
    /// it did.
    func dropIfUnplayed() -> Bool
    /// False once it is found to take audio faster than it could play it (`SinkPace`).
    var keepsTime: Bool { get }
    /// Writes `bytes` in place of the last `frames` frames written, those of them not yet heard
    /// heard as the new ones, sample for sample: the stream goes back by `frames` and on by
    /// `bytes`, never running dry in between (as a flush and a write can).
    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure)
    /// Asks to be told when what is queued has played (`isDrained`); the server's word, not an
    /// estimate, is what ends a song.
    func drain()
    var isDrained: Bool { get }
    /// What is written from now on is `info`'s (a broadcast names each song to its listeners).
    func nowPlaying(_ info: SongInfo)
}

/// A device or file that says nothing of what it holds: a write blocks until it has room, what
/// it holds cannot be taken back, and it is drained when closed (libao, a file). Sinks opt
/// in by name; a sound server's stream implements each of these itself.
protocol BlockingSink: AudioSink {}

extension AudioSink {
    var rewritableFrames: Int? { queuedFrames }
    func nowPlaying(_ info: SongInfo) {}
}

extension BlockingSink {
    var writableBytes: Int? { nil }
    var queuedFrames: Int? { nil }
    var replaceableFrames: Int { 0 }
    var canTakeBack: Bool { false }
    func playWhatIsWritten() {}
    func dropIfUnplayed() -> Bool { false }
    var keepsTime: Bool { true }
    /// What it holds cannot be taken back: `bytes` follow it.
    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) { _ = try write(bytes) }
    func drain() {}
    var isDrained: Bool { true }
    /// It plays out what it holds as it closes (a write waited for room for it).
    func close(within seconds: Double) throws(OutputFailure) { try close() }
    var grantedBuffer: (length: Double, request: Double)? { nil }
}
