import Testing
@testable import PlayerCore

/// The sound as a value: each command gives the engine calls that make it heard, or the line
/// that says why not, and no I/O (driven one behaviour at a time, as swift-nio's machines are).
struct SoundTests {
    @Test func theVolumeIsKeptInItsRangeAndAStepUnmutes() {
        var sound = Sound()
        #expect(sound.handle(.volume(130), speedRefusal: nil) == [.engine(.setVolume(1))])
        #expect(sound.handle(.toggleMute, speedRefusal: nil) == [.engine(.setVolume(0))] && sound.muted)
        #expect(sound.handle(.changeVolume(by: -30), speedRefusal: nil) == [.engine(.setVolume(0.7))])
        #expect(!sound.muted && sound.volume == 70)
        #expect(sound.handle(.volume(-5), speedRefusal: nil) == [.engine(.setVolume(0))] && sound.volume == 0)
    }

    @Test func anEqualizerIsTurnedOnOnlyOnceSet() {
        var sound = Sound()
        guard case .refused(let line)? = sound.handle(.toggleEqualizer, speedRefusal: nil)?.first else {
            Issue.record("turned on with no bands")
            return
        }
        #expect(line.hasPrefix("no equalizer set: :equalizer PRESET sets one now (flat rock"))
        #expect(!sound.equalizerOn)
        let rock = EqualizerPresets.gains("rock")!
        #expect(sound.handle(.setGraphicEqualizer(rock, on: true), speedRefusal: nil) == [.engine(.setGraphicEqualizer(rock))])
        #expect(sound.handle(.toggleEqualizer, speedRefusal: nil) == [.engine(.setGraphicEqualizer(nil))] && !sound.equalizerOn)
        #expect(sound.handle(.toggleEqualizer, speedRefusal: nil) == [.engine(.setGraphicEqualizer(rock))] && sound.equalizerOn)
    }

    /// Another speed is refused, said, and not kept, where the engine cannot play it; the refusal
    /// is asked for only then (it loads librubberband).
    @Test func aSpeedTheEngineCannotPlayIsRefusedAndNotKept() {
        var sound = Sound()
        var asked = 0
        let refusal = { () -> String? in
            asked += 1
            return "no librubberband"
        }
        #expect(sound.handle(.volume(50), speedRefusal: refusal()) == [.engine(.setVolume(0.5))])
        #expect(asked == 0)
        #expect(sound.handle(.speed(1.5), speedRefusal: refusal()) == [.refused("no librubberband")] && sound.speed == 1)
        #expect(sound.handle(.speed(1.5), speedRefusal: nil) == [.engine(.setSpeed(1.5))])
        #expect(sound.handle(.changeSpeed(by: 2), speedRefusal: nil) == [.engine(.setSpeed(3))] && sound.speed == 3)
        #expect(sound.handle(.speed(.nan), speedRefusal: nil) == [] && sound.speed == 3)
    }

    @Test func aCommandNotTheSoundsIsLeftAlone() {
        var sound = Sound()
        #expect(sound.handle(.next, speedRefusal: nil) == nil)
        #expect(sound.handle(.toggleRepeat, speedRefusal: nil) == nil)
    }
}

/// Several outputs (`output = pulse, snapcast`): each is turned on and off by itself, and the
/// engine told.
struct OutputSwitchTests {
    @Test func anOutputIsTurnedOffOnAndToggled() {
        var sound = Sound()
        #expect(sound.handle(.setOutput(1, false), speedRefusal: nil) == [.engine(.setOutputEnabled(1, false))] && sound.outputsOff == [1])
        #expect(sound.handle(.setOutput(1, nil), speedRefusal: nil) == [.engine(.setOutputEnabled(1, true))] && sound.outputsOff.isEmpty)
        #expect(sound.handle(.setOutput(0, nil), speedRefusal: nil) == [.engine(.setOutputEnabled(0, false))] && sound.outputsOff == [0])
        #expect(sound.handle(.setOutput(0, true), speedRefusal: nil) == [.engine(.setOutputEnabled(0, true))] && sound.outputsOff.isEmpty)
        #expect(sound.handle(.setOutput(99, true), speedRefusal: nil) == [.refused("no output 100")])
        #expect(!sound.muted, "an output off is not a mute")
    }
}
