import Files
import Foundation
import Glibc
import PlayerCore
import Testing
@testable import AudioEngine
import TestSupport

/// The Snapcast output's parts on their own, against real pipes and sockets: the format read
/// from a control port (a hostile one too), the pipe written, taken out when nobody reads and
/// said once, 24-bit samples as snapserver holds them, and the time the rooms hear.
/// (`SnapcastLiveTests` plays to a real snapserver and its rooms.)
struct SnapcastOutputTests {
    private func folder() throws -> String {
        try TestFolders.make("snapcast").path
    }

    @Test func formatsAndDestinationsAreCheckedAsSettings() throws {
        #expect(SnapcastFormat.parse("48000:16:2") == SnapcastFormat(rate: 48000, bits: 16, channels: 2))
        #expect(SnapcastFormat.parse("96000:24:2") == SnapcastFormat(rate: 96000, bits: 24, channels: 2))
        for bad in ["48000:16", "48000:20:2", "48000:16:0", "48000:16:9", "4:16:2", "99999999999999999999:16:2", "48000:+16:2",
                    "48000:16:2:1", "", "::", "48000:16:2 "] {
            #expect(SnapcastFormat.parse(bad) == nil, "\(bad)")
        }
        #expect(try SnapcastOutput.Destination.parse(nil).get() == .pipe(Path("/tmp/snapfifo")))
        #expect(try SnapcastOutput.Destination.parse("tcp://127.0.0.1:4953").get() == .tcp(.inet4(host: "127.0.0.1", port: 4953)))
        #expect(try SnapcastOutput.Destination.parse("tcp://127.0.0.1").get() == .tcp(.inet4(host: "127.0.0.1", port: 4953)))
        #expect(throws: OutputError.self) { try SnapcastOutput.Destination.parse("tcp://music.example:4953").get() }
        #expect(throws: OutputError.self) { try SnapcastOutput.Destination.parse("tcp:///run/snap.sock").get() }
    }

    @Test func aRegularFileIsNeverWrittenInto() throws {
        let file = try folder() + "/song.flac"
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: OutputError.self) { try OutputChoice(.live(driver: "snapcast"), setup: OutputSetup(device: file)) }
        guard case .failure(.notAPipe) = OutboundPipe.open(Path(file)) else { Issue.record("a file opened as a pipe"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not audio".utf8))
    }

    @Test func thePipeIsMadeWhenMissingAndWrittenWholeFrames() throws {
        let path = try folder() + "/snapfifo"
        let output = SnapcastOutput(destination: .pipe(Path(path)), setup: Self.setup(control: nil))
        #expect(output.fixedFormat == PCMFormat(rate: 48000, channels: 2, encoding: .s16))
        let sink = try output.open(#require(output.fixedFormat))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let samples = (0..<960).map { Int16(truncatingIfNeeded: $0 * 31) }
        _ = try samples.withUnsafeBytes { try sink.write($0) }
        var got = [Int16](repeating: 0, count: 960)
        #expect(read(reader, &got, 1920) == 1920)
        #expect(got == samples)
        try sink.close()
    }

    @Test func twentyFourBitsGoInFourBytesAsSnapserverHoldsThem() throws {
        let path = try folder() + "/snapfifo"
        var setup = Self.setup(control: nil)
        setup.format = SnapcastFormat(rate: 48000, bits: 24, channels: 2)
        let output = SnapcastOutput(destination: .pipe(Path(path)), setup: setup)
        let format = try #require(output.fixedFormat)
        #expect(format.encoding == .s32)
        let sink = try output.open(format)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let samples: [Int32] = [Int32.max, Int32.min, 0x0012_3480, 0x0012_347F, -0x100, 256]
        _ = try samples.withUnsafeBytes { try sink.write($0) }
        var got = [Int32](repeating: 0, count: samples.count)
        #expect(read(reader, &got, samples.count * 4) == samples.count * 4)
        #expect(got == [0x7F_FFFF, -0x80_0000, 0x1235, 0x1234, -1, 1])
    }

    @Test func aPipeNobodyReadsIsSaidOnceAndPlaysOnUntilItIsReadAgain() throws {
        let path = try folder() + "/snapfifo"
        let output = SnapcastOutput(destination: .pipe(Path(path)), setup: Self.setup(control: nil))
        let format = try #require(output.fixedFormat)
        let sink = try output.open(format)
        let chunk = [Int16](repeating: 1000, count: 3840)  // 40 ms
        let started = Monotonic.milliseconds()
        // Four seconds at real time's pace, nobody reading: never held up, said once.
        for _ in 0..<100 {
            _ = try chunk.withUnsafeBytes { try sink.write($0) }
            usleep(10_000)
        }
        #expect(Monotonic.milliseconds() - started < 3000, "writes waited on a pipe nobody reads")
        var said: [String] = []
        while let notice = output.takeNotice() { said.append(notice) }
        #expect(said.count == 1 && said[0].contains("stopped reading"), "\(said)")
        // Someone reads again: said once.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        var scratch = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<5 {
            _ = read(reader, &scratch, scratch.count)
            _ = try chunk.withUnsafeBytes { try sink.write($0) }
        }
        while let notice = output.takeNotice() { said.append(notice) }
        #expect(said.count == 2 && said[1].contains("reads \(path) again"), "\(said)")
    }

    /// What snapserver has not read goes back: the newest frames are replaced, the older ones
    /// written again, whole frames, and two of its reads' worth is never taken.
    @Test func whatIsNotReadIsTakenBackAndWrittenOver() throws {
        let path = try folder() + "/snapfifo"
        let output = SnapcastOutput(destination: .pipe(Path(path)), setup: Self.setup(control: nil))
        let sink = try output.open(#require(output.fixedFormat))
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        // 0.2 s of frames numbered 0, 1, 2… in both channels, written in 40 ms chunks.
        let frames = (0..<9600).flatMap { [Int16($0 % 30000), Int16($0 % 30000)] }
        for chunk in stride(from: 0, to: frames.count, by: 3840) {
            _ = try frames[chunk..<(chunk + 3840)].withUnsafeBytes { try sink.write($0) }
        }
        #expect(sink.canTakeBack)
        // Unread: 9,600 frames; never the first 40 ms (1,920 frames).
        #expect(sink.replaceableFrames == 9600 - 1920)
        let replacement = [Int16](repeating: -7, count: 200)  // 100 frames
        try replacement.withUnsafeBytes { try sink.write($0, over: 5000) }
        var got = [Int16](repeating: 0, count: 40000)
        let count = read(reader, &got, got.count * 2) / 2
        #expect(count == (9600 - 5000 + 100) * 2)
        #expect(Array(got[0..<(4600 * 2)]) == Array(frames[0..<(4600 * 2)]))
        #expect(Array(got[(4600 * 2)..<count]) == replacement)
        #expect(sink.replaceableFrames == 0, "all was read")
    }

    @Test func theRoomsHearWhatWasReadABufferLater() {
        var spans = HeardSpans()
        spans.wrote(seconds: 0.04, at: 10, keeping: 1)
        spans.wrote(seconds: 0.04, at: 10.01, keeping: 1)  // queued behind the first
        #expect(abs(spans.unheard(at: 10.01, buffer: 1) - 0.08) < 1e-9)
        #expect(abs(spans.unheard(at: 11.04, buffer: 1) - 0.04) < 1e-9)
        #expect(spans.unheard(at: 11.2, buffer: 1) == 0)
        // A pause: what was written before it is heard out; after it, a new span.
        spans.wrote(seconds: 0.04, at: 20, keeping: 1)
        #expect(abs(spans.unheard(at: 20, buffer: 1) - 0.04) < 1e-9)
    }

    @Test func aControlPortThatAnswersGarbageOrNothingGivesTheSettingsFormatInASecond() throws {
        for answer in ["garbage\n", #"{"result":{"server":{"streams":[{"id":"x","uri":{"scheme":"pipe","path":"/tmp/snapfifo","query":{"sampleformat":"99:99:99"}}}]}}}"# + "\n", nil] {
            guard case .success(let listener) = ListeningSocket.listen(on: .inet4(host: "127.0.0.1", port: 0)) else {
                Issue.record("cannot listen")
                return
            }
            let listening = listener.descriptor
            let port = Self.port(of: listening)
            let served = Thread {
                // A server that reads the question, then answers garbage, or nothing, and holds on.
                guard Waiting.readable(listening, within: 3000) else { return }
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                _ = Waiting.readable(client, within: 3000)
                var question = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &question, question.count)
                if let answer { _ = Array(answer.utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) } }
                usleep(1_500_000)
                close(client)
            }
            served.start()
            let started = Monotonic.milliseconds()
            let output = SnapcastOutput(destination: .pipe(Path("/tmp/snapfifo")), setup: Self.setup(control: "127.0.0.1:\(port)"))
            #expect(output.fixedFormat == PCMFormat(rate: 48000, channels: 2, encoding: .s16))
            #expect(Monotonic.milliseconds() - started < 1300)
            let notice = output.takeNotice() ?? ""
            #expect(notice.contains("writing snapcast-format 48000:16:2"), "\(notice)")
            listener.close()
        }
    }

    private static func setup(control: String?) -> SnapcastSetup {
        var setup = SnapcastSetup()
        setup.control = control
        return setup
    }

    private static func port(of descriptor: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }
}
