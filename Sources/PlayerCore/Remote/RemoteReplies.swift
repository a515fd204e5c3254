/// The reply lines of mpg123's remote protocol (version 10), without their leading `@`, made
/// from what tplayer knows about a song. Pure: `RemoteControl` sends them.
///
/// Every text from a file (tags, names) is made one safe line first: a reply can never be split
/// into two by a tag, so a tag can never forge a reply (`@P 0`) that a front-end would obey.
public enum RemoteReplies {
    public static let greeting = "R MPG123 (ThOr) v10"

    /// The `@I` lines after a song loads: its ID3 fields in a `{ }` block, or its file name.
    public static func info(_ song: SongInfo) -> [String] {
        guard song.id3.v1 != nil || song.id3.v2 != nil else {
            var name = song.path.lastComponent.bytes
            if let dot = name.lastIndex(of: UInt8(ascii: ".")) { name = Array(name[..<dot]) }
            return ["I " + line(String(decoding: name, as: UTF8.self))]
        }
        var lines = ["I {"]
        if let v1 = song.id3.v1 { lines += id3v1(v1, prefix: "I") }
        if let v2 = song.id3.v2 {
            let fields: [(String, String?)] = [("title", v2.title), ("artist", v2.artist), ("album", v2.album),
                                               ("year", v2.year), ("comment", v2.comment), ("genre", v2.genre)]
            for (name, value) in fields {
                lines += split(value ?? "").map { "I ID3v2.\(name):\($0)" }
            }
        }
        return lines + ["I }"]
    }

    /// `TAG`: every tag field in a `@T { }` block.
    public static func tag(_ song: SongInfo?) -> [String] {
        var lines = ["T {"]
        if let v1 = song?.id3.v1 { lines += id3v1(v1, prefix: "T") }
        for frame in song?.id3.v2?.frames ?? [] {
            var head = "T ID3v2.\(line(frame.id))"
            if let language = frame.language { head += " lang(\(line(language)))" }
            if let description = frame.description { head += " desc(\(line(description)))" }
            // mpg123 ends the head with a colon, but for a TXXX's (a description, no language).
            lines.append(frame.description != nil && frame.language == nil ? head : head + ":")
            lines += split(frame.text).map { "T =" + $0 }
        }
        return lines + ["T }"]
    }

    /// `@S`: the stream, from the first frame's header.
    public static func stream(_ song: SongInfo) -> String? {
        guard let stream = song.stream else { return nil }
        let header = stream.header
        let version = ["1.0", "2.0", "2.5"][safe: header.version] ?? "x.x"
        let mode = ["Stereo", "Joint-Stereo", "Dual-Channel", "Single-Channel"][safe: header.mode] ?? "Invalid"
        let fields: [Any] = [
            version, stream.layer, song.sampleRate, mode, header.modeExtension, header.frameSize,
            header.mode == 3 ? 1 : 2, header.copyright ? 1 : 0, header.crc ? 1 : 0, header.emphasis,
            stream.bitrate, header.privateBit ? 1 : 0, header.vbr,
        ]
        return "S " + fields.map { "\($0)" }.joined(separator: " ")
    }

    /// `@F`: the MPEG frame playing, frames left, and the same in seconds.
    public static func progress(_ song: SongInfo, position: Int64) -> String {
        progress(song, frame: mpegFrame(of: position, in: song))
    }

    /// `@F` for MPEG frame `frame` of `song`. A song of another format is counted in frames of
    /// 1,152 samples, its length (when known) giving the frames left.
    public static func progress(_ song: SongInfo, frame: Int64) -> String {
        let perFrame = secondsPerFrame(song)
        let samples = samplesPerFrame(song)
        // Rounded up without adding first: a length from a file can be Int64.max.
        let total = song.stream?.frameCount ?? song.totalFrames.map { $0 / samples + ($0 % samples > 0 ? 1 : 0) } ?? frame
        let left = max(total - frame, 0)
        return "F \(frame) \(left) \(fixed(Double(frame) * perFrame, 2)) \(fixed(Double(left) * perFrame, 2))"
    }

    /// The MPEG frame (counted as mpg123 counts them, from the stream's first) that holds
    /// sample `position` of `song`.
    public static func mpegFrame(of position: Int64, in song: SongInfo) -> Int64 {
        let perFrame = samplesPerFrame(song)
        return (max(position, 0) + (song.stream?.startDelay ?? 0)) / perFrame
    }

    /// The first sample of MPEG frame `frame` of `song` (0 for the frames the delay drops).
    public static func sample(ofMPEGFrame frame: Int64, in song: SongInfo) -> Int64 {
        let perFrame = samplesPerFrame(song)
        let (sample, overflow) = frame.multipliedReportingOverflow(by: perFrame)
        guard !overflow else { return frame < 0 ? 0 : .max }
        return max(sample - (song.stream?.startDelay ?? 0), 0)
    }

    /// Where `JUMP` goes from sample `position`: the first sample of the frame it names.
    public static func sample(for jump: RemoteCommand.Jump, from position: Int64, in song: SongInfo) -> Int64 {
        let current = mpegFrame(of: position, in: song)
        let frame: Int64
        switch jump {
        case .frames(let count, let relative): frame = relative ? current.addingSaturated(count) : count
        case .seconds(let seconds, let relative):
            let count = mpegFrames(inSeconds: seconds, of: song)
            frame = relative ? current.addingSaturated(count) : count
        }
        return sample(ofMPEGFrame: max(frame, 0), in: song)
    }

    /// Where `SEEK` goes from sample `position` (never before the first).
    public static func sample(forSeek samples: Int64, relative: Bool, from position: Int64) -> Int64 {
        max(relative ? position.addingSaturated(samples) : samples, 0)
    }

    /// Whole MPEG frames in `seconds` of `song` (rounded toward zero, as mpg123 does).
    public static func mpegFrames(inSeconds seconds: Double, of song: SongInfo) -> Int64 {
        let frames = (seconds / secondsPerFrame(song)).rounded(.towardZero)
        guard frames.isFinite else { return 0 }
        return frames >= 0x1p62 ? 1 << 62 : frames <= -0x1p62 ? -(1 << 62) : Int64(frames)
    }

    /// Samples in one of `song`'s MPEG frames (1152 when the stream is unknown).
    static func samplesPerFrame(_ song: SongInfo) -> Int64 {
        Int64(song.stream?.samplesPerFrame ?? 1152)
    }

    /// How long one of `song`'s MPEG frames plays: how often mpg123 sends `@F`.
    public static func secondsPerFrame(_ song: SongInfo) -> Double {
        Double(samplesPerFrame(song)) / Double(max(song.sampleRate, 1))
    }

    /// `@PITCH`'s value, as mpg123 prints it (`0.100000`).
    public static func pitch(_ value: Double) -> String {
        fixed(value, 6)
    }

    /// `@V`: the volume, as mpg123 prints it (`50.000000%`).
    public static func volume(_ percent: Double) -> String {
        "V \(fixed(percent, 6))%"
    }

    /// `text` made one line: every control character (a line break, an escape, an override)
    /// becomes a space (`UntrustedText.flattened`).
    public static func line(_ text: String) -> String {
        UntrustedText.flattened(text)
    }

    /// A tag's text as the lines mpg123 sends for it: split at each line break (`\r\n` and
    /// `\n\r` count as one; two breaks in a row leave an empty line; a final break adds none).
    public static func split(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "\n" || scalar == "\r" || scalar == "\0" else {
                current.unicodeScalars.append(scalar)
                continue
            }
            if let next = scalars.first, (scalar == "\n" && next == "\r") || (scalar == "\r" && next == "\n") {
                scalars = scalars.dropFirst()
            }
            lines.append(line(current))
            current = ""
        }
        if !current.isEmpty { lines.append(line(current)) }
        return lines
    }

    /// A stream's station, as mpg123 names it once the stream is open: `I ICY-NAME: …` and
    /// `I ICY-URL: …`, each when the server said it.
    public static func station(_ station: IcyMetadata.Station) -> [String] {
        [station.name.map { "I ICY-NAME: \(line($0))" }, station.url.map { "I ICY-URL: \(line($0))" }].compactMap { $0 }
    }

    /// A stream's new title, as mpg123 passes on the metadata block: `I ICY-META: StreamTitle='…';`
    /// (only the title is kept of the block; a `'` in it stays, as in the block).
    public static func icyMeta(title: String) -> String {
        "I ICY-META: StreamTitle='\(line(title))';"
    }

    /// `@I ID3:` and its genre and track lines: the five fixed fields back to back, NULs as
    /// spaces, Latin-1 read as such and sent as UTF-8, each field exactly as many bytes wide as
    /// mpg123's (30, 30, 30, 4, 30): front-ends cut the line by bytes (Audio::Play::MPG123), and
    /// an `é` that became two bytes shifted every field after it.
    private static func id3v1(_ tag: SongInfo.ID3.V1, prefix: String) -> [String] {
        var fields = ""
        var offset = 0
        for width in [30, 30, 30, 4, 30] {
            let bytes = tag.fields.dropFirst(offset).prefix(width)
            fields += field(String(String.UnicodeScalarView(bytes.map { $0 == 0 ? " " : Unicode.Scalar($0) })), bytes: width)
            offset += width
        }
        let genre = SongInfo.ID3.genres[safe: Int(tag.genre)] ?? "Unknown"
        var lines = ["\(prefix) ID3:\(fields)\(genre)", "\(prefix) ID3.genre:\(tag.genre)"]
        if tag.fields.count >= 124, tag.fields[94 + 28] == 0, tag.fields[94 + 29] != 0 {
            lines.append("\(prefix) ID3.track:\(tag.fields[94 + 29])")
        }
        return lines
    }

    /// `text` made one line and exactly `bytes` bytes of UTF-8: cut at a character, or padded.
    static func field(_ text: String, bytes width: Int) -> String {
        var text = line(text)
        while text.utf8.count > width { text.removeLast() }
        return text + String(repeating: " ", count: width - text.utf8.count)
    }

    /// `value` with `digits` decimals, as C's `%.Nf` prints it.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let scaled = (abs(value) * scale).rounded()
        guard scaled >= 1e17 else {
            let whole = Int64(scaled)
            let unit = Int64(scale)
            let fraction = String(whole % unit)
            let padded = String(repeating: "0", count: max(digits - fraction.count, 0)) + fraction
            let sign = value < 0 && whole != 0 ? "-" : ""
            return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole / unit).\(padded)"
        }
        // Too large for the decimals to be counted in 64 bits: the whole part's digits exactly
        // (1e308 has 309 of them, as C prints it; not "1e+308"), then the fraction's.
        let magnitude = abs(value)
        var whole = magnitude.rounded(.down)
        var units = ((magnitude - whole) * scale).rounded()
        if units >= scale {
            whole += 1
            units -= scale
        }
        let fraction = String(Int64(units))
        let padded = String(repeating: "0", count: max(digits - fraction.count, 0)) + fraction
        return (value < 0 ? "-" : "") + wholeDigits(whole) + (digits == 0 ? "" : "." + padded)
    }

    /// The decimal digits of a whole, finite, non-negative double, exactly: its significand
    /// doubled as many times as its exponent says, in base 10⁹ limbs (at most 35 of them).
    static func wholeDigits(_ value: Double) -> String {
        guard value >= 1 else { return "0" }
        // The significand as a whole number of 53 bits, in limbs, then doubled exponent - 52 times
        // (a whole double of 53 bits or fewer is its significand shifted right: done in 64 bits).
        var limbs: [UInt64] = []
        var rest = value.exponent < 64 ? UInt64(value) : value.significandBitPattern | 1 << 52
        repeat {
            limbs.append(rest % 1_000_000_000)
            rest /= 1_000_000_000
        } while rest > 0
        for _ in 0..<(value.exponent < 64 ? 0 : Int(value.exponent) - 52) {
            var carryIn: UInt64 = 0
            for index in limbs.indices {
                let doubled = limbs[index] * 2 + carryIn
                limbs[index] = doubled % 1_000_000_000
                carryIn = doubled / 1_000_000_000
            }
            if carryIn > 0 { limbs.append(carryIn) }
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
