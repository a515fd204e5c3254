/// MPRIS's methods and property writes as the bus delivers them, their arguments read.
public enum MprisRequest: Equatable, Sendable {
    case raise, quit, next, previous, pause, play, playPause, stop
    /// `Seek(Offset)`, microseconds.
    case seek(offset: Int64)
    /// `SetPosition(TrackId, Position)`.
    case setPosition(track: String, microseconds: Int64)
    case openUri(String)
    /// Writes of the player's writable properties.
    case setLoopStatus(String)
    case setShuffle(Bool)
    case setVolume(Double)
    case setRate(Double)
}

/// Why a request is refused, answered as a D-Bus error.
public enum MprisRefusal: Error, Equatable, Sendable {
    /// Arguments that cannot be counted (`EINVAL`).
    case invalid
    /// `org.freedesktop.DBus.Error.InvalidArgs` with a message for the caller.
    case invalidArguments(String)
    /// `org.freedesktop.DBus.Error.Failed` with a message for the caller.
    case failed(String)
}

/// What each MPRIS request means for the player, as commands for the one door (`Controls`): a
/// pure translation, so the mapping is tested without a bus. The server reads the arguments off
/// the bus and submits what this returns.
public enum MprisMapping {
    /// The object path that names the list's entry `entry` (`mpris:trackid`): one per entry,
    /// however often it is played or opened again.
    public static func trackPath(_ entry: Int) -> String { "/org/tplayer/track/\(entry)" }

    /// The commands `request` means for `session` as it is now.
    public static func commands(for request: MprisRequest, in session: Session) -> Result<[Command], MprisRefusal> {
        let state = session.state
        switch request {
        case .raise: return .success([])
        case .quit: return .success([.quit])
        // The spec: with CanGoNext (CanGoPrevious) false, Next (Previous) does nothing.
        case .next: return .success(session.hasNext ? [.next] : [])
        case .previous: return .success(session.hasPrevious ? [.previous] : [])
        // Pause never starts playing, and the spec's Rate 0 is a pause.
        case .pause, .setRate(0): return .success(state.isPlaying ? [.stop] : [])
        // Another rate is a speed at the song's own pitch, within MinimumRate and MaximumRate.
        case .setRate(let rate):
            guard rate.isFinite, rate > 0 else { return .failure(.invalid) }
            return .success([.speed(rate)])
        case .play: return .success([.play])
        case .playPause: return .success([.toggle])
        // MPRIS's Stop leaves the song Stopped at its start (a later Play plays it from
        // there), where tplayer's own stop keeps the place and is a pause.
        case .stop: return .success([.rewind])
        case .seek(let offset):
            guard let target = MprisTime.seek(offset: offset) else { return .failure(.invalid) }
            return .success([.seek(target)])
        case .setPosition(let track, let microseconds):
            // The spec: ignored unless it is about the song playing, and within it.
            guard let entry = session.index, let song = state.song, track == trackPath(entry),
                  let target = MprisTime.setPosition(microseconds, in: song) else { return .success([]) }
            return .success([.seek(target)])
        case .openUri(let uri):
            // An internet stream, checked as a stream named anywhere else is (`StreamURL`).
            if let stream = StreamURL(Path(uri)) { return .success([.load(Path(stream.text))]) }
            guard case .success(let path) = FileURL.path(uri) else {
                return .failure(.invalidArguments("tplayer opens file:// URIs of this machine, and http:// and https:// streams"))
            }
            return .success([.load(path)])
        case .setLoopStatus(let status):
            switch status {
            case "None": return .success([.setRepeatOne(false), .setRepeat(false)])
            case "Playlist": return .success([.setRepeatOne(false), .setRepeat(true)])
            case "Track": return .success([.setRepeatOne(true)])
            default: return .failure(.invalidArguments("LoopStatus is None, Track or Playlist"))
            }
        case .setShuffle(let on): return .success([.setShuffle(on)])
        case .setVolume(let volume):
            guard volume.isFinite else { return .failure(.invalid) }
            let percent = Int((min(max(volume, 0), 1) * 100).rounded())
            return .success(session.sound.muted ? [.volume(percent), .setMute(false)] : [.volume(percent)])
        }
    }

    /// How `OpenUri` is answered once its load is known: nothing (success), or the error.
    public static func refusal(for answer: Session.LoadAnswer) -> MprisRefusal? {
        switch answer {
        case .playing: nil
        case .refused(let problems):
            .invalidArguments("nothing to play, nothing added: " + (problems.isEmpty ? "no songs in it" : problems.joined(separator: "; ")))
        case .overtaken: .failed("a newer load (or quitting) came first; nothing added")
        }
    }
}

/// What MPRIS's player properties say about the session: computed without a bus, compared
/// after each turn of the loop to announce the ones that changed.
public struct MprisProperties: Equatable, Sendable {
    public var playbackStatus: String
    public var loopStatus: String
    public var shuffle: Bool
    public var volume: Double
    /// `Rate`: the speed the songs play at (`--speed`, `[` `]`).
    public var rate: Double
    /// The song's entry in the list (its `mpris:trackid`), `nil` with none.
    public var track: Int?
    public var title: String?
    public var canGoNext: Bool
    public var canGoPrevious: Bool
    public var canPlay: Bool
    public var canPause: Bool
    public var canSeek: Bool

    /// What the player's status says, as MPRIS names it.
    public init(_ status: PlayerStatus) {
        let hasSong = status.song != nil
        playbackStatus = switch status.playback {
        case .playing: "Playing"
        case .paused: "Paused"
        case .stopped: "Stopped"
        }
        loopStatus = status.repeatsOne ? "Track" : status.repeats ? "Playlist" : "None"
        shuffle = status.shuffles
        volume = status.muted ? 0 : Double(status.volume) / 100
        rate = status.speed
        track = hasSong ? status.entry : nil
        title = hasSong ? status.name : nil
        canGoNext = status.hasNext
        canGoPrevious = status.hasPrevious
        canPlay = status.entryCount > 0
        canPause = hasSong
        canSeek = hasSong
    }

    /// The names of the properties that differ from `before`, for `PropertiesChanged`.
    public func changed(since before: MprisProperties) -> [String] {
        var names: [String] = []
        if before.playbackStatus != playbackStatus { names.append("PlaybackStatus") }
        if before.loopStatus != loopStatus { names.append("LoopStatus") }
        if before.shuffle != shuffle { names.append("Shuffle") }
        if before.volume != volume { names.append("Volume") }
        if before.rate != rate { names.append("Rate") }
        if before.track != track || before.title != title { names.append("Metadata") }
        if before.canGoNext != canGoNext { names.append("CanGoNext") }
        if before.canGoPrevious != canGoPrevious { names.append("CanGoPrevious") }
        if before.canPlay != canPlay { names.append("CanPlay") }
        if before.canPause != canPause { names.append("CanPause") }
        if before.canSeek != canSeek { names.append("CanSeek") }
        return names
    }
}

/// The `Metadata` property: the song's fields, as the server writes them into an `a{sv}`.
public struct MprisMetadata: Equatable, Sendable {
    /// `mpris:trackid`: the song's object path, or the spec's NoTrack.
    public var trackID: String
    /// `mpris:length` in microseconds, when the song's length is known.
    public var length: Int64?
    public var title: String?
    public var artist: String?
    public var album: String?
    /// `xesam:url`: a `file://` URL of the song's absolute path.
    public var url: String?
    /// `xesam:asText`: the song's lyrics, a line each.
    public var lyrics: String?
    /// `xesam:trackNumber`: the track's number (`3/12` is 3).
    public var trackNumber: Int?
    /// `xesam:contentCreated`: the song's date as ISO 8601 has it (`1995`, `1995-03`,
    /// `1995-03-13`), from its tags.
    public var contentCreated: String?

    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// The playing song's metadata; relative paths are made absolute against `folder`.
    public init(_ session: Session, folder: Path) {
        guard let song = session.state.song, let entry = session.index else {
            trackID = Self.noTrack
            return
        }
        trackID = MprisMapping.trackPath(entry)
        length = song.totalFrames.map { MprisTime.microseconds(frames: $0, rate: song.sampleRate) }
        title = Self.nonEmpty(song.title) ?? session.songName.map(UntrustedText.flattened) ?? UntrustedText.flattened(song.fileName)
        artist = Self.nonEmpty(song.artist)
        album = Self.nonEmpty(song.album)
        // A stream's URL as it was named; a file's as a file:// URL.
        url = UntrustedText.flattened(song.isStream ? "\(song.path)" : FileURL.string(for: song.path.resolved(against: folder)))
        lyrics = song.lyrics.map(\.parsed.text).flatMap { $0.isEmpty ? nil : $0 }
        let tags = session.index.flatMap { session.entries[$0].sheetTags }.map(song.tags.overridden(by:)) ?? song.tags
        trackNumber = SongInfo.Tags.leadingNumber(tags.track)
        contentCreated = tags.year.flatMap(Self.isoDate)
    }

    /// A tagged date as ISO 8601: `1995`, `1995-03` and `1995-03-13` as they are; a longer one
    /// (`1995-03-13T10:00`) to its day; else its year when it starts with one (`1995/03/13`).
    static func isoDate(_ text: String) -> String? {
        let bytes = Array(text.utf8.prefix(10))
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= bytes.count && bytes[range].allSatisfy { (48...57).contains($0) } }
        guard digits(0..<4) else { return nil }
        if bytes.count >= 10, bytes[4] == 45, digits(5..<7), bytes[7] == 45, digits(8..<10) { return String(decoding: bytes, as: UTF8.self) }
        if bytes.count == 7, bytes[4] == 45, digits(5..<7) { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[0..<4], as: UTF8.self)
    }

    /// A tag as MPRIS sends it: through the sanitiser (a client shows it in a terminal, a
    /// panel, a notification), and none when it is blank.
    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return UntrustedText.flattened(text)
    }
}
