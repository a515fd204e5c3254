@testable import AudioEngine
import PlayerCore
import Glibc
import Testing

/// Several outputs at once (`FanOutput`): the first keeps the time and is written as it would
/// be alone; each follower is given the same samples in its own format, and one that fails is
/// said and let be while the others play on.
struct FanOutputTests {
    private func song(_ frames: Int, rate: Int = 44100) -> FakeDecoder {
        FakeDecoder([.init(format: PCMFormat(rate: rate, channels: 2), frames: frames)])
    }

    @Test func aFollowerIsGivenWhatTheFirstOutputIs() {
        let follower = FakeOutput(name: "follower")
        let rig = LoopRig(decoder: song(44100), output: FakeOutput(), followers: Followers([follower]))
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run(limit: 1_000_000)
        #expect(rig.output.samples.count == 88200)
        #expect(follower.samples == rig.output.samples, "the follower heard the song sample for sample")
        #expect(follower.sinks.first?.announced.map(\.path) == ["a.mp3"])
    }

    @Test func aFollowerOfAnotherFormatIsGivenTheSongConverted() {
        let follower = FakeOutput(name: "room")
        follower.fixedFormat = PCMFormat(rate: 48000, channels: 1)
        let rig = LoopRig(decoder: song(44100), output: FakeOutput(), followers: Followers([follower]))
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run(limit: 1_000_000)
        #expect(follower.log == ["open 48000 Hz mono"])
        // A second at 48 kHz, all but what libsoxr still holds at the end (its filter's delay).
        let frames = follower.samples.count
        #expect(frames > 47000 && frames <= 48000, "\(frames) frames")
    }

    @Test func aFollowerThatFailsIsSaidOnceAndTheFirstPlaysOn() {
        let follower = FakeOutput(name: "room")
        follower.failingOpens = 1_000
        let rig = LoopRig(decoder: song(44100), output: FakeOutput(), followers: Followers([follower]))
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        rig.run(limit: 1_000_000)
        #expect(rig.output.samples.count == 88200)
        let said = rig.events().compactMap { if case .outputNotice(let message) = $0 { message } else { nil } }
        #expect(said == ["output room: cannot open the audio device; the other outputs play on"], "\(said)")
    }

    @Test func aFollowerTurnedOffIsClosedAndHearsNothingMoreUntilTurnedOn() {
        let follower = FakeOutput(name: "room")
        let followers = Followers([follower])
        let rig = LoopRig(decoder: song(44100 * 3), output: FakeOutput(), followers: followers)
        rig.loop.execute(.open("a.mp3", token: 1))
        rig.loop.execute(.play)
        for _ in 0..<10 { rig.advance() }
        let before = follower.samples.count
        #expect(before > 0 && followers.setEnabled(0, false))
        #expect(follower.log.last == "close")
        for _ in 0..<10 { rig.advance() }
        #expect(follower.samples.count == before)
        #expect(followers.setEnabled(0, true) && !followers.setEnabled(1, true))
        rig.run(limit: 1_000_000)
        #expect(follower.sinks.count == 2 && follower.samples.count > before)
        #expect(rig.output.samples.count == 44100 * 3 * 2, "the first output never missed a sample")
    }

    /// The first output turned off is written silence: it keeps the time; the followers hear the song.
    @Test func theFirstOutputTurnedOffPlaysSilence() {
        let follower = FakeOutput(name: "room")
        let followers = Followers([follower])
        let fan = FanOutput(main: FakeOutput(), followers: followers, feed: try! FollowerFeed(followers, inline: true))
        #expect(fan.setEnabled(0, false) && !fan.setEnabled(2, false))
        #expect(fan.states.map(\.enabled) == [false, true])
        let sink = try? fan.open(PCMFormat(rate: 44100, channels: 2))
        let samples: [Int16] = [1, 2, 3, 4]
        _ = samples.withUnsafeBytes { try? sink?.write($0) }
        #expect((fan.main as? FakeOutput)?.samples == [0, 0, 0, 0] && follower.samples == samples)
    }

    /// The feed's own thread gives a follower the samples in real time, and a write over the
    /// last of them (a pause's fade) replaces what it has not given yet: the follower hears the
    /// new samples where the old ones were, none twice.
    @Test func theFeedReplacesWhatItHasNotGivenYet() throws {
        let follower = FakeOutput(name: "room")
        let feed = try FollowerFeed(Followers([follower]))
        let format = PCMFormat(rate: 1000, channels: 1)
        let old = [Int16](repeating: 1, count: 3000), new = [Int16](repeating: 2, count: 1500)
        old.withUnsafeBytes { feed.add($0, format: format) }
        new.withUnsafeBytes { feed.replace(frames: 1000, with: $0, format: format) }
        for _ in 0..<200 where follower.samples.count < 3500 { usleep(50_000) }
        feed.close(within: 1)
        #expect(follower.samples == [Int16](repeating: 1, count: 2000) + new, "\(follower.samples.count) samples")
        #expect(feed.caughtUp)
    }
}
