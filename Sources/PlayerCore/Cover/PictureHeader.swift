/// What a picture file's first bytes say: its format and, read from its header alone (never a
/// decode), its size, so that a 30,000 × 30,000 cover is refused before any memory is taken for it.
public struct PictureHeader: Equatable, Sendable {
    public enum Format: String, Sendable {
        case jpeg = "JPEG", png = "PNG", gif = "GIF", bmp = "BMP", webp = "WebP"
    }

    public var format: Format
    /// `nil` when the header does not say it within the bytes read.
    public var width: Int?
    public var height: Int?

    /// The most bytes of a JPEG searched for its frame header (markers before it: EXIF, ICC).
    public static let searchLimit = 1 << 20

    /// The picture `bytes` start, or `nil` when they start no format tplayer draws.
    public static func read(_ bytes: [UInt8]) -> PictureHeader? {
        func be16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        func le16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : nil }
        func be32(_ at: Int) -> Int? { at + 4 <= bytes.count ? (be16(at)! << 16 | be16(at + 2)!) : nil }
        func le32(_ at: Int) -> Int? { at + 4 <= bytes.count ? (le16(at)! | le16(at + 2)! << 16) : nil }
        func starts(_ prefix: [UInt8], at: Int = 0) -> Bool {
            bytes.count >= at + prefix.count && Array(bytes[at..<at + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return PictureHeader(format: .png, width: starts(Array("IHDR".utf8), at: 12) ? be32(16) : nil,
                                 height: starts(Array("IHDR".utf8), at: 12) ? be32(20) : nil)
        }
        if starts([0xFF, 0xD8, 0xFF]) { return jpeg(bytes) }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            return PictureHeader(format: .gif, width: le16(6), height: le16(8))
        }
        if starts(Array("BM".utf8)), bytes.count >= 26 {
            // BITMAPINFOHEADER's height is negative for a picture stored top-down.
            let side = { (at: Int) in le32(at).map { Int(Int32(truncatingIfNeeded: $0).magnitude) } }
            return PictureHeader(format: .bmp, width: side(18), height: side(22))
        }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            var header = PictureHeader(format: .webp)
            if starts(Array("VP8 ".utf8), at: 12), let w = le16(26), let h = le16(28) {
                (header.width, header.height) = (w & 0x3FFF, h & 0x3FFF)
            } else if starts(Array("VP8L".utf8), at: 12), let bits = le32(21) {
                (header.width, header.height) = ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
            } else if starts(Array("VP8X".utf8), at: 12), bytes.count >= 30 {
                let w = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16
                let h = Int(bytes[27]) | Int(bytes[28]) << 8 | Int(bytes[29]) << 16
                (header.width, header.height) = (w + 1, h + 1)
            }
            return header
        }
        return nil
    }

    public init(format: Format, width: Int? = nil, height: Int? = nil) {
        (self.format, self.width, self.height) = (format, width, height)
    }

    /// Its pixels, when its size is known (`Int.max` where the product would overflow: a PNG's
    /// sides are 32-bit).
    public var pixels: Int? {
        guard let width, let height else { return nil }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// A JPEG's size: in its first frame header (SOF0 to SOF15 but DHT, JPG and DAC), found by
    /// walking the markers' lengths from the start.
    private static func jpeg(_ bytes: [UInt8]) -> PictureHeader {
        var header = PictureHeader(format: .jpeg)
        var at = 2
        let end = min(bytes.count, searchLimit)
        while at + 4 <= end {
            guard bytes[at] == 0xFF else { return header }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill bytes
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return header }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 9 <= end else { return header }
                header.height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                header.width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return header
            }
            if marker == 0xDA || marker == 0xD9 { return header }  // the scan, or the end, before a frame header
            at += 2 + length
        }
        return header
    }
}
