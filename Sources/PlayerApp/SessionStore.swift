import Files
import Glibc
import PlayerCore

/// The saved session's file: `$XDG_STATE_HOME/tplayer/last-session` (by default
/// `~/.local/state/tplayer/last-session`). It is replaced whole or not at all: written to a
/// temporary file beside it, flushed to disk, then renamed over it, so a crash, a kill or a full
/// disk in the middle leaves the previous session as it was.
public enum SessionStore {
    /// The file, from the environment; `nil` when neither XDG_STATE_HOME nor HOME says where.
    public static func location(environment: [String: String]) -> Path? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return Path(state).appending("tplayer").appending("last-session")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return Path(home).appending(".local/state/tplayer/last-session")
    }

    /// The file, from this process's environment.
    public static var location: Path? {
        location(environment: ProcessEnvironment.values(of: ["XDG_STATE_HOME", "HOME"]))
    }

    public enum Loaded {
        case none
        /// The session, whether its list was cut at `Entry.listLimit`, and what in it was set
        /// right or left out, one line each (`PATH:5: repeat yes: not 0 or 1; ignored`).
        case session(SavedSession, cut: Bool, notes: [String])
        /// There is a file, but it cannot be used: why, in one line.
        case unusable(String)
    }

    /// Reads the session at `path` a piece at a time (`SavedSession.Reader`): however large the
    /// file, memory stays bounded and the list stops at `Entry.listLimit`.
    public static func load(from path: Path, files: any FileAccess = SystemFiles()) -> Loaded {
        var reader = SavedSession.Reader()
        let read = files.read(path, limit: .max) { reader.feed($0) }
        if case .failure(let error) = read {
            if case .system(let system) = error, system.isMissing { return .none }
            return .unusable("\(path): \(error); starting fresh")
        }
        switch reader.finish() {
        case .success(let result):
            var notes = result.notes.map { SourceLocation(file: "\(path)", line: $0.line).brief + ": " + $0.text }
            if result.unnoted > 0 { notes.append("\(path): \(result.unnoted) more lines like these") }
            return .session(result.session, cut: result.cut, notes: notes)
        case .failure(let why): return .unusable("\(path): not a session tplayer can resume (\(why)); starting fresh")
        }
    }

    /// The songs of the saved session that are no longer there (`exists` says), by index, and
    /// the session to start from: the whole list still (a song that moved away and comes back
    /// plays again on a later run), but when the current song is gone, the one after it in the
    /// play order that is there, from its start (or the list's first, when none after it is).
    public static func present(_ saved: SavedSession, exists: (Path) -> Bool = FileSystem.exists)
        -> (session: SavedSession, gone: [Int])
    {
        // A stream is never looked for on the disk: opening it says what is wrong.
        let gone = saved.entries.indices.filter { !saved.entries[$0].source.isStream && !exists(saved.entries[$0].path) }
        var session = saved
        let missing = Set(gone)
        guard let current = saved.current, missing.contains(current) else { return (session, gone) }
        let order = saved.order ?? Array(saved.entries.indices)
        session.current = order.drop { $0 != current }.dropFirst().first { !missing.contains($0) }
        session.position = .zero
        return (session, gone)
    }

    /// Which of two runs at once saves its session: the first. It holds an exclusive
    /// `flock(2)` on `last-session.lock` beside the file while it runs (the kernel lets go
    /// however it ends); a run started meanwhile does not save, and says so when it starts, so
    /// that its end never silently replaces the other's session.
    public enum Claim {
        /// This run saves: the lock, held while it is kept (none when no lock could be made
        /// there: the save then says what is wrong).
        case saves(OpenFile?)
        /// Another run holds the lock.
        case anotherRuns
    }

    /// Claims saving the session at `path` for this run (`Claim`).
    public static func claim(_ path: Path) -> Claim {
        guard FileSystem.makeFolders(path.directory, permissions: 0o700) == nil else { return .saves(nil) }
        switch FileSystem.lockExclusively(Path(bytes: path.bytes + Array(".lock".utf8)), permissions: 0o600) {
        case .success(let lock?): return .saves(lock)
        case .success(nil): return .anotherRuns
        case .failure: return .saves(nil)
        }
    }

    /// Writes `session` to `path`, whole or not at all (`FileAccess.replace`); when it could not
    /// be, the line that says so, naming the file and why (the old file is then left):
    /// `session not saved: …/last-session: cannot write in …/tplayer (permission denied)`.
    public static func save(_ session: SavedSession, to path: Path, files: any FileAccess = SystemFiles()) -> String? {
        let folder = path.directory
        let unsaved = "session not saved: \(path): "
        // Private to the user: the folders it makes, and the file.
        if let error = files.makeFolders(folder, permissions: 0o700) { return unsaved + "cannot make \(folder) (\(error.reason))" }
        switch files.replace(path, with: session.encoded(), permissions: 0o600) {
        case nil:
            // What a save killed midway left behind (a kill between its temporary file's naming
            // and its renaming) goes with the next one.
            FileSystem.removeStaleTemporaries(in: folder)
            return nil
        // The temporary file is tplayer's business: the folder it could not be made in is the user's.
        case .cannotCreate(let folder, let error)?: return unsaved + "cannot write in \(folder) (\(error.reason))"
        case .cannotWrite(let error)?: return unsaved + "\(error.reason); the previous one is kept"
        case .notAFile(let target, let kind)?:
            return unsaved + (target == path ? "" : "it leads to \(target), ") + "a \(kind.rawValue), not a file; left alone: "
                + "remove it (or the link) to save sessions again"
        }
    }
}
