/// What `mpg123 -R` answers to its equaliser and RVA commands, kept as mpg123 keeps them, so a
/// front-end that sets bands and reads them back (`SHOWEQ`) sees what it set. The bands are
/// applied to MPEG audio by libmpg123's own equaliser, and to the other formats by the engine's
/// processing stage; the RVA mode is the ReplayGain mode, as in mpg123.
public struct RemoteEqualizer: Equatable, Sendable {
    public static let bands = 32
    /// Each band's factor, left (`[0]`) and right (`[1]`).
    public private(set) var factors = [[Double]](repeating: [Double](repeating: 1, count: bands), count: 2)
    private var rvaMode = "off"

    public init() {}

    /// The ReplayGain mode `RVA` set: mix (radio) the track's, album (audiophile) the album's.
    public var replayGainMode: ReplayGainMode {
        switch rvaMode {
        case "mix": .track
        case "album": .album
        default: .off
        }
    }

    /// The reply lines (without `@`) to `EQ`, `SEQ`, `SHOWEQ` or `RVA`; `nil` for another command.
    public mutating func answer(_ command: RemoteCommand) -> [String]? {
        switch command {
        case .equalizer(let channel, let band, let value):
            guard (1...3).contains(channel) else { return ["E failed to set eq: Invalid channel number specified. (code 2)"] }
            guard (0..<Self.bands).contains(band) else { return ["E failed to set eq: Bad equalizer band. (code 16)"] }
            if channel & 1 != 0 { factors[0][band] = value }
            if channel & 2 != 0 { factors[1][band] = value }
            return ["\(channel) : \(band) : \(RemoteReplies.fixed(value, 6))"]
        case .simpleEqualizer(let bass, let mid, let treble):
            // mpg123's own odd rule, kept: each range is set when another value is in 0...3.
            let inRange = { (value: Double) in value >= 0 && value <= 3 }
            if inRange(treble) { set(0..<1, bass) }
            if inRange(mid) { set(1..<2, mid) }
            if inRange(bass) { set(2..<Self.bands, treble) }
            return ["bass: \(RemoteReplies.fixed(bass, 6)) mid: \(RemoteReplies.fixed(mid, 6)) treble: \(RemoteReplies.fixed(treble, 6))"]
        case .showEqualizer:
            var lines = ["SHOWEQ {"]
            for band in 0..<Self.bands {
                for channel in 0..<2 {
                    lines.append("SHOWEQ \(channel + 1) : \(band) : \(RemoteReplies.fixed(factors[channel][band], 6))")
                }
            }
            return lines + ["SHOWEQ }"]
        case .rva(let word):
            switch word.lowercased() {
            case "off": rvaMode = "off"
            case "mix", "radio": rvaMode = "mix"
            case "album", "audiophile": rvaMode = "album"
            default: break  // mpg123 keeps its mode
            }
            return ["RVA \(rvaMode)"]
        default:
            return nil
        }
    }

    private mutating func set(_ bands: Range<Int>, _ value: Double) {
        for band in bands {
            factors[0][band] = value
            factors[1][band] = value
        }
    }

    /// `EQFILE`: an mpg123 equaliser file (`#` comments, then one line per band: the left and
    /// right factors). `false` when `text` is not one (mpg123: "failed to parse given eq file").
    public mutating func load(_ text: String) -> Bool {
        var read: [[Double]] = []
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") && read.count < Self.bands {
            let numbers = RemoteCommand.leadingNumbers(String(line), count: 2)
            guard numbers.count == 2 else { return false }
            read.append(numbers)
        }
        guard read.count == Self.bands else { return false }
        factors = [read.map { $0[0] }, read.map { $0[1] }]
        return true
    }
}
