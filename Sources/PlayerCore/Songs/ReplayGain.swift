/// A song's ReplayGain: how loud it and its album are, as its tags say (REPLAYGAIN_* in Vorbis
/// comments, APE and ID3v2 TXXX frames; Opus's R128 gains; MP3's LAME tag and RVA2). Gains are in
/// dB against ReplayGain's reference (89 dB, about -18 LUFS); peaks are linear, 1 = full scale.
public struct ReplayGain: Equatable, Sendable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && albumGain == nil }

    /// A gain a file states, when it is one a song can have: finite, within ±64 dB (past that
    /// a tag is broken or hostile, and would play silence or full-scale noise).
    public static func sane(gain: Double) -> Double? {
        gain.isFinite && abs(gain) <= 64 ? gain : nil
    }

    /// A peak a file states, when it is one: above 0, at most 64 times full scale.
    public static func sane(peak: Double) -> Double? {
        peak.isFinite && peak > 0 && peak <= 64 ? peak : nil
    }

    /// Reads one tag, `REPLAYGAIN_TRACK_GAIN` = "-6.50 dB" and the like (any case); false when
    /// the key is not one of the four or the value is not a finite number in a sane range.
    @discardableResult
    public mutating func read(key: String, value: String) -> Bool {
        let name = key.uppercased()
        guard name.hasPrefix("REPLAYGAIN_") else { return false }
        var text = Substring(value).drop { $0 == " " }
        if name.hasSuffix("_GAIN") {
            // "-6.50 dB", "+2.1dB", "-6.50"
            if text.lowercased().hasSuffix("db") { text = text.dropLast(2) }
            while text.last == " " { text = text.dropLast() }
            if text.first == "+" { text = text.dropFirst() }
            guard let gain = Double(text).flatMap(Self.sane(gain:)) else { return false }
            switch name {
            case "REPLAYGAIN_TRACK_GAIN": trackGain = gain
            case "REPLAYGAIN_ALBUM_GAIN": albumGain = gain
            default: return false
            }
            return true
        }
        while text.last == " " { text = text.dropLast() }
        guard let peak = Double(text).flatMap(Self.sane(peak:)) else { return false }
        switch name {
        case "REPLAYGAIN_TRACK_PEAK": trackPeak = peak
        case "REPLAYGAIN_ALBUM_PEAK": albumPeak = peak
        default: return false
        }
        return true
    }
}

/// What `--replaygain` asks for.
public enum ReplayGainMode: String, CaseIterable, Sendable {
    case off
    case track
    case album
    /// The album's gain while the list plays in order, each track's own when it is shuffled (the
    /// rule foobar2000 calls "by playback order").
    case auto
}

/// The ReplayGain setting of a run: the mode and the pre-amp, in dB, added to every gain.
public struct ReplayGainSetting: Equatable, Sendable {
    public var mode: ReplayGainMode
    public var preamp: Double

    public init(mode: ReplayGainMode = .off, preamp: Double = 0) {
        self.mode = mode
        self.preamp = preamp
    }

    /// What the engine applies to the songs it opens, with the list shuffled or not.
    public func choice(shuffled: Bool) -> ReplayGainChoice {
        switch mode {
        case .off: ReplayGainChoice(gain: .off, preamp: preamp)
        case .track: ReplayGainChoice(gain: .track, preamp: preamp)
        case .album: ReplayGainChoice(gain: .album, preamp: preamp)
        case .auto: ReplayGainChoice(gain: shuffled ? .track : .album, preamp: preamp)
        }
    }
}

/// Which of a song's gains the engine applies to the songs it opens from now on.
public struct ReplayGainChoice: Equatable, Sendable, CustomStringConvertible {
    public enum Gain: String, Sendable {
        case off
        case track
        case album
    }

    public var gain: Gain
    public var preamp: Double

    public init(gain: Gain, preamp: Double = 0) {
        self.gain = gain
        self.preamp = preamp
    }

    public static let off = ReplayGainChoice(gain: .off)

    public var description: String { gain == .off ? "off" : "\(gain.rawValue) gain, pre-amp \(preamp) dB" }
}

extension ReplayGain {
    /// The ReplayGain in ID3v2 `TXXX` frames (`replaygain_track_gain`…, any case).
    public init(_ id3: SongInfo.ID3) {
        self.init()
        for frame in id3.v2?.frames ?? [] where frame.id == "TXXX" {
            if let description = frame.description { read(key: description, value: frame.text) }
        }
    }
}
