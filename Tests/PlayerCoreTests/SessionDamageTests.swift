import Testing
@testable import PlayerCore

/// Damage skipped while a song plays is said once per place.
struct SessionDamageTests {
    /// libmpg123 can find its frames again in steps (junk after zeros that looks like a frame
    /// cut in two): a second skip 20 ms after the first is the same damage, not a second line;
    /// one seconds later is another.
    @Test func aSkipRightAfterTheOneSaidIsTheSamePlace() {
        let engine = FakeEngine(goodPaths: ["a.mp3"])
        let session = Session(engine: engine, entries: [Entry(path: "a.mp3")])
        var lines: [String] = []
        session.report = { lines.append($0) }
        session.start()
        session.settle()
        let token = session.token
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 588_294, rate: 44100), seconds: 2.49))
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 589_176, rate: 44100), seconds: 0.001))
        session.handle(.damageSkipped(token: token, at: AudioTime(frames: 882_000, rate: 44100), seconds: 0.5))
        #expect(lines == ["a.mp3: damaged from 0:13.34 to 0:15.83, skipped", "a.mp3: damaged from 0:20.00 to 0:20.50, skipped"])
    }
}
