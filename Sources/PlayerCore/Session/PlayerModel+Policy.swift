extension PlayerModel {
    /// How a run behaves where front-ends differ: a person at the keys, a script, or a program
    /// speaking mpg123's remote protocol.
    public struct Policy: Sendable, Equatable {
        /// At the end of the list: stay on the last song, rewound (true), or finish the run.
        public var keepsOpen: Bool
        /// When a song asked for with `load` cannot be opened, the song that was playing goes on
        /// (a person at the keys); without, the player is left with no song (mpg123's remote
        /// protocol, whose front-ends expect that).
        public var keepsSongOnFailedLoad: Bool
        /// Whether a song that could not be played makes the exit status 1. Off for the remote
        /// protocol, which answers each failure with `@E` and whose run ends when it is told.
        public var failedSongsFailTheRun: Bool

        public init(keepsOpen: Bool = false, keepsSongOnFailedLoad: Bool = true, failedSongsFailTheRun: Bool = true) {
            self.keepsOpen = keepsOpen
            self.keepsSongOnFailedLoad = keepsSongOnFailedLoad
            self.failedSongsFailTheRun = failedSongsFailTheRun
        }

        /// mpg123's remote protocol (`-R`): open until told to quit, a failed load leaves no
        /// song, and failures are answered, not counted.
        public static let remote = Policy(keepsOpen: true, keepsSongOnFailedLoad: false, failedSongsFailTheRun: false)
    }

    /// How a load asked for with `load(_:answer:)` ended.
    public enum LoadAnswer: Equatable, Sendable {
        /// Its first song that opens plays; the rest follow it in the list.
        case playing
        /// Nothing in it can be played (each problem in one line): nothing was added.
        case refused([String])
        /// A newer load, or quitting, came first: nothing was added.
        case overtaken
    }
}
