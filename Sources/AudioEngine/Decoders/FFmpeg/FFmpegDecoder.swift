import CAv
import Files
import PlayerCore

/// FFmpeg's libraries, loaded once, on first use (see CAv's shim.h for why they are not linked).
enum FFmpegLibrary {
    static let api: tp_av? = {
        var api = tp_av()
        return tp_av_load(&api) == 0 ? api : nil
    }()
    static let name = String(cString: tp_av_library())
}

/// Every format no other library decodes, through FFmpeg, as cmus and mpv play them: AAC and
/// ALAC in MP4, WAV, AIFF, AU, CAF, Monkey's Audio, WavPack, WMA, Matroska, ADTS, TTA, Musepack,
/// other codecs in Ogg, and (when nothing else knows the file) whatever FFmpeg recognises with
/// certainty, such as AC-3. The samples are what `ffmpeg -i song -f s16le -` writes
/// (libswresample with its defaults) for a lossy codec, and a lossless one's own (24-bit ALAC,
/// WAV or WavPack as 24 bits, a float WAV as floats: `-f s24le`, `-f f32le`), up to the song's
/// declared end: an MP4's edit list or
/// iTunSMPB cuts the encoder's priming (FFmpeg does) and its padding (FFmpeg 5.1 does not), so
/// AAC tracks join without a gap. Seeks land on the very sample, by the frames' timestamps, and
/// give what a straight decode gives, except in AAC's noise-substituted (PNS) bands, whose
/// noise comes from the decoder's random generator: those differ by the noise (2 at most in
/// the tests' sweep).
///
/// Damage: a packet the decoder refuses is skipped and said once per place, as `.skipped`; so
/// many failures in a row (FFmpeg can fail at every call, forever) end the song as `.damaged`.
/// The decoding loop is in the shim, in C (song.h).
final class FFmpegDecoder: FormatDecoder {
    /// The song's state, in C: the contexts, the converted frame, the counts (allocated once,
    /// the sample buffer reused from song to song).
    private let song: UnsafeMutablePointer<tp_av_song>
    /// The song's bytes, as FFmpeg's I/O callbacks read them, while it is open.
    private var reading: SourceReading?
    private var format = PCMFormat(rate: 44100, channels: 2)
    /// Places of damage said, and the samples lost there said.
    private var errorsSaid: UInt32 = 0
    private var lostSaid: Int64 = 0

    init() throws(LoadFailure) {
        guard let api = FFmpegLibrary.api else { throw .decoderMissing(FFmpegLibrary.name) }
        song = .allocate(capacity: 1)
        song.initialize(to: tp_av_song())
        song.pointee.api = api
    }

    deinit {
        close()
        free(song.pointee.pcm)
        song.deallocate()
    }

    /// Opens the song in `source`. A file whose first bytes say nothing known (tried here after libmpg123
    /// found no MPEG audio in it) must be recognised with certainty, and is `.notAudio` if not.
    func open(_ source: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        close()
        let content = SongFile.content(of: source)
        let known = content.map { Codec($0) == .ffmpeg } ?? false
        let reading = SourceReading(source)
        self.reading = reading
        // A stream's first bytes may be any (joined mid-frame): the container its server named.
        let told = content == nil ? source.stream?.contentType.flatMap(FileContent.init(mediaType:)).flatMap(Self.demuxer) : nil
        let hls: HLSInput? = if case .hls(let input) = source.kind { input } else { nil }
        let status = if let hls {
            hls.url.withCString { tp_av_open_hls(song, $0, HLSInput.openURL, HLSInput.closeURL, HLSInput.interrupted, hls.context) }
        } else {
            tp_av_open(song, SourceReading.read, SourceReading.length, reading.context, known ? 0 : 1, told)
        }
        guard status == 0 else {
            let ranged = song.pointee.ranged_segment != 0
            close()
            // An HLS stream whose playlist or segment could not be opened: the network's reason.
            if let reason = hls?.failure { throw .network(reason) }
            if hls != nil, ranged {
                throw .network("an HLS stream whose segments are parts of a file (#EXT-X-BYTERANGE), which tplayer does not read yet")
            }
            if hls != nil {
                throw .network("an HLS stream whose segments cannot be read (\(message(status))); only http and https segments play")
            }
            throw failure(status, known: known)
        }
        hls?.opened()
        let state = song.pointee
        format = PCMFormat(rate: Int(state.rate), channels: Int(state.channels), encoding: Self.encoding(of: state),
                           bits: Int(state.out_bits))
        guard let context = state.format else { throw .damaged("FFmpeg opened nothing") }
        let details = FFmpegSongInfo(api: state.api, context: context, stream: Int(state.stream), rate: state.rate)
        song.pointee.end = details.end ?? -1
        errorsSaid = 0
        lostSaid = 0
        var info = SongInfo(path: path, sampleRate: format.rate, channels: format.channels, totalFrames: details.totalFrames)
        info.tags = details.comments.tags
        info.comments = details.comments
        info.bits = details.bits
        info.replayGain = details.replayGain
        info.codec = details.codec
        return OpenedSong(info: info, format: format)
    }

    /// FFmpeg's name of the container `content` is in.
    private static func demuxer(_ content: FileContent) -> String? {
        switch content {
        case .adts: "aac"
        case .mpegAudio: "mp3"
        case .flac: "flac"
        case .ogg, .oggVorbis, .opus, .oggFlac: "ogg"
        case .wav: "wav"
        case .mp4: "mov"
        case .matroska: "matroska"
        default: nil
        }
    }

    /// The samples the shim gives out for the song (`tp_av_choose_output`).
    private static func encoding(of state: tp_av_song) -> SampleEncoding {
        switch state.out_bytes {
        case 3: .s24
        case 4: state.out_float != 0 ? .float32 : .s32
        default: .s16
        }
    }

    /// What a failed open means to the user.
    private func failure(_ status: Int32, known: Bool) -> LoadFailure {
        switch status {
        case Int32(TP_AV_NOT_AUDIO):
            return known ? .damaged("FFmpeg finds no audio it can decode in it") : .notAudio
        case Int32(TP_AV_NO_DECODER):
            return .damaged("FFmpeg has no decoder for its audio")
        default:
            return .damaged("FFmpeg cannot read it (\(message(status)))")
        }
    }

    /// FFmpeg's own words for an error code.
    private func message(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        guard song.pointee.api.strerror?(code, &text, text.count) == 0 else { return "error \(code)" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        let state = song.pointee
        if state.errors > errorsSaid {
            errorsSaid = state.errors
            // Both only grow, from 0 (the C side holds `lost` at its bound).
            let lost = max(state.lost.subtractingReportingOverflow(lostSaid).partialValue, 1024)
            lostSaid = state.lost
            return .skipped(seconds: Double(lost) / Double(format.rate))
        }
        let frames = capacity / format.bytesPerFrame
        guard frames > 0 else { return .data(bytes: 0) }
        let result = tp_av_read(song, buffer, Int32(min(frames, Int(Int32.max))))
        switch result {
        case 1...:
            return .data(bytes: Int(result) * format.bytesPerFrame)
        case Int32(TP_AV_NEW_FORMAT):
            format.rate = Int(song.pointee.rate)
            format.channels = Int(song.pointee.channels)
            return .newFormat(format)
        case Int32(TP_AV_DAMAGED):
            return .damaged(bytes: 0, reason: "FFmpeg stopped decoding (\(message(song.pointee.last_error)))")
        default:
            return .done
        }
    }

    func seek(toFrame frame: Int64) -> Int64? {
        guard reading != nil else { return nil }
        let landed = tp_av_seek(song, max(frame, 0))
        errorsSaid = song.pointee.errors
        lostSaid = song.pointee.lost
        return landed < 0 ? nil : landed
    }

    func close() {
        tp_av_close(song)
        reading = nil
        // FFmpeg's openings grow the heap by tens of KB a song that small allocations made
        // meanwhile pin (a library scan of 2,000 AAC files held 100 MB of free heap): handed
        // back every 32 songs. Only here: trimming after every kind of song cost a scan of
        // 100,000 MP3s 12 s of system time re-faulting pages it had handed back.
        closed += 1
        if closed % 32 == 0 { MemoryLimit.returnFreeHeap() }
    }

    /// Songs closed, for `close`'s trimming.
    private var closed = 0
}
