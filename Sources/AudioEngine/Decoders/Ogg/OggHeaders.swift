import PlayerCore

/// An Ogg Vorbis or Opus song's format, tags and length from its headers and its last page, as
/// MPD's scanner reads them: no decoder is set up (libvorbis builds its codebooks and libopusfile
/// its decoder for every file opened: most of a library scan's time). For the library, which
/// needs what the song is, not its samples; what the player shows is the same, from the same
/// comments (`VorbisComments`), rate, channels and length.
///
/// `nil` where it cannot be sure, and the decoder opens the song instead: a page or packet that
/// is not as the specifications say, headers longer than `headerLimit` (a large embedded
/// picture), a stream whose last page is another's (chained), or no length.
enum OggHeaders {
    static let headerLimit = 1 << 20
    static let tailLength = 1 << 16

    static func info(_ source: ByteSource, path: Path) -> SongInfo? {
        var pages = PageReader(source: source)
        guard let first = pages.next(), first.isFirst else { return nil }
        let serial = first.serial
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var page: Page? = first
        while let current = page, packets.count < 2 {
            guard current.serial == serial else { return nil }  // another stream in between: a decoder's job
            for segment in current.segments {
                partial += segment
                // A packet ends at a segment shorter than 255 bytes; a page's last one of 255 goes on.
                if segment.count < 255 {
                    packets.append(partial)
                    partial = []
                }
                if packets.count == 2 { break }
            }
            guard pages.offset <= headerLimit else { return nil }
            page = packets.count < 2 ? pages.next() : nil
        }
        guard packets.count == 2, let total = lastGranule(source, serial: serial) else { return nil }
        if packets[0].starts(with: Array("\u{1}vorbis".utf8)) {
            return vorbis(packets, total: total, path: path)
        }
        if packets[0].starts(with: Array("OpusHead".utf8)) {
            return opus(packets, total: total, path: path)
        }
        return nil
    }

    private static func vorbis(_ packets: [[UInt8]], total: Int64, path: Path) -> SongInfo? {
        let head = packets[0]
        guard head.count >= 30, littleEndian(head, 7, 4) == 0, packets[1].starts(with: Array("\u{3}vorbis".utf8)),
              let comments = comments(packets[1], from: 7) else { return nil }
        let channels = Int(head[11]), rate = Int(littleEndian(head, 12, 4))
        guard (1...8).contains(channels), (1...768_000).contains(rate) else { return nil }
        var song = SongInfo(path: path, sampleRate: rate, channels: channels, totalFrames: total, tags: comments.tags)
        song.comments = comments
        song.replayGain = comments.replayGain
        song.codec = "Ogg Vorbis"
        return song
    }

    private static func opus(_ packets: [[UInt8]], total: Int64, path: Path) -> SongInfo? {
        let head = packets[0]
        guard head.count >= 19, head[8] & 0xF0 == 0, packets[1].starts(with: Array("OpusTags".utf8)),
              let comments = comments(packets[1], from: 8) else { return nil }
        let channels = Int(head[9]), preSkip = Int64(littleEndian(head, 10, 2))
        guard (1...8).contains(channels), total >= preSkip else { return nil }
        var song = SongInfo(path: path, sampleRate: 48000, channels: channels, totalFrames: total - preSkip, tags: comments.tags)
        song.comments = comments
        song.replayGain = ReplayGain(opus: comments)
        song.codec = "Opus"
        return song
    }

    /// A comment header's comments, from `start` (past its magic): the vendor, then a count
    /// and each comment, lengths in 32-bit little-endian words.
    private static func comments(_ packet: [UInt8], from start: Int) -> VorbisComments? {
        var at = start
        func word() -> Int? {
            guard at + 4 <= packet.count else { return nil }
            defer { at += 4 }
            return Int(littleEndian(packet, at, 4))
        }
        guard let vendor = word(), vendor <= packet.count - at else { return nil }
        at += vendor
        guard let count = word() else { return nil }
        var raw: [[UInt8]] = []
        for _ in 0..<min(count, TagText.fieldLimit) {
            guard let length = word(), length <= packet.count - at else { return nil }
            raw.append(Array(packet[at..<at + length]))
            at += length
        }
        return VorbisComments(raw: raw)
    }

    /// The granule position of the stream's last page, read from the file's last 64 KB: `nil`
    /// when the last page is another stream's (chained) or none has a position. The last page
    /// is looked for from the end: one checksum, not one a page.
    private static func lastGranule(_ source: ByteSource, serial: UInt32) -> Int64? {
        guard let length = source.length, length > 0 else { return nil }
        let start = max(0, length - Int64(tailLength))
        let tail = source.bytes(Int(length - start), at: start)
        var candidate = tail.count - 27
        while candidate >= 0 {
            if tail[candidate] == 0x4F, let found = Page.at(candidate, in: tail) {
                let last = found.page
                guard last.serial == serial, last.granule >= 0, last.granule <= SongDecoder.longestLength else { return nil }
                return last.granule
            }
            candidate -= 1
        }
        return nil
    }

    private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    /// One Ogg page: its flags, position, stream and segments.
    struct Page {
        var isFirst: Bool
        var granule: Int64
        var serial: UInt32
        var segments: [ArraySlice<UInt8>]

        /// The page at `at` in `bytes`, whole and with its checksum right ("OggS" inside audio
        /// data is no page), and where it ends.
        static func at(_ at: Int, in bytes: [UInt8]) -> (page: Page, end: Int)? {
            guard at >= 0, at + 27 <= bytes.count, bytes[at] == 0x4F, bytes[at + 1] == 0x67, bytes[at + 2] == 0x67,
                  bytes[at + 3] == 0x53, bytes[at + 4] == 0 else { return nil }
            let count = Int(bytes[at + 26])
            let lacing = at + 27
            guard lacing + count <= bytes.count else { return nil }
            var body = lacing + count
            var segments: [ArraySlice<UInt8>] = []
            for index in 0..<count {
                let size = Int(bytes[lacing + index])
                guard body + size <= bytes.count else { return nil }
                segments.append(bytes[body..<body + size])
                body += size
            }
            guard checksum(bytes, at..<body) == UInt32(littleEndian(bytes, at + 22, 4)) else { return nil }
            let granule = Int64(bitPattern: littleEndian(bytes, at + 6, 8))
            let serial = UInt32(littleEndian(bytes, at + 14, 4))
            return (Page(isFirst: bytes[at + 5] & 2 != 0, granule: granule, serial: serial, segments: segments), body)
        }
    }

    /// Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected) of a page, its own checksum field
    /// taken as zeros.
    static func checksum(_ bytes: [UInt8], _ page: Range<Int>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0
            func add(_ byte: UInt8) { crc = (crc << 8) ^ crcTable[Int((crc >> 24) ^ UInt32(byte))] }
            let field = page.lowerBound + 22..<page.lowerBound + 26
            for index in page.lowerBound..<field.lowerBound { add(buffer[index]) }
            for _ in field { add(0) }
            for index in field.upperBound..<page.upperBound { add(buffer[index]) }
            return crc
        }
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }

    /// The pages from the file's start, read a piece at a time.
    struct PageReader {
        let source: ByteSource
        var offset: Int64 = 0

        mutating func next() -> Page? {
            // A page is at most 27 + 255 + 255 × 255 bytes.
            let bytes = source.bytes(27 + 255 + 255 * 255, at: offset)
            guard let found = Page.at(0, in: bytes) else { return nil }
            offset += Int64(found.end)
            return found.page
        }
    }
}
