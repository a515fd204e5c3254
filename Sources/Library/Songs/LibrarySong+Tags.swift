import Files
import PlayerCore

extension LibrarySong {
    /// The song as the player's own decoder opened it (`info`): the same title, artist and
    /// album the player shows, and the library's fields beyond them from the tags as stored
    /// (Vorbis comments, ID3v2 frames).
    public init(_ info: SongInfo, size: Int64, modified: Int64) {
        self.init(path: info.path, size: size, modified: modified, rate: info.sampleRate, channels: info.channels)
        let tags = info.tags
        title = tags.title
        album = tags.album
        date = tags.year
        track = SongInfo.Tags.leadingNumber(tags.track)
        artists = tags.artist.map { [$0] } ?? []
        genres = tags.genre.map { [$0] } ?? []
        if let comments = info.comments {
            read(comments)
        } else if let v2 = info.id3.v2 {
            read(v2)
        }
        seconds = info.totalFrames.map(info.seconds)
        format = info.codec ?? info.stream.map { "MP\($0.layer)" }
        bits = info.bits
        trackGain = info.replayGain.trackGain
        albumGain = info.replayGain.albumGain
    }

    /// A CUE sheet's track at `path` (`x.cue/track0002`) of the image `image`: named by the
    /// sheet (its title, its performer or the sheet's, the sheet's as the album artist, its
    /// album, date, genre and number), its format the image's, its length its span's.
    public init(_ track: CueTrackPath.Track, at path: Path, in image: SongInfo, size: Int64, modified: Int64) {
        self.init(image.named(by: track.tags), size: size, modified: modified)
        self.path = path
        artists = track.tags.artist.map { [$0] } ?? artists
        if let performer = track.albumArtist { albumArtists = [performer] }
        genres = track.tags.genre.map { [$0] } ?? genres
        let rate = max(image.sampleRate, 1)
        let (start, end) = track.span.samples(at: rate)
        seconds = (end ?? image.totalFrames).map { Double(max($0 - start, 0)) / Double(rate) }
        trackGain = nil
        albumGain = nil
    }

    /// FLAC's, Ogg's and FFmpeg's fields (FFmpeg's names as Vorbis comments spell them).
    private mutating func read(_ comments: VorbisComments) {
        func all(_ names: String...) -> [String] {
            let wanted = Set(names)
            return comments.fields.filter { wanted.contains($0.name.uppercased()) }.map(\.value).filter { !$0.isEmpty }
        }
        let artists = all("ARTIST")
        if !artists.isEmpty { self.artists = artists }
        albumArtists = all("ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST")
        if self.artists.isEmpty { self.artists = albumArtists }
        let genres = all("GENRE")
        if !genres.isEmpty { self.genres = genres }
        composers = all("COMPOSER")
        disc = SongInfo.Tags.leadingNumber(all("DISCNUMBER", "DISC").first)
        compilation = Self.isSet(all("COMPILATION").first)
        // MPD's other tags are named as MPD names them, in any case.
        otherTags = comments.fields.compactMap { field in
            guard !field.value.isEmpty, let tag = MpdTag(named: field.name), Self.otherNames.contains(tag) else { return nil }
            return Tag(tag, field.value)
        }
    }

    /// The tags kept in `otherTags`: not comments, which MPD keeps none of unless told to.
    static let otherNames: Set<MpdTag> = [.artistSort, .albumSort, .albumArtistSort, .originalDate, .composerSort, .performer, .conductor,
                                          .work, .movement, .movementNumber, .ensemble, .location, .grouping, .label,
                                          .musicBrainzArtist, .musicBrainzAlbum, .musicBrainzAlbumArtist, .musicBrainzTrack,
                                          .musicBrainzReleaseTrack, .musicBrainzWork]

    /// ID3v2's frames for them, as MPD reads them (`Id3Scan.cxx`; TORY is ID3v2.3's TDOR).
    static let id3Frames: [(id: String, tag: MpdTag)] = [
        ("TSOP", .artistSort), ("TSO2", .albumArtistSort), ("TSOA", .albumSort), ("TDOR", .originalDate), ("TORY", .originalDate),
        ("TPE3", .conductor), ("TPE4", .performer), ("TIT1", .grouping), ("TPUB", .label),
    ]

    /// MusicBrainz's ids in ID3v2's TXXX frames, by their descriptions (`Id3MusicBrainz.cxx`).
    static let musicBrainzDescriptions: [String: MpdTag] = [
        "MusicBrainz Artist Id": .musicBrainzArtist, "MusicBrainz Album Id": .musicBrainzAlbum,
        "MusicBrainz Album Artist Id": .musicBrainzAlbumArtist, "MusicBrainz Track Id": .musicBrainzTrack,
        "MusicBrainz Release Track Id": .musicBrainzReleaseTrack, "MusicBrainz Work Id": .musicBrainzWork,
    ]

    /// MP3's frames as libmpg123 gives them: TPE2 the album artist, TPOS the disc, TCOM the
    /// composer, TCMP the compilation flag, TCON's genres by name; a frame of several values
    /// (ID3v2.4) split.
    private mutating func read(_ v2: SongInfo.ID3.V2) {
        let artists = v2.values("TPE1")
        if !artists.isEmpty { self.artists = artists }
        albumArtists = v2.values("TPE2")
        let genres = SongInfo.ID3.genres(v2.text("TCON"))
        if !genres.isEmpty { self.genres = genres }
        composers = v2.values("TCOM")
        disc = SongInfo.Tags.leadingNumber(v2.values("TPOS").first)
        compilation = Self.isSet(v2.values("TCMP").first)
        for (id, tag) in Self.id3Frames { otherTags += v2.values(id).map { Tag(tag, $0) } }
        for frame in v2.frames where frame.id == "TXXX" && !frame.text.isEmpty {
            if let tag = frame.description.flatMap({ Self.musicBrainzDescriptions[$0] }) { otherTags.append(Tag(tag, frame.text)) }
        }
    }

    /// "1", "true", "yes": a flag set.
    static func isSet(_ text: String?) -> Bool {
        guard let text = text?.trimmingPrefix(" ").lowercased() else { return false }
        return text.hasPrefix("1") || text.hasPrefix("true") || text.hasPrefix("yes")
    }
}
