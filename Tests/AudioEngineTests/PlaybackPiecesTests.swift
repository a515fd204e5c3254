import Files
import PlayerCore
import Testing
@testable import AudioEngine

/// The pieces of the playback loop that have a life of their own, alone: the fades, the output
/// slot, the song opened ahead.
struct PlaybackPiecesTests {
    private static let stereo = PCMFormat(rate: 1000, channels: 2)

    private func samples(_ values: [Int16], _ body: (UnsafeMutableRawPointer) -> Void) -> [Int16] {
        var copy = values
        copy.withUnsafeMutableBytes { body($0.baseAddress!) }
        return copy
    }

    @Test func aFadeInIsOwedOnlyAfterAFadeOutAndSpansItsFramesAcrossWrites() {
        var fader = Fader(enabled: true)
        fader.starting(Self.stereo, capacity: 1 << 16)
        #expect(fader.fadeInLeft == 0, "nothing faded out: nothing to fade in")
        fader.fadedOut()
        fader.starting(Self.stereo, capacity: 1 << 16)
        #expect(fader.fadeInLength == 10, "10 ms at 1 kHz")
        // Two writes of 6 frames: the ramp goes on from where the first left it.
        let first = samples(Array(repeating: 1000, count: 12)) { fader.fadeIn($0, bytes: 24, format: Self.stereo) }
        let second = samples(Array(repeating: 1000, count: 12)) { fader.fadeIn($0, bytes: 24, format: Self.stereo) }
        #expect(first.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) == [0, 100, 200, 300, 400, 500])
        #expect(second.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) == [600, 700, 800, 900, 1000, 1000])
        #expect(fader.fadeInLeft == 0)
        #expect(first[0] == first[1], "both channels alike")
    }

    @Test func aDisabledFaderNeverFadesIn() {
        var fader = Fader(enabled: false)
        fader.fadedOut()
        fader.starting(Self.stereo, capacity: 1 << 16)
        let out = samples(Array(repeating: 1000, count: 4)) { fader.fadeIn($0, bytes: 8, format: Self.stereo) }
        #expect(out == [1000, 1000, 1000, 1000])
        #expect(!fader.fadeInNext)
    }

    @Test func aFadeIsCappedByTheBuffer() {
        #expect(Fader.frames(in: PCMFormat(rate: 48000, channels: 2), capacity: 1 << 16) == 480)
        #expect(Fader.frames(in: PCMFormat(rate: 48000, channels: 2), capacity: 400) == 100)
        #expect(Fader.frames(in: PCMFormat(rate: 50, channels: 1), capacity: 1 << 16) == 1, "never zero frames")
    }

    @Test func aLiveOutputThatCannotOpenFallsBackOnceAndSaysWhy() {
        let device = FakeOutput(name: "pulse")
        device.failingOpens = 1
        let null = FakeOutput(name: "null")
        let slot = OutputSlot(OutputChoice(primary: device, fallback: null))
        guard case .fellBack(_, let notice) = slot.sink(for: FakeDecoder.cd, at: 0) else { Issue.record("no fallback"); return }
        #expect(notice == "output pulse: cannot open the audio device; playing silently in real time instead")
        #expect(slot.name == "null")
        guard case .ready(_, let isNew) = slot.sink(for: FakeDecoder.cd, at: 1) else { Issue.record("not kept"); return }
        #expect(!isNew, "the same format keeps the open sink")
        guard case .ready(_, true) = slot.sink(for: FakeDecoder.halfMono, at: 2) else { Issue.record("not reopened"); return }
        #expect(null.log == ["open 44100 Hz stereo", "close", "open 22050 Hz mono"])
    }

    @Test func aFileThatCannotOpenFailsAndAFileKeepsItsFirstFormat() {
        let file = FakeOutput(name: "out.wav", isFile: true)
        file.failingOpens = 1
        let slot = OutputSlot(OutputChoice(primary: file, fallback: nil))
        guard case .failed(let message) = slot.sink(for: FakeDecoder.cd, at: 0) else { Issue.record("not failed"); return }
        #expect(message == "out.wav: cannot open the audio device")
        _ = slot.sink(for: FakeDecoder.cd, at: 0)
        guard case .ready(let sink, false) = slot.sink(for: FakeDecoder.halfMono, at: 0) else { Issue.record("reopened"); return }
        #expect(sink.format == FakeDecoder.cd)
    }

    @Test func theCuedSongTakesOverOnTheSpareAndTheFinishedDecoderBecomesTheSpare() throws {
        let playing = FakeDecoder([.init(format: FakeDecoder.cd, frames: 10)])
        let spare = FakeDecoder([.init(format: FakeDecoder.halfMono, frames: 10)])
        var next = NextSong(spare: spare)
        #expect(next.takeOver(from: playing) == nil, "nothing cued")
        next.cue("b.mp3")
        #expect(next.cued == "b.mp3")
        let takenOver = next.takeOver(from: playing)
        let (decoder, source, song) = try #require(takenOver)
        #expect(source == "b.mp3")
        #expect(decoder === spare)
        #expect(song.format == FakeDecoder.halfMono)
        #expect(next.spare === playing)
        #expect(next.cued == nil)
    }

    @Test func aSongThatCannotBeOpenedAheadDoesNotTakeOver() {
        let spare = FakeDecoder([.init(format: FakeDecoder.cd, frames: 10)])
        spare.failingPaths["bad.mp3"] = .empty
        var next = NextSong(spare: spare)
        next.cue("bad.mp3")
        #expect(next.takeOver(from: FakeDecoder([])) == nil)
        var none = NextSong(spare: nil)
        none.cue("a.mp3")
        #expect(none.cued == nil, "a file output opens nothing ahead")
    }
}
