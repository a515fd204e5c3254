/// An MPEG audio frame header (ISO 11172-3, 13818-3 and MPEG 2.5), read by tplayer itself: how
/// long the frame it starts is, to tell frames that follow one another from damage between them.
struct MPEGFrameHeader: Equatable {
    /// The frame's length in bytes, header included.
    let length: Int
    /// Its rate and channel count.
    let native: PCMFormat

    /// The header in the first four of `bytes`; `nil` for anything that is not one (a free
    /// format frame, whose length its header does not give, is not one here).
    init?(_ bytes: some Collection<UInt8>) {
        let header = Array(bytes.prefix(4))
        guard header.count == 4, header[0] == 0xFF, header[1] & 0xE0 == 0xE0 else { return nil }
        let version = (header[1] >> 3) & 3  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layer = 4 - Int((header[1] >> 1) & 3)  // 1, 2 or 3 (4: reserved)
        let bitrateIndex = Int(header[2] >> 4)
        let rateIndex = Int((header[2] >> 2) & 3)
        guard version != 1, layer <= 3, (1...14).contains(bitrateIndex), rateIndex < 3 else { return nil }
        let mpeg1 = version == 3
        let kilobits: [Int]
        switch (mpeg1, layer) {
        case (true, 1): kilobits = [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kilobits = [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kilobits = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): kilobits = [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kilobits = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let bitrate = kilobits[bitrateIndex - 1] * 1000
        let rate = [[11025, 12000, 8000], [0, 0, 0], [22050, 24000, 16000], [44100, 48000, 32000]][Int(version)][rateIndex]
        let padding = Int((header[2] >> 1) & 1)
        switch layer {
        case 1: length = (12 * bitrate / rate + padding) * 4
        case 2: length = 144 * bitrate / rate + padding
        default: length = (mpeg1 ? 144 : 72) * bitrate / rate + padding
        }
        native = PCMFormat(rate: rate, channels: header[3] >> 6 == 3 ? 1 : 2)
    }
}
