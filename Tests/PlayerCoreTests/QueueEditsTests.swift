import Testing
@testable import PlayerCore

/// The list's edits and modes that MPD's clients ask for, on the model alone: the list shuffled
/// in place, priorities, an entry's part of its file, tags a client gives a stream, consume
/// mode and stopping after each song.
struct QueueEditsTests {
    private func model(_ paths: [String], keepsOpen: Bool = true) -> PlayerModel {
        PlayerModel(entries: paths.reduce(into: EntryList()) { $0.append(Entry(path: Path($1))) },
                    policy: PlayerModel.Policy(keepsOpen: keepsOpen))
    }

    /// Plays entry `entry` and says it opened; what that did.
    @discardableResult
    private func playing(_ model: inout PlayerModel, _ entry: Int) -> [PlayerModel.Effect] {
        _ = model.handle(.command(.playEntry(entry)))
        return model.handle(.event(.opened(song(model.entries[entry].path), token: model.state.token ?? -1)))
    }

    /// The sources the engine was told to open.
    private func opened(_ effects: [PlayerModel.Effect]) -> [SongSource] {
        effects.compactMap { effect in
            if case .engine(.open(let source, _)) = effect { source } else { nil }
        }
    }

    private func song(_ path: Path) -> SongInfo {
        SongInfo(path: path, sampleRate: 44100, channels: 2, totalFrames: 441_000, title: nil)
    }

    private func ended(_ model: inout PlayerModel) -> [PlayerModel.Effect] {
        model.handle(.event(.ended(token: model.state.token ?? -1)))
    }

    @Test func aShuffleMovesTheSongPlayingFirstAndKeepsEveryEntrysID() {
        var model = model((0..<20).map { "\($0).mp3" })
        playing(&model, 7)
        _ = model.handle(.command(.queueEntry(12)))
        let before = Dictionary(uniqueKeysWithValues: zip(model.marks.ids, model.entries.map(\.path)))
        let version = model.listVersion
        _ = model.handle(.command(.shuffleEntries(5..<20)))
        #expect(model.index == 5 && model.entries[5].path == "7.mp3" && model.state.id == .play, "it plays on, first in the range")
        #expect(model.entries.prefix(5).map(\.path) == ["0.mp3", "1.mp3", "2.mp3", "3.mp3", "4.mp3"], "outside the range as it was")
        #expect(Dictionary(uniqueKeysWithValues: zip(model.marks.ids, model.entries.map(\.path))) == before)
        #expect(model.entries.map(\.path) != (0..<20).map { Path("\($0).mp3") })
        #expect(model.listVersion == version + 1 && model.marks.changed(since: version) == Array(5..<20))
        // The one queued is still queued, wherever it went.
        let queued = try? #require(model.entries.firstIndex { $0.path == "12.mp3" })
        #expect(model.status.upNext == [queued].compactMap { $0 })
        _ = model.handle(.command(.next))
        #expect(model.entries[model.index ?? -1].path == "12.mp3")
    }

    @Test func withShuffleOnTheHigherPriorityPlaysFirst() {
        var model = model((0..<30).map { "\($0).mp3" })
        _ = model.handle(.command(.setShuffle(true)))
        playing(&model, 0)
        _ = model.handle(.command(.setPriority(9, entries: 20..<21)))
        _ = model.handle(.command(.setPriority(200, entries: 25..<26)))
        #expect(model.marks.priorities[25] == 200 && model.marks.priorities[20] == 9)
        #expect(model.nextEntry == 25)
        _ = model.handle(.command(.next))
        #expect(model.index == 25 && model.nextEntry == 20)
        _ = model.handle(.command(.next))
        // Played this round, 25 lowered is not played again; raised, it is (MPD's rule).
        _ = model.handle(.command(.setPriority(100, entries: 25..<26)))
        #expect(model.nextEntry != 25)
        _ = model.handle(.command(.setPriority(250, entries: 25..<26)))
        #expect(model.nextEntry == 25)
    }

    /// Priorities given in list order count once shuffle is on, and songs added while shuffled
    /// go among those still to play, after the prioritized ones.
    @Test func prioritiesOrderTheShuffleTurnedOnAndWhatIsAddedMeanwhile() {
        var model = model((0..<30).map { "\($0).mp3" })
        playing(&model, 0)
        _ = model.handle(.command(.setPriority(50, entries: 17..<18)))
        #expect(model.nextEntry == 1 && model.marks.prioritized == 1, "in list order the list plays as it stands")
        _ = model.handle(.command(.setShuffle(true)))
        #expect(model.nextEntry == 17)
        _ = model.handle(.append(EntryList(paths: (0..<40).map { Path("new\($0).mp3") })))
        #expect(model.nextEntry == 17)
        _ = model.handle(.command(.removeEntry(17)))
        #expect(model.marks.prioritized == 0)
    }

    @Test func aSpanPlaysFromTheNextOpeningAndNeverUnderTheSongPlaying() {
        var model = model(["a.flac", "b.flac"])
        playing(&model, 0)
        _ = model.handle(.command(.setSpan(0, TrackSpan(start: 75))))
        #expect(model.entries[0].span == nil, "not the song playing")
        _ = model.handle(.command(.setSpan(1, TrackSpan(start: 75, end: 150))))
        #expect(model.entries[1].span == TrackSpan(start: 75, end: 150))
        #expect(opened(model.handle(.command(.next))) == [SongSource("b.flac", span: TrackSpan(start: 75, end: 150))])
        // The song stopped in: opened again with its new span, ready to play.
        _ = model.handle(.event(.opened(song("b.flac"), token: model.state.token ?? -1)))
        _ = model.handle(.command(.rewind))
        #expect(opened(model.handle(.command(.setSpan(1, TrackSpan(start: 150))))) == [SongSource("b.flac", span: TrackSpan(start: 150))])
        #expect(model.state.id != .play)
    }

    @Test func aClientsTagsGoWithTheirEntry() {
        var model = model(["http://radio/x", "a.mp3"])
        _ = model.handle(.command(.tagEntry(0, name: "Artist", value: "Radio")))
        _ = model.handle(.command(.tagEntry(0, name: "Title", value: "Song")))
        let id = model.marks.ids[0]
        #expect(model.marks.addedTags[id] == [EntryTag(name: "Artist", value: "Radio"), EntryTag(name: "Title", value: "Song")])
        _ = model.handle(.command(.moveEntry(0, by: 1)))
        _ = model.handle(.command(.tagEntry(1, name: "Artist", value: nil)))
        #expect(model.marks.addedTags[id] == [EntryTag(name: "Title", value: "Song")])
        _ = model.handle(.command(.removeEntry(1)))
        #expect(model.marks.addedTags.isEmpty)
    }

    @Test func consumeTakesEachSongOutOnceItHasPlayed() {
        var model = model(["a.mp3", "b.mp3", "c.mp3"])
        _ = model.handle(.command(.setConsume(true)))
        playing(&model, 0)
        _ = model.handle(.command(.next))
        #expect(model.entries.map(\.path) == ["b.mp3", "c.mp3"] && model.index == 0)
        _ = model.handle(.event(.opened(song("b.mp3"), token: model.state.token ?? -1)))
        _ = ended(&model)
        #expect(model.entries.map(\.path) == ["c.mp3"] && model.index == 0)
        _ = model.handle(.event(.opened(song("c.mp3"), token: model.state.token ?? -1)))
        // The last one played: the list is empty and waits, stopped.
        _ = ended(&model)
        #expect(model.entries.isEmpty && model.status.playback == .stopped && !model.isFinished)
        #expect(model.status.consumes)
    }

    @Test func stopAfterEachStopsAtEverySongsEndAndStaysOn() {
        var model = model(["a.mp3", "b.mp3", "c.mp3"])
        _ = model.handle(.command(.setStopAfterEach(true)))
        let cued = playing(&model, 0).compactMap { effect -> SongSource?? in if case .engine(.cue(let next)) = effect { next } else { nil } }
        #expect(cued == [nil], "nothing cued to follow")
        _ = ended(&model)
        _ = model.handle(.event(.opened(song("b.mp3"), token: model.state.token ?? -1)))
        #expect(model.index == 1 && model.state.id != .play && model.status.stopsAfterEach, "stopped, the next ready")
        _ = model.handle(.command(.play))
        _ = ended(&model)
        _ = model.handle(.event(.opened(song("c.mp3"), token: model.state.token ?? -1)))
        #expect(model.index == 2 && model.state.id != .play, "and again")
        // The last song's end: the list's end, the mode still on (it asked itself again, forever).
        _ = model.handle(.command(.play))
        _ = ended(&model)
        #expect(model.isAtEndOfList && model.index == 2 && model.status.stopsAfterEach && !model.isFinished)
    }

    @Test func theModesAndPrioritiesAreKeptInTheSavedSession() throws {
        var saved = SavedSession(entries: EntryList(paths: ["a.mp3", "b.mp3", "c.mp3"]), current: 0, position: .zero)
        saved.consumes = true
        saved.stopsAfterEach = true
        saved.priorities = [2: 200, 0: 1]
        let read = try SavedSession.decode(saved.encoded()).get()
        #expect(read.consumes && read.stopsAfterEach && read.priorities == [2: 200, 0: 1] && read == saved)
        // A priority out of range, or on no entry, is said and left out.
        let text = "tplayer saved session 1\nprio 3\nentry a.mp3\nprio 300\nentry b.mp3\nprio 7\nend\n"
        let noted = try SavedSession.decodeNoting(Array(text.utf8)).get()
        #expect(noted.session.priorities == [1: 7] && noted.notes.count == 2, "\(noted.notes)")
        // Resumed, the list's entries have them again.
        var model = model(["a.mp3", "b.mp3", "c.mp3"])
        _ = model.handle(.resume(read))
        #expect(model.marks.priorities == [1, 0, 200])
    }
}
