/// What a file holds, told from its first bytes (its magic), never from its name.
public enum FileContent: Equatable, Sendable, CustomStringConvertible {
    case mpegAudio
    case flac
    case ogg
    case mp4
    case wav
    case aiff
    case au
    case ape
    case wavPack
    case asf
    case m3u
    case pls
    case png
    case jpeg
    case gif
    case pdf
    case zip
    case executable

    /// How many bytes `sniff` looks at, at most.
    public static let headLength = 16

    /// What `head`, a file's first bytes, says it is; `nil` when it says nothing known.
    public static func sniff(_ head: some Collection<UInt8>) -> FileContent? {
        let bytes = Array(head.prefix(headLength))
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let magic = Array(text.utf8)
            return bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts("ID3") || isMPEGFrameHeader(bytes) { return .mpegAudio }
        if starts("fLaC") { return .flac }
        if starts("OggS") { return .ogg }
        if starts("ftyp", at: 4) { return .mp4 }
        if starts("RIFF") && starts("WAVE", at: 8) { return .wav }
        if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) { return .aiff }
        if starts(".snd") { return .au }
        if starts("MAC ") { return .ape }
        if starts("wvpk") { return .wavPack }
        if bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .asf }
        if starts("#EXTM3U") || starts("\u{FEFF}#EXTM3U") { return .m3u }
        if starts("[playlist]") { return .pls }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts("GIF8") { return .gif }
        if starts("%PDF") { return .pdf }
        if starts("PK\u{3}\u{4}") { return .zip }
        if bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return .executable }
        return nil
    }

    /// A plausible MPEG audio frame header: the sync, and no reserved version, layer, bitrate or rate.
    static func isMPEGFrameHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return false }
        let version = (bytes[1] >> 3) & 3
        let layer = (bytes[1] >> 1) & 3
        let bitrate = bytes[2] >> 4
        let rate = (bytes[2] >> 2) & 3
        return version != 1 && layer != 0 && bitrate != 15 && rate != 3
    }

    /// A song or a playlist: something a person keeps, that writing audio over would destroy.
    /// WAV and AU are what `-w` itself writes, so they are not counted.
    public var isKeptMedia: Bool {
        switch self {
        case .mpegAudio, .flac, .ogg, .mp4, .aiff, .ape, .wavPack, .asf, .m3u, .pls: true
        case .wav, .au, .png, .jpeg, .gif, .pdf, .zip, .executable: false
        }
    }

    public var description: String {
        switch self {
        case .mpegAudio: "MPEG audio (MP3)"
        case .flac: "FLAC audio"
        case .ogg: "Ogg audio"
        case .mp4: "MP4 audio or video"
        case .wav: "WAV audio"
        case .aiff: "AIFF audio"
        case .au: "AU audio"
        case .ape: "Monkey's Audio"
        case .wavPack: "WavPack audio"
        case .asf: "Windows Media audio"
        case .m3u: "an M3U playlist"
        case .pls: "a PLS playlist"
        case .png: "a PNG image"
        case .jpeg: "a JPEG image"
        case .gif: "a GIF image"
        case .pdf: "a PDF document"
        case .zip: "a ZIP archive"
        case .executable: "a program"
        }
    }
}
