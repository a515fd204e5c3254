import PlayerCore

/// What a test's session hands out and asks for, set as the test goes (the player gives its own
/// when it makes a session): problems kept as lines, a load taken as one song unless the test
/// says otherwise, nothing saved, nothing traced.
public final class TestSeams {
    public var lines: [String] = []
    public var expand: Session.Seams.Expand = Session.Seams.oneSong
    public var saveList: (Path, EntryList) -> Void = { _, _ in }
    public var onTransition: ((PlayerContext.Step) -> Void)?
    /// Every song counted as played or skipped, in order.
    public var listens: [Listen] = []
    /// The album of each song, as album mode asks (none unless a test says).
    public var albums: [Path: String] = [:]
    /// Where each song lies in its album, as shuffle by album asks (else its `albums` entry, in
    /// its folder, with no track number).
    public var albumTracks: [Path: AlbumTrack] = [:]
    /// How many batches of albums were asked for (shuffle by album, the album keys).
    public var albumBatches = 0
    /// What was asked of the named playlists, in order; an `open` is answered with `opened`'s songs.
    public var playlistRequests: [PlaylistRequest] = []
    public var opened: [Path] = []

    /// Whether album mode's asks wait for the test (`heldAlbums`) or are answered at once.
    public var holdsAlbums = false
    /// The album asks waiting, each to be answered by the test: `heldAlbums[path]?(album)`.
    public var heldAlbums: [Path: (String?) -> Void] = [:]

    /// The loads asked for while they are held (`holdLoads`), each to be answered by the test.
    public var heldLoads: [Path: (EntryList, [String]) -> Void] = [:]

    public init() {}

    /// From now on a load's songs come when the test hands them over (a folder walked off the
    /// main loop): `heldLoads[path]?(entries, problems)`.
    public func holdLoads() {
        expand = { path, done in self.heldLoads[path] = done }
    }

    /// The seams to make a session with: each forwards to what is set here when it is called.
    public var seams: Session.Seams {
        Session.Seams(report: { self.lines.append($0) }, expand: { self.expand($0, $1) }, saveList: { self.saveList($0, $1) },
                      onTransition: { self.onTransition?($0) }, listened: { self.listens.append($0) },
                      albums: { sources, ask, answer in
                          func track(_ path: Path) -> AlbumTrack {
                              self.albumTracks[path] ?? AlbumTrack(album: self.albums[path], folder: path.directory)
                          }
                          guard ask == .next, let source = sources.first else {
                              self.albumBatches += 1
                              return answer(sources.map { track($0.path) })
                          }
                          if self.holdsAlbums {
                              self.heldAlbums[source.path] = { album in answer([AlbumTrack(album: album, folder: source.path.directory)]) }
                          } else {
                              answer([track(source.path)])
                          }
                      },
                      playlists: { request, _, _, done in
                          self.playlistRequests.append(request)
                          if case .open = request { done(self.opened) } else { done(nil) }
                      })
    }
}
