/// Takes a stream's body apart where its server cuts ICY metadata into the audio: every
/// `interval` bytes of audio (`icy-metaint`), one length byte L, then L × 16 bytes of metadata
/// (`StreamTitle='…';`, NUL-padded). Fed the body in whatever pieces the network gives, it hands
/// on the audio as it comes and each metadata block once whole; what it keeps is bounded by the
/// largest block (`IcyMetadata.maximumBlock`), whatever the server sends.
public struct IcyDemuxer: Sendable {
    /// Audio bytes between two blocks; `nil`: the body is all audio.
    public let interval: Int?
    /// Audio bytes still to come before the next length byte.
    private var audioLeft: Int
    /// The block being gathered, and how long it is (`nil`: not in a block).
    private var block: [UInt8] = []
    private var blockLength: Int?

    public init(interval: Int?) {
        self.interval = interval.flatMap { (1...IcyMetadata.maximumInterval).contains($0) ? $0 : nil }
        audioLeft = self.interval ?? 0
    }

    /// Hands on the audio in `bytes` (`audio`, each run as it comes, in order) and each metadata
    /// block completed in them (`metadata`, its bytes without the length byte; an empty block,
    /// L = 0, says nothing and is not handed on).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void,
                              metadata: ([UInt8]) -> Void) {
        guard let interval else {
            if !bytes.isEmpty { audio(bytes) }
            return
        }
        var at = 0
        while at < bytes.count {
            if let length = blockLength {
                let take = min(length - block.count, bytes.count - at)
                block.append(contentsOf: bytes[at..<(at + take)])
                at += take
                if block.count == length {
                    metadata(block)
                    block.removeAll(keepingCapacity: true)
                    blockLength = nil
                    audioLeft = interval
                }
            } else if audioLeft == 0 {
                let length = Int(bytes[at]) * 16
                at += 1
                if length == 0 {
                    audioLeft = interval
                } else {
                    blockLength = length
                }
            } else {
                let take = min(audioLeft, bytes.count - at)
                audio(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + take)]))
                at += take
                audioLeft -= take
            }
        }
    }
}
