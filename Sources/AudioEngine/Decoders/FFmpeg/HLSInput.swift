import CAv
import CLinux
import Files
import Glibc
import PlayerCore

/// An HLS stream (a playlist of segments, `#EXT-X-` tags) as the song's source: FFmpeg's HLS
/// demuxer reads it, and every URL it names (the playlist, reloaded while it is live, each
/// segment, a variant's playlist) is opened here, through tplayer's own network side: a
/// `NetworkStream` each, http and https only, TLS verified, the same bounds, the same
/// interruption. FFmpeg's own protocols never open anything. Each playlist is read whole first
/// and checked (`HLSChain`: one naming itself or a playlist above it is refused, said once), and
/// read again no sooner than a second after it was last read (a live one's reloads).
final class HLSInput: ByteSource, @unchecked Sendable {
    // `@unchecked Sendable`: used on the decoder's thread alone, as FFmpeg calls it; `open` is
    // touched nowhere else.
    let url: String
    private let limits: StreamLimits
    private let interruption: StreamInterruption
    /// The interruptions before the song opened: one more, and FFmpeg's waits stop.
    private let interruptions: Int
    /// The sources FFmpeg has open, by their context.
    private var open: [UnsafeMutableRawPointer: SourceReading] = [:]
    /// Why the last URL could not be opened (the playlist's own reason is the song's).
    private(set) var failure: String?
    /// While the song opens: when it is given up if no audio has come (FFmpeg retries a
    /// playlist whose segments fail for as long as it is live).
    private var openedBy: ContinuousClock.Instant?
    private let openWithin: Double
    /// The playlists followed, and which named which.
    private var chain = HLSChain()
    /// When each playlist was last read.
    private var lastRead: [String: ContinuousClock.Instant] = [:]
    /// The least time between two reads of one playlist: FFmpeg reloads a live playlist as
    /// often as its durations say, and a playlist may say 0.
    static let reloadGap: Duration = .seconds(1)

    init(url: String, limits: StreamLimits, interruption: StreamInterruption) {
        self.url = url
        self.limits = limits
        self.interruption = interruption
        interruptions = interruption.count
        openWithin = limits.connectTimeout + limits.stallTimeout
        openedBy = .now + .milliseconds(Int(openWithin * 1000))
    }

    /// Its first audio came: from now on a live stream waits for its next segments.
    func opened() {
        openedBy = nil
    }

    deinit {
        for reading in open.values { reading.source.stream?.close() }
    }

    /// Nothing is read from it as bytes: FFmpeg opens its URLs (`tp_av_open_hls`).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int { 0 }
    var length: Int64? { nil }
    var kind: ByteSourceKind { .hls(self) }

    /// What the shim is given to reach this.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func input(_ opener: UnsafeMutableRawPointer?) -> HLSInput? {
        opener.map { Unmanaged<HLSInput>.fromOpaque($0).takeUnretainedValue() }
    }

    static let openURL: tp_av_open_url = { opener, url, source in
        guard let input = input(opener), let url, let source else { return -EINVAL }
        return input.open(String(cString: url), into: source)
    }

    static let closeURL: tp_av_close_url = { opener, context in
        guard let input = input(opener), let context else { return }
        input.open.removeValue(forKey: context)?.source.stream?.close()
    }

    static let interrupted: tp_av_interrupted = { opener in
        guard let input = input(opener) else { return 1 }
        if let deadline = input.openedBy, ContinuousClock.now > deadline {
            input.failure = input.failure ?? "no audio within \(Int(input.openWithin)) s"
            return 1
        }
        return input.interruption.count != input.interruptions ? 1 : 0
    }

    /// Opens `url` (checked as every stream's URL is) for FFmpeg: 0, or an AVERROR.
    private func open(_ url: String, into source: UnsafeMutablePointer<tp_source>) -> Int32 {
        guard open.count < 64 else { return -EMFILE }
        guard let stream = StreamURL(Path(url)) else {
            failure = "it names \(url), and only http and https play"
            return -EPERM
        }
        guard awaitReload(of: stream.text) else { return -EINTR }
        do {
            let opened = try NetworkStream.open(stream.text, limits: limits, interruption: interruption)
            var bytes: ByteSource = opened
            let head = opened.bytes(FileContent.headLength, at: 0)
            if ServedPlaylist.format(contentType: opened.contentType, head: head, url: opened.finalURL) != nil {
                // A playlist (the stream's own, a variant's, a reload): read whole and checked
                // before FFmpeg follows what it names.
                defer { opened.close() }
                let body = try opened.playlist()
                lastRead[stream.text] = .now
                if let refusal = chain.follow(body, asked: stream.text, answered: opened.finalURL) {
                    failure = refusal
                    return -ELOOP
                }
                bytes = HeldBytes(body)
            }
            let reading = SourceReading(bytes)
            open[reading.context] = reading
            source.pointee = tp_source(read: SourceReading.read, length: SourceReading.length, context: reading.context)
            return 0
        } catch {
            failure = "\(error)"
            return -EIO
        }
    }

    /// Waits until the playlist at `url`, if it was read before, may be read again
    /// (`reloadGap`); false when the song was interrupted meanwhile. FFmpeg calls from its
    /// reading thread, which has nothing else to do until then: it looks at the interruption
    /// every 20 ms.
    private func awaitReload(of url: String) -> Bool {
        guard let last = lastRead[url] else { return true }
        while ContinuousClock.now < last + Self.reloadGap {
            guard interruption.count == interruptions else { return false }
            usleep(20_000)
        }
        return true
    }
}
