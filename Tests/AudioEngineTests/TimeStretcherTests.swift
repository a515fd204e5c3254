import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// librubberband's stretcher as the stage uses it: the length a speed gives, the pitch kept, and
/// the song's first sample where it belongs (what a seek at speed relies on).
struct TimeStretcherTests {
    static let rate = 44100

    /// `seconds` of a sine at `frequency` in 16-bit stereo, starting at `onset` seconds (silence
    /// before), rising to its level over `rise` seconds.
    static func tone(seconds: Double, frequency: Double, onset: Double = 0, rise: Double = 0) -> [Int16] {
        let frames = Int(seconds * Double(rate))
        var samples = [Int16](repeating: 0, count: frames * 2)
        let start = Int(onset * Double(rate))
        for frame in start..<frames {
            let level = rise > 0 ? min(Double(frame - start) / (rise * Double(rate)), 1) : 1
            let value = Int16(12000 * level * sin(2 * Double.pi * frequency * Double(frame) / Double(rate)))
            samples[frame * 2] = value
            samples[frame * 2 + 1] = value
        }
        return samples
    }

    /// All of `samples` through a stretcher at `speed`, in chunks of `chunk` frames, as the stage feeds it.
    /// `wanted`: bytes gathered before any is handed back (a server's prebuffer).
    static func stretch(_ samples: [Int16], speed: Double, chunk: Int = 1764, wanted: Int = 0) throws -> [Int16] {
        let format = PCMFormat(rate: rate, channels: 2, encoding: .s16)
        let stretcher = try #require(TimeStretcher(format: format, speed: speed))
        var out: [Int16] = []
        var songFrames: Int64 = 0
        let frames = samples.count / 2
        var at = 0
        repeat {
            let count = min(chunk, frames - at)
            samples.withUnsafeBytes { bytes in
                let ready = stretcher.process(bytes.baseAddress! + at * 4, bytes: count * 4, final: at + count == frames, wanted: wanted)
                out += ready.samples.bindMemory(to: Int16.self)
                songFrames += ready.songFrames
            }
            at += count
        } while at < frames
        #expect(stretcher.pendingSongFrames == 0)
        #expect(abs(songFrames - Int64(frames)) <= 1, "the song frames handed out are the song's")
        return out
    }

    /// The frequency of the left channel's tone over `frames` frames from `start`, by its
    /// upward zero crossings.
    static func frequency(_ samples: [Int16], from start: Int, frames: Int) -> Double {
        var crossings: [Int] = []
        for frame in start + 1..<start + frames where samples[(frame - 1) * 2] < 0 && samples[frame * 2] >= 0 {
            crossings.append(frame)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(last - first)
    }

    @Test(arguments: [1.5, 0.5, 2.0, 0.25, 4.0])
    func aToneKeepsItsPitchAndTakesItsTimeOverTheSpeed(speed: Double) throws {
        let out = try Self.stretch(Self.tone(seconds: 12, frequency: 440), speed: speed)
        let seconds = Double(out.count / 2) / Double(Self.rate)
        #expect(abs(seconds - 12 / speed) < 0.05, "\(seconds) s at \(speed)")
        let pitch = Self.frequency(out, from: out.count / 4, frames: Self.rate)
        #expect(abs(pitch - 440) < 1, "\(pitch) Hz at \(speed)")
    }

    /// A tone rising over 200 ms from 1.2 s reaches half its level at 1.3 s of the song: at
    /// 1.3 s of the song in the output, over its speed (a window smears an onset both ways, so its middle is
    /// what is measured, by the level over 5 ms).
    @Test(arguments: [1.5, 0.5, 0.25, 4.0])
    func whatStartsAtATimeInTheSongStartsAtThatTimeOverTheSpeed(speed: Double) throws {
        let out = try Self.stretch(Self.tone(seconds: 3, frequency: 1000, onset: 1.2, rise: 0.2), speed: speed)
        let window = Self.rate / 200
        let half = 12000 * 0.5 / 2.0.squareRoot()
        let middle = try #require(stride(from: 0, to: out.count / 2 - window, by: 10).first { start in
            let energy = (start..<start + window).reduce(0.0) { $0 + Double(out[$1 * 2]) * Double(out[$1 * 2]) }
            return (energy / Double(window)).squareRoot() >= half
        }) + window / 2
        // Within 5 ms of the song's time (20 ms of the output's at a quarter speed).
        let inSong = Double(middle) * speed / Double(Self.rate)
        #expect(abs(inSong - 1.3) < 0.005, "\(inSong) s of the song at \(speed)")
    }

    /// Output gathered up to a size before any is handed back (a server's first write) is the
    /// same output, only in fewer, larger pieces.
    @Test func gatheringBeforeHandingBackChangesNothingButThePieces() throws {
        let tone = Self.tone(seconds: 2, frequency: 440)
        let plain = try Self.stretch(tone, speed: 2)
        let gathered = try Self.stretch(tone, speed: 2, wanted: 44100 * 4 / 2)
        #expect(plain == gathered)
    }

    /// A stop at a speed: the next 10 ms faded out (`Fader.ramp`) and pushed through as the last
    /// (`final`) come out as a fade too, to silence, with no step larger than the tone's own.
    @Test(arguments: [(2.0, SampleEncoding.s16), (0.5, .s16), (1.5, .s24), (0.25, .float32)])
    func aFadeOutAtASpeedEndsInSilenceWithoutAClick(speed: Double, encoding: SampleEncoding) throws {
        let format = PCMFormat(rate: Self.rate, channels: 1, encoding: encoding)
        let stretcher = try #require(TimeStretcher(format: format, speed: speed))
        let frames = Self.rate / 2 + 441
        let level = 0.4 * encoding.fullScale
        var bytes = [UInt8](repeating: 0, count: frames * encoding.bytes)
        bytes.withUnsafeMutableBytes { raw in
            for frame in 0..<frames { encoding.store(level * sin(2 * Double.pi * 440 * Double(frame) / Double(Self.rate)), raw.baseAddress!, frame) }
        }
        var out: [Double] = []
        func take(_ ready: UnsafeRawBufferPointer) {
            let base = UnsafeMutableRawPointer(mutating: ready.baseAddress!)
            out += (0..<(ready.count / encoding.bytes)).map { encoding.sample(base, $0) / level }
        }
        bytes.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            take(stretcher.process(base, bytes: (Self.rate / 2) * encoding.bytes, final: false).samples)
            let fade = base + (Self.rate / 2) * encoding.bytes
            Fader.ramp(fade, frames: 441, format: format, from: 1, to: 0)
            take(stretcher.process(fade, bytes: 441 * encoding.bytes, final: true, fadeTail: true).samples)
        }
        #expect(abs(out.count - Int(Double(frames) / speed)) <= 1)
        #expect(out.suffix(20).allSatisfy { abs($0) < 0.03 }, "it ends in silence: \(out.suffix(5))")
        // A 440 Hz sine moves at most 2π·440/44100 of its level a sample (0.063); a click jumps.
        let steps = zip(out.dropFirst(), out).map { abs($0 - $1) }
        #expect((steps.max() ?? 0) < 0.1, "the largest step: \(steps.max() ?? 0)")
    }

    @Test func deeperSamplesAreStretchedInTheirOwnEncoding() throws {
        let format = PCMFormat(rate: Self.rate, channels: 1, encoding: .s24)
        let stretcher = try #require(TimeStretcher(format: format, speed: 2))
        var bytes = [UInt8](repeating: 0, count: Self.rate * 3)
        bytes.withUnsafeMutableBytes { raw in
            for frame in 0..<Self.rate { SampleEncoding.s24.store(4_000_000 * sin(Double(frame) / 10), raw.baseAddress!, frame) }
        }
        let ready = bytes.withUnsafeBytes { stretcher.process($0.baseAddress!, bytes: $0.count, final: true) }.samples
        #expect(abs(ready.count / 3 - Self.rate / 2) < 200)
        // Low bytes that are not all zero: the 24 bits were kept, not cut to 16.
        let low = (0..<ready.count / 3).map { ready[$0 * 3] }
        #expect(Set(low).count > 100)
    }
}
