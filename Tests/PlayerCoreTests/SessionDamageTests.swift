import Testing
@testable import PlayerCore

/// Damage skipped while a song plays is said once per place.
struct SessionDamageTests {
    /// libmpg123 can find its frames again in steps (junk after zeros that looks like a frame
    /// cut in two): a second skip 20 ms after the first is the same damage, not a second line;
    /// one seconds later is another.
    @Test func aSkipRightAfterTheOneSaidIsTheSamePlace() {
        let engine = FakeEngine(goodPaths: ["a.mp3"])
        let seams = TestSeams()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3")], seams: seams.seams)
        session.start()
        session.settle()
        let token = session.token
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 588_294, rate: 44100), seconds: 2.49))
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 589_176, rate: 44100), seconds: 0.001))
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 882_000, rate: 44100), seconds: 0.5))
        session.hears(at: .seconds(22))
        #expect(seams.lines == ["a.mp3: damaged from 0:13.34 to 0:15.83, skipped", "a.mp3: damaged from 0:20.00 to 0:20.50, skipped"])
    }

    /// Steps into junk that overlap, as libmpg123 gives them, are one place: said once, whole,
    /// when the next place begins, when playing has gone past it, or when the song ends; and
    /// `--check` makes the same spans of them (it listed three overlapping ones).
    @Test func overlappingSkipsAreOnePlaceSaidWhole() {
        let engine = FakeEngine(goodPaths: ["a.mp3", "b.mp3"])
        let seams = TestSeams()
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3"), Entry(path: "b.mp3")], seams: seams.seams)
        session.start()
        session.settle()
        let token = session.token
        let steps: [(Double, Double)] = [(20.0, 1.5), (20.25, 1.75), (20.5, 0.25)]
        var check = DamageSpans()
        for (at, seconds) in steps {
            session.handle(.damageSkipped(token: token, at: AudioTime(microseconds: Int64((at * 1_000_000).rounded()))!, seconds: seconds))
            check.add(at...(at + seconds))
        }
        #expect(seams.lines.isEmpty, "not yet whole")
        session.hears(at: .seconds(22))
        #expect(seams.lines.isEmpty, "still inside it")
        session.hears(at: .seconds(23))
        #expect(seams.lines == ["a.mp3: damaged from 0:20.00 to 0:22.00, skipped"])
        #expect(check.spans == [20.0...22.0])
        // The next place, left unsaid, is said when the song ends.
        session.handle(.damageSkipped(token: token, at: .seconds(40), seconds: 1))
        session.perform(.next)
        session.settle()
        #expect(seams.lines.last == "a.mp3: damaged from 0:40.00 to 0:41.00, skipped")
    }
}
