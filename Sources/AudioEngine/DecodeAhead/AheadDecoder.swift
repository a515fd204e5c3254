import Files
import Glibc
import PlayerCore

/// A decoder that decodes ahead of the playback thread, on a thread of its own, into a bounded
/// queue of PCM: the decode-ahead buffer of cmus's pipeline. A read never waits for the disk:
/// it takes what is queued, or says `.pending` and the decoder's thread wakes the playback
/// thread (`wake`) when there is more. So a disk that stalls for seconds is heard only once the
/// queue and the output's buffer have both run dry.
///
/// The bound: `limit` bytes of PCM (1 MiB: 5.9 s at 44.1 kHz stereo, 2.7 s at 96 kHz), in
/// chunks of `chunkBytes`; the thread refills once a quarter of it has been played. A song
/// opened ahead, the next one, has `aheadChunks` decoded until it plays (128 KiB: 0.7 s).
///
/// Everything that changes what comes next (open, seek, a format imposed, close)
/// drops the queue and runs on the caller's thread once the decoder's thread has let go of the
/// decoder; a song cued as the next one (`startOpening`) is opened on the decoder's thread, so
/// a slow disk never holds up the playback thread while the current song plays.
final class AheadDecoder: AudioDecoder {
    static let chunkBytes = 32 * 1024
    static let limit = 32 * chunkBytes
    static let aheadChunks = 4

    private let core: Core

    /// Starts the decoder's thread. `wake` is called (on that thread) when a read that found the
    /// queue empty may now find more.
    init(_ inner: AudioDecoder, limit: Int = AheadDecoder.limit, wake: @escaping () -> Void) throws(SystemError) {
        core = Core(inner: inner, chunks: max(limit / Self.chunkBytes, 2), wake: wake)
        let thread = try HelperThread.start(name: "tplayer-decode") { [core] in core.run() }
        pthread_detach(thread)
    }

    /// `decoder`, decoding ahead; itself where no thread can be started (then a slow disk is
    /// only heard sooner).
    static func around(_ decoder: AudioDecoder, wake: @escaping () -> Void) -> AudioDecoder {
        do {
            return try AheadDecoder(decoder, wake: wake)
        } catch {
            return decoder
        }
    }

    deinit {
        core.state { $0.quit = true }
    }

    /// The decoder underneath (tests).
    var inner: AudioDecoder { core.inner }

    /// Whether the decoder's thread waits for something to do, not yet woken (tests).
    var isIdle: Bool { core.peek { $0.idle } }

    /// Bytes of PCM queued now (tests, `--trace`).
    var queuedBytes: Int { core.state { $0.queued.reduce(0) { $0 + $1.byteCount } } }

    /// The decoder underneath's (thread-safe): what stops its stream from here.
    var streams: StreamInterruption { core.streams }

    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        // A stream read on the decoder's thread may wait on the network: stopped first, or
        // the decoder would be let go of only once the network answers.
        streams.interrupt()
        return try core.exclusive { inner in Core.open(source, on: inner) } settle: { state, result in
            state.song = (try? result.get()).map { Song(format: $0.format, read: 0, decoding: $0.format) }
        }.get()
    }

    func startOpening(_ source: SongSource) {
        core.state { state in
            state.drop()
            state.song = nil
            state.opening = Opening(source: source)
            state.bound = min(Self.aheadChunks, core.chunks)
            state.trim()
        }
    }

    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        let asked = core.state { $0.opening?.source == source }
        guard asked, let result = core.waitForOpening() else { return try open(source) }
        return try result.get()
    }

    func close() {
        streams.interrupt()
        core.exclusive { $0.close() } settle: { state, _ in state.song = nil }
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        core.read(into: buffer, capacity: capacity)
    }

    func seek(toFrame frame: Int64) -> Int64? {
        core.exclusive { $0.seek(toFrame: frame) } settle: { state, landed in state.restart(at: landed) }
    }

    /// For the songs opened from now on: what is queued keeps its gain.
    func setEqualizer(_ bands: [[Double]]) {
        core.withDecoder { $0.setEqualizer(bands) }
    }

    func setReplayGain(_ choice: ReplayGainChoice) {
        core.withDecoder { $0.setReplayGain(choice) }
    }

    func restrictFormat(to rule: FormatRule) throws(LoadFailure) {
        try core.exclusive { inner -> Result<Void, LoadFailure> in
            do throws(LoadFailure) { return .success(try inner.restrictFormat(to: rule)) } catch { return .failure(error) }
        } settle: { state, _ in
            state.restart(at: nil)
        }.get()
    }

    var truncation: (was: Int64, now: Int64)? { core.withDecoder { $0.truncation } }
    var lengthIsExact: Bool { core.withDecoder { $0.lengthIsExact } }

    /// It plays now: it decodes ahead as far as the whole bound.
    func promoted() {
        core.withDecoder { $0.promoted() }
        core.state { state in
            state.bound = core.chunks
            state.refilling = true
        }
    }
}

extension AheadDecoder {
    /// What the queue holds: PCM, and where the stream changes format or ends.
    enum Item {
        case pcm(Chunk)
        case format(PCMFormat)
        /// Damage skipped here (`DecodeResult.skipped`).
        case skipped(Double)
        /// `.done`, or `.damaged` with no bytes (those before the damage are queued before it).
        case end(DecodeResult)

        var byteCount: Int {
            if case .pcm(let chunk) = self { chunk.end - chunk.start } else { 0 }
        }
    }

    /// One chunk of decoded PCM, read from `start` on.
    struct Chunk {
        let memory: UnsafeMutableRawPointer
        var start: Int
        let end: Int
    }

    /// The song open, as far as the queue knows.
    struct Song {
        /// The format the reader is at, and the frame of the song it reads next.
        var format: PCMFormat
        var read: Int64
        /// The format the decoder's thread decodes in now.
        var decoding: PCMFormat
        /// Decoded to its end (or its damage): nothing more to decode until a seek.
        var ended = false
    }

    /// A song opened on the decoder's thread: asked for, then its outcome.
    struct Opening {
        let source: SongSource
        var started = false
        var result: Result<OpenedSong, LoadFailure>?
    }
}
