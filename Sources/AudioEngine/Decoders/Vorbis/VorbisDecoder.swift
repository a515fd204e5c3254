import CVorbis
import Files
import Glibc
import PlayerCore

/// libvorbisfile, loaded once, on first use (see CVorbis's shim.h for why it is not linked).
enum VorbisLibrary {
    static let api: tp_vorbis? = {
        var api = tp_vorbis()
        return tp_vorbis_load(&api) == 0 ? api : nil
    }()
    static let name = String(cString: tp_vorbis_library())
}

/// Ogg Vorbis through libvorbisfile, the format's reference library, reading the song's
/// `ByteSource` (through the callbacks in CVorbis's shim).
///
/// The samples are exactly what `oggdec` writes: both take them from `ov_read` asking for 16-bit
/// signed words (vorbisfile rounds each float sample to the nearest and clips it), here in native
/// byte order, which on the little-endian machines tplayer runs on is oggdec's WAV order.
/// vorbisfile trims each stream to its granule positions (the encoder's priming and padding go),
/// so songs cut from one recording join without a gap; `ov_pcm_seek` lands on the very sample, as
/// a decode from the start gives it. A chained stream whose next link has another rate or channel
/// count says `.newFormat`. Damage: a page whose CRC fails is dropped, and the samples it held are
/// said as `.skipped` (see `OggStreamWatch`); a file cut short ends where its last whole page does.
final class VorbisDecoder: FormatDecoder {
    private let api: tp_vorbis
    private let handle: UnsafeMutablePointer<OggVorbis_File>
    private let source: UnsafeMutablePointer<tp_vorbis_source>
    /// The song's bytes, as libvorbisfile's callbacks read them, while it is open.
    private var reading: SourceReading?
    private var isOpen = false
    private var ended = false
    private var total: Int64?
    private var watch = OggStreamWatch()
    private var links = OggLinkTitles()
    /// ov_read's byte order: the machine's.
    private static let bigEndian: Int32 = 1.bigEndian == 1 ? 1 : 0

    init() throws(LoadFailure) {
        guard let api = VorbisLibrary.api else { throw .decoderMissing(VorbisLibrary.name) }
        self.api = api
        handle = .allocate(capacity: 1)
        handle.initialize(to: OggVorbis_File())
        source = .allocate(capacity: 1)
        source.initialize(to: tp_vorbis_source())
    }

    deinit {
        close()
        handle.deallocate()
        source.deallocate()
    }

    func open(_ bytes: ByteSource, path: Path, verifies: Bool) throws(LoadFailure) -> OpenedSong {
        close()
        let reading = SourceReading(bytes)
        self.reading = reading
        source.pointee.bytes.read = SourceReading.read
        source.pointee.bytes.length = SourceReading.length
        source.pointee.bytes.context = reading.context
        let status = withUnsafePointer(to: api) { tp_vorbis_open($0, handle, source) }
        guard status == 0 else { throw .damaged("libvorbisfile cannot open it (\(Self.describe(Int(status))))") }
        isOpen = true
        let seekable = api.seekable?(handle) != 0
        // Opened seekable, vorbisfile has looked at every link of a chained stream and is left
        // in the last: reading on decoded the first link with the last one's setup (mono read as
        // stereo, and the end there). Back at the start, it reads every link in its own format.
        if seekable, api.pcm_seek?(handle, 0) != 0 {
            close()
            throw .damaged("libvorbisfile cannot go back to its start")
        }
        guard let info = api.info?(handle, -1)?.pointee, (1...8).contains(info.channels), (1...768_000).contains(info.rate) else {
            close()
            throw .damaged("its Vorbis header is impossible")
        }
        let format = PCMFormat(rate: info.rate, channels: Int(info.channels))
        total = seekable ? length(atRate: format.rate) : nil
        ended = false
        watch.format = format
        watch.restart(at: 0)
        links.reset()
        var song = SongInfo(path: path, sampleRate: format.rate, channels: format.channels, totalFrames: total)
        if let comment = api.comment?(handle, -1)?.pointee {
            let comments = VorbisComments(raw: oggComments(comment.user_comments, lengths: comment.comment_lengths, count: comment.comments))
            song.tags = comments.tags
            song.comments = comments
            song.replayGain = comments.replayGain
        }
        song.codec = "Ogg Vorbis"
        return OpenedSong(info: song, format: format)
    }

    /// The stream's length in frames at `rate` (the first link's): each link's samples counted
    /// at its own rate (vorbisfile's total adds samples of links at different rates as if they
    /// were one); `nil` when it cannot say.
    private func length(atRate rate: Int) -> Int64? {
        let links = api.streams?(handle) ?? 0
        var frames: Int64 = 0
        for link in 0..<Int32(clamping: links) {
            guard let samples = api.pcm_total?(handle, link), samples >= 0,
                  let linkRate = api.info?(handle, link)?.pointee.rate, linkRate > 0 else { return nil }
            frames = frames.addingSaturated(samples.scaled(by: Int64(rate), over: Int64(linkRate)))
        }
        return links > 0 ? frames : nil
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        watch.read(into: buffer, capacity: capacity) { room, bytes in
            guard isOpen, !ended else { return .end }
            var link: Int32 = 0
            let got = api.read?(handle, room.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes), Self.bigEndian, 2, 1, &link)
                ?? Int(OV_EFAULT)
            if got > 0 {
                guard let info = api.info?(handle, -1)?.pointee, (1...8).contains(info.channels), (1...768_000).contains(info.rate) else {
                    ended = true
                    return .failed("a chained stream's Vorbis header is impossible")
                }
                links.reading(link) {
                    api.comment?(handle, link).map { oggComments($0.pointee.user_comments, lengths: $0.pointee.comment_lengths, count: $0.pointee.comments) }
                }
                VorbisChannelOrder.toWAV(room.assumingMemoryBound(to: Int16.self), frames: got / (2 * Int(info.channels)), channels: Int(info.channels))
                return .data(bytes: got, format: PCMFormat(rate: info.rate, channels: Int(info.channels)), tell: api.pcm_tell?(handle) ?? -1)
            }
            if got == Int(OV_HOLE) { return .hole }
            ended = true
            return got == 0 ? .end : .failed("libvorbisfile stopped decoding (\(Self.describe(got)))")
        }
    }

    func takeLinkTitle() -> String? {
        links.take()
    }

    func seek(toFrame frame: Int64) -> Int64? {
        guard isOpen, api.seekable?(handle) != 0 else { return nil }
        var target = max(frame, 0)
        if let total, target >= total {
            target = total
            ended = true
            watch.restart(at: total)
            return total
        }
        guard api.pcm_seek?(handle, target) == 0 else { return nil }
        ended = false
        watch.restart(at: target)
        return target
    }

    func close() {
        if isOpen {
            _ = api.clear?(handle)
            isOpen = false
        }
        watch.restart(at: 0)
        reading = nil
    }

    /// vorbisfile's error codes, in words.
    private static func describe(_ code: Int) -> String {
        switch Int32(code) {
        case OV_EREAD: "the file could not be read"
        case OV_ENOTVORBIS: "no Vorbis stream in it"
        case OV_EVERSION: "a Vorbis version it does not know"
        case OV_EBADHEADER: "a damaged Vorbis header"
        case OV_EBADLINK: "a damaged link of a chained stream"
        case OV_EFAULT: "an internal error"
        case OV_EINVAL: "an impossible request"
        default: "error \(code)"
        }
    }
}
