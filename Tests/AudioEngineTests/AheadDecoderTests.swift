import Files
import Glibc
import PlayerCore
import Testing
@testable import AudioEngine

/// A fake decoder whose reads (or opens) stop at a gate until a test opens it: a disk that
/// stalls, for as long as the test likes, at the frame it likes. It says when a read is stuck.
/// Its samples tell where they are in the song (sample `n` of stereo CD audio is `n`), seeks
/// included.
final class GatedDecoder: AudioDecoder {
    struct Gate {
        /// Reads from this frame on wait for the gate to open.
        var readsFrom: Int?
        /// Opens wait for the gate to open.
        var opens = false
        var isOpen = false
        /// The frame a read was stuck at.
        var stuckAt: Int?
        var seeks: [Int64] = []
        var threads: Set<String> = []
    }

    let inner: FakeDecoder
    let gate = Locked(Gate())
    private var frames = 0

    init(_ inner: FakeDecoder) {
        self.inner = inner
    }

    func release() {
        gate.update { $0.isOpen = true }
    }

    /// Waits until a read (or an open) is stuck at the gate.
    func waitUntilStuck() -> Int? {
        gate.wait(until: { $0.stuckAt != nil }, timeout: 60) { $0.stuckAt }
    }

    private func pass(at frame: Int) {
        let stuck = gate.update { state -> Bool in
            guard !state.isOpen, state.opens || state.readsFrom.map({ frame >= $0 }) ?? false else { return false }
            state.stuckAt = frame
            return true
        }
        if stuck { gate.wait(until: { $0.isOpen }, timeout: nil) { _ in } }
    }

    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        pass(at: 0)
        frames = 0
        return try inner.open(source)
    }

    func close() {}

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        pass(at: frames)
        let result = inner.read(into: buffer, capacity: capacity)
        if case .data(let bytes) = result {
            let samples = buffer.assumingMemoryBound(to: Int16.self)
            for index in 0..<(bytes / 2) { samples[index] = Int16(truncatingIfNeeded: frames * 2 + index) }
            frames += bytes / FakeDecoder.cd.bytesPerFrame
        }
        return result
    }

    func seek(toFrame frame: Int64) -> Int64? {
        gate.update { $0.seeks.append(frame) }
        frames = Int(frame)
        return inner.seek(toFrame: frame)
    }

    func restrictFormat(to rule: FormatRule) throws(LoadFailure) {
        try inner.restrictFormat(to: rule)
    }

    func promoted() {}
    func startOpening(_ source: SongSource) {}
    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong { try open(source) }
    func setReplayGain(_ choice: ReplayGainChoice) {}
    func setEqualizer(_ bands: [[Double]]) {}

    var truncation: (was: Int64, now: Int64)? { nil }
    var lengthIsExact: Bool { false }
}

/// The reader's side: reads as the playback loop does, waiting for the decoder's wake when
/// nothing is queued.
final class AheadReader {
    let woke = Locked(false)
    private(set) var decoder: AheadDecoder!
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
    private(set) var samples: [Int16] = []
    private(set) var pendings = 0

    init(_ inner: AudioDecoder, limit: Int = AheadDecoder.limit) throws {
        let woke = self.woke
        decoder = try AheadDecoder(inner, limit: limit) { woke.update { $0 = true } }
    }

    deinit {
        buffer.deallocate()
    }

    /// Reads up to `frames` frames in the loop's chunks; stops at `.pending` when told to,
    /// otherwise waits for the wake and goes on. Returns what ended the reading: `.pending`
    /// too when no wake came in 60 s (a guard against a lost wake, not a measure).
    @discardableResult
    func read(frames: Int, chunk: Int = 1764, stopAtPending: Bool = false) -> DecodeResult? {
        var left = frames
        while left > 0 {
            let result = decoder.read(into: buffer, capacity: min(chunk, left) * 4)
            switch result {
            case .data(let bytes):
                samples += UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Int16.self), count: bytes / 2)
                left -= bytes / 4
            case .pending:
                pendings += 1
                if stopAtPending { return result }
                guard woke.wait(until: { $0 }, timeout: 60, then: { woke in defer { woke = false }; return woke }) else { return result }
            case .newFormat, .skipped:
                continue
            case .done, .damaged:
                return result
            }
        }
        return nil
    }

    /// Each sample the fake decodes is the count of samples before it: no gap, no repeat.
    func isUnbroken(from first: Int16 = 0) -> Bool {
        firstBreak(from: first) == nil
    }

    /// Where the samples first differ from an unbroken count: the index, and what is there.
    func firstBreak(from first: Int16 = 0) -> (index: Int, sample: Int16)? {
        samples.enumerated().first { $0.element != Int16(truncatingIfNeeded: Int(first) + $0.offset) }.map { ($0.offset, $0.element) }
    }
}

@Suite struct AheadDecoderTests {
    static func song(seconds: Double) -> FakeDecoder {
        FakeDecoder([.init(format: FakeDecoder.cd, frames: Int(seconds * 44100))])
    }

    @Test func aStallOfTwoSecondsIsCoveredByWhatWasDecodedAhead() throws {
        let gated = GatedDecoder(Self.song(seconds: 10))
        gated.gate.update { $0.readsFrom = 4 * 44100 }  // the disk stalls 4 s into the song
        let reader = try AheadReader(gated)
        _ = try reader.decoder.open("a.mp3")
        reader.read(frames: 44100)  // the first second plays
        let stuckAt = try #require(gated.waitUntilStuck())
        // The decoder is stuck: everything up to there is queued, and reads take it without
        // waiting, seconds of it.
        let before = reader.samples.count / 2
        #expect(reader.read(frames: 10 * 44100, stopAtPending: true) == .pending)
        let covered = reader.samples.count / 2 - before
        #expect(covered == stuckAt - 44100, "all that was decoded before the stall is read")
        #expect(covered >= 2 * 44100, "at least 2 s of audio covers the stall: \(covered) frames")
        gated.release()
        #expect(reader.read(frames: 10 * 44100) == .done)
        #expect(reader.samples.count == 2 * 10 * 44100)
        #expect(reader.isUnbroken(), "the stream goes on sample for sample after the stall")
    }

    @Test func itGivesWhatTheDecoderGivesFormatChangesAndDamageIncluded() throws {
        func make() -> FakeDecoder {
            let decoder = FakeDecoder([.init(format: FakeDecoder.cd, frames: 100_000), .init(format: FakeDecoder.halfMono, frames: 50_000)])
            decoder.damagedAt = 140_000
            return decoder
        }
        let plain = make()
        _ = try plain.open("a.mp3")
        let small = make()
        small.framesPerRead = 1000  // chunks filled by many reads: the format change and damage fall inside one
        let ahead = try AheadDecoder(small, limit: 2 * AheadDecoder.chunkBytes) {}
        _ = try ahead.open("a.mp3")
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        func stream(_ decoder: AudioDecoder, chunk: Int) -> [String] {
            var out: [String] = []
            while true {
                let result = decoder.read(into: buffer, capacity: chunk)
                switch result {
                case .pending: continue  // the decoder's thread is at work: ask again
                case .data(let bytes):
                    out += UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Int16.self), count: bytes / 2).map { "\($0)" }
                case .newFormat(let format): out.append("format \(format)")
                case .skipped(let seconds): out.append("skipped \(seconds)")
                case .done:
                    return out + ["done"]
                case .damaged(let bytes, let reason):
                    out += UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Int16.self), count: bytes / 2).map { "\($0)" }
                    return out + ["damaged: \(reason)"]
                }
            }
        }
        let expected = stream(plain, chunk: 4000)
        let got = stream(ahead, chunk: 1764 * 4)
        #expect(got.count == expected.count)
        #expect(got == expected)
        #expect(expected.last == "damaged: lost the MPEG frame sync")
        #expect(expected.contains("format 22050 Hz mono"))
        #expect(ahead.read(into: buffer, capacity: 4) == .damaged(bytes: 0, reason: "lost the MPEG frame sync"), "the end stays")
    }

    @Test func aSeekDropsWhatWasQueuedAndReadsFromTheFrameItLandedOn() throws {
        let gated = GatedDecoder(Self.song(seconds: 10))
        let reader = try AheadReader(gated)
        _ = try reader.decoder.open("a.mp3")
        reader.read(frames: 1000)
        #expect(reader.decoder.seek(toFrame: 200_000) == 200_000)
        let before = reader.samples.count
        reader.read(frames: 1000)
        #expect(reader.samples[before] == Int16(truncatingIfNeeded: 400_000), "the first sample after the seek is the target's")
        #expect(reader.samples[before - 1] == 1999)
    }

    @Test func theNextSongOpensOnTheDecodersThreadAndIsWaitedForWhenTaken() throws {
        let gated = GatedDecoder(Self.song(seconds: 1))
        gated.gate.update { $0.opens = true }
        let ahead = try AheadDecoder(gated) {}
        ahead.startOpening("b.mp3")  // returns at once, though the open is stuck
        #expect(gated.waitUntilStuck() == 0)
        gated.release()
        let opened = try ahead.opened("b.mp3")
        #expect(opened.info.path == "b.mp3")
        #expect(try ahead.opened("c.mp3").info.path == "c.mp3", "a song not asked for ahead is opened now")
    }

    /// Polls (a guard of 60 s, not a measure) until `ready` holds.
    static func eventually(_ ready: () -> Bool) -> Bool {
        for _ in 0..<60_000 {
            if ready() { return true }
            usleep(1000)
        }
        return ready()
    }

    @Test func theNextSongHasOnlyItsStartDecodedUntilItPlays() throws {
        let ahead = try AheadDecoder(Self.song(seconds: 60)) {}
        let opening = AheadDecoder.aheadChunks * AheadDecoder.chunkBytes
        ahead.startOpening("b.mp3")
        _ = try ahead.opened("b.mp3")
        #expect(Self.eventually { ahead.queuedBytes >= opening })
        usleep(100_000)
        #expect(ahead.queuedBytes == opening, "no more than its start, while another song plays")
        ahead.promoted()
        #expect(Self.eventually { ahead.queuedBytes >= AheadDecoder.limit }, "then as far as the whole bound")
        usleep(100_000)
        #expect(ahead.queuedBytes == AheadDecoder.limit)
    }

    /// The queue was full when its song began to play (a quick decoder, a slow start): each
    /// chunk read must still wake the decoder's thread to refill it. It once did only when the
    /// queue had first stopped refilling, which `promoted` had already undone: every thread
    /// then waited for good, and a live list of AAC songs stopped a second in.
    @Test func aQueueFullWhenItsSongIsPromotedIsRefilledAsItIsRead() throws {
        let limit = 4 * AheadDecoder.chunkBytes
        let reader = try AheadReader(Self.song(seconds: 5), limit: limit)
        _ = try reader.decoder.open("a.mp3")
        #expect(Self.eventually { reader.decoder.queuedBytes >= limit })
        reader.decoder.promoted()
        #expect(Self.eventually { reader.decoder.isIdle }, "the thread sees the queue full")
        #expect(reader.read(frames: 10 * 44100) == .done, "read to the end, woken each time the queue ran dry")
        #expect(reader.samples.count == 2 * 5 * 44100)
        #expect(reader.isUnbroken())
    }

    /// A decoder that gives one codec frame a read (FFmpeg's AAC, vorbisfile) fills the queue
    /// as far as one that gives a chunk: the bound is bytes of audio, not reads. Each read once
    /// took a chunk of its own, so an AAC song had 0.7 s decoded ahead instead of 5.9 s.
    @Test func smallReadsFillTheQueueToItsBoundInBytes() throws {
        let song = Self.song(seconds: 60)
        song.framesPerRead = 1024
        let reader = try AheadReader(song, limit: 4 * AheadDecoder.chunkBytes)
        _ = try reader.decoder.open("a.mp3")
        reader.decoder.promoted()
        let full = 4 * AheadDecoder.chunkBytes
        #expect(Self.eventually { reader.decoder.queuedBytes >= full })
        #expect(reader.decoder.queuedBytes == full)
        reader.read(frames: 10 * 44100)
        #expect(reader.isUnbroken())
    }

    @Test func theQueueNeverHoldsMoreThanItsBound() throws {
        let reader = try AheadReader(Self.song(seconds: 60), limit: 4 * AheadDecoder.chunkBytes)
        _ = try reader.decoder.open("a.mp3")
        let full = 4 * AheadDecoder.chunkBytes
        // Wait for the thread to fill it (the bound reached ends the wait), then give it time
        // to overfill, which it must not.
        #expect(Self.eventually { reader.decoder.queuedBytes >= full })
        usleep(100_000)
        #expect(reader.decoder.queuedBytes == full)
        reader.read(frames: 44100)
        #expect(reader.isUnbroken())
    }
}
