import Files
import Library
import PlayerCore

/// The library as MPD's clients see it: every song by its URI, in URI order, and the folders
/// they make, each song's lines as `find` and `listallinfo` print them made once. Read whole off
/// the main loop when the server starts and again after the library changes (MPD holds its
/// database in memory the same way); the one before serves meanwhile.
public final class MpdCatalog: Sendable {
    /// One song, with what a filter asks of it.
    final class Song: MpdFilterable, Sendable {
        let record: LibrarySong
        let uri: String
        /// Its lines with every tag MPD serves (a client's own `tagtypes` prints them anew).
        let text: String

        init(record: LibrarySong, uri: String) {
            self.record = record
            self.uri = uri
            text = MpdSongText(record, uri: uri).text(MpdTag.served)
        }

        func values(of tag: MpdTag) -> [String] { Self.values(of: tag, record) }

        static func values(of tag: MpdTag, _ record: LibrarySong) -> [String] {
            switch tag {
            case .artist: record.artists
            case .albumArtist: record.albumArtists
            case .album: record.album.map { [$0] } ?? []
            case .title: record.title.map { [$0] } ?? []
            case .track: record.track.map { [String($0)] } ?? []
            case .disc: record.disc.map { [String($0)] } ?? []
            case .date: record.date.map { [$0] } ?? []
            case .genre: record.genres
            case .composer: record.composers
            case .name: []
            case .artistSort, .albumSort, .albumArtistSort, .originalDate, .composerSort, .performer, .conductor, .work,
                 .movement, .movementNumber, .ensemble, .location, .grouping, .comment, .label, .musicBrainzArtist, .musicBrainzAlbum,
                 .musicBrainzAlbumArtist, .musicBrainzTrack, .musicBrainzReleaseTrack, .musicBrainzWork:
                record.otherTags.compactMap { $0.name == tag ? $0.value : nil }
            }
        }

        var allValues: [String] { MpdTag.allCases.flatMap(values(of:)) }

        func anyValue(of tag: MpdTag, _ test: (String) -> Bool) -> Bool {
            switch tag {
            case .artist: record.artists.contains(where: test)
            case .albumArtist: record.albumArtists.contains(where: test)
            case .album: record.album.map(test) ?? false
            case .title: record.title.map(test) ?? false
            case .date: record.date.map(test) ?? false
            case .genre: record.genres.contains(where: test)
            case .composer: record.composers.contains(where: test)
            case .track, .disc, .artistSort, .albumSort, .albumArtistSort, .name, .originalDate, .composerSort, .performer, .conductor,
                 .work, .movement, .movementNumber, .ensemble, .location, .grouping, .comment, .label, .musicBrainzArtist,
                 .musicBrainzAlbum, .musicBrainzAlbumArtist, .musicBrainzTrack, .musicBrainzReleaseTrack, .musicBrainzWork:
                values(of: tag).contains(where: test)
            }
        }
        var modified: Int64 { record.modified / 1_000_000_000 }
        var audioFormat: (rate: Int, bits: Int?, channels: Int)? {
            record.rate > 0 ? (record.rate, record.bits, record.channels) : nil
        }
    }

    let songs: [Song]
    let roots: MpdRoots
    /// The songs' tags laid out for filters (`select`).
    private let columns: MpdTagColumns
    /// What `stats` says of them: the artists and albums, each name once, and their length.
    let totals: (artists: Int, albums: Int, seconds: Double)

    init(_ records: [LibrarySong], roots: MpdRoots) {
        self.roots = roots
        var songs: [Song] = []
        songs.reserveCapacity(records.count)
        for record in records {
            let uri = roots.uri(of: record.path)
            if !uri.hasPrefix("/") { songs.append(Song(record: record, uri: uri)) }
        }
        songs.sort { $0.uri.utf8.lexicographicallyPrecedes($1.uri.utf8) }
        self.songs = songs
        columns = MpdTagColumns(count: songs.count) { index, value in MpdSongText.visit(songs[index].record, value) }
        var artists = Set<String>(), albums = Set<String>(), seconds = 0.0
        for song in songs {
            artists.formUnion(song.record.artists)
            if let album = song.record.album { albums.insert(album) }
            seconds += max(song.record.seconds ?? 0, 0)
        }
        totals = (artists.count, albums.count, seconds)
    }

    /// The library read whole, as clients see it; `nil` when there is none or it cannot be read.
    public static func read(_ library: LibraryDatabase?, roots: MpdRoots) -> MpdCatalog? {
        guard let library, case .success(let records) = library.allSongs() else { return nil }
        return MpdCatalog(records, roots: roots)
    }

    /// `song`'s lines, with the tags `wanted`.
    func text(_ song: Song, _ wanted: Set<MpdTag>) -> String {
        wanted == MpdTag.served ? song.text : MpdSongText(song.record, uri: song.uri).text(wanted)
    }

    /// The songs under the folder `uri` (`""`: all), whatever their depth: a range of `songs`.
    func under(_ uri: String) -> ArraySlice<Song> {
        guard !uri.isEmpty else { return songs[...] }
        let prefix = Array((uri + "/").utf8)
        let start = first { !$0.uri.utf8.lexicographicallyPrecedes(prefix) }
        var end = start
        while end < songs.count, songs[end].uri.utf8.starts(with: prefix) { end += 1 }
        return songs[start..<end]
    }

    /// The song at `uri`, if the library holds one there.
    func song(_ uri: String) -> Song? {
        let index = first { !$0.uri.utf8.lexicographicallyPrecedes(uri.utf8) }
        return index < songs.count && songs[index].uri == uri ? songs[index] : nil
    }

    /// The first index whose song is not before where `isAtOrAfter` says (a binary search).
    private func first(where isAtOrAfter: (Song) -> Bool) -> Int {
        var (low, high) = (0, songs.count)
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(songs[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// What the folder `uri` holds directly: its folders' URIs (in order) and its songs.
    func children(of uri: String) -> (folders: [String], songs: [Song]) {
        let depth = uri.isEmpty ? 0 : uri.utf8.count + 1
        var folders: [String] = []
        var direct: [Song] = []
        for song in under(uri) {
            let rest = song.uri.utf8.dropFirst(depth)
            if let slash = rest.firstIndex(of: 0x2F) {
                let folder = String(decoding: song.uri.utf8[..<slash], as: UTF8.self)
                if folders.last != folder { folders.append(folder) }
            } else {
                direct.append(song)
            }
        }
        return (folders, direct)
    }

    /// When the folder `uri` last changed, as its file system says (seconds since 1970).
    func folderModified(_ uri: String) -> Int64? {
        guard let path = roots.path(of: uri), case .success(let status) = FileSystem.status(of: path) else { return nil }
        return status.modified / 1_000_000_000
    }
}

extension MpdCatalog: MpdFilterableSongs {
    public var count: Int { songs.count }
    public func uri(_ index: Int) -> String { songs[index].uri }
    public func modified(_ index: Int) -> Int64 { songs[index].modified }
    public func audioFormat(_ index: Int) -> (rate: Int, bits: Int?, channels: Int)? { songs[index].audioFormat }

    public func anyBytes(_ index: Int, of tag: MpdTag?, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        columns.anyValue(index, of: tag, test)
    }
}
