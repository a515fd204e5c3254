import Files
import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// Samples in every encoding the pipeline carries: read and written back exactly, scaled and
/// faded as 16-bit ones are, converted between depths (widening exact, narrowing to the
/// nearest), and written to WAV with the header `flac -d` writes.
struct SampleEncodingTests {
    /// The bytes of `values` (in each encoding's own scale) stored in `encoding`.
    static func bytes(_ values: [Double], _ encoding: SampleEncoding) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * encoding.bytes)
        bytes.withUnsafeMutableBytes { raw in
            for (index, value) in values.enumerated() { encoding.store(value, raw.baseAddress!, index) }
        }
        return bytes
    }

    static func values(_ bytes: [UInt8], _ encoding: SampleEncoding) -> [Double] {
        var bytes = bytes
        return bytes.withUnsafeMutableBytes { raw in
            (0..<(raw.count / encoding.bytes)).map { encoding.sample(raw.baseAddress!, $0) }
        }
    }

    @Test(arguments: SampleEncoding.allCases)
    func everyValueIsStoredAndReadBackExactlyAndClippedAtFullScale(_ encoding: SampleEncoding) {
        let top = encoding == .float32 ? 0.5 : encoding.fullScale - 1
        let bottom = -encoding.fullScale / (encoding == .float32 ? 2 : 1)
        let values = [0, 1, -1, top, bottom, top.rounded(.down) / 3, -12345.0.truncatingRemainder(dividingBy: encoding.fullScale)]
            .map { encoding == .float32 ? $0 / 65536 : $0.rounded() }
        #expect(Self.values(Self.bytes(values, encoding), encoding) == values)
        guard encoding != .float32 else { return }
        #expect(Self.values(Self.bytes([encoding.fullScale * 2, -encoding.fullScale * 2], encoding), encoding) == [top, bottom])
    }

    @Test func theBytesAreWhatWAVHolds() {
        #expect(Self.bytes([-1, 0x123456, -0x123456], .s24) == [0xFF, 0xFF, 0xFF, 0x56, 0x34, 0x12, 0xAA, 0xCB, 0xED])
        #expect(Self.bytes([-128, 0, 127], .u8) == [0, 0x80, 0xFF])
        #expect(Self.bytes([-2_147_483_648], .s32) == [0, 0, 0, 0x80])
    }

    /// The volume and the fades on 24-bit samples: as on 16-bit ones, to the nearest.
    @Test(arguments: [SampleEncoding.u8, .s24, .s32, .float32])
    func scalingAndFadingWorkInEachEncoding(_ encoding: SampleEncoding) {
        let values: [Double] = [100, -100, 77, -77].map { encoding == .float32 ? $0 / 4096 : $0 }
        var bytes = Self.bytes(values, encoding)
        bytes.withUnsafeMutableBytes { PCMFormat.scale($0.baseAddress!, bytes: $0.count, by: 0.5, encoding: encoding) }
        let halved: [Double] = encoding == .float32 ? values.map { $0 / 2 } : [50, -50, 39, -39]  // 38.5 rounds away from zero
        #expect(Self.values(bytes, encoding) == halved)
        let format = PCMFormat(rate: 44100, channels: 2, encoding: encoding)
        var ramp = Self.bytes([100, 100, 100, 100], encoding)
        ramp.withUnsafeMutableBytes { Fader.ramp($0.baseAddress!, frames: 2, format: format, from: 1, to: 0) }
        #expect(Self.values(ramp, encoding) == [100, 100, 50, 50])
    }

    /// A file's later songs take its first song's depth: 16 to 24 bits is exact (×256), 24 to 16
    /// is rounded to the nearest; and a resampled 24-bit song keeps its length and its tone.
    @Test func aSongIsConvertedToTheFilesDepthAndRate() throws {
        let sixteen = PCMFormat(rate: 44100, channels: 2)
        let deep = PCMFormat(rate: 44100, channels: 2, encoding: .s24)
        let widened = try Self.drain(PCMConverter(from: sixteen, to: deep, keepsFormat: true),
                                     ValuesDecoder(format: sixteen, values: [1, -1, 32767, -32768, 12345, -300]), deep)
        let expected: [Double] = [256, -256, 8_388_352, -8_388_608, 3_160_320, -76_800]
        #expect(widened == expected)
        let narrowed = try Self.drain(PCMConverter(from: deep, to: sixteen, keepsFormat: true),
                                      ValuesDecoder(format: deep, values: [256, 383, 384, -385, 8_388_607, -8_388_608]), sixteen)
        let rounded: [Double] = [1, 1, 2, -2, 32767, -32768]
        #expect(narrowed == rounded)
        let hiRes = PCMFormat(rate: 96000, channels: 2, encoding: .s24)
        let tone = (0..<9600).flatMap { frame -> [Double] in
            let value = (4_000_000 * sin(2 * Double.pi * 1000 * Double(frame) / 96000)).rounded()
            return [value, value]
        }
        let resampled = try Self.drain(PCMConverter(from: hiRes, to: PCMFormat(rate: 48000, channels: 2, encoding: .s24), keepsFormat: true),
                                       ValuesDecoder(format: hiRes, values: tone), deep)
        #expect(resampled.count == 9600, "0.1 s at 48 kHz, two channels")
        let peak = resampled.map(abs).max() ?? 0
        #expect(abs(peak - 4_000_000) < 40_000, "the tone's level kept: \(peak)")
        #expect(resampled.contains { Int($0) % 256 != 0 }, "24 bits, not 16 shifted up")
    }

    @Test func anOutputThatDoesNotTakeTheSamplesGetsThemWidened() {
        let reencoder = Reencoder()
        let unsigned = Self.bytes([-128, 0, 127], .u8)
        let wide = unsigned.withUnsafeBytes { Array(reencoder.convert($0, from: .u8, to: .s16)) }
        #expect(Self.values(wide, .s16) == [-32768, 0, 127 * 256])
        let float = Self.bytes([0.5, -1], .float32)
        let integer = float.withUnsafeBytes { Array(reencoder.convert($0, from: .float32, to: .s32)) }
        #expect(Self.values(integer, .s32) == [1_073_741_824, -2_147_483_648])
    }

    /// The WAV header for each depth and channel count is byte for byte the one `flac -d`
    /// writes (the real tool, on a file it made itself).
    @Test(arguments: [(24, 2), (32, 2), (16, 6), (8, 1), (16, 2), (24, 1), (20, 2), (12, 2)])
    func theWAVHeaderIsFlacs(bits: Int, channels: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("in.raw")
        let container = (bits + 7) / 8
        // 100 frames of a ramp, left-justified in the container as flac's raw input wants.
        var bytes: [UInt8] = []
        for frame in 0..<100 {
            for _ in 0..<channels {
                let value = ((frame - 50) << 2) << max(0, container * 8 - bits)
                bytes += (0..<container).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            }
        }
        try Data(bytes).write(to: raw)
        let flac = folder.appendingPathComponent("in.flac").path
        let wav = folder.appendingPathComponent("out.wav").path
        guard bits % 8 == 0 else {
            // flac reads raw input only in whole bytes: the header alone, against the rule.
            let format = PCMFormat(rate: 44100, channels: channels, encoding: .holding(bits: bits), bits: bits)
            let header = FileSink.header(.wav, format: format, dataBytes: 600)
            #expect(header.count == 68 && header[20] == 0xFE && header[21] == 0xFF && Int(header[38]) == bits)
            return
        }
        let encoded = try Self.run("/usr/bin/flac", ["-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed",
                                                    "--channels=\(channels)", "--bps=\(bits)", "--sample-rate=44100", raw.path, "-o", flac])
        #expect(encoded == 0)
        #expect(try Self.run("/usr/bin/flac", ["-s", "-d", "-f", flac, "-o", wav]) == 0)
        let theirs = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wav)))
        let format = PCMFormat(rate: 44100, channels: channels, encoding: .holding(bits: bits), bits: bits)
        let ours = FileSink.header(.wav, format: format, dataBytes: 100 * channels * container)
        #expect(Array(theirs.prefix(ours.count)) == ours, "\(bits) bits, \(channels) channels")
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What `converter` gives until the end, as numbers in `format`'s scale.
    static func drain(_ converter: PCMConverter, _ decoder: FormatDecoder, _ format: PCMFormat) throws -> [Double] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4800)
        while true {
            let result = try buffer.withUnsafeMutableBytes { try converter.read(into: $0.baseAddress!, capacity: $0.count, from: decoder) }
            switch result {
            case .data(let bytes): out += buffer.prefix(bytes)
            case .done: return values(out, format.encoding)
            default: Issue.record("\(result)"); return values(out, format.encoding)
            }
        }
    }
}

/// A format decoder that gives `values` (in its format's scale) in pieces.
private final class ValuesDecoder: FormatDecoder {
    let format: PCMFormat
    let bytes: [UInt8]
    private var offset = 0

    init(format: PCMFormat, values: [Double]) {
        self.format = format
        bytes = SampleEncodingTests.bytes(values, format.encoding)
    }

    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong { throw .notAudio }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        let count = min(capacity / format.bytesPerFrame * format.bytesPerFrame, bytes.count - offset, 1200)
        guard count > 0 else { return .done }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return .data(bytes: count)
    }

    func seek(toFrame target: Int64) -> Int64? { nil }
    func close() {}
}

/// libao: a device opened at another depth than the song's (one that takes no packed 24-bit)
/// gets each write rewritten for it.
struct AoDepthTests {
    @Test func aDeviceAtAnotherDepthTakesTheSongsSamplesRewritten() throws {
        let driver = try #require(AoLibrary.driver(named: "null"), "libao's null driver")
        let format = PCMFormat(rate: 48000, channels: 2, encoding: .s24)
        for device in [SampleEncoding.s24, .s32, .s16] {
            let sink = try AoSink(driver: driver, format: format, deviceEncoding: device)
            let bytes = SampleEncodingTests.bytes((0..<9600).map { Double($0 * 100) }, .s24)
            let full = try bytes.withUnsafeBytes { try sink.write($0) }
            #expect(!full, "\(device)")
            #expect(sink.format == format, "the sink says the song's format: the loop writes it so")
            try sink.close()
        }
        let opened = try AoOutput(driver: driver).open(format)
        #expect(opened.format == format)
        try opened.close()
    }
}
