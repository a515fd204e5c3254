/// MPD's tag names (`tag/Names.c`), in its order.
public enum MpdTag: String, CaseIterable, Sendable {
    case artist = "Artist", artistSort = "ArtistSort", album = "Album", albumSort = "AlbumSort", albumArtist = "AlbumArtist"
    case albumArtistSort = "AlbumArtistSort", title = "Title", track = "Track", name = "Name", genre = "Genre", date = "Date"
    case originalDate = "OriginalDate", composer = "Composer", composerSort = "ComposerSort", performer = "Performer"
    case conductor = "Conductor", work = "Work", movement = "Movement", movementNumber = "MovementNumber", ensemble = "Ensemble"
    case location = "Location", grouping = "Grouping", comment = "Comment", disc = "Disc", label = "Label"
    case musicBrainzArtist = "MUSICBRAINZ_ARTISTID", musicBrainzAlbum = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtist = "MUSICBRAINZ_ALBUMARTISTID", musicBrainzTrack = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrack = "MUSICBRAINZ_RELEASETRACKID", musicBrainzWork = "MUSICBRAINZ_WORKID"

    /// The tags served: all but `Comment`, which MPD leaves out unless its settings ask
    /// (`metadata_to_use`).
    public static let served = Set(allCases).subtracting([.comment])

    /// The tag `name` names, letter case aside, as MPD reads a client's tag names.
    public init?(named name: String) {
        let lower = name.lowercased()
        guard let tag = Self.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = tag
    }

    /// Its place in MPD's table (0 for Artist), found without hashing: a filter asks it of each
    /// song it looks at.
    public var place: UInt8 {
        switch self {
        case .artist: 0
        case .artistSort: 1
        case .album: 2
        case .albumSort: 3
        case .albumArtist: 4
        case .albumArtistSort: 5
        case .title: 6
        case .track: 7
        case .name: 8
        case .genre: 9
        case .date: 10
        case .originalDate: 11
        case .composer: 12
        case .composerSort: 13
        case .performer: 14
        case .conductor: 15
        case .work: 16
        case .movement: 17
        case .movementNumber: 18
        case .ensemble: 19
        case .location: 20
        case .grouping: 21
        case .comment: 22
        case .disc: 23
        case .label: 24
        case .musicBrainzArtist: 25
        case .musicBrainzAlbum: 26
        case .musicBrainzAlbumArtist: 27
        case .musicBrainzTrack: 28
        case .musicBrainzReleaseTrack: 29
        case .musicBrainzWork: 30
        }
    }
}
