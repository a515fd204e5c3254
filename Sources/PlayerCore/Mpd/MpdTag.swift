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
}
