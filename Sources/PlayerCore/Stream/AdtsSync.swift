/// Where AAC's frames start in a stream joined mid-frame (ADTS, as radios send AAC): no library
/// finds them there (FFmpeg's ADTS reader wants its first bytes to be a header), so the stream is
/// read from the first header that the next two follow, as libmpg123 does for MP3.
public enum AdtsSync {
    /// The offset of the first frame in `bytes` whose header is followed, at its length, by two
    /// more of the same rate and channels; `nil` when none is found.
    public static func firstFrame(in bytes: [UInt8]) -> Int? {
        var at = 0
        while at + 7 <= bytes.count {
            if let length = frameLength(bytes, at), chain(bytes, from: at, first: length) { return at }
            at += 1
        }
        return nil
    }

    /// The length of the frame whose header is at `at`, when one is there.
    public static func frameLength(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard at + 7 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] & 0xF6 == 0xF0,
              (bytes[at + 2] >> 2) & 0x0F < 13 else { return nil }
        let length = Int(bytes[at + 3] & 0x03) << 11 | Int(bytes[at + 4]) << 3 | Int(bytes[at + 5] >> 5)
        return length >= 7 ? length : nil
    }

    /// Whether two more headers of the same kind follow the one at `at`.
    private static func chain(_ bytes: [UInt8], from at: Int, first length: Int) -> Bool {
        // The rate index and the channel configuration: the same in every frame of a stream.
        func kind(_ at: Int) -> UInt16 { UInt16(bytes[at + 2] & 0x3D) << 8 | UInt16(bytes[at + 3] & 0xC0) }
        var next = at + length
        for _ in 0..<2 {
            guard let length = frameLength(bytes, next), kind(next) == kind(at) else { return false }
            next += length
        }
        return true
    }
}
