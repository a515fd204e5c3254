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
}

/// What each MPRIS request means for the player, as commands for the one door (`Controls`): a
/// pure translation, so the mapping is tested without a bus. The server reads the arguments off
/// the bus and submits what this returns.
public enum MprisMapping {
    /// The object path that names the song with `token` (`mpris:trackid`).
    public static func trackPath(_ token: Int) -> String { "/org/tplayer/track/\(token)" }

    /// The commands `request` means while the player is in `state` (`muted` or not).
    public static func commands(for request: MprisRequest, state: PlayerState, muted: Bool) -> Result<[Command], MprisRefusal> {
        switch request {
        case .raise: return .success([])
        case .quit: return .success([.quit])
        case .next: return .success([.next])
        case .previous: return .success([.previous])
        // Pause never starts playing, and the spec's Rate 0 is a pause.
        case .pause, .setRate(0): return .success(state.isPlaying ? [.stop] : [])
        case .setRate: return .success([])
        case .play: return .success([.play])
        case .playPause: return .success([.toggle])
        // MPRIS's Stop goes back to the start, as its spec says, where tplayer's stop keeps
        // the place: a stop, then a seek to the start.
        case .stop: return .success([.stop, .seek(.to(.zero))])
        case .seek(let offset):
            guard let target = MprisTime.seek(offset: offset) else { return .failure(.invalid) }
            return .success([.seek(target)])
        case .setPosition(let track, let microseconds):
            // The spec: ignored unless it is about the song playing, and within it.
            guard let token = state.token, let song = state.song, track == trackPath(token),
                  let target = MprisTime.setPosition(microseconds, in: song) else { return .success([]) }
            return .success([.seek(target)])
        case .openUri(let uri):
            guard case .success(let path) = FileURL.path(uri) else {
                return .failure(.invalidArguments("tplayer opens file:// URIs of this machine only"))
            }
            return .success([.load(path)])
        case .setLoopStatus(let status):
            switch status {
            case "None": return .success([.setRepeat(false)])
            // tplayer repeats the list; a single song repeats as a list of one.
            case "Playlist", "Track": return .success([.setRepeat(true)])
            default: return .failure(.invalidArguments("LoopStatus is None, Track or Playlist"))
            }
        case .setShuffle(let on): return .success([.setShuffle(on)])
        case .setVolume(let volume):
            guard volume.isFinite else { return .failure(.invalid) }
            let percent = Int((min(max(volume, 0), 1) * 100).rounded())
            return .success(muted ? [.volume(percent), .setMute(false)] : [.volume(percent)])
        }
    }
}

