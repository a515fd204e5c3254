import Glibc
import PlayerCore

/// What `i` shows about a song: its tags, its stream, its exact length and its path.
public enum SongDetails {
    /// `equalizer`: the graphic equaliser's bands in dB when it is on; `speed`: how many times
    /// as fast the songs play.
    /// `stream`: what an internet stream has said (its station, what is on air).
    /// What the library knows of a song: its plays, skips, when it was last played, its rating.
    public struct Statistics: Equatable, Sendable {
        public var plays: Int
        public var skips: Int
        /// Seconds since 1970.
        public var lastPlayed: Int64?
        public var rating: Int

        public init(plays: Int, skips: Int, lastPlayed: Int64?, rating: Int) {
            (self.plays, self.skips, self.lastPlayed, self.rating) = (plays, skips, lastPlayed, rating)
        }

        /// `12, last on 2026-12-01 20:14; skipped 2`.
        var playsLine: String {
            var line = "\(plays)"
            if let lastPlayed, lastPlayed > 0 {
                var time = time_t(clamping: lastPlayed)
                var parts = tm()
                var text = [CChar](repeating: 0, count: 32)
                if localtime_r(&time, &parts) != nil, strftime(&text, text.count, "%Y-%m-%d %H:%M", &parts) > 0 {
                    line += ", last on " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
            return line + (skips > 0 ? "; skipped \(skips)" : "")
        }

        /// `★★★★☆`, or `none (0 to 5 in the library view)`.
        var ratingLine: String {
            let stars = min(max(rating, 0), 5)
            return stars == 0 ? "none (0 to 5 in the library view)" : String(repeating: "★", count: stars) + String(repeating: "☆", count: 5 - stars)
        }
    }

    /// `outputs`: several outputs' names and whether each is on (a digit turns one on or off).
    public static func lines(_ song: SongInfo?, failure: String? = nil, equalizer: [Double]? = nil, speed: Double = 1,
                             stream said: StreamState? = nil, statistics: Statistics? = nil, outputs: [(name: String, on: Bool)] = []) -> [String] {
        let outputLines = outputs.count < 2 ? [] : ["Outputs  " + outputs.prefix(9).enumerated().map { index, output in
            "\(index + 1) \(TerminalText.safe(output.name)) \(output.on ? "on" : "off")"
        }.joined(separator: " · ") + "  (\(min(outputs.count, 9) > 1 ? "1–\(min(outputs.count, 9))" : "1") turns one on or off)"]
        guard let song else {
            return ["No song is open."] + (failure.map { ["The last load failed: " + TerminalText.safe($0)] } ?? []) + outputLines
        }
        let tags = song.tags
        func field(_ name: String, _ value: String?) -> String {
            name.padding(toLength: 9) + (value.flatMap { $0.isEmpty ? nil : $0 } ?? "–")
        }
        let stream = format(song)
        let length = song.totalFrames.map { frames in
            "\(TimeFormat.precise(song.seconds(frames))) (\(grouped(frames)) samples)"
        } ?? "not known"
        // An internet stream: its station and what is on air first (untrusted, every string).
        var station: [String] = []
        if let said {
            station = [field("Station", said.station?.described.map(TerminalText.safe)), field("On air", said.title.map(TerminalText.safe))]
            if let url = said.station?.url, !url.isEmpty { station.append(field("Website", TerminalText.safe(url))) }
        }
        return station + [
            field("Title", tags.title), field("Artist", tags.artist), field("Album", tags.album),
            field("Year", tags.year), field("Genre", tags.genre), field("Track", tags.track.map(Self.track)),
            field("Comment", tags.comment), field("Stream", stream), field("Output", song.played.map { TerminalText.safe($0) }), field("Length", length),
            field("Gain", gain(song)), field("EQ", equalizer.map(Self.equalizer) ?? "off"),
            field("Speed", speed == 1 ? "the song's own" : "\(StatusSnapshot.ListFacts.speedName(speed)), the same pitch (librubberband)"),
            field(song.isStream ? "URL" : "File", "\(song.path)"),
        ] + (statistics.map { [field("Plays", $0.playsLine), field("Rating", $0.ratingLine)] } ?? []) + outputLines
    }

    /// A track as its tags number it, said the same whatever the format: `4/12` (ID3's TRCK, a
    /// FLAC's TRACKNUMBER and TRACKTOTAL) is `4 of 12`; `04` is `4`.
    static func track(_ text: String) -> String {
        let parts = text.split(separator: "/", maxSplits: 1).map { String($0).trimmingCharacters(in: " ") }
        func plain(_ number: String) -> String {
            guard let value = Int(number), value >= 0, number.allSatisfy(\.isASCII) else { return number }
            return "\(value)"
        }
        guard let number = parts.first, !number.isEmpty else { return text }
        guard parts.count == 2, !parts[1].isEmpty else { return plain(number) }
        return "\(plain(number)) of \(plain(parts[1]))"
    }

    /// The song's format: `MPEG 1 layer III, 128 kbit/s joint stereo, 44100 Hz, 2`, `FLAC, 24 bits,
    /// 96000 Hz, stereo`.
    static func format(_ song: SongInfo) -> String {
        let roman = ["", "I", "II", "III"]
        return song.stream.map { stream in
            "MPEG \(stream.version) layer \(stream.layer < roman.count ? roman[stream.layer] : "\(stream.layer)"), "
                + "\(stream.averageBitrate ?? stream.bitrate) kbit/s \(stream.mode), \(song.sampleRate) Hz, \(stream.channels)"
        } ?? (song.codec.map { TerminalText.safe($0) + ", " } ?? "")
            + "\(song.sampleRate) Hz, \(ChannelLayout.name(song.channels))"
    }

    /// The bands as a person reads them: `31 Hz +5  62 +4 … 16k +5 dB`.
    static func equalizer(_ bands: [Double]) -> String {
        let names = ["31 Hz", "62", "125", "250", "500", "1k", "2k", "4k", "8k", "16k"]
        let gains = zip(names, bands).map { name, gain in
            "\(name) \(gain > 0 ? "+" : "")\(gain == gain.rounded() ? String(Int(gain)) : fixed(gain, 1))"
        }
        return gains.joined(separator: "  ") + " dB"
    }

    /// The song's ReplayGain as its tags give it, and what was applied.
    static func gain(_ song: SongInfo) -> String? {
        let tags = song.replayGain
        func kind(_ name: String, _ gain: Double?, _ peak: Double?) -> String? {
            guard let gain else { return nil }
            return "\(name) \(decibels(gain))" + (peak.map { " (peak \(fixed($0, 3)))" } ?? "")
        }
        let stored = [kind("track", tags.trackGain, tags.trackPeak), kind("album", tags.albumGain, tags.albumPeak)].compactMap { $0 }
        let applied = song.appliedGain.map { "applied \(decibels($0))" } ?? (stored.isEmpty ? nil : "not applied")
        let parts = stored + [applied].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// -6.2 as `-6.20 dB`, 1.5 as `+1.50 dB`.
    static func decibels(_ value: Double) -> String {
        (value >= 0 ? "+" : "-") + fixed(abs(value), 2) + " dB"
    }

    /// `value` with `places` decimals, rounded (as `-R` writes numbers: a gain a file claims
    /// may be 1e30 or not a number, and is written, never converted to an integer).
    static func fixed(_ value: Double, _ places: Int) -> String {
        RemoteReplies.fixed(value, places)
    }

    /// 396900 as `396,900`.
    static func grouped(_ number: Int64) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
