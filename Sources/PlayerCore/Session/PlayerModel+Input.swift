/// What goes into the model and what comes out: every input is handed to `handle`, which
/// returns the effects to make, in order.
extension PlayerModel {
    /// Something that happened: a command, the engine's report, an answer to an effect.
    public enum Input {
        /// Open and play the first entry that can be played.
        case start
        /// Start where a saved session left off: its song at its position, with its volume.
        case resume(SavedSession)
        case command(Command)
        case event(EngineEvent)
        /// Play what a path names now (as `load`), its asker `answered` with `.answerLoad` when
        /// it is known (MPRIS's `OpenUri`).
        case load(Path, answered: Bool)
        /// What `.expand` asked for: the entries a path names, and its problems.
        case expanded(EntryList, problems: [String], for: Expansion)
        /// What `.readAlbum` asked for: the album a song is on (`nil`: none, or unreadable).
        case album(String?, of: SongSource)
        /// What `.readAlbums` asked for: the albums of those songs, at those entries when asked.
        case albums([AlbumTrack], of: [SongSource], entries: [Int])
        /// What `.playlist` asked for is done: an opened playlist's songs, which become the list.
        case playlistDone([Path]?)
        /// What the engine says is heard now (its position, with the input): the listen
        /// followed, the damage passed said.
        case observe
        /// List edits from a front-end (`PlayerModel+Edits`).
        case insert(EntryList, at: Int)
        case replaceList(EntryList)
        case append(EntryList)
        case arrive(EntryList, isLast: Bool)
        case playNow(EntryList, asked: Bool)
        case setReplayGain(ReplayGainSetting)
    }

    /// What the model asks to be done, in the order it asks.
    public enum Effect {
        case engine(EngineCall)
        /// One line about an input: `"<input>: <what went wrong>"`.
        case report(String)
        /// A transition of the state machine (for `--trace`).
        case transition(PlayerContext.Step)
        /// A song heard long enough to count as played, or skipped before.
        case listened(Listen)
        /// Save the list as a playlist at the path.
        case saveList(Path, EntryList)
        /// Do what is asked of the named playlists, with the list and the song playing; an
        /// opened playlist's songs come back as `.replaceWithSongs`.
        case playlist(PlaylistRequest, EntryList, playing: Path?)
        /// Turn a path into entries, off the main loop if need be; the answer is `.expanded`.
        case expand(Path, Expansion)
        /// Read the album a song is on, off the main loop; the answer is `.album`.
        case readAlbum(SongSource)
        /// Read the albums of the songs at these entries (shuffle by album, the album keys), off
        /// the main loop; the answer is `.albums`.
        case readAlbums([Int], [SongSource])
        /// Answer the oldest asker of `.load(_, answered: true)` not yet answered.
        case answerLoad(LoadAnswer)
    }

    /// What a path is expanded for.
    public enum Expansion: Equatable, Sendable {
        /// The load numbered so: only the newest plays.
        case load(Int)
        /// Entries to put into the list at this index.
        case add(at: Int)
    }

    /// What the engine says as an input is handed in: where the song playing is, and why it
    /// cannot play at another speed (asked only for another speed: that loads librubberband).
    public struct EngineReading {
        public var position: Int64
        public var speedRefusal: () -> String?
        /// When the input is handled (the sleep timer's clock).
        public var now: ContinuousClock.Instant

        public init(position: Int64 = 0, now: ContinuousClock.Instant = .now, speedRefusal: @escaping () -> String? = { nil }) {
            self.position = position
            self.now = now
            self.speedRefusal = speedRefusal
        }
    }

    /// The input being handled: the engine's reading with it, and the effects asked for so far.
    struct Turn {
        var engine = EngineReading()
        var effects: [Effect] = []
        /// The list's edit count before the input: however many changes the input makes, the
        /// list is one edit further after it (MPD's one version a command).
        var editsBefore = 0

        var position: Int64 { engine.position }
    }

    /// Hands `input` to the model, the engine reading `engine`; returns the effects to make.
    public mutating func handle(_ input: consuming Input, engine: EngineReading = EngineReading()) -> [Effect] {
        turn = Turn(engine: engine, editsBefore: edits)
        switch consume input {
        case .start: start()
        case .resume(let saved): resume(saved)
        case .command(let command): perform(command)
        case .event(let event): handle(event)
        case .load(let path, let answered): load(path, answered: answered)
        case .expanded(let entries, let problems, .load(let load)): loaded(entries, problems: problems, load: load)
        case .expanded(let entries, _, .add(let at)):
            if !isFinished { insert(entries, at: min(max(at, 0), self.entries.count)) }
        case .album(let album, let source): learn(album, of: source)
        case .albums(let tracks, let sources, let asked): learnAlbums(tracks, of: sources, entries: asked)
        case .playlistDone(let songs):
            modes.playlistAsked = false
            if let songs, !songs.isEmpty, !isFinished { perform(.replaceWithSongs(songs)) }
        case .observe: observeHeard()
        case .insert(let added, let at): insert(added, at: at)
        case .replaceList(let replacement): replaceList(replacement)
        case .append(let added): append(added)
        case .arrive(let added, let isLast): arrive(added, isLast: isLast)
        case .playNow(let added, let asked): playNow(added, asked: asked)
        case .setReplayGain(let setting):
            sound.replayGain = setting
            applyReplayGain()
        }
        readAlbumsIfWanted()
        defer { turn = Turn() }
        return turn.effects
    }

    /// Asks for `effect`, after those asked for before it.
    mutating func emit(_ effect: Effect) {
        turn.effects.append(effect)
    }
}
