import CMpg123
import Files
import Glibc
import PlayerCore

/// One libmpg123 handle, reused from song to song. Created in `init`, freed in `deinit`, and
/// only ever touched by the playback thread.
final class Mpg123Decoder {
    /// The handle (`Mpg123Decoder+Gain` sets its gain).
    let handle: OpaquePointer
    /// The song's bytes (a file tplayer opened and checked), as libmpg123's reader reads them.
    private var reading: SourceReading?
    /// A format change read together with the last bytes before it: said at the next read.
    private var formatAfterData: PCMFormat?
    /// Each song opened is decoded to the format it starts in, to its end (`FormatRule.first`).
    private var keepsFirstFormat = false
    /// Damage skipped in the song open now, and junk frames after it (`SkipWatch`).
    private var skips = SkipWatch(native: PCMFormat(rate: 44100, channels: 2), output: PCMFormat(rate: 44100, channels: 2),
                                  bytesPerSecond: 0, wholeFrames: { _, _ in false })
    /// MPEG samples per frame in the song open now: a read decodes about one frame's worth.
    private var samplesPerFrame = 1152
    /// The end of the song (or an error) read together with its last bytes: said next.
    private var endAfterData: DecodeResult?

    static let seekPreframes = 10
    /// The most junk skipped at once before the song is taken to end there: 16 MiB (a quarter
    /// of an hour at 128 kbit/s) costs about a quarter of a second of CPU through the buffered
    /// reader; unbounded (`mpg123 --resync-limit -1`), a sparse 16 TB file would be scanned for
    /// days.
    static let resyncLimit = 16 << 20

    /// Builds the playing song's frame index in the background, for fast far seeks (live
    /// output), once the song plays (`promoted`): a song opened ahead on the spare decoder
    /// must not take the place of the one playing.
    var indexer: FrameIndexer?
    private var openedPath: Path?
    /// Measure each song's start delay when it opens (`SongInfo.Stream.startDelay`), for
    /// mpg123's remote protocol, which counts MPEG frames.
    var measuresStartDelay = false
    /// The index asked for the song open now, until it is taken.
    private var indexRequest: Int?
    /// The ReplayGain the songs opened from now on get (`Mpg123Decoder+Gain`).
    var replayGain = ReplayGainChoice.off

    init() throws(Mpg123Error) {
        // Once per process would do; libmpg123 since 1.27 makes every call after the first a
        // no-op, so each decoder asks, and no caller has to remember to.
        mpg123_init()
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else { throw Mpg123Error(code: code) }
        self.handle = handle
        // Gapless decoding stays on: libmpg123 removes the encoder delay and padding that the
        // LAME tag declares, as the mpg123 CLI does. QUIET keeps the library off our stderr.
        let flags = Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue)
        try check(mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0))
        // After a seek, libmpg123 decodes this many layer-3 frames before the target and drops
        // them, to refill the bit reservoir and the overlap. Its default of 4 is too few for VBR
        // files: the reservoir reaches back 511 bytes, up to ~8 small frames, and the first
        // samples after a seek then differ from a straight decode. 10 is exact with margin, and
        // costs ~3 ms per seek.
        try check(mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), Self.seekPreframes, 0))
        // Damage is skipped and the song plays on, as `mpg123 --resync-limit -1` (and cmus and
        // mpv) do; what was skipped is said (`DecodeResult.skipped`), up to `resyncLimit` at
        // once. libmpg123 scans junk a byte at a time: the reader (`tp_mpg123_open_source`) makes
        // that a copy from memory, not a system call per byte.
        try check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), Self.resyncLimit, 0))
        try allowAnyFormat()
    }

    deinit {
        indexer?.stop()
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Each song opened is decoded to the format it starts in (`.first`), or to the one
    /// asked (`.exactly`) where libmpg123 converts to it itself; whether it does.
    func decode(as rule: FormatRule) throws(LoadFailure) -> Bool {
        keepsFirstFormat = rule == .first
        do throws(Mpg123Error) {
            if case .exactly(let format) = rule, Self.canConvert(to: format) {
                try imposeFormat(format)
                return true
            }
            try allowAnyFormat()
            return false
        } catch {
            throw .damaged(error.description)
        }
    }

    /// Whether libmpg123 converts songs to `format` itself: one of its own rates (every MPEG
    /// rate; 96 kHz or 1 kHz it refuses), mono or stereo, 16-bit. The rest the caller converts
    /// (a deeper file's MP3 is its 16-bit samples widened exactly, as `mpg123 -w` writes them).
    static func canConvert(to format: PCMFormat) -> Bool {
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        guard let rates, format.channels <= 2, format.encoding == .s16 else { return false }
        return UnsafeBufferPointer(start: rates, count: count).contains(format.rate)
    }

    /// Lets the next song decode at its own rate and channel count.
    func allowAnyFormat() throws(Mpg123Error) {
        try check(mpg123_format_none(handle))
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        guard let rates else { return }
        let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
        for rate in UnsafeBufferPointer(start: rates, count: count) {
            try check(mpg123_format(handle, rate, channels, tp_mpg123_enc_signed_16))
        }
    }

    /// Makes the next song decode to exactly `format`: libmpg123 converts rate and channels.
    func imposeFormat(_ format: PCMFormat) throws(Mpg123Error) {
        try check(mpg123_format_none(handle))
        let channels = Int32(format.channels == 1 ? MPG123_MONO.rawValue : MPG123_STEREO.rawValue)
        try check(mpg123_format(handle, format.rate, channels, tp_mpg123_enc_signed_16))
    }

    func open(_ path: Path) throws(LoadFailure) -> OpenedSong {
        close()
        let opened = try SongFile.open(path)
        if let content = SongFile.content(of: opened), content != .mpegAudio { throw .otherFormat(content) }
        return try open(opened, path: path)
    }

    /// Opens the song in `source` (a file `SongFile` opened and checked).
    func open(_ source: ByteSource, path: Path) throws(LoadFailure) -> OpenedSong {
        close()
        let reading = SourceReading(source)
        self.reading = reading
        // A stream (no length: it cannot seek) joined partway, as a radio is, starts anywhere in
        // a frame: libmpg123 keeps a little of it to look ahead at the next header before it
        // believes the first (MPG123_SEEKBUFFER, as the mpg123 CLI sets for http), or it may
        // take noise for a 48 kHz mono frame.
        let peek = Int32((source.length == nil ? MPG123_ADD_FLAGS : MPG123_REMOVE_FLAGS).rawValue)
        _ = mpg123_param2(handle, peek, Int(MPG123_SEEKBUFFER.rawValue), 0)
        var code = tp_mpg123_open_source(handle, SourceReading.read, SourceReading.length, reading.context)
        if code == MPG123_OK.rawValue {
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            code = mpg123_getformat2(handle, &rate, &channels, &encoding, 1)
            if code == MPG123_OK.rawValue, keepsFirstFormat {
                // Before any sample is decoded: libmpg123 converts whatever comes after to it.
                do throws(Mpg123Error) {
                    try imposeFormat(PCMFormat(rate: rate, channels: Int(channels)))
                } catch {
                    code = error.code
                }
            }
            if code == MPG123_OK.rawValue {
                let format = PCMFormat(rate: rate, channels: Int(channels))
                let id3 = Mpg123StreamInfo.id3(handle)
                var info = SongInfo(path: path, sampleRate: rate, channels: Int(channels), totalFrames: lengthInFrames,
                                    tags: SongInfo.Tags(id3))
                info.id3 = id3
                var stream = Mpg123StreamInfo.stream(handle, length: source.length, rate: rate)
                if measuresStartDelay {
                    let delay = startDelay(stream)
                    stream?.startDelay = delay
                }
                info.stream = stream
                openedPath = path
                let native = Mpg123StreamInfo.frame(handle)?.native ?? format
                skips = SkipWatch(native: native, output: format,
                                  bytesPerSecond: Double(stream?.averageBitrate ?? stream?.bitrate ?? 0) * 125,
                                  wholeFrames: { [source] from, to in Self.wholeFrames(in: source, from: from, to: to, native: native) })
                samplesPerFrame = stream?.samplesPerFrame ?? 1152
                _ = state(MPG123_FRESH_DECODER)  // set by the opening itself
                return OpenedSong(info: info, format: format)
            }
        }
        mpg123_close(handle)
        self.reading = nil
        switch Mpg123Error(code: code) {
        case .done, .generic: throw .notAudio
        case let error: throw .damaged(error.description)
        }
    }

    /// Whether `file` holds, from `from` to `to`, whole frames of `native`'s format one after
    /// another (a few: more than that in one read is not what libmpg123 does).
    private static func wholeFrames(in source: ByteSource, from: Int64, to: Int64, native: PCMFormat) -> Bool {
        var position = from
        for _ in 0..<4 {
            guard let header = MPEGFrameHeader(source.bytes(4, at: position)), header.native == native else { return false }
            position += Int64(header.length)
            if position == to { return true }
            if position > to { return false }
        }
        return false
    }

    func close() {
        mpg123_close(handle)
        reading = nil
        formatAfterData = nil
        endAfterData = nil
        indexRequest = nil
        openedPath = nil
    }

    func promoted() {
        if indexRequest == nil, let openedPath { indexRequest = indexer?.index(openedPath) }
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        if let format = formatAfterData {
            formatAfterData = nil
            return .newFormat(format)
        }
        if let seconds = skips.skippedToSay {
            skips.skippedToSay = nil
            return .skipped(seconds: seconds)
        }
        if let end = endAfterData {
            endAfterData = nil
            return end
        }
        // A frame's worth at a time, to see within a frame where damage was skipped.
        var filled = 0
        while filled < capacity {
            let step = min(capacity - filled, samplesPerFrame * skips.told.bytesPerFrame)
            var done = 0
            let code = mpg123_read(handle, buffer + filled, step, &done)
            var format: PCMFormat?
            switch code {
            case MPG123_OK.rawValue:
                break
            case MPG123_NEW_FORMAT.rawValue:
                var rate = 0
                var channels: Int32 = 0
                var encoding: Int32 = 0
                mpg123_getformat2(handle, &rate, &channels, &encoding, 0)
                format = PCMFormat(rate: rate, channels: Int(channels))
            default:
                let end = finished(code)
                filled += done
                guard filled > 0 else { return end }
                endAfterData = end
                return .data(bytes: filled)
            }
            let fresh = state(MPG123_FRESH_DECODER) > 0
            guard let frame = Mpg123StreamInfo.frame(handle) else {
                filled += done
                continue
            }
            switch skips.step(frame: frame, fresh: fresh, newFormat: format, bytes: done) {
            case .keep:
                filled += done
            case .drop:
                break
            case .keepThenChange(let next):
                // The bytes that come with the change are the last ones in the old format (a
                // short first part can be all of them): they play first, then the format changes.
                filled += done
                guard filled > 0 else { return .newFormat(next) }
                formatAfterData = next
                return .data(bytes: filled)
            case .dropThenChange(let next):
                guard filled > 0 else { return .newFormat(next) }
                formatAfterData = next
                return .data(bytes: filled)
            }
            if skips.skippedToSay != nil {
                guard filled > 0 else { return read(into: buffer, capacity: capacity) }
                return .data(bytes: filled)
            }
            if done == 0 { break }
        }
        return .data(bytes: filled)
    }

    /// The end of the stream, or an error: what libmpg123's `code` means, after the bytes that
    /// came with it.
    private func finished(_ code: Int32) -> DecodeResult {
        guard code != MPG123_DONE.rawValue else { return .done }
        // The bytes that come with an error are the last good ones: the song ends after them.
        var error = Mpg123Error(code: code)
        if error == .generic { error = Mpg123Error(code: mpg123_errcode(handle)) }  // the specific one
        // A tag at the end that claims to run on past the file (an APE footer with an absurd
        // size): libmpg123 skips it by seeking beyond the end, and then cannot read. Every frame
        // has been decoded: the song ends there, as in mpg123.
        if error == .readerFailed, let length = reading?.source.length, tp_mpg123_tell_stream(handle) >= length {
            return .done
        }
        return .damaged(bytes: 0, reason: reason(for: error))
    }

    /// What went wrong, as a phrase for "damaged at 0:15.05: ...".
    private func reason(for error: Mpg123Error) -> String {
        switch error {
        case .resyncFailed:
            var limit = 0
            var ignored = 0.0
            mpg123_getparam2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), &limit, &ignored)
            return "cannot find MPEG data to resync within \(limit) bytes"
        case .outOfSync: return "lost the MPEG frame sync"
        case .readerFailed: return "cannot read the file"
        case .generic:
            return mpg123_strerror(handle).map { String(cString: $0) } ?? error.description
        default: return error.description
        }
    }

    /// The song's length in frames, when the stream tells (LAME/Xing tag or a CBR estimate).
    var lengthInFrames: Int64? {
        let length = tp_mpg123_length(handle)
        return length >= 0 ? Int64(length) : nil
    }

    /// Reads every frame header of the open song (`mpg123_scan`) and returns the frame index
    /// that built: what `seek` hands to the playback decoder (`mpg123_set_index`).
    func scanIndex() -> FrameIndex? {
        guard mpg123_scan(handle) == MPG123_OK.rawValue else { return nil }
        var offsets: UnsafeMutablePointer<off_t>?
        var step: off_t = 0
        var fill = 0
        guard tp_mpg123_index(handle, &offsets, &step, &fill) == MPG123_OK.rawValue, let offsets, fill > 0 else { return nil }
        return FrameIndex(offsets: UnsafeBufferPointer(start: offsets, count: fill).map { Int64($0) }, step: Int64(step))
    }

    /// Whether `lengthInFrames` is exact (a LAME/Info tag counts the frames), not estimated from
    /// the file's size and its first frame (wrong for VBR without a tag, and for a stream whose
    /// later part is in another format).
    var lengthIsExact: Bool {
        state(MPG123_ACCURATE) == 1 && state(MPG123_ENC_DELAY) >= 0 && state(MPG123_FRANKENSTEIN) == 0
    }

    private func state(_ key: mpg123_state) -> Int {
        var value = 0
        var ignored = 0.0
        return mpg123_getstate2(handle, Int32(key.rawValue), &value, &ignored) == MPG123_OK.rawValue ? value : -1
    }

    /// Whether the background index for the song open now is built and not yet taken.
    var hasIndexReady: Bool {
        guard let request = indexRequest, let indexer else { return false }
        return indexer.isReady(request)
    }

    /// Moves decoding to `frame` (sample-accurate: libmpg123 uses its frame index, the whole
    /// song's once the indexer has built it).
    /// The frame decoded last: where it starts in the input.
    var inputOffset: Int64? {
        let offset = Int64(tp_mpg123_framepos(handle))
        return offset >= 0 ? offset : nil
    }

    func seek(toFrame frame: Int64) -> Int64? {
        if let request = indexRequest, let index = indexer?.take(request) {
            indexRequest = nil
            var offsets = index.offsets.map { off_t($0) }
            _ = offsets.withUnsafeMutableBufferPointer { tp_mpg123_set_index(handle, $0.baseAddress, off_t(index.step), $0.count) }
        }
        let result = tp_mpg123_seek(handle, off_t(frame), SEEK_SET)
        skips.restart()
        endAfterData = nil
        _ = state(MPG123_FRESH_DECODER)
        return result >= 0 ? Int64(result) : nil
    }

    /// How many samples libmpg123 drops before the song's first (the LAME tag's encoder delay
    /// plus the decoder's, when it honours the tag): measured by seeking to a frame past any
    /// possible delay and back, since libmpg123 says it nowhere. `nil` for songs too short.
    private func startDelay(_ stream: SongInfo.Stream?) -> Int64? {
        guard let stream else { return nil }
        let perFrame = Int64(stream.samplesPerFrame)
        // Past the largest delay a LAME tag can declare (4095 + 529 samples).
        let probe = (4095 + 529) / perFrame + 1
        guard let frames = stream.frameCount, frames > probe + 1 else { return nil }
        defer { _ = tp_mpg123_seek(handle, 0, SEEK_SET) }
        guard tp_mpg123_seek_frame(handle, off_t(probe), SEEK_SET) >= 0 else { return nil }
        let sample = Int64(tp_mpg123_tell(handle))
        guard sample >= 0 else { return nil }
        return max(probe * perFrame - sample, 0)
    }

    private func check(_ code: Int32) throws(Mpg123Error) {
        guard code == MPG123_OK.rawValue else { throw Mpg123Error(code: code) }
    }
}
