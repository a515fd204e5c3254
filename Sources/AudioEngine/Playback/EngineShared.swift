import Files
import PlayerCore

/// What the playback thread shares with the rest of the process, behind one lock (`Locked`):
/// calls in, the script's budget, the play position, and how it ended.
struct EngineShared {
    /// The calls for the playback thread, oldest first (pacing calls are made on the budget
    /// at once, under the lock).
    var commands: [EngineCall] = []
    /// Set by `shutdown`: the thread closes the output and ends.
    var shutdownAsked = false
    var budget = PlaybackBudget()
    /// Frames of the current song handed to the output (song frames: at a speed, what was
    /// written stands for more or fewer of them).
    var position: Int64 = 0
    /// The speed what the output holds plays at: each frame it holds is this many of the song's.
    var speed = 1.0
    /// The output that can say how many of those are not yet heard (a sound server's stream;
    /// asked outside this lock: libpulse's thread takes this lock under its own).
    var queueHolder: AudioSink?
    /// Song frames the position counts for a frame of silence the output's queue ends on
    /// (`PlaybackLoop.queueEnd`): no song frame, it is taken off once it has played.
    var filler: Int64 = 0
    /// A sound server asked for audio, or the decoder's thread has decoded more, since the
    /// playback thread last looked.
    var woke = false
    /// A stream's titles, each said when the frame it comes at is heard (`PlaybackLoop`), not
    /// when the decoder, seconds ahead, met it. Bounded (`titlesHeld`).
    var titles: [(path: Path, title: String, frame: Int64)] = []
    static let titlesHeld = 64
    /// Set by the playback thread as its last act: whether the output closed cleanly.
    var finished: Result<Void, OutputFailure>?

    /// The frames of the current song heard so far: those handed to the output less those it
    /// still holds.
    static func heard(_ shared: Locked<EngineShared>) -> Int64 {
        let (written, holder, speed, filler) = shared.read { ($0.position, $0.queueHolder, $0.speed, $0.filler) }
        guard let queued = holder?.queuedFrames else { return max(written - filler, 0) }
        return max(written - max(songFrames(queued, at: speed), filler), 0)
    }

    /// The song frames `queued` frames an output holds stand for, played at `speed`.
    static func songFrames(_ queued: Int, at speed: Double) -> Int64 {
        Int64((Double(queued) * speed).rounded())
    }
}

