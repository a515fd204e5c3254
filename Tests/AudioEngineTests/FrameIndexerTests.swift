import Foundation
import PlayerCore
import Testing
@testable import AudioEngine

/// The frame index built in the background, on the real decoder and a real VBR file: a far seek
/// through it is a jump, and lands on exactly the samples a seek without it (and a straight
/// decode) gives.
@Suite(.serialized)
struct FrameIndexerTests {
    /// Three minutes of VBR (`lame -V 2`) pink noise: frames of many sizes.
    static let song: Path = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-index-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-index-\(getpid())").path) }
        let mp3 = folder.appendingPathComponent("vbr.mp3").path
        if !FileManager.default.fileExists(atPath: mp3) {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "sox -q -n -r 44100 -c 2 -b 16 -t wav - synth 180 pinknoise tremolo 0.5 40 gain -12 | lame --quiet -V 2 - \"$0\"", mp3]
            try? shell.run()
            shell.waitUntilExit()
        }
        return Path(mp3)
    }()

    /// `count` bytes decoded from `frame` on, by a fresh decoder that may use the indexer.
    private func decode(from frame: Int64, count: Int, indexed: Bool) throws -> (bytes: [UInt8], landed: Int64?) {
        let decoder = try Mpg123Decoder()
        if indexed {
            decoder.indexer = FrameIndexer()
        }
        _ = try decoder.open(Self.song)
        decoder.promoted()
        if indexed {
            // Wait for the helper thread, as a listener would before a far seek.
            for _ in 0..<300 where !decoder.hasIndexReady { usleep(10_000) }
            #expect(decoder.hasIndexReady, "the index was built within 3 s")
        }
        let landed = decoder.seek(toFrame: frame)
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { decoder.read(into: $0.baseAddress! + filled, capacity: count - filled) }
            guard case .data(let got) = result else { break }
            filled += got
        }
        return (Array(bytes[..<filled]), landed)
    }

    @Test func aFarSeekThroughTheIndexLandsOnTheSameSamples() throws {
        for seconds in [150.0, 171.3, 7.77] {
            let frame = Int64(seconds * 44100)
            let plain = try decode(from: frame, count: 44100 * 4, indexed: false)
            let fast = try decode(from: frame, count: 44100 * 4, indexed: true)
            #expect(fast.landed == frame && plain.landed == frame)
            #expect(fast.bytes.count == 44100 * 4)
            #expect(fast.bytes == plain.bytes, "at \(seconds) s")
        }
    }

    @Test func theSamplesAreThoseOfAStraightDecode() throws {
        let frame: Int64 = 44100 * 150 + 123
        let fast = try decode(from: frame, count: 4096 * 4, indexed: true)
        let whole = Process()
        whole.executableURL = URL(fileURLWithPath: "/usr/bin/mpg123")
        whole.arguments = ["-q", "-s", "\(Self.song)"]
        let pipe = Pipe()
        whole.standardOutput = pipe
        try whole.run()
        let pcm = pipe.fileHandleForReading.readDataToEndOfFile()
        whole.waitUntilExit()
        let start = Int(frame) * 4
        #expect(fast.bytes == Array(pcm[start..<(start + 4096 * 4)]))
    }

    @Test func theIndexCoversTheWholeSong() throws {
        let index = try #require(FrameIndexer.scan(Self.song))
        // 180 s at 1152 samples a frame: ~6890 frames, all reachable by the index's steps.
        #expect(Int64(index.offsets.count) * index.step >= 6800)
        #expect(index.offsets == index.offsets.sorted())
    }

    @Test func aFileThatIsNotAudioHasNoIndex() throws {
        #expect(FrameIndexer.scan(Path("/etc/hostname")) == nil)
        #expect(FrameIndexer.scan(Path("/nonexistent/x.mp3")) == nil)
    }
}
