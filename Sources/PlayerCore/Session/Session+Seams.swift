extension Session {
    /// What a session hands out and asks for, given when it is made (it does no I/O of its
    /// own): each one chosen by whoever makes the session, none a do-nothing default.
    public struct Seams {
        /// Turns a path given to `load` into entries (a folder or playlist gives many),
        /// reporting problems itself, and hands them to its second argument: at once, or later
        /// from the main loop when walking a folder takes a while (the keys are answered
        /// meanwhile). The entries are handed over, not shared (`consuming`): a long list goes
        /// into the session's as it is.
        public typealias Expand = (Path, @escaping (_ entries: consuming EntryList, _ problems: [String]) -> Void) -> Void

        /// Receives each problem as `"<input>: <what went wrong>"`.
        public var report: (String) -> Void
        public var expand: Expand
        /// Saves the list as a playlist at the path (checked, written off the main loop, and
        /// said by whoever does it).
        public var saveList: (Path, EntryList) -> Void
        /// Every transition taken, for `--trace`; `nil` when nothing is traced.
        public var onTransition: ((PlayerContext.Step) -> Void)?
        /// Each song heard long enough to count as played, or skipped before (play counts, the
        /// listen log).
        public var listened: (Listen) -> Void
        /// Reads where songs lie in their albums, as their tags say, off the main loop, and hands
        /// them to its last argument on the main loop, one for each song in order (a song that
        /// cannot be read: `AlbumTrack(unreadable:)`). (A file's tags read on the main loop held
        /// every key while a disk stalled.)
        public typealias Albums = ([SongSource], AlbumAsk, @escaping ([AlbumTrack]) -> Void) -> Void
        public var albums: Albums
        /// Does what is asked of the named playlists (the list and the song playing given), off
        /// the main loop, saying what it did; then calls its last argument once, on the main
        /// loop, with an opened playlist's songs (to become the list) or `nil`.
        public typealias Playlists = (PlaylistRequest, EntryList, Path?, @escaping ([Path]?) -> Void) -> Void
        public var playlists: Playlists

        /// What the albums are asked for: the next song's (album mode: only the latest ask is
        /// wanted), or every song's, a batch at a time (shuffle by album, the album keys).
        public enum AlbumAsk: Sendable {
            case next, all
        }

        public init(report: @escaping (String) -> Void, expand: @escaping Expand, saveList: @escaping (Path, EntryList) -> Void,
                    onTransition: ((PlayerContext.Step) -> Void)?, listened: @escaping (Listen) -> Void,
                    albums: @escaping Albums, playlists: @escaping Playlists) {
            self.report = report
            self.expand = expand
            self.saveList = saveList
            self.onTransition = onTransition
            self.listened = listened
            self.albums = albums
            self.playlists = playlists
        }

        /// A path given to `load` is the one song it names, at once (mpg123's `LOAD`).
        public static func oneSong(_ path: Path, _ done: @escaping (_ entries: consuming EntryList, _ problems: [String]) -> Void) {
            done([Entry(path: path)], [])
        }
    }
}
