import COpus
import Files
import PlayerCore

/// libopusfile, loaded once, on first use (see COpus's shim.h for why it is not linked).
enum OpusLibrary {
    static let api: tp_opus? = {
        var api = tp_opus()
        return tp_opus_load(&api) == 0 ? api : nil
    }()
    static let name = String(cString: tp_opus_library())
}

/// Opus through libopusfile, the format's reference library, reading the song's `ByteSource`
/// (through the callbacks in COpus's shim). Opus is always decoded at 48 kHz.
///
/// opusfile does what the format asks of a player: it drops the pre-skip and trims the end to
/// the last granule position (songs cut from one recording join without a gap), applies the
/// header's output gain, and `op_pcm_seek` lands on the very sample. Its 16-bit conversion
/// dithers by default (noise shaped, from a random seed); tplayer turns dithering off, so that
/// the same song always gives the same samples: then `op_read` soft-clips and rounds each float
/// sample to the nearest, exactly as `opusdec --no-dither` does, and the two write the same
/// samples.
///
/// Seeks: after `op_pcm_seek`'s own pre-roll (80 ms, what the format promises converges), the
/// decoder's state still differs from a decode from the start: measured on a sweep, by up to
/// 4,200 (of 32,768) for 0.4 s, 5 after 0.2 s more, none after 0.5 s more. So a seek lands
/// `preroll` (0.5 s) before the target and decodes up to it, giving exactly what a decode from
/// the start gives (tested sample for sample), for the time 0.5 s takes to decode (a few ms).
///
/// A chained stream whose next link has another channel count says `.newFormat`. Damage: a page
/// whose CRC fails is dropped, and the samples it held are said as `.skipped` (see
/// `OggStreamWatch`); a file cut short ends where its last whole page does. The R128 gains are
/// read as ReplayGain (`ReplayGain(opus:)`).
final class OpusDecoder: FormatDecoder {
    private let api: tp_opus
    private var handle: OpaquePointer?
    private let source: UnsafeMutablePointer<tp_opus_source>
    /// The song's bytes, as libopusfile's callbacks read them, while it is open.
    private var reading: SourceReading?
    private var ended = false
    private var total: Int64?
    private var watch = OggStreamWatch()
    private var links = OggLinkTitles()
    /// The frames a seek decodes before its target (0.5 s at 48 kHz), into `scratch`: 120 ms
    /// (Opus's longest packet) of 8 channels.
    private static let preroll: Int64 = 24000
    private static let scratchSamples = 5760 * 8
    private let scratch: UnsafeMutablePointer<Int16>

    init() throws(LoadFailure) {
        guard let api = OpusLibrary.api else { throw .decoderMissing(OpusLibrary.name) }
        self.api = api
        source = .allocate(capacity: 1)
        source.initialize(to: tp_opus_source())
        scratch = .allocate(capacity: Self.scratchSamples)
    }

    deinit {
        close()
        source.deallocate()
        scratch.deallocate()
    }

    func open(_ bytes: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        close()
        let reading = SourceReading(bytes)
        self.reading = reading
        source.pointee.bytes.read = SourceReading.read
        source.pointee.bytes.length = SourceReading.length
        source.pointee.bytes.context = reading.context
        var error: Int32 = 0
        guard let opened = withUnsafePointer(to: api, { tp_opus_open($0, source, &error) }) else {
            throw .damaged("libopusfile cannot open it (\(Self.describe(error)))")
        }
        handle = opened
        api.set_dither_enabled?(opened, 0)
        guard let head = api.head?(opened, -1)?.pointee, (1...8).contains(head.channel_count) else {
            close()
            throw .damaged("its Opus header has a channel count tplayer does not play")
        }
        let format = PCMFormat(rate: 48000, channels: Int(head.channel_count))
        let length = api.seekable?(opened) != 0 ? api.pcm_total?(opened, -1) ?? -1 : -1
        total = length >= 0 ? length : nil
        ended = false
        watch.format = format
        watch.restart(at: 0)
        links.reset()
        var song = SongInfo(path: path, sampleRate: format.rate, channels: format.channels, totalFrames: total)
        if let tags = api.tags?(opened, -1)?.pointee {
            let comments = VorbisComments(raw: oggComments(tags.user_comments, lengths: tags.comment_lengths, count: tags.comments))
            song.tags = comments.tags
            song.comments = comments
            song.replayGain = ReplayGain(opus: comments)
        }
        song.codec = "Opus"
        return OpenedSong(info: song, format: format)
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        watch.read(into: buffer, capacity: capacity) { room, bytes in
            guard let handle, !ended else { return .end }
            var link: Int32 = 0
            let frames = api.read?(handle, room.assumingMemoryBound(to: Int16.self), Int32(clamping: bytes / 2), &link) ?? -129
            if frames > 0 {
                guard let channels = api.head?(handle, link)?.pointee.channel_count, (1...8).contains(channels) else {
                    ended = true
                    return .failed("a chained stream's Opus header has a channel count tplayer does not play")
                }
                links.reading(link) {
                    api.tags?(handle, link).map { oggComments($0.pointee.user_comments, lengths: $0.pointee.comment_lengths, count: $0.pointee.comments) }
                }
                VorbisChannelOrder.toWAV(room.assumingMemoryBound(to: Int16.self), frames: Int(frames), channels: Int(channels))
                return .data(bytes: Int(frames) * Int(channels) * 2, format: PCMFormat(rate: 48000, channels: Int(channels)),
                             tell: api.pcm_tell?(handle) ?? -1)
            }
            if frames == TP_OP_HOLE { return .hole }
            ended = true
            return frames == 0 ? .end : .failed("libopusfile stopped decoding (\(Self.describe(frames)))")
        }
    }

    func takeLinkTitle() -> String? {
        links.take()
    }

    func seek(toFrame frame: Int64) -> Int64? {
        guard let handle, api.seekable?(handle) != 0 else { return nil }
        var target = max(frame, 0)
        if let total, target >= total {
            target = total
            ended = true
            watch.restart(at: total)
            return total
        }
        let start = max(target - Self.preroll, 0)
        guard api.pcm_seek?(handle, start) == 0 else { return nil }
        var position = start
        while position < target {
            let channels = Int64(api.head?(handle, -1)?.pointee.channel_count ?? 2)
            let wanted = Int32(min((target - position) * channels, Int64(Self.scratchSamples) / channels * channels))
            let frames = api.read?(handle, scratch, wanted, nil) ?? -129
            if frames == TP_OP_HOLE { continue }
            guard frames > 0 else { return nil }
            position += Int64(frames)
        }
        ended = false
        watch.restart(at: target)
        return target
    }

    func close() {
        if let handle {
            api.free?(handle)
            self.handle = nil
        }
        watch.restart(at: 0)
        reading = nil
    }

    /// opusfile's error codes, in words.
    private static func describe(_ code: Int32) -> String {
        switch code {
        case -128: "the file could not be read"
        case -129, -130: "an internal error"
        case -131: "an impossible request"
        case -132: "no Opus stream in it"
        case -133: "a damaged Opus header"
        case -134: "an Opus version it does not know"
        case -136: "a damaged packet"
        case -137: "a damaged link of a chained stream"
        case -139: "impossible timestamps"
        default: "error \(code)"
        }
    }
}
