/// What an Icecast or SHOUTcast server says of a station and of the song it plays (ICY): the
/// headers of its answer (`icy-name`, `icy-genre`, `icy-url`, `icy-br`, `icy-metaint`) and the
/// metadata blocks cut into the audio every `icy-metaint` bytes (`StreamTitle='…';`).
///
/// Everything here comes from the network: lengths are bounded, numbers checked, and text
/// repaired as mpg123's `icy2utf8` repairs it (UTF-8 as it is; anything else read as
/// Windows-1252, the encoding such servers send most). Nothing is made safe to show here: every
/// string still passes `UntrustedText` at whichever door it leaves by.
public enum IcyMetadata {
    /// The longest metadata block there can be: its length byte (255 at most) × 16.
    public static let maximumBlock = 255 * 16
    /// The most bytes of a header's value kept.
    public static let maximumValue = 1024
    /// The most audio bytes between two blocks taken as ICY (`icy-metaint`); servers send
    /// 8,192 or 16,000.
    public static let maximumInterval = 1 << 20
    /// The highest bit rate believed (`icy-br`, kbit/s).
    public static let maximumBitrate = 10_000

    /// A station as its headers describe it.
    public struct Station: Equatable, Sendable {
        public var name: String?
        public var genre: String?
        public var url: String?
        /// `icy-br`, in kbit/s.
        public var bitrate: Int?
        /// `icy-metaint`: audio bytes between metadata blocks; `nil`: no metadata in the stream.
        public var interval: Int?

        public init(name: String? = nil, genre: String? = nil, url: String? = nil, bitrate: Int? = nil, interval: Int? = nil) {
            (self.name, self.genre, self.url, self.bitrate, self.interval) = (name, genre, url, bitrate, interval)
        }

        /// "Name (genre, 128 kbit/s)", as a person reads it; `nil` for a station with no name.
        /// Untrusted text: it leaves through the sanitiser.
        public var described: String? {
            guard let name else { return nil }
            let about = [genre, bitrate.map { "\($0) kbit/s" }].compactMap { $0 }.filter { !$0.isEmpty }
            return name + (about.isEmpty ? "" : " (\(about.joined(separator: ", ")))")
        }
    }

    /// The station the ICY headers of an answer describe (header names in any case; the first
    /// of a name counts; anything else is left).
    public static func station(headers: [(name: String, value: [UInt8])]) -> Station {
        var station = Station()
        var seen: Set<String> = []
        for (name, value) in headers {
            let key = name.lowercased()
            guard key.hasPrefix("icy-"), seen.insert(key).inserted else { continue }
            let bounded = value.prefix(maximumValue)
            let trimmed = text(bounded.drop { $0 == 0x20 || $0 == 0x09 }).trimmingTrailingSpace()
            switch key {
            case "icy-name": station.name = trimmed.isEmpty ? nil : trimmed
            case "icy-genre": station.genre = trimmed.isEmpty ? nil : trimmed
            case "icy-url": station.url = trimmed.isEmpty ? nil : trimmed
            // Some servers say "128,128": the first number.
            case "icy-br": station.bitrate = number(trimmed, in: 1...maximumBitrate)
            case "icy-metaint": station.interval = number(trimmed, in: 1...maximumInterval)
            default: break
            }
        }
        return station
    }

    /// The decimal number `text` begins with, when it is one within `range`.
    static func number(_ text: String, in range: ClosedRange<Int>) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let value = Int(digits), range.contains(value) else { return nil }
        return value
    }

    /// The fields of one metadata block (its bytes after the length byte, NUL padding and all),
    /// in order: `StreamTitle`, `StreamUrl`… Each is `key='value';`; a value ends at the first
    /// `';` (a title may hold a `'`: "Guns N' Roses"), or at the block's end. A block that is
    /// not such pairs gives what came before the first that is not.
    public static func fields(_ block: [UInt8]) -> [(key: String, value: String)] {
        var bytes = block.prefix(maximumBlock)
        while let last = bytes.last, last == 0 { bytes.removeLast() }
        var fields: [(key: String, value: String)] = []
        var at = bytes.startIndex
        while at < bytes.endIndex {
            guard let equals = bytes[at...].firstIndex(of: UInt8(ascii: "=")), equals > at,
                  bytes[at..<equals].allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") }),
                  equals + 1 < bytes.endIndex, bytes[equals + 1] == UInt8(ascii: "'") else { break }
            let key = String(decoding: bytes[at..<equals], as: UTF8.self)
            let start = equals + 2
            var end = bytes.endIndex
            var next = bytes.endIndex
            var index = start
            while index < bytes.endIndex {
                if bytes[index] == UInt8(ascii: "'"), index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: ";") {
                    end = index
                    next = index + 2
                    break
                }
                index += 1
            }
            if next == bytes.endIndex, end == bytes.endIndex, let last = bytes.last, last == UInt8(ascii: "'"), start < end {
                end -= 1  // the last value, its `;` left off
            }
            fields.append((key, text(bytes[start..<max(end, start)])))
            at = next
        }
        return fields
    }

    /// The title a block names (`StreamTitle`, repaired), `nil` when it names none; an empty
    /// one is the station saying there is none now.
    public static func title(_ block: [UInt8]) -> String? {
        fields(block).first { $0.key == "StreamTitle" }?.value
    }

    /// Bytes from the network as text: UTF-8 when they are, else Windows-1252 (its five
    /// unassigned bytes as the C1 controls of the same number, which no door shows raw).
    public static func text<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let utf8 = String(validating: Array(bytes), as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Windows-1252's 0x80 to 0x9F.
    static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

extension String {
    /// `self` without spaces and tabs at its end.
    fileprivate func trimmingTrailingSpace() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
