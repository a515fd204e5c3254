import PlayerCore

/// The values the playback loop's state is made of.
extension PlaybackLoop {
    /// The open song: its token, what it is, and the format it decodes to now.
    struct Song {
        /// The session's token for it; `nil` while it is the cued song that took over at the
        /// end of the last one, until the session's `open` for it adopts it: until then nothing
        /// is reported of it (the session knows of no such song; its open hears of it).
        var token: Int?
        /// What was opened: a file, or a track of it.
        let source: SongSource
        let info: SongInfo
        var format: PCMFormat
        /// Damage was skipped in it: it is shorter than its header says, and not cut short.
        var skippedDamage = false
        /// What its decoder applies itself (libmpg123: the ReplayGain and `-R`'s equaliser);
        /// the stage applies the rest (`gain`, its `MpegBandEqualizer`).
        var appliedInDecoder: AppliedInDecoder = []
        /// Its ReplayGain as a factor, for the mode in force (1: none, or applied by its decoder).
        var gain = 1.0
    }

    /// Audio decoded but not yet written (kept while the device is lost), and what follows
    /// once it is: the script's grant it used up, and why the song ends there, if it does.
    struct Held {
        var bytes: Int
        var spentGrant: Int?
        var end: EarlyEnd?
        /// The last samples before the stretcher starts again (a song's end, a fade out): it
        /// hands back all it holds.
        var flush = false
        /// It is a fade out: the stretcher's last samples fade to silence too.
        var fadesOut = false
        /// What it became in the `SampleStage` (faded, stretched, its volume applied), once it
        /// has been through it: the samples to write, and the song frames they stand for.
        var output: UnsafeRawBufferPointer?
        var songFrames: Int64 = 0
        /// What `output` points into, when not `buffer` (the stretcher's own): kept alive with
        /// it, whatever happens to the stage's stretcher while the chunk waits for a device.
        var owner: AnyObject?
    }

    enum EarlyEnd {
        /// libmpg123 found damage (its reason).
        case damaged(String)
        /// The file shrank while it played.
        case cutShort(was: Int64, now: Int64)
    }
}

extension PlaybackLoop.Phase {
    /// A song is under way: playing, waiting for the decoder or a script's grant, or playing
    /// out its end (what a stop stops).
    var hasSong: Bool {
        switch self {
        case .playing, .starved, .heldByBudget, .draining: true
        case .idle, .deviceLost: false
        }
    }

    /// Decoding goes on by itself (a seek made now plays on from where it lands).
    var decodes: Bool {
        switch self {
        case .playing, .starved: true
        case .idle, .heldByBudget, .deviceLost, .draining: false
        }
    }

    /// The phase as the rest of the player sees it (for `--trace`).
    var reported: PlaybackPhase {
        switch self {
        case .idle: .idle
        case .playing: .playing
        case .starved: .playing  // said by `starve` when it matters
        case .heldByBudget: .heldByBudget
        case .draining: .playing
        case .deviceLost(_, let retries): .waitingForDevice(retries: retries)
        }
    }
}
