/// The session's state, grouped by what it is about: each group is a value the session holds
/// one of, read whole by whoever shows it.

/// How the list goes on past the song playing, as a person sets it (repeat and shuffle are the
/// queue's own).
public struct PlayModes: Sendable {
    /// The song playing plays again when it ends (not on `next`).
    public internal(set) var repeatsOne = false
    /// Album mode: the list stops at the end of an album (when the next song's album is another),
    /// the next song ready (cmus's `m`).
    public internal(set) var albumMode = false
    /// The list stops when the song playing ends, with the next song ready; then this is off.
    public internal(set) var stopsAfterCurrent = false
    /// The list stops when each song ends, the next song ready (MPD's single mode without
    /// repeat); it stays on.
    public internal(set) var stopsAfterEach = false
    /// Each song leaves the list once it has played (MPD's consume mode).
    public internal(set) var consumes = false
    /// The albums album mode has learnt, by song (a song's album is read once a run), and the
    /// song whose album is being read.
    var albums: [SongSource: String?] = [:]
    var albumAsked: SongSource?
    /// A song ended before the album of the one to follow was known: the list goes on when it is.
    var endedAwaitingAlbum = false
    /// Every song's album is wanted (shuffle by album, an album key): the list's songs are read
    /// a batch at a time, songs added too (`PlayerModel+Albums`); a batch is being read.
    var wantsAlbums = false
    var albumsReading = false
    /// Shuffled by album from the start: the first song waits for the albums.
    var startAwaitsAlbums = false
    /// An album key pressed before the albums were known: it acts once they are (true: next).
    var albumMoveAwaited: Bool?
    /// A playlist request is being done (a script's next line waits for it: an opened
    /// playlist's songs play before what follows).
    var playlistAsked = false
    /// The sleep timer: playback stops at a moment, or at the album's end.
    public internal(set) var sleep = SleepTimer()
    /// Whether the list stops at the end of the album playing: album mode, or the sleep timer.
    var stopsAtAlbumEnd: Bool { albumMode || sleep.setting == .afterAlbum }
}

/// What the listener hears of every song, not which song plays: the volume and mute, the
/// speed, the graphic equaliser and ReplayGain. It belongs to the run, not to a song: it holds
/// across songs and in every state.
public struct Sound: Sendable {
    /// Software volume in percent (0–100).
    public internal(set) var volume = 100
    /// Muted: the engine plays at 0 until unmuted (or the volume is changed).
    public internal(set) var muted = false
    /// The outputs turned off, of several (`output = pulse, snapcast`), by their index.
    public internal(set) var outputsOff: Set<Int> = []
    /// The most outputs there can be.
    static let outputsAtMost = 16
    /// How many times as fast the songs play, at their own pitch (`--speed`, `[` `]`).
    public internal(set) var speed = 1.0
    /// The graphic equaliser's bands in dB (`nil`: none set) and whether it is on.
    public internal(set) var equalizerBands: [Double]?
    public internal(set) var equalizerOn = false
    /// `--replaygain`: what the engine applies to the songs it opens (auto follows shuffle).
    public internal(set) var replayGain = ReplayGainSetting()
    /// How songs join: the crossfade at a song's end and a skip's fade.
    public internal(set) var crossfade = CrossfadeSetting()
    /// The crossfade `X` turns on again.
    var crossfadeLastOn = CrossfadeSetting.usual

    /// Where the sleep timer's fade out has come to (1: none).
    var sleepGain = 1.0

    /// The factor the engine plays at.
    var engineVolume: Double { muted ? 0 : Double(volume) / 100 * sleepGain }
}

/// What holds a run open at the end of its list, besides its policy.
struct Holds {
    /// A script runs: the end of the list does not end the run (the script may add more).
    var script = false
    /// More of the list is still being read (a long playlist or folder named at start): the
    /// list goes on when more arrives.
    var listComing = false
    /// A load's songs are being read (`load`, MPRIS's `OpenUri`): a run that ends with its list
    /// waits for them, and plays them.
    var loadComing = false

    var any: Bool { script || listComing || loadComing }
}

/// How the run has gone so far: what could not be played, and so its exit status.
public struct RunOutcome: Sendable {
    /// The entries that could not be played this run, and why (one line each): passed over
    /// from then on, and marked in the list view.
    public internal(set) var failures: [Int: String] = [:]
    /// Entries not to be played in this run, nor counted as failed (`setAside`).
    var setAside = Set<Int>()
    /// Whether any song failed this run (taking it out of the list does not undo that).
    var someFailed = false
    /// A song played on past damage (skipped and said).
    var playedPastDamage = false
    public internal(set) var outputFailed = false

    /// Whether the list passes over `entry`: it failed, or it was set aside.
    func skips(_ entry: Int) -> Bool { failures[entry] != nil || setAside.contains(entry) }

    /// 0 when every entry played whole, 1 when at least one could not be played or was
    /// damaged (unless the policy says failed songs do not fail the run) or the output failed.
    func exitStatus(_ policy: PlayerModel.Policy) -> Int32 {
        ((!someFailed && !playedPastDamage) || !policy.failedSongsFailTheRun) && !outputFailed ? 0 : 1
    }
}

/// What internet streams have said and named this run (`PlayerModel+Stream`).
struct StreamBook {
    /// What the stream playing or opening has said.
    var said: (path: Path, state: StreamState)?
    /// Each playlist served over http that was opened, and the one that named it (the cycle check).
    var servedFrom: [Path: Path] = [:]
    /// The playlist served over http whose entries took its place at the last open that found
    /// one (`nil`: that one was refused): a front-end's "could not open" waits for its first.
    var adopted: Path?
}

/// What is being opened and loaded: the entry the engine opens and which way the list moved to
/// it, and the loads whose songs are read off the main loop.
struct Loading {
    /// The entry being opened, and which way the list was moving: where to go on if it fails.
    var opening: (entry: Int, move: PlayerModel.Move)?
    /// The load whose entries are awaited: a newer one supersedes it.
    var loads = 0
    /// The load whose asker waits for its answer (`.load(_, answered: true)`).
    var awaitingAnswer: Int?
}

/// What is heard of the song playing: how much, to count it as played, and the damage skipped
/// in it, each place said once when whole.
struct Hearing {
    var listening = ListenTracker()
    var damage = DamageReport()
    /// How many seeks were asked for this run: what is heard jumps (MPD's `player` changes).
    var seeks = 0
}
