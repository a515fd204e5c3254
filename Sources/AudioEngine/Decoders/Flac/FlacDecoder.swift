import CFlac
import Files
import PlayerCore

/// libFLAC, loaded once, on first use (see CFlac's shim.h for why it is not linked).
enum FlacLibrary {
    static let api: tp_flac? = {
        var api = tp_flac()
        return tp_flac_load(&api) == 0 ? api : nil
    }()
    static let name = String(cString: tp_flac_library())
}

/// FLAC, native or in Ogg, through libFLAC, the format's reference decoder: the samples are
/// exactly what `flac -d` writes, at the stream's own depth (8 bits unsigned, up to 16 in 16,
/// up to 24 in 24, up to 32 in 32, left-justified as WAV holds them), and a seek lands on the
/// very sample asked for. One libFLAC decoder,
/// reused from song to song; the stream callbacks live in the shim, in C, and read the song's
/// `ByteSource`.
///
/// Damage is skipped and the song plays on, as `mpg123 --resync-limit -1` does, and each run of
/// damaged blocks is said once, as `.skipped`. What libFLAC (1.4.2) does there, seen in the tests:
/// whatever the damage (lost sync, a bad header, a block it cannot parse, a CRC mismatch), it
/// finds the next frame and gives one block of silence in place of the damaged run, and the block
/// after the run is lost with it; it numbers what follows as if nothing were missing. So how much
/// is not heard is estimated, from the bytes skipped in blocks the size of the last good one (in
/// Ogg, where libFLAC cannot say where it is in the file, one block per place). With `verifies`
/// (`--check`), a song decoded whole whose audio does not match the MD5 signature in its
/// STREAMINFO is damaged at its end, as `flac -t` says.
///
/// Fuzzing: everything read from the file goes through libFLAC (the reference decoder, fuzzed
/// upstream in OSS-Fuzz) and the callbacks in CFlac's shim, which bound what they keep (512
/// comments, 1 MiB of them, one block's samples); a fuzz target for this decoder would open its
/// bytes as a file through `SongDecoder`, as `FuzzTags` does, and read to the end.
final class FlacDecoder: FormatDecoder {
    private let api: tp_flac
    private let handle: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// The callbacks' state (in C; allocated once, the sample buffer reused).
    private let stream: UnsafeMutablePointer<tp_flac_stream>
    /// The song's bytes, as libFLAC's callbacks read them, while it is open.
    private var reading: SourceReading?
    private var initialized = false
    private var verifies = false
    private var format = PCMFormat(rate: 44100, channels: 2)
    /// Errors libFLAC reported that have been said.
    private var errorsSaid: UInt32 = 0
    private var ended = false
    /// Where in the file libFLAC last gave up on a block.
    private var givenUpAt: Int64 = -1

    init() throws(LoadFailure) {
        guard let api = FlacLibrary.api else { throw .decoderMissing(FlacLibrary.name) }
        guard let handle = api.decoder_new?() else { throw .damaged("libFLAC cannot make a decoder") }
        self.api = api
        self.handle = handle
        stream = .allocate(capacity: 1)
        stream.initialize(to: tp_flac_stream())
    }

    deinit {
        close()
        api.decoder_delete?(handle)
        tp_flac_release(stream, 1)
        stream.deallocate()
    }

    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        close()
        let ogg = SongFile.content(of: source) == .oggFlac
        let reading = SourceReading(source)
        self.reading = reading
        _ = api.set_md5_checking?(handle, verifies ? 1 : 0)
        _ = api.set_metadata_respond?(handle, FLAC__METADATA_TYPE_VORBIS_COMMENT)
        let status = withUnsafePointer(to: api) {
            tp_flac_init($0, handle, stream, SourceReading.read, SourceReading.length, reading.context, ogg ? 1 : 0)
        }
        guard status == Int32(FLAC__STREAM_DECODER_INIT_STATUS_OK.rawValue) else {
            self.reading = nil
            throw .damaged("libFLAC cannot start decoding it (init status \(status))")
        }
        initialized = true
        guard api.process_until_end_of_metadata?(handle) == 1, stream.pointee.has_info != 0 else {
            close()
            throw .damaged("no FLAC stream information (STREAMINFO) in it")
        }
        let header = stream.pointee
        guard (1...655_350).contains(header.rate), (1...8).contains(header.channels), (4...32).contains(header.bits) else {
            close()
            throw .damaged("its STREAMINFO is impossible (\(header.rate) Hz, \(header.channels) channels, \(header.bits) bits)")
        }
        self.verifies = verifies
        let bits = Int(header.bits)
        format = PCMFormat(rate: Int(header.rate), channels: Int(header.channels), encoding: .holding(bits: bits), bits: bits)
        stream.pointee.pcm_bytes = UInt32(format.bytesPerSample)
        errorsSaid = header.errors
        givenUpAt = -1
        ended = false
        var song = SongInfo(path: path, sampleRate: format.rate, channels: format.channels,
                            totalFrames: header.total > 0 ? Int64(header.total) : nil)
        let comments = VorbisComments(raw: self.comments())
        song.tags = comments.tags
        song.comments = comments
        song.bits = Int(header.bits)
        song.replayGain = comments.replayGain
        song.codec = "FLAC\(ogg ? " in Ogg" : ""), \(header.bits) bits"
        return OpenedSong(info: song, format: format)
    }

    /// The Vorbis comments the metadata callback copied.
    private func comments() -> [[UInt8]] {
        let count = Int(stream.pointee.comment_count)
        return withUnsafePointer(to: &stream.pointee.comments) { entries in
            entries.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: count) { pointers in
                withUnsafePointer(to: &stream.pointee.comment_lengths) { sizes in
                    sizes.withMemoryRebound(to: UInt32.self, capacity: count) { lengths in
                        (0..<count).map { index in
                            pointers[index].map { Array(UnsafeBufferPointer(start: $0, count: Int(lengths[index]))) } ?? []
                        }
                    }
                }
            }
        }
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        while true {
            let state = stream.pointee
            let holdsBlock = state.pcm_taken < state.pcm_frames
            // Said once a good block follows the damage, so that a run of damaged blocks is one
            // span; damage in the last block is a file cut short (`SongChecker` compares where
            // it ends with the STREAMINFO's length).
            if state.errors > errorsSaid, holdsBlock {
                errorsSaid = state.errors
                stream.pointee.missing = 0
                return .skipped(seconds: Double(state.missing) / Double(format.rate))
            }
            if holdsBlock, let pcm = state.pcm {
                let channels = Int(state.pcm_channels)
                if channels != format.channels || (state.pcm_rate != 0 && Int(state.pcm_rate) != format.rate) {
                    format.rate = state.pcm_rate != 0 ? Int(state.pcm_rate) : format.rate
                    format.channels = channels
                    return .newFormat(format)
                }
                let frames = min(capacity / format.bytesPerFrame, state.pcm_frames - state.pcm_taken)
                guard frames > 0 else { return .data(bytes: 0) }
                buffer.copyMemory(from: pcm + state.pcm_taken * format.bytesPerFrame, byteCount: frames * format.bytesPerFrame)
                stream.pointee.pcm_taken += frames
                return .data(bytes: frames * format.bytesPerFrame)
            }
            if ended { return finish() }
            guard initialized else { return .done }
            let decoded = api.process_single?(handle) == 1
            switch api.get_state?(handle) ?? FLAC__STREAM_DECODER_ABORTED {
            case FLAC__STREAM_DECODER_END_OF_STREAM:
                ended = true
                continue
            case FLAC__STREAM_DECODER_SEARCH_FOR_METADATA, FLAC__STREAM_DECODER_READ_METADATA,
                 FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC, FLAC__STREAM_DECODER_READ_FRAME:
                if decoded { continue }
                // libFLAC gave up on a block but not on the stream: what it holds is dropped and
                // it looks for the next frame from as far as the file has been read, once per
                // place (the read position moves on each time, to the end at the latest).
                if stream.pointee.offset > givenUpAt, api.flush?(handle) == 1 {
                    givenUpAt = stream.pointee.offset
                    tp_flac_gave_up(stream)
                    continue
                }
                fallthrough
            default:
                ended = true
                return .damaged(bytes: 0, reason: "libFLAC stopped decoding (\(stateName))")
            }
        }
    }

    /// The end of the stream: with `verifies`, the MD5 signature of all that was decoded is
    /// checked, unless libFLAC met damage (the signature cannot match then) or the file
    /// ends before its STREAMINFO's length (`SongChecker` says it was cut short).
    private func finish() -> DecodeResult {
        let state = stream.pointee
        guard verifies, initialized, state.errors == 0, state.total == 0 || state.expected >= state.total,
              api.get_state?(handle) == FLAC__STREAM_DECODER_END_OF_STREAM else { return .done }
        initialized = false
        guard api.finish?(handle) == 1 else {
            return .damaged(bytes: 0, reason: "the decoded audio does not match the MD5 signature in its STREAMINFO")
        }
        return .done
    }

    private var stateName: String {
        let state = api.get_state?(handle) ?? FLAC__STREAM_DECODER_ABORTED
        switch state {
        case FLAC__STREAM_DECODER_OGG_ERROR: return "an Ogg error"
        case FLAC__STREAM_DECODER_SEEK_ERROR: return "a seek error"
        case FLAC__STREAM_DECODER_ABORTED: return "the file could not be read"
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: return "out of memory"
        default: return "state \(state.rawValue)"
        }
    }

    func seek(toFrame frame: Int64) -> Int64? {
        guard initialized else { return nil }
        let total = Int64(stream.pointee.total)
        var target = max(frame, 0)
        tp_flac_seeking(stream, UInt64(target))
        givenUpAt = -1
        if total > 0, target >= total {
            target = total
            ended = true
            return target
        }
        ended = false
        // libFLAC hands the block holding the target to the write callback, from the target on.
        guard api.seek_absolute?(handle, UInt64(target)) == 1 else {
            if api.get_state?(handle) == FLAC__STREAM_DECODER_SEEK_ERROR { _ = api.flush?(handle) }
            return nil
        }
        errorsSaid = stream.pointee.errors
        return target
    }

    func close() {
        if initialized {
            _ = api.finish?(handle)
            initialized = false
        }
        tp_flac_release(stream, 0)
        stream.pointee.pcm_frames = 0
        stream.pointee.pcm_taken = 0
        reading = nil
    }
}
