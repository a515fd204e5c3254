import Files
import Testing
@testable import PlayerApp
import PlayerCore

/// The saved session written and read on a file system in memory.
struct SessionStoreMemoryTests {
    private let session = SavedSession(entries: [Entry(path: "/m/a b.mp3"), Entry(path: "/m/c.mp3")], current: 1,
                                       position: .seconds(3), volume: 40, muted: true, repeats: false, shuffles: true)

    @Test func whatIsSavedIsWhatIsLoaded() {
        let files = MemoryFiles()
        #expect(SessionStore.save(session, to: "/home/u/.local/state/tplayer/last-session", files: files) == nil)
        #expect(files.node(at: "/home/u/.local/state/tplayer") == .folder, "the folders are made")
        guard case .session(let loaded, let cut, _) = SessionStore.load(from: "/home/u/.local/state/tplayer/last-session", files: files) else {
            Issue.record("not loaded")
            return
        }
        #expect(loaded == session)
        #expect(!cut)
    }

    @Test func noFileIsNoSessionAndABadOneIsSaidAndSetAside() {
        let files = MemoryFiles()
        guard case .none = SessionStore.load(from: "/s/last-session", files: files) else { Issue.record("a session from nothing"); return }
        files.add("/s/last-session", text: "this is not a session\n")
        guard case .unusable(let why) = SessionStore.load(from: "/s/last-session", files: files) else { Issue.record("read"); return }
        #expect(why.hasPrefix("/s/last-session: not a session tplayer can resume ("))
        #expect(why.hasSuffix("; starting fresh"))
        files.add("/s/dir", .folder)
        guard case .unusable(let folder) = SessionStore.load(from: "/s/dir", files: files) else { Issue.record("a folder read"); return }
        #expect(folder == "/s/dir: is a folder; starting fresh")
    }

    /// A state file that is a symbolic link is written through: the file it names is replaced
    /// (made, when missing), and the link stays (it was replaced by a regular file).
    @Test func aSymbolicLinkIsWrittenThrough() {
        let files = MemoryFiles()
        files.add("/s/last-session", .link("/dots/session"))
        files.add("/dots/session", text: "old")
        #expect(SessionStore.save(session, to: "/s/last-session", files: files) == nil)
        #expect(files.node(at: "/s/last-session") == .link("/dots/session"))
        #expect(files.contents("/dots/session") == session.encoded())
        files.add("/s/last-session", .link("/dots/new/session"))
        files.add("/dots/new", .folder)
        #expect(SessionStore.save(session, to: "/s/last-session", files: files) == nil)
        #expect(files.contents("/dots/new/session") == session.encoded())
    }

    /// A save that cannot be made says why and leaves the saved session as it was.
    @Test func aFailedSaveKeepsThePreviousSession() {
        let files = MemoryFiles()
        #expect(SessionStore.save(session, to: "/s/last-session", files: files) == nil)
        let before = files.contents("/s/last-session")
        files.failures["/s/last-session"] = SystemError(code: 28)  // ENOSPC
        var changed = session
        changed.volume = 90
        #expect(SessionStore.save(changed, to: "/s/last-session", files: files)
                == "session not saved: /s/last-session: no space left on device; the previous one is kept")
        #expect(files.contents("/s/last-session") == before)
        files.add("/t", text: "a file where the folder belongs")
        #expect(SessionStore.save(session, to: "/t/last-session", files: files) == "session not saved: /t/last-session: cannot make /t (file exists)")
    }

    /// A folder the session cannot be written in: said in one line that says it was not saved,
    /// naming the file and the folder, never the temporary file (its name was all that was said).
    @Test func aFolderThatCannotBeWrittenInSaysTheSessionWasNotSaved() {
        let files = MemoryFiles()
        files.add("/s", .folder)
        files.failures["/s"] = .permissionDenied
        let said = SessionStore.save(session, to: "/s/last-session", files: files)
        #expect(said == "session not saved: /s/last-session: cannot write in /s (permission denied)")
        #expect(files.node(at: "/s/last-session") == nil)
    }
}
