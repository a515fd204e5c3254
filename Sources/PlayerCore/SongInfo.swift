/// What tplayer knows about a song once it is opened: format, length and tags.
public struct SongInfo: Equatable, Sendable {
    public var path: Path
    public var sampleRate: Int
    public var channels: Int
    /// Length in sample frames, when the file declares or implies it.
    public var totalFrames: Int64?
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(
        path: Path, sampleRate: Int, channels: Int, totalFrames: Int64?,
        title: String? = nil, artist: String? = nil, album: String? = nil
    ) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        self.totalFrames = totalFrames
        self.title = title
        self.artist = artist
        self.album = album
    }

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
