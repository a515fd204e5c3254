import Testing
@testable import PlayerCore

/// What MPD's clients know the list by: each entry's id, kept while it moves, and the version at
/// which it last changed (`plchanges`), one version an input, as MPD's queue keeps them.
struct MpdQueueMarksTests {
    private func model(_ paths: [String]) -> PlayerModel {
        PlayerModel(entries: paths.reduce(into: EntryList()) { $0.append(Entry(path: Path($1))) })
    }

    @Test func idsStayWithTheirEntriesThroughEveryEdit() {
        var model = model(["a", "b", "c"])
        #expect(model.marks.ids == [1, 2, 3] && model.listVersion == 1)
        _ = model.handle(.insert(EntryList(paths: ["x", "y"]), at: 1))
        #expect(model.marks.ids == [1, 4, 5, 2, 3] && model.listVersion == 2)
        // Moved two places down in one command: one version more, not two.
        _ = model.handle(.command(.moveEntry(0, by: 2)))
        #expect(model.entries.map(\.path) == ["x", "y", "a", "b", "c"] && model.marks.ids == [4, 5, 1, 2, 3])
        #expect(model.listVersion == 3)
        _ = model.handle(.command(.removeEntry(1)))
        #expect(model.marks.ids == [4, 1, 2, 3] && model.listVersion == 4)
        _ = model.handle(.append(EntryList(paths: ["z"])))
        #expect(model.marks.ids == [4, 1, 2, 3, 6])
        #expect(model.marks.position(of: 6) == 4 && model.marks.position(of: 5) == nil)
        _ = model.handle(.command(.clearList))
        #expect(model.entries.isEmpty && model.marks.ids.isEmpty && model.status.entryCount == 0)
        _ = model.handle(.append(EntryList(paths: ["again"])))
        #expect(model.marks.ids == [7], "an id is never used again")
        #expect(model.marks.count == model.entries.count)
    }

    @Test func whatChangedSinceAVersionIsWhatMovedOrCameIn() {
        var model = model(["a", "b", "c", "d"])
        let before = model.listVersion
        _ = model.handle(.command(.moveEntry(2, by: 1)))
        #expect(model.marks.changed(since: before) == [2, 3])
        let after = model.listVersion
        _ = model.handle(.insert(EntryList(paths: ["x"]), at: 1))
        // The one inserted, and every entry it pushed down.
        #expect(model.marks.changed(since: after) == [1, 2, 3, 4])
        #expect(model.marks.changed(since: 0) == [0, 1, 2, 3, 4])
        // An input that changes nothing in the list is no new version.
        let now = model.listVersion
        _ = model.handle(.command(.setRepeat(true)))
        #expect(model.listVersion == now && model.marks.changed(since: now).isEmpty)
    }

    @Test func clearingStopsWhatPlaysAndTheListWaitsForMore() {
        var model = model(["a.mp3", "b.mp3"])
        _ = model.handle(.start)
        let song = SongInfo(path: "a.mp3", sampleRate: 44100, channels: 2, totalFrames: 441_000, title: nil)
        _ = model.handle(.event(.opened(song, token: model.state.token ?? -1)))
        #expect(model.state.id == .play)
        _ = model.handle(.command(.clearList))
        #expect(model.state.id == .stop && model.index == nil && model.entries.isEmpty && !model.isFinished)
        #expect(model.status.playback == .stopped)
    }

    @Test func idsPastTheirLimitStartAgainAndSkipThoseInUse() {
        var marks = EntryMarks(count: 3, version: 1)
        marks.nextID = EntryMarks.idLimit - 1
        marks.insert(3, at: 3, version: 2)
        #expect(marks.ids == [1, 2, 3, EntryMarks.idLimit - 1, 4, 5])
        marks.remove(at: 0, version: 3)
        marks.insert(1, at: 0, version: 4)
        #expect(marks.ids == [6, 2, 3, EntryMarks.idLimit - 1, 4, 5] && Set(marks.ids).count == 6)
        #expect(marks.versions == [4, 4, 4, 4, 4, 4])
    }
}

/// Arguments read as MPD reads them, each refusal in its words.
struct MpdArgumentsTests {
    @Test func numbersAreReadAsStrtolReadsThem() {
        #expect(MpdArguments.int(" 12") == .success(12))
        #expect(MpdArguments.int("+3") == .success(3))
        #expect(MpdArguments.int("-3") == .success(-3))
        #expect(MpdArguments.int("3x") == .failure(MpdAck(.argument, "Integer expected: 3x")))
        #expect(MpdArguments.int("") == .failure(MpdAck(.argument, "Integer expected: ")))
        #expect(MpdArguments.int("99999999999999999999999") == .failure(MpdAck(.argument, "Number too large: 99999999999999999999999")))
        #expect(MpdArguments.unsigned("101", max: 100) == .failure(MpdAck(.argument, "Number too large: 101")))
        #expect(MpdArguments.unsigned("-1") == .failure(MpdAck(.argument, "Number too large: -1")))
        #expect(MpdArguments.bool("1") == .success(true) && MpdArguments.bool("0") == .success(false))
        #expect(MpdArguments.bool("2") == .failure(MpdAck(.argument, "Boolean (0/1) expected: 2")))
        #expect(MpdArguments.float("1.5") == .success(1.5))
        #expect(MpdArguments.float("nan") == .failure(MpdAck(.argument, "Float expected: nan")))
        #expect(MpdArguments.songTime("-1") == .failure(MpdAck(.argument, "Negative value not allowed: -1")))
    }

    @Test func rangesAreReadAsMPDReadsThem() {
        #expect(MpdArguments.range("3") == .success(.init(start: 3, end: 4)))
        #expect(MpdArguments.range("1:4") == .success(.init(start: 1, end: 4)))
        #expect(MpdArguments.range("2:") == .success(.init(start: 2, end: nil)))
        #expect(MpdArguments.range("-1") == .success(.all))
        #expect(MpdArguments.range("-2") == .failure(MpdAck(.argument, "Number is negative: -2")))
        #expect(MpdArguments.range("4:1") == .failure(MpdAck(.argument, "Malformed range: 4:1")))
        #expect(MpdArguments.range("1:x") == .failure(MpdAck(.argument, "Integer or range expected: 1:x")))
        #expect(MpdArguments.range("x") == .failure(MpdAck(.argument, "Integer or range expected: x")))
        #expect(MpdArguments.Range(start: 2, end: nil).clamped(to: 5) == 2..<5)
        #expect(MpdArguments.Range(start: 7, end: 9).clamped(to: 5) == 5..<5)
    }

    @Test func passwordsAndIdleNamesAreReadAsMPDReadsThem() {
        #expect(MpdPassword.parse("s3cret") == .success(MpdPassword(secret: "s3cret")))
        #expect(MpdPassword.parse("a@b@read, add") == .success(MpdPassword(secret: "a@b", permission: [.read, .add])))
        #expect(MpdPassword.parse("x@fly") == .failure(MpdPasswordProblem("unknown permission \"fly\": give read, add, control, admin or player")))
        #expect(MpdPassword.parse("@read") == .failure(MpdPasswordProblem("give the password before @, e.g. s3cret@read,add")))
        #expect(MpdIdle(name: "PLAYER") == .player && MpdIdle(name: "nothing") == nil)
        #expect(MpdIdle([.player, .playlist, .sticker]).lines == "changed: playlist\nchanged: player\nchanged: sticker\n")
    }

    @Test func urisAreRelativeToTheLibraryFolders() {
        let one = MpdRoots(["/music/"])
        #expect(one.uri(of: "/music/a/b.flac") == "a/b.flac" && one.uri(of: "/elsewhere/c.mp3") == "/elsewhere/c.mp3")
        #expect(one.uri(of: "/musicals/x.mp3") == "/musicals/x.mp3")
        #expect(one.path(of: "a/b.flac") == "/music/a/b.flac" && one.path(of: "") == "/music")
        #expect(one.path(of: "a/../../etc") == nil && one.path(of: "a//b") == nil && one.path(of: "./a") == nil)
        let two = MpdRoots(["/home/me/Music", "/srv/Music", "/data/Archive"])
        #expect(two.uri(of: "/srv/Music/x.flac") == "Music-2/x.flac" && two.uri(of: "/data/Archive") == "Archive")
        #expect(two.path(of: "Music-2/x.flac") == "/srv/Music/x.flac" && two.path(of: "Nowhere/x.flac") == nil)
    }
}

/// A tag's place, found by a switch, is its place in MPD's table.
struct MpdTagPlaceTests {
    @Test func eachTagsPlaceIsItsIndexInTheTable() {
        #expect(MpdTag.allCases.map { Int($0.place) } == Array(0..<MpdTag.allCases.count))
    }

    /// A priority given to a range of entries at once: only those whose priority changes are
    /// marked, and the count of entries with a priority follows, as one at a time.
    @Test func aPriorityGivenToARangeMarksOnlyThoseItChanges() {
        var marks = EntryMarks(count: 100_000, version: 1)
        marks.setPriority(5, at: 10, version: 2)
        marks.setPriority(9, in: 5..<20, version: 3)
        #expect(marks.prioritized == 15 && marks.priorities[4] == 0 && marks.priorities[5] == 9 && marks.priorities[19] == 9)
        #expect(marks.changed(since: 2) == Array(5..<20))
        marks.setPriority(9, in: 0..<100_000, version: 4)
        #expect(marks.prioritized == 100_000 && marks.changed(since: 3) == Array(0..<5) + Array(20..<100_000))
        marks.setPriority(0, in: 0..<50_000, version: 5)
        #expect(marks.prioritized == 50_000 && marks.priorities[49_999] == 0 && marks.priorities[50_000] == 9)
        #expect(marks.versions.runCount <= 4, "runs, not an entry at a time")
        marks.setPriority(0, in: 0..<50_000, version: 6)
        #expect(marks.changed(since: 5).isEmpty, "nothing changed, nothing marked")
    }
}
