/// Plays a list of entries: the command loop's brain, as the front-ends hold it.
///
/// The player itself is `model`, a value that takes each input and returns effects; the session
/// hands it the commands and the engine's reports with what the engine says (where the song is)
/// and makes the effects: the engine calls on the one engine, each line to `Seams.report`, and
/// the reads (a path's entries, an album) through the seams, whose answers go back to the model
/// as inputs. An answer that comes while effects are being made waits for them: the effects of
/// one input are made in order, whole, before the next input is handled. The model's state reads
/// straight through (`session.entries`, `session.state`, ...).
@dynamicMemberLookup
public final class Session {
    public private(set) var model: PlayerModel
    public let engine: any PlaybackEngine
    /// Where its problems go, and the work it does not do itself, fixed when it is made.
    let seams: Seams
    /// The inputs waiting while effects are made.
    private var inbox: [PlayerModel.Input] = []
    private var handling = false
    /// The askers of `load(_:answer:)` not yet answered, oldest first.
    private var loadAskers: [(LoadAnswer) -> Void] = []

    public typealias Policy = PlayerModel.Policy
    public typealias LoadAnswer = PlayerModel.LoadAnswer

    public init(engine: any PlaybackEngine, entries: EntryList, queue: PlayQueue? = nil, policy: Policy = Policy(), seams: Seams) {
        self.engine = engine
        self.seams = seams
        model = PlayerModel(entries: entries, queue: queue, policy: policy)
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<PlayerModel, Value>) -> Value {
        model[keyPath: keyPath]
    }

    /// Hands `input` to the model and makes its effects (after those of the input being
    /// handled, if any).
    func send(_ input: consuming PlayerModel.Input) {
        inbox.append(input)
        guard !handling else { return }
        handling = true
        defer { handling = false }
        while !inbox.isEmpty {
            let next = inbox.removeFirst()
            let reading = PlayerModel.EngineReading(position: engine.position) { [engine] in engine.speedRefusal }
            // The engine calls made together are handed over together (a skip's stop and open).
            var calls: [EngineCall] = []
            for effect in model.handle(next, engine: reading) {
                if case .engine(let call) = effect {
                    calls.append(call)
                    continue
                }
                if !calls.isEmpty { engine.perform(calls) }
                calls = []
                make(effect)
            }
            if !calls.isEmpty { engine.perform(calls) }
        }
    }

    private func make(_ effect: PlayerModel.Effect) {
        switch effect {
        case .engine(let call): engine.perform(call)
        case .report(let line): seams.report(line)
        case .transition(let step): seams.onTransition?(step)
        case .listened(let listen): seams.listened(listen)
        case .saveList(let path, let entries): seams.saveList(path, entries)
        case .playlist(let request, let entries, let playing):
            seams.playlists(request, entries, playing) { [weak self] songs in self?.send(.playlistDone(songs)) }
        case .expand(let path, let purpose):
            seams.expand(path) { [weak self] entries, problems in
                self?.send(.expanded(entries, problems: problems, for: purpose))
            }
        case .readAlbum(let source):
            seams.albums([source], .next) { [weak self] tracks in self?.send(.album(tracks.first?.album, of: source)) }
        case .readAlbums(let asked, let sources):
            seams.albums(sources, .all) { [weak self] tracks in self?.send(.albums(tracks, of: sources, entries: asked)) }
        case .answerLoad(let answer):
            guard !loadAskers.isEmpty else { return }
            loadAskers.removeFirst()(answer)
        }
    }

    /// Opens and plays the first entry that can be played.
    public func start() { send(.start) }

    /// Starts where `saved` left off: its song at its position, with its volume (the list and
    /// the modes are the session's own, made from it).
    public func resume(_ saved: SavedSession) { send(.resume(saved)) }

    public func perform(_ command: Command) { send(.command(command)) }

    public func handle(_ event: EngineEvent) { send(.event(event)) }

    /// Plays what `path` names now, as `load` does, and answers `answer` once it is known: its
    /// first song plays, nothing in it can be played (nothing is added), or a newer load (or
    /// quitting) came first. For a front-end that must answer its caller (MPRIS's `OpenUri`).
    public func load(_ path: Path, answer: @escaping (LoadAnswer) -> Void) {
        loadAskers.append(answer)
        send(.load(path, answered: true))
    }

    /// What the engine says is heard now: the listen followed, the damage passed said.
    public func observeHeard() { send(.observe) }

    /// `--replaygain`: what the engine applies to the songs it opens (auto follows shuffle),
    /// applied as soon as it is set.
    public var replayGain: ReplayGainSetting {
        get { model.replayGain }
        set { send(.setReplayGain(newValue)) }
    }

    /// Where the run is now, to pick up from next time (`--resume`).
    public var saved: SavedSession { model.saved(atFrame: engine.position) }

    /// A script holds the run open while it runs (`true`), and lets go when it is over.
    public func holdOpen(_ held: Bool) { model.holdOpen(held) }

    /// Skips `entries` in this run without a word and without failing it (saved songs that
    /// are not there: said once before the run); they stay in the list.
    public func setAside(_ entries: [Int]) { model.setAside(entries) }

    /// The shuffles from now on follow `seed`: the same seed, the same order.
    public func seedShuffles(_ seed: UInt64) { model.seedShuffles(seed) }

    /// Says that more of the list is being read and will `arrive`.
    public func expectMore() { model.expectMore() }

    /// Puts `added` into the list at entry `at`, to play where they stand.
    public func insert(_ added: consuming EntryList, at: Int) { send(.insert(added, at: at)) }

    /// Makes `replacement` the list and plays its first song (the library view's `P`).
    public func replaceList(_ replacement: consuming EntryList) { send(.replaceList(replacement)) }

    /// Adds entries at the end of the list (in shuffle mode, at random places still to come).
    public func append(_ added: consuming EntryList) { send(.append(added)) }

    /// More of the list, read since it started playing, goes at its end (`isLast`: the list
    /// is all there).
    public func arrive(_ added: consuming EntryList, isLast: Bool) { send(.arrive(added, isLast: isLast)) }

    /// Adds entries and plays them now; the list goes on after them from where it was.
    public func playNow(_ added: consuming EntryList, asked: Bool = false) { send(.playNow(added, asked: asked)) }
}

extension Session {
    /// The player as its front-ends see it now.
    public var status: PlayerStatus { model.status }

    /// The status, with `hasNext` and `hasPrevious` worked out only when `navigation` asks for
    /// them (`PlayerModel.status(navigation:)`).
    public func status(navigation: Bool) -> PlayerStatus { model.status(navigation: navigation) }
}
