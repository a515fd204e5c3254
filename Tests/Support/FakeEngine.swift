import PlayerCore

/// A `PlaybackEngine` that records what it is asked and opens only the paths it is told are
/// good. Like the real one, it answers an open later, with an event: `settle` hands those to
/// the session.
public final class FakeEngine: PlaybackEngine {
    public var calls: [String] = []
    public var position: Int64 = 0
    /// Why it cannot play at another speed (librubberband missing), when it cannot.
    public var speedRefusal: String?
    /// Paths that open; anything else fails with "no such file".
    public var goodPaths: Set<Path>
    /// Script pacing as asked: `nil` unlimited, else the audio time left to play.
    public var budget: AudioTime?
    public var grantID = 0
    /// Reports not yet handed over (the answers to opens).
    public var pending: [EngineEvent] = []
    /// The song open, for relative and percentage seeks.
    public var current: SongInfo?
    /// The song cued to follow (the last `cue` call).
    public var cued: Path?
    /// The ReplayGain choices it was given, in order.
    public var replayGains: [ReplayGainChoice] = []
    /// Whether the songs it opens have a title tag (their path).
    public var tagged = true
    /// The album tag of the songs it opens, by path (none unless a test says).
    public var albums: [Path: String] = [:]
    /// Every source opened, spans and all.
    public var opened: [SongSource] = []
    /// Paths that turn out to be playlists served over http, and what each holds.
    public var servedPlaylists: [Path: ServedPlaylist] = [:]

    public init(goodPaths: Set<Path> = ["a.mp3", "b.mp3", "c.mp3"]) {
        self.goodPaths = goodPaths
    }

    public func perform(_ call: EngineCall) {
        switch call {
        case .stop: calls.append("stop")
        case .skip: calls.append("skip")
        case .play: calls.append("play")
        case .open(let source, let token):
            let path = source.path
            calls.append("open \(path)")
            opened.append(source)
            if let served = servedPlaylists[path] {
                pending.append(.servedPlaylist(served, path: path, token: token))
                return
            }
            guard goodPaths.contains(path) else {
                pending.append(.openFailed(LoadError(path: path, reason: .missing), token: token))
                return
            }
            position = 0
            let song = SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 441000, title: tagged ? "\(path)" : nil,
                                album: albums[path])
            current = song
            pending.append(.opened(song, token: token))
        case .seek(let target):
            let frame = current.map { target.frame(in: $0, from: position) } ?? 0
            calls.append("seek \(frame)")
            position = frame
        case .setVolume(let fraction): calls.append("volume \(fraction)")
        case .setPitch(let value): calls.append("pitch \(value)")
        case .setOutputEnabled(let index, let on): calls.append("output \(index) \(on)")
        case .setSpeed(let value): calls.append("speed \(value)")
        case .setReplayGain(let choice): replayGains.append(choice)
        case .setEqualizer(let bands): calls.append("equalizer \(bands.flatMap { $0 }.filter { $0 != 1 })")
        case .setGraphicEqualizer(let gains): calls.append("graphic equalizer \(gains.map { "\($0)" } ?? "off")")
        case .setCrossfade(let setting): calls.append("crossfade \(setting.seconds) skip \(setting.skipSeconds)")
        case .cue(let source): cued = source?.path
        case .limitPlayback(let limited):
            calls.append("limit \(limited)")
            budget = limited ? .zero : nil
        case .grant(let time, let id):
            calls.append("grant \(time.frames(rate: 44100))")
            budget = time
            grantID = id
        case .revokeGrant:
            budget = budget == nil ? nil : .zero
        }
    }

    public var grantLeft: AudioTime { budget ?? .zero }

    /// Hands every pending report to `handle` (which may make more), until there are none.
    public func settle(_ handle: (EngineEvent) -> Void) {
        while !pending.isEmpty {
            handle(pending.removeFirst())
        }
    }
}

extension Session {
    /// The token of the song opening or open (-1 with none).
    public var token: Int { model.state.token ?? -1 }

    /// The engine is at `time` of the song playing (44.1 kHz, as it opens every song), and the
    /// session observes what is heard there.
    public func hears(at time: AudioTime) {
        (engine as? FakeEngine)?.position = time.frames(rate: 44100)
        observeHeard()
    }

    /// Hands the engine's answers to this session, as the main loop does between commands.
    public func settle() {
        (engine as? FakeEngine)?.settle(handle)
    }
}

extension ScriptRunner {
    /// Hands the engine's answers to the runner (which passes them on to the session).
    public func settle() {
        (session.engine as? FakeEngine)?.settle(handle)
    }
}
