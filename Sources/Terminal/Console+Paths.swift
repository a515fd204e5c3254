import PlayerCore

/// Paths typed at the console's prompts: what completes them, and what they mean.
extension Console {
    /// What Tab makes of the prompt's text: the text completed as far as it goes, and the
    /// choices when there are several.
    public struct Completion: Equatable, Sendable {
        public var text: String
        public var choices: [String]

        public init(text: String, choices: [String] = []) {
            self.text = text
            self.choices = choices
        }
    }

    /// What a path typed at a prompt means, and what completes it: the file system's business,
    /// handed in.
    public struct TypedPaths {
        /// Completes what is typed: the completion is handed to the second argument, at once or
        /// later from the main loop (a folder of 200,000 files takes a while to list; the keys
        /// are answered meanwhile).
        public var complete: (String, @escaping (Completion) -> Void) -> Void
        /// The path the text typed means (`~/`, quotes, blanks around it).
        public var resolve: (String) -> Path

        public init(complete: @escaping (String, @escaping (Completion) -> Void) -> Void, resolve: @escaping (String) -> Path) {
            self.complete = complete
            self.resolve = resolve
        }

        /// Text taken as the path it spells, completing nothing (tests, and what has no files).
        public static var literal: TypedPaths {
            TypedPaths(complete: { text, done in done(Completion(text: text)) }, resolve: { Path($0) })
        }
    }
}
