/// What tplayer knows about a song once it is opened: format, length and tags.
public struct SongInfo: Equatable, Sendable {
    public var path: Path
    public var sampleRate: Int
    public var channels: Int
    /// Length in sample frames, when the file declares or implies it.
    public var totalFrames: Int64?
    /// Whether it can seek: not an internet stream that is live, or whose server takes no byte
    /// ranges.
    public var isSeekable = true
    /// Whether it is an internet stream, as its source said when it was opened (`SongSource`).
    public var isStream = false
    /// Its lyrics: its `.lrc`, else its `LYRICS` tag (`SongDecoder` reads them as it opens).
    public var lyrics: SongLyrics?
    public var tags: Tags
    /// What the first frame says about the stream.
    public var stream: Stream?
    /// The ID3 tags as they are in the file (for mpg123's remote protocol, `@I` and `TAG`); for
    /// a song that has none but other tags, and for a CUE sheet's track, its `tags` as ID3v2.
    public var id3 = ID3()
    /// The song's ReplayGain, from its tags (empty when it has none).
    public var replayGain = ReplayGain()
    /// The codec and how it is stored ("FLAC, 16 bits", "Ogg Vorbis", "Opus", "AAC (MP4)"), for
    /// the details; `nil` for MPEG audio, which `stream` describes.
    public var codec: String?
    /// Every tag as stored, for the formats whose tags are Vorbis comments or are read as such
    /// (FLAC, Ogg Vorbis, Opus, and FFmpeg's: MP4 atoms, APE…): the library's fields beyond
    /// `tags` (album artist, disc, composer, several artists). `nil` for MPEG audio (`id3`).
    public var comments: VorbisComments?
    /// Bits a sample as the file stores it, for lossless and uncompressed audio (FLAC, ALAC,
    /// WAV…); `nil` for lossy codecs, which have none.
    public var bits: Int?
    /// The ReplayGain applied to it as it was opened, in dB (the pre-amp and clipping
    /// prevention counted); `nil` when none was.
    public var appliedGain: Double?
    /// What reaches the output, as the engine opens it for the song ("pulse: 24-bit, 96000 Hz,
    /// stereo"); `nil` until the engine says.
    public var played: String?

    /// What the song's tags say, whatever their kind: ID3 (MPEG audio), Vorbis comments (FLAC,
    /// Ogg Vorbis, Opus), FFmpeg's metadata (MP4 atoms, APE…), a CUE sheet's fields over its
    /// image's (untrusted text: shown only through the terminal's sanitiser).
    public struct Tags: Hashable, Sendable {
        public var title: String?
        public var artist: String?
        public var album: String?
        public var year: String?
        public var genre: String?
        public var track: String?
        public var comment: String?

        /// How a radio names a song: "Artist - Title", or either alone.
        public var streamTitle: String? {
            let parts = [artist, title].compactMap { $0 }.filter { !$0.isEmpty }
            return parts.isEmpty ? nil : parts.joined(separator: " - ")
        }

        public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
            self.title = title
            self.artist = artist
            self.album = album
        }
    }

    /// ID3 tags as stored: version 1's fixed fields and version 2's text frames.
    public struct ID3: Equatable, Sendable {
        public var v1: V1?
        public var v2: V2?

        public init(v1: V1? = nil, v2: V2? = nil) {
            self.v1 = v1
            self.v2 = v2
        }

        /// ID3v1: title, artist, album (30 bytes each), year (4), comment (30), in Latin-1.
        public struct V1: Equatable, Sendable {
            public var fields: [UInt8]
            public var genre: UInt8

            public init(fields: [UInt8], genre: UInt8) {
                self.fields = fields
                self.genre = genre
            }
        }

        /// ID3v2: the common fields (as libmpg123 picks them) and every text frame.
        public struct V2: Equatable, Sendable {
            public var title: String?
            public var artist: String?
            public var album: String?
            public var year: String?
            public var comment: String?
            public var genre: String?
            public var frames: [Frame] = []

            public init() {}
        }

        /// One text frame: `TIT2`, a `TXXX` with its description, a `COMM` with its language.
        public struct Frame: Equatable, Sendable {
            public var id: String
            public var language: String?
            public var description: String?
            public var text: String

            public init(id: String, language: String? = nil, description: String? = nil, text: String) {
                self.id = id
                self.language = language
                self.description = description
                self.text = text
            }
        }
    }

    /// The MPEG stream: version, layer, bitrate and how it varies, channel mode.
    public struct Stream: Equatable, Sendable {
        public var layer: Int
        /// Kilobits per second (of the first frame; the target rate for ABR).
        public var bitrate: Int
        /// The rest of the first frame's header (what mpg123's remote protocol reports in `@S`).
        public var header = Header()
        /// MPEG frames in the stream, when known.
        public var frameCount: Int64?
        /// Samples the decoder drops before the song's first one (encoder and decoder delay,
        /// when the LAME tag is honoured): the song's sample `n` is in MPEG frame
        /// `(n + startDelay) / samplesPerFrame`. `nil` when it was not measured.
        public var startDelay: Int64?
        /// For VBR: the average kilobits per second over the whole song.
        public var averageBitrate: Int?

        public init(layer: Int, bitrate: Int, header: Header = Header()) {
            self.layer = layer
            self.bitrate = bitrate
            self.header = header
        }

        /// "1", "2" or "2.5".
        public var version: String { ["1", "2", "2.5"][safe: header.version] ?? "?" }
        /// "CBR", "VBR" or "ABR".
        public var mode: String { ["CBR", "VBR", "ABR"][safe: header.vbr] ?? "?" }
        /// "stereo", "joint stereo", "dual channel" or "mono".
        public var channels: String { ["stereo", "joint stereo", "dual channel", "mono"][safe: header.mode] ?? "?" }
        /// Samples in one MPEG frame: 384 in layer I, 576 in layer III of MPEG 2 and 2.5, else 1152.
        public var samplesPerFrame: Int { layer == 1 ? 384 : (layer == 3 && header.version != 0 ? 576 : 1152) }

        public struct Header: Equatable, Sendable {
            /// 0: MPEG 1, 1: MPEG 2, 2: MPEG 2.5.
            public var version = 0
            /// 0: stereo, 1: joint stereo, 2: dual channel, 3: mono.
            public var mode = 0
            public var modeExtension = 0
            public var frameSize = 0
            public var copyright = false
            public var crc = false
            public var privateBit = false
            public var emphasis = 0
            /// 0: CBR, 1: VBR, 2: ABR.
            public var vbr = 0

            public init() {}
        }

    }

    public init(path: Path, sampleRate: Int, channels: Int, totalFrames: Int64?, tags: Tags = Tags()) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        self.totalFrames = totalFrames
        self.tags = tags
    }

    public init(path: Path, sampleRate: Int, channels: Int, totalFrames: Int64?, title: String?,
                artist: String? = nil, album: String? = nil) {
        self.init(path: path, sampleRate: sampleRate, channels: channels, totalFrames: totalFrames,
                  tags: Tags(title: title, artist: artist, album: album))
    }

    public var title: String? {
        get { tags.title }
        set { tags.title = newValue }
    }

    public var artist: String? {
        get { tags.artist }
        set { tags.artist = newValue }
    }

    public var album: String? { tags.album }

    /// "artist – title" from the tags; the title or file name alone when tags are missing.
    public var displayName: String { tags.displayName(or: fileName) }

    /// The last path component.
    public var fileName: String {
        path.lastComponent.description
    }

    /// Seconds of audio in `frames` of this song.
    public func seconds(_ frames: Int64) -> Double {
        sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0
    }

}

extension SongInfo {
    /// The song as a CUE sheet names one of its tracks: each field the sheet gives wins over the
    /// image file's own (whose title is the album's, or none), and mpg123's remote protocol
    /// (`@I`, `TAG`) is given the same fields as ID3v2, so every front-end shows the track.
    public func named(by sheet: Tags) -> SongInfo {
        var song = self
        song.tags = tags.overridden(by: sheet)
        song.id3 = ID3(v2: ID3.V2(song.tags))
        return song
    }
}

extension SongInfo.Tags {
    /// These tags with each field `sheet` gives in place of its own (a CUE sheet's track over
    /// its image file's tags).
    public func overridden(by sheet: SongInfo.Tags) -> SongInfo.Tags {
        var tags = self
        for field in Self.fields where sheet[keyPath: field] != nil { tags[keyPath: field] = sheet[keyPath: field] }
        return tags
    }

    /// "artist – title"; the title alone, or `fallback` (a file name, a playlist's title) for
    /// what is missing or blank.
    public func displayName(or fallback: String) -> String {
        func nonEmpty(_ text: String?) -> String? {
            guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
            return text
        }
        switch (nonEmpty(artist), nonEmpty(title)) {
        case let (artist?, title?): return "\(artist) – \(title)"
        case let (nil, title?): return title
        case let (artist?, nil): return "\(artist) – \(fallback)"
        case (nil, nil): return fallback
        }
    }

    /// The number a tag starts with: "3/12" is 3, " 07" is 7; none, or one past 1,000,000, is `nil`.
    public static func leadingNumber(_ text: String?) -> Int? {
        guard let digits = text?.drop(while: { $0 == " " }).prefix(while: { $0.isASCII && $0.isNumber }), !digits.isEmpty,
              digits.count <= 7, let value = Int(digits), value <= 1_000_000 else { return nil }
        return value
    }

    /// Every field, in the order a saved session writes them.
    public static var fields: [WritableKeyPath<SongInfo.Tags, String?>] {
        [\.title, \.artist, \.album, \.year, \.genre, \.track, \.comment]
    }

    /// What the status line and the details show from the stored tags: ID3v2's fields, or
    /// ID3v1's when version 2 has neither a title nor an artist.
    public init(_ id3: SongInfo.ID3) {
        if let v2 = id3.v2 {
            // The first of several values (ID3v2.4), as for every format's tags.
            self.init(title: SongInfo.ID3.values(v2.title).first, artist: SongInfo.ID3.values(v2.artist).first,
                      album: SongInfo.ID3.values(v2.album).first)
            year = v2.date
            genre = SongInfo.ID3.genres(v2.genre).first
            comment = v2.comment
            track = v2.values("TRCK").first
            if title != nil || artist != nil { return }
        }
        guard let v1 = id3.v1, v1.fields.count >= 124 else {
            self.init()
            return
        }
        /// A fixed-size field, NUL- or space-padded, in Latin-1.
        func latin1(_ range: Range<Int>) -> String? {
            let scalars = v1.fields[range].prefix { $0 != 0 }.map { Unicode.Scalar($0) }
            var value = String(String.UnicodeScalarView(scalars))
            while value.last == " " { value.removeLast() }
            return value.isEmpty ? nil : value
        }
        self.init(title: latin1(0..<30), artist: latin1(30..<60), album: latin1(60..<90))
        year = latin1(90..<94)
        comment = latin1(94..<124)
        genre = SongInfo.ID3.genres[safe: Int(v1.genre)]
        // ID3v1.1: a zero byte before the comment's last one, which is then the track.
        if v1.fields[122] == 0, v1.fields[123] != 0 { track = "\(v1.fields[123])" }
    }
}

extension SongInfo.ID3.V2 {
    /// Another format's tags (Vorbis comments, MP4 atoms…) as the ID3v2 fields and text frames
    /// mpg123's remote protocol speaks of (`@I`, `TAG`): what a front-end reads for every song.
    public init(_ tags: SongInfo.Tags) {
        self.init()
        title = tags.title
        artist = tags.artist
        album = tags.album
        year = tags.year
        comment = tags.comment
        genre = tags.genre
        let frames: [(String, String?)] = [("TIT2", tags.title), ("TPE1", tags.artist), ("TALB", tags.album), ("TDRC", tags.year),
                                           ("TCON", tags.genre), ("TRCK", tags.track)]
        self.frames = frames.compactMap { id, text in text.map { SongInfo.ID3.Frame(id: id, text: $0) } }
        if let comment = tags.comment { self.frames.append(SongInfo.ID3.Frame(id: "COMM", language: "", description: "", text: comment)) }
    }
}
