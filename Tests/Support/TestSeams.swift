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
                      album: { source, answer in
                          if self.holdsAlbums { self.heldAlbums[source.path] = answer } else { answer(self.albums[source.path]) }
                      })
    }
}
