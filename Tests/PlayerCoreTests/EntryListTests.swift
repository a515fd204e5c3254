import Testing
@testable import PlayerCore

/// The compact list: every field of every entry comes back as it went in, through edits and
/// the compaction that takes back what removed entries left.
struct EntryListTests {
    static func sample(_ index: Int) -> Entry {
        var entry = Entry(path: Path(bytes: Array("/music/\(index)-".utf8) + [0xE9, 0x00 == 1 ? 1 : 0x41]),
                          title: index % 3 == 0 ? nil : "Title \(index) – 日本",
                          origin: index % 2 == 0 ? SourceLocation(file: "/lists/\(index % 4).m3u", line: index + 1) : nil)
        if index % 5 == 0 {
            entry.span = TrackSpan(start: Int64(index) * 75, end: index % 10 == 0 ? nil : Int64(index) * 75 + 750)
            entry.sheetTags = SongInfo.Tags(title: "Track \(index)", artist: "Band", album: nil)
            entry.sheet = "/music/album.cue"
        }
        if index % 7 == 0 { entry.written = "file:///music/\(index)" }
        if index % 11 == 0 { entry.origin = SourceLocation(file: "/lists/x.m3u", line: index, column: 3) }
        if index == 13 { entry.title = "" }
        return entry
    }

    @Test func everyFieldComesBack() {
        let entries = (0..<200).map(Self.sample)
        let list = EntryList(entries)
        #expect(list.count == 200)
        #expect(Array(list) == entries)
        for index in [0, 5, 13, 77, 199] {
            #expect(list.path(at: index) == entries[index].path)
            #expect(list.source(at: index) == entries[index].source)
        }
    }

    @Test func editsKeepEveryEntryAndCompactionTakesBackWhatWasLeft() {
        var model = (0..<3000).map(Self.sample)
        var list = EntryList(model)
        // Remove most, insert some, replace a few, move one: as the list view's edits do.
        for index in stride(from: 2990, through: 0, by: -3) {
            model.remove(at: index)
            list.remove(at: index)
        }
        model.insert(contentsOf: (5000..<5010).map(Self.sample), at: 17)
        list.insert(contentsOf: (5000..<5010).map(Self.sample), at: 17)
        model[3] = Self.sample(9000)
        list[3] = Self.sample(9000)
        let moved = model.remove(at: 40)
        model.insert(moved, at: 2)
        list.insert(list.remove(at: 40), at: 2)
        #expect(Array(list) == model)
        #expect(list == EntryList(model))
    }

    /// Lists appended whole join as segments of their own (a long list read in pieces): every
    /// edit, within a segment or across two, and the joining of many, keeps every entry.
    @Test func listsAppendedWholeKeepEveryEntryThroughEdits() {
        var model: [Entry] = []
        var list = EntryList()
        for piece in 0..<70 {
            let entries = (piece * 10..<(piece * 10 + 3 + piece % 5)).map(Self.sample)
            model += entries
            list.append(contentsOf: EntryList(entries))
            #expect(list.count == model.count)
        }
        #expect(Array(list) == model, "70 pieces: past the segment limit, joined")
        var second = EntryList(Array(model.prefix(5)))
        second.append(contentsOf: EntryList(Array(model[5..<9])))
        second.append(contentsOf: EntryList())
        second.append(contentsOf: EntryList(Array(model[9..<12])))
        var secondModel = Array(model.prefix(12))
        second.replaceSubrange(3..<7, with: [Self.sample(7000)])  // across two segments
        secondModel.replaceSubrange(3..<7, with: [Self.sample(7000)])
        second.insert(Self.sample(7001), at: 4)  // at a segment's start
        secondModel.insert(Self.sample(7001), at: 4)
        second.removeSubrange(5..<second.count - 1)  // a whole segment and more
        secondModel.removeSubrange(5..<secondModel.count - 1)
        second.append(Self.sample(7002))
        secondModel.append(Self.sample(7002))
        #expect(Array(second) == secondModel)
        #expect((0..<second.count).map { second.path(at: $0) } == secondModel.map(\.path))
        second.removeAll()
        #expect(second.isEmpty)
        second.append(Self.sample(1))
        #expect(Array(second) == [Self.sample(1)])
    }

    /// Paths in their playlist's folder are held after it, and come back whole.
    @Test func pathsInTheirPlaylistsFolderComeBackWhole() {
        let origin = SourceLocation(file: "/lists/big.m3u", line: 3)
        let entries = [
            Entry(path: "/lists/songs/a.mp3", title: "A", origin: origin),
            Entry(path: "/lists/", origin: origin),
            Entry(path: "/elsewhere/b.mp3", origin: origin),
            Entry(path: "relative.mp3", origin: SourceLocation(file: "list.m3u", line: 1)),
        ]
        let list = EntryList(entries)
        #expect(Array(list) == entries)
        #expect(list.path(at: 0) == "/lists/songs/a.mp3")
        // Two playlists whose names are equal only as Strings (NFC and NFD: two folders on
        // Linux) stay two folders when their pieces are joined.
        let composed = "/m/M\u{E9}sica/l.m3u", decomposed = "/m/Me\u{301}sica/l.m3u"
        let first = Entry(path: Path(bytes: Array("/m/M\u{E9}sica/a.mp3".utf8)), origin: SourceLocation(file: composed, line: 1))
        let second = Entry(path: Path(bytes: Array("/m/Me\u{301}sica/b.mp3".utf8)), origin: SourceLocation(file: decomposed, line: 1))
        var joined = EntryList([first])
        joined.append(contentsOf: EntryList([second]))
        joined.append(Entry(path: "x.mp3"))
        joined.remove(at: 2)  // an edit across the two pieces' segments joins them
        joined.replaceSubrange(0..<2, with: Array(joined))
        #expect(joined.map(\.path.bytes) == [first.path.bytes, second.path.bytes])
    }

    /// An entry shares its first bytes with one written whole before it: what it shares comes
    /// back whole, also when the bytes shared end inside a character, after the entry shared
    /// with is gone, and through the compaction that writes every entry again.
    @Test func sharedBytesComeBackWholeThroughEdits() {
        let origin = SourceLocation(file: "/lists/big.m3u", line: 1)
        var model = (0..<3000).map { index in
            Entry(path: Path(bytes: Array("/lists/songs/Artist \(index / 100)/Album/\(index % 100) – 日\(index % 2 == 0 ? "本" : "月").mp3".utf8)),
                  title: "Artist \(index / 100) – 日\(index % 3 == 0 ? "本" : "月")\(index)",
                  origin: SourceLocation(file: origin.file, line: index + 2))
        }
        model.append(Entry(path: "/lists/songs/Artist 1/Album/x.mp3", title: "", origin: origin))  // an empty title
        model.append(Entry(path: "/lists/songs/Artist 1/Album/y.mp3", origin: origin))  // none
        // An entry from no playlist written whole, then playlist entries sharing its bytes: their
        // lines are written as distances from its line, 0.
        model.append(Entry(path: "/elsewhere/Artist 9/Album/00 intro.mp3", title: "Artist 9 – intro"))
        model += (1...3).map { Entry(path: Path("/elsewhere/Artist 9/Album/0\($0) song.mp3"), title: "Artist 9 – song \($0)",
                                     origin: SourceLocation(file: "/lists/other.m3u", line: $0 == 2 ? Int.max : $0 * 1000)) }
        var list = EntryList(model)
        #expect(Array(list) == model)
        // Written whole, each path after the playlist's folder and each title: 58 bytes an entry.
        let whole = model.reduce(0) { $0 + $1.path.bytes.count - "/lists/".utf8.count + ($1.title?.utf8.count ?? 0) }
        #expect(list.bytesHeld * 10 < whole * 6, "the songs of a folder share their paths' first bytes: \(list.bytesHeld) of \(whole)")
        // The first of each run goes (the entries sharing its bytes stay), then most of the rest.
        for index in stride(from: 2900, through: 0, by: -100) {
            model.remove(at: index)
            list.remove(at: index)
        }
        #expect(Array(list) == model)
        let written = list.bytesWritten
        #expect(written > list.bytesHeld, "the bytes of the entries removed are left behind")
        for index in stride(from: model.count - 1, through: 0, by: -1) where index % 4 != 1 {
            model.remove(at: index)
            list.remove(at: index)
        }
        #expect(Array(list) == model, "written again by the compaction")
        #expect(list.bytesWritten < written / 2, "the compaction took back what was left: \(list.bytesWritten) of \(written)")
        #expect(list.bytesHeld < model.count * 40)
        #expect((0..<list.count).map { list.path(at: $0) } == model.map(\.path))
    }

    /// An entry longer than a chunk has a chunk of its own; every number is written whole,
    /// however large.
    @Test func longEntriesAndLargeNumbersComeBackWhole() {
        let long = String(repeating: "ü", count: EntryList.chunkSize)
        var entries = (0..<40).map {
            Entry(path: Path("/music/album/\($0).mp3"), title: "Title \($0)", origin: SourceLocation(file: "/l.m3u", line: $0 * 7))
        }
        entries[10].title = long
        entries[11].path = Path("/m/" + long)
        entries[12].origin = SourceLocation(file: "/l.m3u", line: Int.max)
        entries[13].origin = SourceLocation(file: "/l.m3u", line: -1)
        entries[14].origin = SourceLocation(file: "/l.m3u", line: 0)
        entries[15].origin = SourceLocation(file: "/l.m3u", line: Int.max - 1)
        entries[16].origin = SourceLocation(file: "/l.m3u", line: 1)
        let list = EntryList(entries)
        #expect(Array(list) == entries)
        // The entries after the long ones share their first bytes (written shorter than whole).
        let whole = entries[17...].reduce(0) { $0 + $1.path.bytes.count + ($1.title?.utf8.count ?? 0) }
        #expect(EntryList(Array(entries[17...])).bytesHeld < whole)
    }
}
