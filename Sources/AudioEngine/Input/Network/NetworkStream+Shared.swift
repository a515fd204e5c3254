import CCurl
import Files
import Glibc
import PlayerCore

/// What the network thread and the readers share, under the stream's lock: the ring of body
/// bytes and where each side is in it.
extension NetworkStream {
    struct Shared {
        var storage: [UInt8]
        /// Body bytes received in all (the buffer holds the last of them), and the furthest read.
        var written: Int64 = 0
        var furthestRead: Int64 = 0
        /// The body has ended (a file's end), or the stream failed (the reason) or was given up.
        var ended = false
        var failure: String?
        /// Asked to stop (closed, or a read interrupted): reads return at once.
        var cancelled = false
        /// Whether the first answer said how long its body is (a file's does; a live stream's
        /// never); `nil` before it came.
        var isFinite: Bool?
        /// What the first answer said its body is (`Content-Type`), and where it came from,
        /// redirects followed: a playlist's entries are resolved against it.
        var contentType: String?
        var finalURL: String?
        /// ICY titles not yet reached by the decoder, each at the body byte it came before:
        /// said when the decoder reads there (`takeReachedTitles`), not when they arrive.
        var titles: [(offset: Int64, title: String)] = []
        /// Bytes kept behind the furthest read.
        let history: Int64
        /// A file whose server takes byte ranges (`Accept-Ranges: bytes`): its length, and it
        /// seeks. `nil` for a live stream, or a server that does not.
        var seekableLength: Int64?
        /// The body offset the buffer starts at: 0, or where the last range request asked from.
        var floor: Int64 = 0
        /// A read asked for bytes far from those buffered: the next request starts there.
        var restart: Int64?

        /// Bytes that can be taken now without overwriting what is kept: what was not read yet,
        /// and `history` bytes behind it.
        var room: Int {
            let kept = max(min(max(furthestRead - history, 0), written), floor)
            return storage.count - Int(written - kept)
        }

        /// The oldest byte still buffered.
        var oldest: Int64 { max(written - Int64(storage.count), floor) }
    }
}
