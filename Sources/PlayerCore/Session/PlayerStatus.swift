/// The player as every front-end sees it at one moment: what the status line, MPRIS, `-R` and
/// the saved session show of it are read from this one value (`Session.status`). After each
/// step the player compares it with the one before and says what changed, in the groups MPD's
/// `idle` names (`StatusChanges`). How far the song has played is not in it: that changes all
/// the time, and is read from the engine when it is shown.
public struct PlayerStatus: Equatable, Sendable {
    // What plays: MPD's `player`.
    public var state: StateID
    /// Playing, paused or stopped, as MPRIS and MPD say it.
    public var playback = Playback.stopped
    /// The song open (playing, paused, stopped in it), as the session names it.
    public var song: SongInfo?
    /// Which opening of a song this is: the same song opened again is another.
    public var token: Int?
    /// The entry playing or last played (0-based), and what to call the song (`songName`).
    public var entry: Int?
    public var name: String?
    /// Stopped and taken back to the start, rather than paused where it was.
    public var stoppedAtStart = false
    /// The list played to its end and waits there, its last song rewound.
    public var atEndOfList = false
    /// With no song open: why the last load failed, as one line.
    public var failure: String?
    /// What the internet stream playing has said.
    public var stream: StreamState?
    /// Whether `next` and `previous` go to another entry: read from the list, its options and
    /// the entry, they change with those (and are no change of their own).
    public var hasNext = false
    public var hasPrevious = false
    /// Counts the seeks asked for: a new value is a jump in what is heard.
    public var seeks = 0

    // What the listener hears: MPD's `mixer`.
    public var volume = 100
    public var muted = false
    /// The outputs turned off, of several, by their index.
    public var outputsOff: Set<Int> = []

    // How the list plays on: MPD's `options`.
    public var repeats = false
    public var shuffles = false
    /// Shuffled by album (`shuffles` is on too).
    public var shufflesAlbums = false
    public var repeatsOne = false
    public var albumMode = false
    public var stopsAfter = false
    public var stopsAfterEach = false
    public var consumes = false
    public var speed = 1.0
    /// The crossfade at a song's end, in seconds (0: off), and a skip's fade.
    public var crossfade = CrossfadeSetting()
    /// The sleep timer (its moment, not the seconds left: a status that changes every second
    /// would wake every front-end that waits for changes).
    public var sleep = SleepTimer()
    public var equalizerOn = false
    public var equalizerBands: [Double]?
    public var replayGain = ReplayGainSetting()

    // The list: MPD's `playlist`.
    public var entryCount = 0
    /// Counts the list's changes: a new value is a new list (MPD's playlist version).
    public var edits = 0
    /// The entries queued to play next, in their order.
    public var upNext: [Int] = []
    /// More of the list is still being read.
    public var listIsComing = false

    public init(state: StateID) {
        self.state = state
    }

    /// Playing (or about to, a song loading to play), paused where it was, or stopped (nothing
    /// open, or taken back to the start).
    public enum Playback: Equatable, Sendable {
        case playing, paused, stopped

        init(_ state: PlayerState, stoppedAtStart: Bool) {
            switch state {
            case .play, .deviceLost: self = .playing
            case .stop: self = stoppedAtStart ? .stopped : .paused
            // A song opening that is not to play waits where a stop left it, as a song open does
            // (paused when a person paused it as it opened: a client's pause must not read as a
            // stop, nor its next then do nothing).
            case .loading(let loading): self = loading.startsPlaying ? .playing : stoppedAtStart ? .stopped : .paused
            case .idle, .prepare: self = .stopped
            }
        }
    }
}

/// What changed between two statuses, grouped as MPD's `idle` subsystems are: a client (or a
/// front-end) that waits for changes is told which groups to read again.
public struct StatusChanges: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// What plays: started, stopped, paused, another song, a seek.
    public static let player = StatusChanges(rawValue: 1 << 0)
    /// The volume, muting.
    public static let mixer = StatusChanges(rawValue: 1 << 1)
    /// Repeat, shuffle, single, album mode, stop after, speed, equaliser, ReplayGain.
    public static let options = StatusChanges(rawValue: 1 << 2)
    /// The list: added, removed, moved, queued, replaced.
    public static let playlist = StatusChanges(rawValue: 1 << 3)
    /// A playlist saved (`saveList`).
    public static let storedPlaylist = StatusChanges(rawValue: 1 << 4)
    /// The library's songs (a scan).
    public static let database = StatusChanges(rawValue: 1 << 5)
    /// The output (a device lost, found, fallen back from).
    public static let output = StatusChanges(rawValue: 1 << 6)
    /// A song's plays, skips or rating.
    public static let sticker = StatusChanges(rawValue: 1 << 7)

    /// Each group's name, as MPD's `idle` says it.
    public static let names: [(StatusChanges, String)] = [
        (.player, "player"), (.mixer, "mixer"), (.options, "options"), (.playlist, "playlist"),
        (.storedPlaylist, "stored_playlist"), (.database, "database"), (.output, "output"), (.sticker, "sticker"),
    ]

    public var description: String {
        Self.names.filter { contains($0.0) }.map(\.1).joined(separator: " ")
    }

    /// The groups in which `new` differs from `old` (the ones a status shows; the others are
    /// said by whoever changes them: a save, a scan, the output, a play counted). `hasNext` and
    /// `hasPrevious` follow the list, the options and the entry, and count as none.
    public static func between(_ old: PlayerStatus, _ new: PlayerStatus) -> StatusChanges {
        var changes: StatusChanges = []
        if old.state != new.state || old.playback != new.playback || old.song != new.song || old.token != new.token || old.entry != new.entry || old.name != new.name
            || old.stoppedAtStart != new.stoppedAtStart || old.atEndOfList != new.atEndOfList || old.failure != new.failure
            || old.stream != new.stream || old.seeks != new.seeks {
            changes.insert(.player)
        }
        if old.volume != new.volume || old.muted != new.muted { changes.insert(.mixer) }
        // Muted is the one output off, as MPD's clients see it (`disableoutput`); of several,
        // each is on or off.
        if old.muted != new.muted || old.outputsOff != new.outputsOff { changes.insert(.output) }
        if old.repeats != new.repeats || old.shuffles != new.shuffles || old.shufflesAlbums != new.shufflesAlbums || old.repeatsOne != new.repeatsOne || old.albumMode != new.albumMode
            || old.stopsAfter != new.stopsAfter || old.stopsAfterEach != new.stopsAfterEach || old.consumes != new.consumes || old.speed != new.speed || old.crossfade != new.crossfade || old.sleep.setting != new.sleep.setting || old.equalizerOn != new.equalizerOn
            || old.equalizerBands != new.equalizerBands || old.replayGain != new.replayGain {
            changes.insert(.options)
        }
        if old.entryCount != new.entryCount || old.edits != new.edits || old.upNext != new.upNext || old.listIsComing != new.listIsComing {
            changes.insert(.playlist)
        }
        return changes
    }
}

extension PlayerModel {
    /// The player as its front-ends see it now.
    public var status: PlayerStatus { status(navigation: true) }

    /// The status, with `hasNext` and `hasPrevious` worked out only when `navigation` asks for
    /// them (they walk the queue: the status line, read at every tick, shows neither).
    public func status(navigation: Bool) -> PlayerStatus {
        var status = PlayerStatus(state: context.state.id)
        status.song = context.state.song
        status.token = context.state.token
        status.entry = index
        status.name = songName ?? loadingName
        status.stoppedAtStart = isStoppedAtStart
        status.playback = PlayerStatus.Playback(context.state, stoppedAtStart: isStoppedAtStart)
        status.atEndOfList = isAtEndOfList && context.state.id != .play && !listIsComing
        if case .idle(let idle) = context.state { status.failure = idle.lastFailure.map { "\($0)" } }
        status.stream = stream
        if navigation {
            status.hasNext = hasNext
            status.hasPrevious = hasPrevious
        }
        status.seeks = hearing.seeks
        status.volume = sound.volume
        status.muted = sound.muted
        status.outputsOff = sound.outputsOff
        status.repeats = queue.repeats
        status.shuffles = queue.shuffles
        status.shufflesAlbums = queue.shuffle == .albums
        status.repeatsOne = modes.repeatsOne
        status.albumMode = modes.albumMode
        status.stopsAfter = modes.stopsAfterCurrent
        status.stopsAfterEach = modes.stopsAfterEach
        status.consumes = modes.consumes
        status.speed = sound.speed
        status.crossfade = sound.crossfade
        status.sleep = modes.sleep
        status.equalizerOn = sound.equalizerOn
        status.equalizerBands = sound.equalizerBands
        status.replayGain = sound.replayGain
        status.entryCount = entries.count
        status.edits = edits
        status.upNext = queue.upNext
        status.listIsComing = listIsComing
        return status
    }
}

/// What changed since the status last told to a front-end that waits for changes: the groups
/// the session's status shows, and those noted meanwhile where it does not show them (a list
/// saved, the library scanned, a play counted, the output).
public struct StatusChangeTracker {
    private var told: PlayerStatus?
    private var noted: StatusChanges = []

    public init() {}

    /// `groups` changed where the status does not show it: told with the next changes.
    public mutating func note(_ groups: StatusChanges) {
        noted.formUnion(groups)
    }

    /// What `event` changes that the status does not show: the output lost, found again,
    /// fallen back from, failed.
    public mutating func note(_ event: EngineEvent) {
        switch event {
        case .deviceLost, .deviceRestored, .outputFallback, .outputNotice, .outputFailed: noted.insert(.output)
        case .ended, .decodeFailed, .budgetSpent, .opened, .openFailed, .damaged, .damageSkipped, .playback, .seeked, .deviceBuffer,
             .stream, .servedPlaylist: break
        }
    }

    /// What changed up to `now` (the first time, every group the status shows), and `now` kept
    /// as the status told.
    public mutating func take(_ now: PlayerStatus) -> StatusChanges {
        let changes = (told.map { StatusChanges.between($0, now) } ?? [.player, .mixer, .options, .playlist]).union(noted)
        told = now
        noted = []
        return changes
    }
}
