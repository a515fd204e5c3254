/// What a file holds, told from its first bytes (its magic), never from its name.
public enum FileContent: Equatable, Sendable, CustomStringConvertible {
    case mpegAudio
    case flac
    /// Ogg Vorbis, Opus, FLAC in Ogg, or another codec in Ogg (Speex, Theora…), by the first
    /// page's first packet.
    case oggVorbis
    case opus
    case oggFlac
    case ogg
    case mp4
    case wav
    case aiff
    case au
    case ape
    case wavPack
    case asf
    /// Matroska or WebM.
    case matroska
    /// AAC in ADTS frames (a bare `.aac`).
    case adts
    case tta
    case musepack
    /// Core Audio Format (Apple's container: ALAC, AAC, PCM…).
    case caf
    /// A raw AC-3 or E-AC-3 stream (`.ac3`, `.eac3`).
    case ac3
    case m3u
    case pls
    /// A CUE sheet: its first word is one of the sheet's commands (`REM`, `FILE`, `TITLE`…).
    case cueSheet
    case png
    case jpeg
    case gif
    case pdf
    case zip
    case executable

    /// How many bytes `sniff` looks at, at most.
    public static let headLength = 40

    /// What `head`, a file's first bytes, says it is; `nil` when it says nothing known.
    public static func sniff(_ head: some Collection<UInt8>) -> FileContent? {
        let bytes = Array(head.prefix(headLength))
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let magic = Array(text.utf8)
            return bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts("ID3") || isMPEGFrameHeader(bytes) { return .mpegAudio }
        if starts("fLaC") { return .flac }
        if starts("OggS") {
            // The first page's first packet: 27 bytes of header and one lacing byte (a first
            // page holds the one identification packet).
            if starts("\u{1}vorbis", at: 28) { return .oggVorbis }
            if starts("OpusHead", at: 28) { return .opus }
            if starts("\u{7F}FLAC", at: 28) { return .oggFlac }
            return .ogg
        }
        if starts("ftyp", at: 4) { return .mp4 }
        if starts("RIFF") && starts("WAVE", at: 8) { return .wav }
        if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) { return .aiff }
        if starts(".snd") { return .au }
        if starts("MAC ") { return .ape }
        if starts("wvpk") { return .wavPack }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if starts("TTA1") { return .tta }
        if starts("MPCK") || starts("MP+") { return .musepack }
        if starts("caff") { return .caf }
        // AC-3 and E-AC-3: the sync word 0x0B77, and a stream id (bsid) of 16 or less. Told
        // here, libmpg123 could find MPEG frames by chance in the stream and play it as noise.
        if bytes.count >= 6, bytes[0] == 0x0B, bytes[1] == 0x77, bytes[5] >> 3 <= 16 { return .ac3 }
        // ADTS: a 12-bit sync and layer 0, which no MPEG audio frame has.
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 { return .adts }
        if bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .asf }
        if starts("#EXTM3U") || starts("\u{FEFF}#EXTM3U") { return .m3u }
        if starts("[playlist]") { return .pls }
        if isCueSheet(bytes) { return .cueSheet }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts("GIF8") { return .gif }
        if starts("%PDF") { return .pdf }
        if starts("PK\u{3}\u{4}") { return .zip }
        if bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return .executable }
        return nil
    }

    /// What a server's `Content-Type` says its body is, when it names an audio format: used when
    /// the first bytes say nothing (a radio joined mid-frame), so that AAC is never searched for
    /// MPEG frames, which it can hold by chance.
    public init?(mediaType contentType: String) {
        switch Self.mediaType(contentType) {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3": self = .mpegAudio
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-hx-aac-adts", "audio/vnd.dlna.adts": self = .adts
        case "audio/flac", "audio/x-flac": self = .flac
        case "audio/ogg", "application/ogg", "audio/vorbis", "audio/opus", "audio/x-ogg": self = .ogg
        case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": self = .wav
        case "audio/mp4", "audio/x-m4a", "audio/m4a": self = .mp4
        case "audio/webm", "video/webm", "audio/x-matroska", "video/x-matroska": self = .matroska
        default: return nil
        }
    }

    /// `Text/Plain; charset=utf-8` → `text/plain`.
    public static func mediaType(_ contentType: String) -> String {
        let type = contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }
        return type.lowercased()
    }

    /// Text whose first word (after a UTF-8 byte-order mark and blanks) is a CUE sheet's
    /// command, in any case, followed by a blank.
    static func isCueSheet(_ bytes: [UInt8]) -> Bool {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let word = text.prefix { $0 != 0x20 && $0 != 0x09 }
        guard word.count < text.count else { return false }
        let upper = String(decoding: word.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
        return ["REM", "FILE", "TITLE", "PERFORMER", "CATALOG", "CDTEXTFILE", "SONGWRITER"].contains(upper)
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

    /// Audio that a decoder library plays (the rest is a playlist, or not audio at all).
    public var isAudio: Bool {
        switch self {
        case .mpegAudio, .flac, .oggVorbis, .opus, .oggFlac, .ogg, .mp4, .wav, .aiff, .au, .ape, .wavPack, .asf,
             .matroska, .adts, .tta, .musepack, .caf, .ac3: true
        case .m3u, .pls, .cueSheet, .png, .jpeg, .gif, .pdf, .zip, .executable: false
        }
    }

    /// A playlist or a CUE sheet: a list of songs, played as one when named as an input.
    public var isList: Bool {
        switch self {
        case .m3u, .pls, .cueSheet: true
        case .mpegAudio, .flac, .oggVorbis, .opus, .oggFlac, .ogg, .mp4, .wav, .aiff, .au, .ape, .wavPack, .asf,
             .matroska, .adts, .tta, .musepack, .caf, .ac3, .png, .jpeg, .gif, .pdf, .zip, .executable: false
        }
    }

    /// A song or a playlist: something a person keeps, that writing audio over would destroy.
    /// WAV and AU are what `-w` itself writes, so they are not counted.
    public var isKeptMedia: Bool {
        switch self {
        case .mpegAudio, .flac, .oggVorbis, .opus, .oggFlac, .ogg, .mp4, .aiff, .ape, .wavPack, .asf, .matroska, .adts,
             .tta, .musepack, .caf, .ac3, .m3u, .pls, .cueSheet: true
        case .wav, .au, .png, .jpeg, .gif, .pdf, .zip, .executable: false
        }
    }

    public var description: String {
        switch self {
        case .mpegAudio: "MPEG audio (MP3)"
        case .flac: "FLAC audio"
        case .oggVorbis: "Ogg Vorbis audio"
        case .opus: "Opus audio"
        case .oggFlac: "FLAC audio in Ogg"
        case .ogg: "Ogg media"
        case .mp4: "MP4 audio or video"
        case .wav: "WAV audio"
        case .aiff: "AIFF audio"
        case .au: "AU audio"
        case .ape: "Monkey's Audio"
        case .wavPack: "WavPack audio"
        case .asf: "Windows Media audio"
        case .matroska: "Matroska or WebM media"
        case .adts: "AAC audio"
        case .tta: "TTA audio"
        case .musepack: "Musepack audio"
        case .caf: "Core Audio (CAF) audio"
        case .ac3: "AC-3 audio"
        case .m3u: "an M3U playlist"
        case .pls: "a PLS playlist"
        case .cueSheet: "a CUE sheet"
        case .png: "a PNG image"
        case .jpeg: "a JPEG image"
        case .gif: "a GIF image"
        case .pdf: "a PDF document"
        case .zip: "a ZIP archive"
        case .executable: "a program"
        }
    }
}
