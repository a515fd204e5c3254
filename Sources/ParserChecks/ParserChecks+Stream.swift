import PlayerCore

/// What an internet stream brings: its body with ICY blocks cut in, and the URL it is named by.
extension ParserChecks {
    /// A stream's body taken apart where ICY blocks are cut in: the first byte is the interval
    /// (1 to 64) and the size of the pieces it comes in; the audio and the blocks are the same
    /// fed whole or in pieces, no block is longer than a length byte allows, and the audio is
    /// what is left when the blocks and their length bytes are taken out.
    public static func icyStream(_ bytes: [UInt8]) -> [String] {
        guard let first = bytes.first else { return [] }
        let body = Array(bytes.dropFirst())
        let interval = Int(first % 64) + 1
        let piece = Int(first / 64) + 1
        func run(_ size: Int) -> (audio: [UInt8], blocks: [[UInt8]]) {
            var demuxer = IcyDemuxer(interval: interval)
            var audio: [UInt8] = []
            var blocks: [[UInt8]] = []
            var at = 0
            while at < body.count {
                let end = min(at + size, body.count)
                body[at..<end].withUnsafeBytes { demuxer.feed($0, audio: { audio += $0 }, metadata: { blocks.append($0) }) }
                at = end
            }
            return (audio, blocks)
        }
        var broken: [String] = []
        let whole = run(max(body.count, 1))
        let pieces = run(piece)
        if whole.audio != pieces.audio || whole.blocks != pieces.blocks { broken.append("pieces of \(piece) demux differently") }
        if whole.blocks.contains(where: { $0.count > IcyMetadata.maximumBlock || $0.isEmpty || $0.count % 16 != 0 }) {
            broken.append("a block of \(whole.blocks.map(\.count)) bytes")
        }
        let taken = whole.blocks.reduce(0) { $0 + $1.count + 1 }
        if whole.audio.count > body.count - min(taken, body.count) { broken.append("more audio than the body holds") }
        return broken
    }

    /// A stream's URL, as named: taken only when it starts http:// or https:// with a host and
    /// holds nothing below 0x21 or above 0x7E, kept as it was named.
    public static func streamURL(_ bytes: [UInt8]) -> [String] {
        let path = Path(bytes: bytes)
        guard let url = StreamURL(path) else { return [] }
        var broken: [String] = []
        if !StreamURL.looksLikeURL(path) { broken.append("taken, but it does not look like a URL") }
        if Array(url.text.utf8) != bytes { broken.append("not kept as named") }
        if bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) { broken.append("a control character, a space or a byte past ASCII") }
        if bytes.count > StreamURL.maximumLength { broken.append("\(bytes.count) bytes long") }
        return broken
    }
}

extension ParserChecks {
    /// A playlist a server sends (the first byte: PLS or M3U, and which of two base URLs it came
    /// from), and the same bytes as AAC joined anywhere: every entry is an http or https stream
    /// (never a local file), named as it resolves (an absolute URL resolves to itself), each
    /// reference resolving to a stream or to nothing; a frame found is a frame.
    public static func servedPlaylist(_ bytes: [UInt8]) -> [String] {
        guard let first = bytes.first else { return [] }
        let body = Array(bytes.dropFirst())
        let base = first & 2 == 0 ? "http://radio.example/lists/listen.pls?id=3" : "https://radio.example:8443"
        let served = ServedPlaylist.parse(body, format: first & 1 == 0 ? .pls : .m3u, url: base)
        var broken: [String] = []
        for entry in served.entries {
            guard let url = StreamURL(entry.path) else {
                broken.append("an entry that is no stream: \(entry.path)")
                continue
            }
            if StreamURL.resolve(url.text, against: base)?.text != url.text { broken.append("\(url.text) does not resolve to itself") }
        }
        let reference = String(decoding: body.prefix(300), as: UTF8.self)
        if let resolved = StreamURL.resolve(reference, against: base), !StreamURL.looksLikeURL(Path(resolved.text)) {
            broken.append("\(reference) resolved to \(resolved.text)")
        }
        if let frame = AdtsSync.firstFrame(in: body), frame >= body.count || AdtsSync.frameLength(body, frame) == nil {
            broken.append("a frame at \(frame) that is none")
        }
        return broken
    }
}

extension ParserChecks {
    /// An LRC file: its lines in time order, every time within bounds, the line found at each
    /// line's time sung then, bounded counts, every problem at a real line and column on one line.
    public static func lyrics(_ bytes: [UInt8]) -> [String] {
        let lyrics = Lyrics.parse(bytes, file: "song.lrc")
        var broken: [String] = []
        if zip(lyrics.lines, lyrics.lines.dropFirst()).contains(where: { $0.time > $1.time }) { broken.append("lines out of time order") }
        if lyrics.lines.contains(where: { $0.time < 0 || $0.time > 100 * 3600 * 1000 + 600_000 }) { broken.append("a time out of bounds") }
        if lyrics.lines.count + lyrics.unsynced.count > Lyrics.maxLines { broken.append("\(lyrics.lines.count) lines") }
        for (index, line) in lyrics.lines.enumerated() {
            guard let found = lyrics.lineIndex(at: line.time), lyrics.lines[found].time == line.time, found >= index else {
                broken.append("line \(index) is not found at its time")
                break
            }
            if line.words.contains(where: { $0.time < 0 }) { broken.append("a word before the start") }
        }
        for problem in lyrics.problems where problem.location.line < 1 || problem.location.column < 1 || problem.message.contains("\n") {
            broken.append("a problem at \(problem.location): \(problem.message)")
        }
        return broken
    }
}

extension ParserChecks {
    /// What the now-playing view reads from a file: a picture's header (its size, never
    /// negative, its pixels never overflowing) and ID3's synchronised lyrics (lines in time
    /// order, within bounds, none empty, at most `Lyrics.maxLines`), from the same bytes; and the
    /// bytes as a file whose ID3v2 tag is walked for its SYLT frame (no read over
    /// `ID3Frame.maxRead`, whatever the tag claims; what is past the file's end is not there; a
    /// frame of at most `ID3Frame.maxBytes`, read as lyrics too).
    public static func nowPlaying(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        if let header = PictureHeader.read(bytes) {
            if (header.width ?? 0) < 0 || (header.height ?? 0) < 0 { broken.append("a negative size") }
            if let pixels = header.pixels, pixels < 0 { broken.append("pixels overflowed") }
        }
        let frame = ID3Frame.content("SYLT") { offset, count in
            if count > ID3Frame.maxRead { broken.append("a read of \(count) bytes") }
            guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
            return Array(bytes[offset..<offset + count])
        }
        if let frame, frame.count > ID3Frame.maxBytes { broken.append("a frame of \(frame.count) bytes") }
        for (body, rate) in [44100.0 / 1152, 0, -1, .nan, .infinity].map({ (bytes, $0) }) + (frame.map { [($0, 44100.0 / 1152)] } ?? []) {
            guard let lyrics = SyncedLyricsFrame.lyrics(body, framesPerSecond: rate) else { continue }
            if zip(lyrics.lines, lyrics.lines.dropFirst()).contains(where: { $0.time > $1.time }) { broken.append("lines out of time order") }
            if lyrics.lines.contains(where: { $0.time < 0 || $0.time > 100 * 3600 * 1000 }) { broken.append("a time out of bounds") }
            if lyrics.lines.contains(where: { $0.text.isEmpty }) { broken.append("an empty line") }
            if lyrics.lines.count > Lyrics.maxLines { broken.append("\(lyrics.lines.count) lines") }
        }
        return broken
    }
}
