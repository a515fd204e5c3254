/// Where a song lies in its album, as its tags say, and the folder its file is in: what album
/// mode, shuffle by album and the crossfade know of a song's album.
public struct AlbumTrack: Hashable, Sendable {
    /// Its album tag, trimmed; `nil` when it has none.
    public var album: String?
    public var albumArtist: String?
    public var disc: Int?
    public var track: Int?
    /// The folder the song's file is in.
    public var folder: Path

    public init(album: String?, albumArtist: String? = nil, disc: Int? = nil, track: Int? = nil, folder: Path) {
        self.album = Self.name(album)
        self.albumArtist = albumArtist.flatMap { $0.isEmpty ? nil : $0 }
        self.disc = disc
        self.track = track
        self.folder = folder
    }

    /// An album tag as albums are told apart: trimmed, none when empty.
    public static func name(_ tag: String?) -> String? {
        tag.map { String(Substring($0).trimmed) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What `info`'s tags say (the disc and the album artist from its comments or ID3v2 frames).
    public init(_ info: SongInfo) {
        var disc: Int?, albumArtist: String?
        if let comments = info.comments {
            func first(_ names: Set<String>) -> String? {
                comments.fields.first { names.contains($0.name.uppercased()) && !$0.value.isEmpty }?.value
            }
            disc = SongInfo.Tags.leadingNumber(first(["DISCNUMBER", "DISC"]))
            albumArtist = first(["ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST"])
        } else if let v2 = info.id3.v2 {
            disc = SongInfo.Tags.leadingNumber(v2.values("TPOS").first)
            albumArtist = v2.values("TPE2").first
        }
        self.init(album: info.tags.album, albumArtist: albumArtist, disc: disc,
                  track: SongInfo.Tags.leadingNumber(info.tags.track), folder: info.path.directory)
    }

    /// A song whose tags cannot be read: of its folder's songs with no album.
    public init(unreadable path: Path) {
        self.init(album: nil, folder: path.directory)
    }

    /// The album shuffle plays it with: the album of that name by its album artist (wherever
    /// its files are), or in its folder when no album artist is named; a song with no album
    /// tag goes with the others of its folder that have none.
    public var group: Group {
        Group(album: album, owner: album != nil ? albumArtist.map { "artist:" + $0 } ?? "folder:\(folder)" : "folder:\(folder)")
    }

    public struct Group: Hashable, Sendable {
        public var album: String?
        public var owner: String
    }

    /// Its place in its album: by disc (none: the first), then by track (none: before the
    /// numbered ones); ties keep the list's order.
    public var place: Int {
        (disc ?? 1) * 1_000_001 + (track ?? 0)  // each at most 1_000_000 (`leadingNumber`)
    }

    /// `next` plays on from this song in its album's order: the same album (in the same folder,
    /// or of the same album artist), and the next track of the same disc or the first of the
    /// next disc; songs with no track numbers, of one album in one folder, are taken as in
    /// order (a fade there is the worse mistake).
    public func isFollowed(by next: AlbumTrack) -> Bool {
        guard let album, next.album == album,
              next.folder == folder || albumArtist != nil && next.albumArtist == albumArtist else { return false }
        guard let track, let nextTrack = next.track else { return next.folder == folder }
        let disc = disc ?? 1, nextDisc = next.disc ?? 1
        return nextDisc == disc && nextTrack == track + 1 || nextDisc == disc + 1 && nextTrack <= 1
    }

    /// Whether the join from `before` to `after` is one inside an album played in order.
    public static func joins(_ before: SongInfo, _ after: SongInfo) -> Bool {
        AlbumTrack(before).isFollowed(by: AlbumTrack(after))
    }
}
