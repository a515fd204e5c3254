/// Bytes held in memory as a `ByteSource`: an HLS playlist read whole (to be checked before
/// FFmpeg follows it), then read by FFmpeg from here.
final class HeldBytes: ByteSource {
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        guard offset >= 0, offset < Int64(bytes.count) else { return 0 }
        let taken = min(count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: taken) }
        return taken
    }

    var length: Int64? { Int64(bytes.count) }
    var kind: ByteSourceKind { .held }
}
