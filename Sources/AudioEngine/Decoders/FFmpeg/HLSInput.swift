import CAv
import CLinux
import Files
import Glibc
import PlayerCore

/// An HLS stream (a playlist of segments, `#EXT-X-` tags) as the song's source: FFmpeg's HLS
/// demuxer reads it, and every URL it names (the playlist, reloaded while it is live, each
/// segment, a variant's playlist) is opened here, through tplayer's own network side: a
/// `NetworkStream` each, http and https only, TLS verified, the same bounds, the same
/// interruption. FFmpeg's own protocols never open anything.
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
        for reading in open.values { (reading.source as? NetworkStream)?.close() }
    }

    /// Nothing is read from it as bytes: FFmpeg opens its URLs (`tp_av_open_hls`).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int { 0 }
    var length: Int64? { nil }

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
        (input.open.removeValue(forKey: context)?.source as? NetworkStream)?.close()
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
        do {
            let opened = try NetworkStream.open(stream.text, limits: limits, interruption: interruption)
            let reading = SourceReading(opened)
            open[reading.context] = reading
            source.pointee = tp_source(read: SourceReading.read, length: SourceReading.length, context: reading.context)
            return 0
        } catch {
            failure = "\(error)"
            return -EIO
        }
    }
}
