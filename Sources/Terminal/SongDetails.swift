import PlayerCore

/// What `i` shows about a song: its tags, its stream, its exact length and its path.
public enum SongDetails {
    public static func lines(_ song: SongInfo?, failure: String? = nil) -> [String] {
        guard let song else {
            return ["No song is open."] + (failure.map { ["The last load failed: " + TerminalText.safe($0)] } ?? [])
        }
        let tags = song.tags
        func field(_ name: String, _ value: String?) -> String {
            name.padding(toLength: 9) + (value.flatMap { $0.isEmpty ? nil : $0 } ?? "–")
        }
        let roman = ["", "I", "II", "III"]
        let stream = song.stream.map { stream in
            "MPEG \(stream.version) layer \(stream.layer < roman.count ? roman[stream.layer] : "\(stream.layer)"), "
                + "\(stream.averageBitrate ?? stream.bitrate) kbit/s \(stream.mode), \(song.sampleRate) Hz, \(stream.channels)"
        } ?? "\(song.sampleRate) Hz, \(song.channels == 1 ? "mono" : "\(song.channels) channels")"
        let length = song.totalFrames.map { frames in
            "\(TimeFormat.precise(song.seconds(frames))) (\(grouped(frames)) samples)"
        } ?? "not known"
        return [
            field("Title", tags.title), field("Artist", tags.artist), field("Album", tags.album),
            field("Year", tags.year), field("Genre", tags.genre), field("Track", tags.track),
            field("Comment", tags.comment), field("Stream", stream), field("Length", length),
            field("File", "\(song.path)"),
        ]
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
