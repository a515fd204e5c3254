import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// A format decoder that gives a sine tone in pieces: `parts` of (format, frames).
private final class ToneDecoder: FormatDecoder {
    let parts: [(format: PCMFormat, frames: Int)]
    let hertz: Double
    private var part = 0
    private var frame = 0
    private var toldFormat = true
    var piece = 1000

    init(_ parts: [(format: PCMFormat, frames: Int)], hertz: Double = 1000) {
        self.parts = parts
        self.hertz = hertz
    }

    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        throw .notAudio
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        guard part < parts.count else { return .done }
        let (format, total) = parts[part]
        if !toldFormat {
            toldFormat = true
            return .newFormat(format)
        }
        let frames = min(total - frame, piece, capacity / format.bytesPerFrame)
        guard frames > 0 else {
            part += 1
            frame = 0
            toldFormat = false
            return read(into: buffer, capacity: capacity)
        }
        let samples = buffer.bindMemory(to: Int16.self, capacity: frames * format.channels)
        for index in 0..<frames {
            let value = Int16(10000 * sin(2 * Double.pi * hertz * Double(frame + index) / Double(format.rate)))
            for channel in 0..<format.channels { samples[index * format.channels + channel] = value }
        }
        frame += frames
        return .data(bytes: frames * format.bytesPerFrame)
    }

    func seek(toFrame target: Int64) -> Int64? {
        part = 0
        frame = Int(target)
        return target
    }

    func close() {}
}

struct PCMConverterTests {
    private static let cd = PCMFormat(rate: 44100, channels: 2)
    private static let dat = PCMFormat(rate: 48000, channels: 2)

    /// Everything the converter gives until the end, and the formats it said on the way.
    private static func drain(_ converter: PCMConverter, _ decoder: FormatDecoder) throws -> (samples: [Int16], formats: [PCMFormat]) {
        var samples: [Int16] = []
        var formats: [PCMFormat] = []
        var buffer = [Int16](repeating: 0, count: 4096)
        while true {
            let result = try buffer.withUnsafeMutableBytes { try converter.read(into: $0.baseAddress!, capacity: $0.count, from: decoder) }
            switch result {
            case .data(let bytes): samples += buffer.prefix(bytes / 2)
            case .newFormat(let format): formats.append(format)
            case .done: return (samples, formats)
            default: Issue.record("\(result)"); return (samples, formats)
            }
        }
    }

    /// Where the tone crosses zero upwards, in frames of `channels` (the first channel's samples).
    private static func frequency(_ samples: [Int16], channels: Int, rate: Int) -> Double {
        let left = stride(from: 0, to: samples.count, by: channels).map { samples[$0] }
        let rises = (1..<left.count).filter { left[$0 - 1] < 0 && left[$0] >= 0 }
        guard let first = rises.first, let last = rises.last, last > first else { return 0 }
        return Double(rises.count - 1) * Double(rate) / Double(last - first)
    }

    @Test func theSongsOwnFormatAtFullVolumePassesUntouched() throws {
        let decoder = ToneDecoder([(Self.cd, 44100)])
        let converted = try Self.drain(PCMConverter(from: Self.cd, to: Self.cd, keepsFormat: true), decoder)
        let straight = try Self.drain(PCMConverter(from: Self.cd, to: Self.cd, keepsFormat: false), ToneDecoder([(Self.cd, 44100)]))
        #expect(converted.samples.count == 44100 * 2)
        #expect(converted.samples == straight.samples)
        #expect(converted.samples.contains(10000) || converted.samples.max()! > 9990)
    }

    @Test func anotherRateIsResampledToTheSameLengthAndPitch() throws {
        // One second at 48 kHz written into a 44.1 kHz file is one second at 44.1 kHz, the tone
        // still 1 kHz: resampled, not written verbatim (which would be 8.8 % slower and lower).
        let converted = try Self.drain(PCMConverter(from: Self.dat, to: Self.cd, keepsFormat: true), ToneDecoder([(Self.dat, 48000)]))
        #expect(abs(converted.samples.count / 2 - 44100) <= 2, "\(converted.samples.count / 2) frames")
        #expect(abs(Self.frequency(converted.samples, channels: 2, rate: 44100) - 1000) < 1)
        #expect(converted.formats.isEmpty)
    }

    @Test func aChainedStreamsNewFormatIsConvertedAwayWhenTheFormatIsKept() throws {
        let mono = PCMFormat(rate: 22050, channels: 1)
        let decoder = ToneDecoder([(Self.cd, 44100), (mono, 22050)])
        let kept = try Self.drain(PCMConverter(from: Self.cd, to: Self.cd, keepsFormat: true), decoder)
        #expect(kept.formats.isEmpty)
        #expect(abs(kept.samples.count / 2 - 88200) <= 2, "\(kept.samples.count / 2) frames")
        #expect(abs(Self.frequency(Array(kept.samples.suffix(44100)), channels: 2, rate: 44100) - 1000) < 2)
        // With no format promised, the change is passed on (a live device reopens).
        let passed = try Self.drain(PCMConverter(from: Self.cd, to: Self.cd, keepsFormat: false), ToneDecoder([(Self.cd, 44100), (mono, 22050)]))
        #expect(passed.formats == [mono])
        #expect(passed.samples.count == 88200 + 22050)
    }

    /// A gain (the stage's, `PCMFormat.scale`) scales 16-bit samples to the nearest.
    @Test func aGainScalesToTheNearestSample() throws {
        let full = try Self.drain(PCMConverter(from: Self.cd, to: Self.cd, keepsFormat: false), ToneDecoder([(Self.cd, 4410)]))
        var half = full.samples
        half.withUnsafeMutableBytes { PCMFormat.scale($0.baseAddress!, bytes: $0.count, by: 0.5, encoding: .s16) }
        #expect(half == full.samples.map { Int16((Double($0) / 2).rounded()) })
    }

    @Test func aSeekLandsAtTheSameTimeInTheOutputsRate() throws {
        let converter = PCMConverter(from: Self.dat, to: Self.cd, keepsFormat: true)
        let decoder = ToneDecoder([(Self.dat, 96000)])
        #expect(converter.seek(toFrame: 44100, in: decoder) == 44100)
        let rest = try Self.drain(converter, decoder)
        #expect(abs(rest.samples.count / 2 - 44100) <= 2, "\(rest.samples.count / 2) frames")
    }

    @Test(arguments: [(1, 2), (2, 1), (6, 2), (2, 6)])
    func channelsAreMixedWithoutClipping(from inputs: Int, to outputs: Int) {
        let frames = 3
        let loud = [Int16](repeating: 32767, count: frames * inputs)
        let mixed = ChannelMix.mix(loud, frames: frames, from: inputs, to: outputs)
        #expect(mixed.count == frames * outputs)
        #expect(mixed.prefix(min(inputs, outputs)).allSatisfy { $0 == 32767 })
    }
}
