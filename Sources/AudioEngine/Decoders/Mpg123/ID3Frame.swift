import PlayerCore

/// One frame of a file's ID3v2 tag (2.3 or 2.4) that libmpg123 does not hand out (`SYLT`): the
/// frames' headers walked from the tag's start, read where they are in the song's own open file
/// (`ByteSource`: `pread`), so a large picture before it is skipped, never read; its content with the unsynchronisation and the data-length indicator
/// undone. Bounded: `maxBytes` of content, `maxFrames` frames walked; compressed or encrypted
/// frames are passed over.
enum ID3Frame {
    static let maxBytes = 1 << 20
    static let maxFrames = 10_000

    /// The content of the first frame named `id` in the tag at the start of `source`.
    static func content(_ id: String, in source: ByteSource) -> [UInt8]? {
        content(id) { offset, count in
            guard offset >= 0, count >= 0, count <= maxBytes + 4096 else { return nil }
            let got = source.bytes(count, at: Int64(offset))
            return got.count == count ? got : nil
        }
    }

    /// The same, reading the file's bytes through `read` (at an offset, a count; `nil` past its end).
    static func content(_ id: String, reading read: (Int, Int) -> [UInt8]?) -> [UInt8]? {
        guard let header = read(0, 10), header.count == 10, header.starts(with: Array("ID3".utf8)),
              header[3] == 3 || header[3] == 4, let size = syncsafe(header[6..<10]) else { return nil }
        let major = header[3], flags = header[5]
        let wanted = Array(id.utf8)
        // The whole tag unsynchronised (2.3's way): read, bounded, and undone before the walk. (In
        // 2.4 the flag only says every frame is, each undone on its own.)
        if flags & 0x80 != 0, major == 3 {
            guard size <= maxBytes + 4096, let tag = read(10, size) else { return nil }
            return walk(resynchronised(tag[...]), major: major, extended: flags & 0x40 != 0, wanted: wanted) { bytes, at, count in
                at + count <= bytes.count ? Array(bytes[at..<at + count]) : nil
            }
        }
        let end = 10 + size
        return walk(nil, major: major, extended: flags & 0x40 != 0, wanted: wanted, end: end) { _, at, count in
            at + count <= end && count <= maxBytes + 4096 ? read(at, count) : nil
        }
    }

    /// Walks the frames from the tag's start (after its extended header), reading through `read`.
    private static func walk(_ bytes: [UInt8]?, major: UInt8, extended: Bool, wanted: [UInt8], end: Int? = nil,
                             read: ([UInt8], Int, Int) -> [UInt8]?) -> [UInt8]? {
        let tag = bytes ?? []
        var at = bytes == nil ? 10 : 0
        if extended {
            guard let size = read(tag, at, 4) else { return nil }
            at += major == 4 ? (syncsafe(size[...]) ?? Int.max / 2) : 4 + bigEndian(size[...])
        }
        for _ in 0..<maxFrames {
            guard let header = read(tag, at, 10), header[0] != 0 else { return nil }
            let id = header[0..<4]
            guard id.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { return nil }
            // 2.4 sizes are syncsafe (some writers put 2.3's plain ones: taken as such when not).
            let size = major == 4 ? syncsafe(header[4..<8]) ?? bigEndian(header[4..<8]) : bigEndian(header[4..<8])
            let formats = header[9]
            if Array(id) == wanted {
                let compressed = major == 4 ? formats & 0x0C != 0 : formats & 0xC0 != 0
                guard !compressed, size <= maxBytes, var body = read(tag, at + 10, size) else { return nil }
                if major == 4, formats & 0x02 != 0 { body = resynchronised(body[...]) }
                // The group byte (2.3: 0x20, 2.4: 0x40), then 2.4's data length indicator.
                if formats & (major == 4 ? 0x40 : 0x20) != 0 { body = Array(body.dropFirst(1)) }
                if major == 4, formats & 0x01 != 0 { body = Array(body.dropFirst(4)) }
                return body
            }
            guard size <= Int(Int32.max) else { return nil }
            at += 10 + size
        }
        return nil
    }

    /// A 28-bit syncsafe integer from 4 bytes of 7 bits each; `nil` when a byte's top bit is set.
    static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// `bytes` with every `FF 00` turned back into `FF`.
    static func resynchronised(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
            previous = byte
        }
        return out
    }
}
