/// What tplayer knows about a song once it is opened: format, length and tags.
public struct SongInfo: Equatable, Sendable {
    public var path: Path
    public var sampleRate: Int
    public var channels: Int
    /// Length in sample frames, when the file declares or implies it.
    public var totalFrames: Int64?
    public var tags: Tags
    /// What the first frame says about the stream.
    public var stream: Stream?

    /// What the ID3 tags say (untrusted text: shown only through the terminal's sanitiser).
    public struct Tags: Equatable, Sendable {
        public var title: String?
        public var artist: String?
        public var album: String?
        public var year: String?
        public var genre: String?
        public var track: String?
        public var comment: String?

        public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
            self.title = title
            self.artist = artist
            self.album = album
        }
    }

    /// The MPEG stream: version, layer, bitrate and how it varies, channel mode.
    public struct Stream: Equatable, Sendable {
        /// "1", "2" or "2.5".
        public var version: String
        public var layer: Int
        /// Kilobits per second (of the first frame; the target rate for ABR).
        public var bitrate: Int
        /// "CBR", "VBR" or "ABR".
        public var mode: String
        /// "stereo", "joint stereo", "dual channel" or "mono".
        public var channels: String

        public init(version: String, layer: Int, bitrate: Int, mode: String, channels: String) {
            self.version = version
            self.layer = layer
            self.bitrate = bitrate
            self.mode = mode
            self.channels = channels
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
    public var displayName: String {
        switch (nonEmpty(artist), nonEmpty(title)) {
        case let (artist?, title?): return "\(artist) – \(title)"
        case let (nil, title?): return title
        case let (artist?, nil): return "\(artist) – \(fileName)"
        case (nil, nil): return fileName
        }
    }

    /// The last path component.
    public var fileName: String {
        path.lastComponent.description
    }

    /// Seconds of audio in `frames` of this song.
    public func seconds(_ frames: Int64) -> Double {
        sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
