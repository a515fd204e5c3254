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

    @Test func anythingElseIsRefusedWithWhere() {
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
        let text = String(decoding: good, as: UTF8.self)
        #expect(why(Array(text.replacingOccurrences(of: "volume 100", with: "volume 900").utf8)) == "line 2: not a field tplayer writes")
        #expect(why(Array(text.replacingOccurrences(of: "current 0", with: "current 5").utf8)) == "its current entry is not in its list")
        #expect(why(Array(text.replacingOccurrences(of: "entry /m/a.mp3", with: "entry /m/a%ZZ.mp3").utf8)) != nil)
        #expect(why(Array(text.replacingOccurrences(of: "muted 0", with: "muted 0\nmuted 1").utf8)) != nil)
    }

    /// Read in pieces of any size, a file gives the same session as read whole.
    @Test func piecesOfAnySizeReadAsTheWhole() throws {
        let session = SavedSession(entries: (0..<50).map { Entry(path: Path("/m/\($0) é.mp3"), title: $0 % 2 == 0 ? "t \($0)" : nil) },
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
        var bytes = SavedSession(entries: entries, current: 2, position: .seconds(1)).encoded()
        bytes += Array("junk that is never read\n".utf8)
        let wanted = bytes.withUnsafeBufferPointer { reader.feed($0) }
        #expect(!wanted, "nothing more is read once the list is full")
        let result = try reader.finish().get()
        #expect(result.cut)
        #expect(result.session.entries == Array(entries.prefix(4)))
        #expect(result.session.current == 2 && result.session.position == .seconds(1))

        var past = SavedSession.Reader(limit: 4)
        _ = SavedSession(entries: entries, current: 8, position: .seconds(1)).encoded().withUnsafeBufferPointer { past.feed($0) }
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
