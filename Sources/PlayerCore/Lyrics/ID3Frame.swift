/// One frame of a file's ID3v2 tag (2.2, 2.3 or 2.4) that libmpg123 does not hand out (`SYLT`,
/// 2.2's `SLT`): the frames' headers walked from the tag's start, read where they are in the
/// song's own open file (by `pread`, through the engine's `ByteSource`), so a large picture before
/// it is skipped, never read; its content with the unsynchronisation and the data-length
/// indicator undone. Bounded: `maxBytes` of content, `maxFrames` frames walked, no read over
/// `maxRead`; compressed or encrypted frames (and 2.2's compressed tags) are passed over. A tag
/// unsynchronised whole (2.2's and 2.3's way) is read whole to be undone, so one over `maxRead`
/// is passed over too.
public enum ID3Frame {
    public static let maxBytes = 1 << 20
    static let maxFrames = 10_000
    /// The most bytes one read asks for: a frame's content and a little more.
    public static let maxRead = maxBytes + 4096

    /// 2.2's three-letter names of the frames asked for by their later names.
    static let version2Names = ["SYLT": "SLT"]

    /// The content of the first frame named `id` in the tag at the start of a file, reading the
    /// file's bytes through `read` (at an offset, a count; `nil` past its end; fewer bytes than
    /// asked for are taken as the end).
    public static func content(_ id: String, reading given: (Int, Int) -> [UInt8]?) -> [UInt8]? {
        func read(_ offset: Int, _ count: Int) -> [UInt8]? { given(offset, count).flatMap { $0.count == count ? $0 : nil } }
        guard let header = read(0, 10), header.count == 10, header.starts(with: Array("ID3".utf8)),
              (2...4).contains(header[3]), let size = syncsafe(header[6..<10]) else { return nil }
        let major = header[3], flags = header[5]
        // 2.2's second flag is a compression no one defined: such a tag is passed over.
        if major == 2, flags & 0x40 != 0 { return nil }
        guard let name = major == 2 ? version2Names[id] : id else { return nil }
        let wanted = Array(name.utf8)
        let extended = major > 2 && flags & 0x40 != 0
        // The whole tag unsynchronised (2.2's and 2.3's way): read, bounded, and undone before the
        // walk. (In 2.4 the flag only says every frame is, each undone on its own.)
        if flags & 0x80 != 0, major < 4 {
            guard size <= maxRead, let tag = read(10, size) else { return nil }
            return walk(resynchronised(tag[...]), major: major, extended: extended, wanted: wanted) { bytes, at, count in
                at + count <= bytes.count ? Array(bytes[at..<at + count]) : nil
            }
        }
        let end = 10 + size
        return walk(nil, major: major, extended: extended, wanted: wanted, end: end) { _, at, count in
            at + count <= end && count <= maxRead ? read(at, count) : nil
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
        // A frame's header: its name and size (2.2: 3 bytes each), then 2 bytes of flags (not in 2.2).
        let (headerSize, nameSize) = major == 2 ? (6, 3) : (10, 4)
        for _ in 0..<maxFrames {
            guard let header = read(tag, at, headerSize), header[0] != 0 else { return nil }
            let id = header[0..<nameSize]
            guard id.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { return nil }
            // 2.4 sizes are syncsafe (some writers put 2.3's plain ones: taken as such when not).
            let size = switch major {
            case 2: bigEndian(header[3..<6])
            case 4: syncsafe(header[4..<8]) ?? bigEndian(header[4..<8])
            default: bigEndian(header[4..<8])
            }
            let formats = major == 2 ? 0 : header[9]
            if Array(id) == wanted {
                let compressed = major == 4 ? formats & 0x0C != 0 : formats & 0xC0 != 0
                guard !compressed, size <= maxBytes, var body = read(tag, at + headerSize, size) else { return nil }
                if major == 4, formats & 0x02 != 0 { body = resynchronised(body[...]) }
                // The group byte (2.3: 0x20, 2.4: 0x40), then 2.4's data length indicator.
                if formats & (major == 4 ? 0x40 : 0x20) != 0 { body = Array(body.dropFirst(1)) }
                if major == 4, formats & 0x01 != 0 { body = Array(body.dropFirst(4)) }
                return body
            }
            guard size <= Int(Int32.max) else { return nil }
            at += headerSize + size
        }
        return nil
    }

    /// A 28-bit syncsafe integer from 4 bytes of 7 bits each; `nil` when a byte's top bit is set.
    static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    /// Up to 4 bytes, most significant first.
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
