import Files
import Foundation
import Glibc
import PlayerCore
import Testing
@testable import AudioEngine

/// A song's bytes held in memory, with no file underneath: what a network stream gives. Its
/// length may be unknown, as a live stream's is.
final class MemoryBytes: ByteSource {
    let bytes: [UInt8]
    let knowsLength: Bool
    private(set) var reads = 0

    init(_ bytes: [UInt8], knowsLength: Bool = true) {
        self.bytes = bytes
        self.knowsLength = knowsLength
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        reads += 1
        guard offset >= 0, count >= 0 else {
            errno = EINVAL
            return -1
        }
        guard offset < Int64(bytes.count) else { return 0 }
        let start = Int(offset)
        let taken = min(count, bytes.count - start)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: taken) }
        return taken
    }

    var length: Int64? { knowsLength ? Int64(bytes.count) : nil }
    var kind: ByteSourceKind { .held }
}

/// Every decoder reads a song through the one `ByteSource` seam: the same song gives the same
/// samples from its file and from bytes in memory, whichever library decodes it.
struct ByteSourceTests {
    static let sweep = "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 2 sine 100:5000 gain -3"

    static let formats = [
        ("MP3", "song.mp3", "\(sweep) | lame --silent -b 128 - \"$0\""),
        ("FLAC", "song.flac", "\(sweep) | flac -s -f -o \"$0\" -"),
        ("Ogg Vorbis", "song.ogg", "\(sweep) | oggenc -Q -o \"$0\" -"),
        ("Opus", "song.opus", "\(sweep) | opusenc --quiet - \"$0\""),
        ("WAV (FFmpeg)", "song.wav", "\(sweep) > \"$0\""),
    ]

    @Test(arguments: formats)
    func aSongInMemoryDecodesAsItsFileDoes(format: String, name: String, script: String) throws {
        let song = try Fixture.make(name, script)
        let fromFile = try FlacDecoderTests.decode(song)
        let bytes = MemoryBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: song))))
        let decoder = SongDecoder()
        let opened = try decoder.open(bytes, named: Path(song))
        let fromMemory = FlacDecoderTests.drain(decoder)
        #expect(opened == fromFile.song, "\(format): the same song, format and length")
        #expect(fromMemory.count > 44100, "\(format): decoded")
        #expect(fromMemory == fromFile.samples, "\(format): the same samples")
        #expect(bytes.reads > 0)
    }

    /// A live stream's length is not known: every library reads on to its end all the same.
    @Test(arguments: formats)
    func aSourceOfUnknownLengthPlaysWhole(format: String, name: String, script: String) throws {
        let song = try Fixture.make(name, script)
        let fromFile = try FlacDecoderTests.decode(song).samples
        let decoder = SongDecoder()
        _ = try decoder.open(MemoryBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: song))), knowsLength: false), named: Path(song))
        let fromMemory = FlacDecoderTests.drain(decoder)
        #expect(fromMemory.count == fromFile.count, "\(format)")
        let first = zip(fromMemory, fromFile).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "\(format): first differs at \(first ?? -1)")
        #expect(decoder.truncation == nil, "a length never known is never cut short")
    }
}
