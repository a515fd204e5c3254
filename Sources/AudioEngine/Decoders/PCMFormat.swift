import PlayerCore

/// How each sample is held: the song's own, from the decoder to the output, so that no bit the
/// file holds is lost on the way.
enum SampleEncoding: Equatable, Sendable, CaseIterable {
    /// Unsigned 8 bits (WAV's 8-bit samples, as `flac -d` writes them).
    case u8
    /// Signed 16 bits, native byte order (what `mpg123 -w` writes).
    case s16
    /// Signed 24 bits, packed in 3 bytes, little-endian (a 20-bit song's samples left-justified
    /// in them, as WAV holds them).
    case s24
    /// Signed 32 bits, native byte order.
    case s32
    /// 32-bit float, native byte order, full scale ±1.
    case float32

    var bytes: Int {
        switch self {
        case .u8: 1
        case .s16: 2
        case .s24: 3
        case .s32, .float32: 4
        }
    }

    /// The integer encoding that holds `bits` significant bits (1 to 32) without loss.
    static func holding(bits: Int) -> SampleEncoding {
        bits <= 8 ? .u8 : bits <= 16 ? .s16 : bits <= 24 ? .s24 : .s32
    }

    /// Full scale: the value of a sample at 1.0 (2^(bits-1)); 1 for float.
    var fullScale: Double {
        switch self {
        case .u8: 128
        case .s16: 32768
        case .s24: 8_388_608
        case .s32: 2_147_483_648
        case .float32: 1
        }
    }

    /// Whether a rounding's error is heard in these samples (16 bits or fewer): where tplayer
    /// changes them (a volume, a gain, the equaliser) they get TPDF dither first.
    var isDithered: Bool { self == .s16 || self == .u8 }

    /// Whether samples in `source` stored in this encoding lose bits.
    func narrows(from source: SampleEncoding) -> Bool {
        self != .float32 && fullScale < source.fullScale
    }

    /// Stores `value` as `store` does, its halves rounded up, as `sox -D` narrows: how every
    /// change of depth alone rounds (no dither: nothing else changed the samples).
    @inline(__always)
    func storeNarrowed(_ value: Double, _ base: UnsafeMutableRawPointer, _ index: Int) {
        store((value + 0.5).rounded(.down), base, index)
    }

    /// Sample `index` of `base`, as a number in the encoding's own scale (an integer for the
    /// integer encodings, centred on 0).
    @inline(__always)
    func sample(_ base: UnsafeMutableRawPointer, _ index: Int) -> Double {
        switch self {
        case .u8:
            return Double(Int(base.load(fromByteOffset: index, as: UInt8.self)) - 128)
        case .s16:
            return Double(base.load(fromByteOffset: index * 2, as: Int16.self))
        case .s24:
            let bytes = base + index * 3
            let raw = Int32(bytes.load(as: UInt8.self)) | Int32(bytes.load(fromByteOffset: 1, as: UInt8.self)) << 8
                | Int32(bytes.load(fromByteOffset: 2, as: UInt8.self)) << 16
            return Double((raw << 8) >> 8)
        case .s32:
            return Double(base.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
        case .float32:
            return Double(base.loadUnaligned(fromByteOffset: index * 4, as: Float.self))
        }
    }

    /// Stores `value` (in the encoding's own scale) as sample `index` of `base`: rounded to the
    /// nearest and clipped for the integer encodings.
    @inline(__always)
    func store(_ value: Double, _ base: UnsafeMutableRawPointer, _ index: Int) {
        switch self {
        case .u8:
            let clipped = max(-128, min(127, value.rounded()))
            base.storeBytes(of: UInt8(Int(clipped) + 128), toByteOffset: index, as: UInt8.self)
        case .s16:
            base.storeBytes(of: Int16(max(-32768, min(32767, value.rounded()))), toByteOffset: index * 2, as: Int16.self)
        case .s24:
            let clipped = Int32(max(-8_388_608, min(8_388_607, value.rounded())))
            let bytes = base + index * 3
            bytes.storeBytes(of: UInt8(truncatingIfNeeded: clipped), as: UInt8.self)
            bytes.storeBytes(of: UInt8(truncatingIfNeeded: clipped >> 8), toByteOffset: 1, as: UInt8.self)
            bytes.storeBytes(of: UInt8(truncatingIfNeeded: clipped >> 16), toByteOffset: 2, as: UInt8.self)
        case .s32:
            let clipped = Int32(max(-2_147_483_648, min(2_147_483_647, value.rounded())))
            base.storeBytes(of: clipped, toByteOffset: index * 4, as: Int32.self)
        case .float32:
            base.storeBytes(of: Float(value), toByteOffset: index * 4, as: Float.self)
        }
    }
}

/// The PCM format the decoder writes: the song's rate, channels and samples (signed 16-bit unless
/// the song holds more; unsigned 8-bit for a FLAC of 8 bits or fewer), unless a format was
/// imposed.
struct PCMFormat: Equatable, Sendable, CustomStringConvertible {
    var rate: Int
    var channels: Int
    var encoding: SampleEncoding
    /// The bits of each sample that carry the song (20 for a 20-bit FLAC in `.s24`): what a WAV
    /// header's valid bits say.
    var bits: Int

    init(rate: Int, channels: Int, encoding: SampleEncoding = .s16, bits: Int? = nil) {
        self.rate = rate
        self.channels = channels
        self.encoding = encoding
        self.bits = bits ?? encoding.bytes * 8
    }

    var bytesPerSample: Int { encoding.bytes }
    var bytesPerFrame: Int { channels * encoding.bytes }

    var description: String {
        return "\(rate) Hz \(ChannelLayout.name(channels))" + (encoding == .s16 ? "" : ", \(sampleName)")
    }

    /// The samples, as a person reads them: "16-bit", "24-bit", "32-bit float".
    var sampleName: String { encoding == .float32 ? "32-bit float" : "\(bits)-bit" }

    /// Whether tplayer plays it (`PlayableFormat`): what a header claims is checked before it
    /// is multiplied by anything.
    var isPlayable: Bool { PlayableFormat.contains(rate: rate, channels: channels) }

    /// Scales `bytes` of samples in `encoding` in `buffer` by `factor` (at least 0), rounding to
    /// the nearest and clipping; untouched at 1. The listener's volume and a song's gain.
    static func scale(_ buffer: UnsafeMutableRawPointer, bytes: Int, by factor: Double, encoding: SampleEncoding = .s16) {
        guard factor != 1 else { return }
        let factor = max(0, factor)
        for index in 0..<(bytes / encoding.bytes) {
            encoding.store(encoding.sample(buffer, index) * factor, buffer, index)
        }
    }

    /// Why a song in this format is refused, when it is.
    var refusal: LoadFailure? { isPlayable ? nil : .unplayableFormat(rate: rate, channels: channels) }
}
