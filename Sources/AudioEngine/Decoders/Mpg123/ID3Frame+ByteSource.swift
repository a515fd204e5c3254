import PlayerCore

extension ID3Frame {
    /// The content of the first frame named `id` in the tag at the start of `source`, read where
    /// it is.
    static func content(_ id: String, in source: ByteSource) -> [UInt8]? {
        content(id) { offset, count in
            guard offset >= 0, count >= 0, count <= maxRead else { return nil }
            let got = source.bytes(count, at: Int64(offset))
            return got.count == count ? got : nil
        }
    }
}
