import Testing
@testable import PlayerCore

struct SavedSessionTests {
    @Test func roundTripsAnyPathAndTitle() throws {
        let odd = Path(bytes: Array("/music/a\nb %20 é ".utf8) + [0xFF, 0x00, 0x25])
        let session = SavedSession(
            entries: [Entry(path: odd, title: "Title\nwith break"), Entry(path: "/m/plain.mp3")],
            current: 1, position: AudioTime(frames: 308_700, rate: 44_100), volume: 35, muted: true,
            repeats: true, shuffles: true)
        let bytes = session.encoded()
        #expect(bytes.filter { $0 == 0x0A }.count == 10)  // one line per field: no path can add one
        #expect(try SavedSession.decode(bytes).get() == session)
    }

    /// Repeat one, album mode and the queue come back with `--resume`; a queued entry the list
    /// no longer has leaves the queue, said.
    @Test func theModesAndTheQueueRoundTrip() throws {
        var session = SavedSession(entries: [Entry(path: "/m/a.mp3"), Entry(path: "/m/b.mp3"), Entry(path: "/m/c.mp3")],
                                   current: 0, position: .zero)
        session.repeatsOne = true
        session.albumMode = true
        session.upNext = [2, 1]
        #expect(try SavedSession.decode(session.encoded()).get() == session)
        let text = "tplayer saved session 1\nqueue 2 9 0\nentry /m/a.mp3\nentry /m/b.mp3\nentry %ZZ\nend\n"
        let read = try SavedSession.decodeNoting(Array(text.utf8)).get()
        #expect(read.session.upNext == [0], "entry 2 was left out of the list, entry 9 never in it")
        #expect(read.notes.map(\.description).contains("line 2: queue: an entry not in the list; left out of the queue"))
    }

    /// A CUE sheet's track keeps its span and the sheet's fields; an older tplayer's reader
    /// would note the two lines and play the whole image.
    @Test func aSheetsTrackRoundTripsWithItsSpanAndTags() throws {
        var track = Entry(path: "/m/album.flac", title: "Breathe")
        track.span = TrackSpan(start: 5175, end: 17_849)
        var tags = SongInfo.Tags(title: "Breathe", artist: "The Band", album: "The Album, 1973")
        tags.track = "2"
        track.sheetTags = tags
        track.sheet = Path(bytes: Array("/m/Caf".utf8) + [0xE9] + Array(" album.cue".utf8))
        var last = track
        last.span = TrackSpan(start: 17_849)
        last.sheetTags = nil
        let session = SavedSession(entries: [track, last, Entry(path: "/m/b.mp3")], current: 1, position: .seconds(3))
        let bytes = session.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains("span 5175 17849\nsheet /m/Caf%E9%20album.cue\ntags Breathe The%20Band The%20Album,%201973   2 \n"))
        #expect(try SavedSession.decode(bytes).get() == session)
        // Not a valid path: the track keeps its span, without its sheet.
        let text = "tplayer saved session 1\nentry /m/a.flac\nspan 0 -\nsheet %ZZ\nend\n"
        let read = try SavedSession.decodeNoting(Array(text.utf8)).get()
        #expect(read.session.entries.first?.span == TrackSpan(start: 0) && read.session.entries.first?.sheet == nil)
        #expect(read.notes.map(\.description) == ["line 4: sheet: not a valid path; left out"])
    }

    @Test func aSpanThatIsNotValidLeavesItsEntryOutAndStrayLinesAreNoted() throws {
        func read(_ lines: String) throws -> (SavedSession, [String]) {
            let text = "tplayer saved session 1\ncurrent 1\n" + lines + "entry /m/z.mp3\nend\n"
            let result = try SavedSession.decodeNoting(Array(text.utf8)).get()
            return (result.session, result.notes.map(\.description))
        }
        let (backwards, notes) = try read("entry /m/a.flac\nspan 200 100\nentry /m/b.flac\nspan 0 -\n")
        #expect(backwards.entries.map(\.path) == ["/m/b.flac", "/m/z.mp3"])
        #expect(backwards.entries[0].span == TrackSpan(start: 0))
        #expect(backwards.current == 0, "current still names the same song")
        #expect(notes == ["line 4: span: not a valid track of a file; the song is left out"])
        #expect(try read("span 0 -\n").1.contains("line 3: span 0 -: not after an entry; ignored"))
        #expect(try read("entry /m/a.flac\ntags a b\nentry /m/b.flac\n").1 == ["line 4: tags: not 7 fields; left out"])
    }

    /// Only a file that is no session is refused: another first line, one cut short.
    @Test func whatIsNoSessionIsRefusedWithWhere() {
        let good = SavedSession(entries: [Entry(path: "/m/a.mp3")], current: 0, position: .zero).encoded()
        func why(_ bytes: [UInt8]) -> String? {
            if case .failure(let error) = SavedSession.decode(bytes) { return error.description }
            return nil
        }
        #expect(why(good) == nil)
        #expect(why(Array(good.dropLast())) == "cut short (no final line break)")
        #expect(why(Array(good.dropLast(4))) == "cut short (no end line)")
        #expect(why(Array("hello\n".utf8)) == "line 1: not a tplayer saved session")
        #expect(why([]) != nil)
    }

    /// The text of a saved session with `line` in place of `old`: what it reads as, and its notes.
    private func edited(_ old: String, _ line: String) throws -> (SavedSession, [String]) {
        let whole = SavedSession(entries: [Entry(path: "/m/a.mp3"), Entry(path: "/m/b.mp3"), Entry(path: "/m/c.mp3")],
                                 current: 1, position: .seconds(7), volume: 60, repeats: true).encoded()
        let text = String(decoding: whole, as: UTF8.self)
        #expect(text.contains(old + "\n"))
        let result = try SavedSession.decodeNoting(Array(text.replacingOccurrences(of: old + "\n", with: line + "\n").utf8)).get()
        return (result.session, result.notes.map(\.description))
    }

    /// One bad field costs that field, set right or ignored, with a located note; the rest of
    /// the session is kept (the whole session was thrown away).
    @Test func oneBadFieldIsSetRightOrIgnoredAndTheRestKept() throws {
        let (loud, loudNotes) = try edited("volume 60", "volume 900")
        #expect(loud.volume == 100 && loud.current == 1 && loud.position == .seconds(7) && loud.entries.count == 3)
        #expect(loudNotes == ["line 2: volume 900: not 0 to 100; 100 is used"])
        #expect(try edited("volume 60", "volume -4").1 == ["line 2: volume -4: not 0 to 100; 0 is used"])
        let (yes, yesNotes) = try edited("repeat 1", "repeat yes")
        #expect(!yes.repeats && yes.volume == 60 && yes.current == 1)
        #expect(yesNotes == ["line 4: repeat yes: not 0 or 1; ignored"])
        #expect(try edited("muted 0", "muted 0\nmuted 1").1 == ["line 4: muted 1: muted again; the first is kept"])
        #expect(try edited("muted 0", "muted 0\ncolour blue").1 == ["line 4: colour blue: not a field tplayer writes; ignored"])
        #expect(try edited("position 4939200000", "position many").1 == ["line 7: position many: not a number; ignored"])
        let (nowhere, nowhereNotes) = try edited("current 1", "current 5")
        #expect(nowhere.current == nil && nowhere.position == .zero && nowhere.entries.count == 3)
        #expect(nowhereNotes == ["line 6: current 5: no such song in the list; the list starts at its first"])
        #expect(try edited("end", "end\nmore").1 == ["line 12: more: after the end line; ignored"])
    }

    /// An entry that cannot be read is left out, and `current` still names its song.
    @Test func aBadEntryIsLeftOutAndTheCurrentSongStaysTheSame() throws {
        let (session, notes) = try edited("entry /m/a.mp3", "entry /m/a%ZZ.mp3")
        #expect(session.entries.map(\.path) == ["/m/b.mp3", "/m/c.mp3"])
        #expect(session.current == 0 && session.position == .seconds(7))
        #expect(notes == ["line 8: entry: not a valid path; left out"])
        let (titled, titleNotes) = try edited("entry /m/b.mp3", "entry /m/b.mp3 %FF%FE")
        #expect(titled.entries.count == 3 && titled.entries[1].title == nil && titled.current == 1)
        #expect(titleNotes == ["line 9: entry: not a valid title; the song is kept without it"])
        let (gone, goneNotes) = try edited("entry /m/b.mp3", "entry")
        #expect(gone.entries.map(\.path) == ["/m/a.mp3", "/m/c.mp3"] && gone.current == nil && gone.position == .zero)
        #expect(goneNotes.count == 2)
    }

    /// The play order round-trips, on as many `order` lines as it takes; list order writes none
    /// (the file is then as an older tplayer wrote it).
    @Test func thePlayOrderRoundTrips() throws {
        let count = 2500
        let order = (0..<count).map { ($0 * 7 + 3) % count }
        let session = SavedSession(entries: EntryList((0..<count).map { Entry(path: Path("/m/\($0).mp3")) }), current: order[10],
                                   position: .seconds(5), shuffles: true, order: order)
        let text = String(decoding: session.encoded(), as: UTF8.self)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("order ") }.count == 3)
        #expect(try SavedSession.decode(session.encoded()).get() == session)
        var plain = session
        plain.order = nil
        #expect(!String(decoding: plain.encoded(), as: UTF8.self).contains("order"))
        #expect(try SavedSession.decode(plain.encoded()).get().order == nil)
    }

    /// An order that does not fit the list (a song missing or twice, a number past it, not a
    /// number) is ignored with a note: the list plays in list order.
    @Test func anOrderThatDoesNotFitTheListIsIgnored() throws {
        for bad in ["order 2 0", "order 2 0 1 3", "order 2 0 0", "order 2 x 1", "order 2 0 1\norder 1"] {
            let (session, notes) = try edited("position 4939200000", "position 4939200000\n" + bad)
            #expect(session.order == nil && session.current == 1 && session.entries.count == 3, "\(bad)")
            #expect(notes == ["line 8: order: not an order of the 3 songs; list order is used"], "\(bad)")
        }
        let (fits, none) = try edited("position 4939200000", "position 4939200000\norder 2 0\norder 1")
        #expect(fits.order == [2, 0, 1] && none.isEmpty)
        // An entry left out leaves the order too; the others keep their turns.
        let (short, _) = try edited("entry /m/a.mp3", "order 2 0 1\nentry /m/a%ZZ.mp3")
        #expect(short.order == [1, 0] && short.current == 0)
    }

    /// A list cut at the limit keeps the order of the songs kept.
    @Test func aCutListKeepsTheOrderOfWhatIsKept() throws {
        let order = [9, 2, 7, 0, 5, 3, 1, 8, 6, 4]
        let bytes = SavedSession(entries: EntryList((0..<10).map { Entry(path: Path("/m/\($0).mp3")) }), current: 2, position: .zero,
                                 shuffles: true, order: order).encoded()
        var reader = SavedSession.Reader(limit: 4)
        _ = bytes.withUnsafeBufferPointer { reader.feed($0) }
        let result = try reader.finish().get()
        #expect(result.cut && result.session.order == [2, 0, 3, 1] && result.notes.isEmpty)
    }

    /// Lines ending in CR LF (an editor, a copy from Windows) read as LF ones.
    @Test func crlfLineEndsReadAsLF() throws {
        let session = SavedSession(entries: [Entry(path: "/m/a.mp3", title: "A"), Entry(path: "/m/b%0D.mp3")], current: 1,
                                   position: .seconds(2), volume: 30, muted: true, shuffles: true)
        let crlf = session.encoded().flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        let result = try SavedSession.decodeNoting(crlf).get()
        #expect(result.session == session)
        #expect(result.notes.isEmpty)
    }

    /// A file of nothing but bad lines is said in a few notes, with the count of the rest;
    /// what is shown of a line is short.
    @Test func notesAreFewAndShort() throws {
        let junk = (0..<5000).map { "junk\($0) " + String(repeating: "x", count: 500) + "\n" }.joined()
        let result = try SavedSession.decodeNoting(Array((SavedSession.header + "\n" + junk + "end\n").utf8)).get()
        #expect(result.notes.count == SavedSession.Reader.noteLimit && result.unnoted == 5000 - SavedSession.Reader.noteLimit)
        #expect(result.notes.allSatisfy { $0.text.count < 120 })
    }

    /// Read in pieces of any size, a file gives the same session as read whole.
    @Test func piecesOfAnySizeReadAsTheWhole() throws {
        let session = SavedSession(entries: EntryList((0..<50).map { Entry(path: Path("/m/\($0) é.mp3"), title: $0 % 2 == 0 ? "t \($0)" : nil) }),
                                   current: 7, position: .seconds(3), volume: 40)
        let bytes = session.encoded()
        for size in [1, 2, 7, 64, 1000] {
            var reader = SavedSession.Reader()
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                _ = bytes[start..<end].withUnsafeBufferPointer { reader.feed($0) }
                start = end
            }
            #expect(try reader.finish().get().session == session, "pieces of \(size)")
        }
    }

    /// A saved list longer than the limit keeps the first entries and stops reading there; a
    /// current song past the cut starts the list from its first.
    @Test func aListPastTheLimitIsCutAndTheRestNotRead() throws {
        let entries = (0..<10).map { Entry(path: Path("/m/\($0).mp3")) }
        var reader = SavedSession.Reader(limit: 4)
        var bytes = SavedSession(entries: EntryList(entries), current: 2, position: .seconds(1)).encoded()
        bytes += Array("junk that is never read\n".utf8)
        let wanted = bytes.withUnsafeBufferPointer { reader.feed($0) }
        #expect(!wanted, "nothing more is read once the list is full")
        let result = try reader.finish().get()
        #expect(result.cut)
        #expect(Array(result.session.entries) == Array(entries.prefix(4)))
        #expect(result.session.current == 2 && result.session.position == .seconds(1))

        var past = SavedSession.Reader(limit: 4)
        _ = SavedSession(entries: EntryList(entries), current: 8, position: .seconds(1)).encoded().withUnsafeBufferPointer { past.feed($0) }
        let cut = try past.finish().get()
        #expect(cut.session.current == nil && cut.session.position == .zero && cut.session.entries.count == 4)
    }

    @Test func aLineWithoutEndIsRefusedOnceItIsTooLong() {
        var reader = SavedSession.Reader()
        let line = Array(SavedSession.header.utf8) + [0x0A] + Array(repeating: UInt8(ascii: "x"), count: 70_000)
        _ = line.withUnsafeBufferPointer { reader.feed($0) }
        if case .failure(let why) = reader.finish() {
            #expect(why.description == "line 2: a line longer than 65536 bytes")
        } else {
            Issue.record("a line with no end must be refused")
        }
    }
}
