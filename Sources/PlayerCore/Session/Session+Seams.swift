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
        /// Reads the album a song is on, as its tags say (for album mode), off the main loop, and
        /// hands it to its second argument on the main loop; `nil` when it has none or it cannot be
        /// read. (A file's tags read on the main loop held every key while a disk stalled.)
        public typealias Album = (SongSource, @escaping (String?) -> Void) -> Void
        public var album: Album

        public init(report: @escaping (String) -> Void, expand: @escaping Expand, saveList: @escaping (Path, EntryList) -> Void,
                    onTransition: ((PlayerContext.Step) -> Void)?, listened: @escaping (Listen) -> Void,
                    album: @escaping Album) {
            self.report = report
            self.expand = expand
            self.saveList = saveList
            self.onTransition = onTransition
            self.listened = listened
            self.album = album
        }

        /// A path given to `load` is the one song it names, at once (mpg123's `LOAD`).
        public static func oneSong(_ path: Path, _ done: @escaping (_ entries: consuming EntryList, _ problems: [String]) -> Void) {
            done([Entry(path: path)], [])
        }
    }
}
