import Files
import PlayerCore

/// What other threads ask of the playback thread.
enum EngineCommand: Equatable, Sendable {
    case open(Path, token: Int)
    case play
    case stop
    case seek(SeekTarget)
    case volume(Double)
    /// The song that follows if the current one plays to its end (`nil`: none), opened ahead
    /// on the spare decoder so that it starts without a gap.
    case cue(Path?)
    case shutdown
}

/// What the playback thread shares with the rest of the process, behind one lock (`Locked`):
/// commands in, the script's budget, the play position, and how it ended.
struct EngineShared {
    var commands: [EngineCommand] = []
    var budget = PlaybackBudget()
    /// Frames of the current song handed to the output.
    var position: Int64 = 0
    /// Set by the playback thread as its last act: whether the output closed cleanly.
    var finished: Result<Void, OutputFailure>?
}

