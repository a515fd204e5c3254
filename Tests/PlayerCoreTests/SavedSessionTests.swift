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
}
