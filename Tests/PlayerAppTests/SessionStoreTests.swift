import Files
import Foundation
import Testing
@testable import PlayerApp
import PlayerCore

struct SessionStoreTests {
    private func saved(current: Int?) -> SavedSession {
        SavedSession(entries: EntryList(["/m/a.mp3", "/m/b.mp3", "/m/c.mp3"].map { Entry(path: Path($0)) }), current: current,
                     position: .seconds(42), volume: 70, muted: false, repeats: true, shuffles: false)
    }

    @Test func everySongThereKeepsTheSessionAsItWas() {
        let (kept, gone) = SessionStore.present(saved(current: 1), exists: { _ in true })
        #expect(kept == saved(current: 1))
        #expect(gone.isEmpty)
    }

    /// The song that was playing is gone: the run picks up at the next one, from its start;
    /// the list keeps every song (they were dropped from it for good).
    @Test func aGoneCurrentSongMovesOnToTheNextFromItsStart() {
        let (kept, gone) = SessionStore.present(saved(current: 1), exists: { $0 != "/m/b.mp3" })
        #expect(gone == [1])
        #expect(kept.entries == saved(current: 1).entries)
        #expect(kept.current == 2)
        #expect(kept.position == .zero)
        #expect(kept.volume == 70 && kept.repeats)
        // The last one gone: the list's first.
        let (first, _) = SessionStore.present(saved(current: 2), exists: { $0 != "/m/c.mp3" })
        #expect(first.current == nil && first.position == .zero)
    }

    /// A song before the current one is gone: the current keeps its place and its position.
    @Test func aGoneEarlierSongKeepsThePosition() {
        let (kept, gone) = SessionStore.present(saved(current: 2), exists: { $0 != "/m/a.mp3" })
        #expect(gone == [0])
        #expect(kept == saved(current: 2))
        let (none, all) = SessionStore.present(saved(current: 0), exists: { _ in false })
        #expect(none.entries.count == 3)
        #expect(all == [0, 1, 2])
    }

    /// "The next one" is the next in the play order, for a shuffled list.
    @Test func aGoneCurrentSongMovesOnInThePlayOrder() {
        var shuffled = saved(current: 0)
        shuffled.order = [1, 0, 2]
        shuffled.shuffles = true
        let (kept, gone) = SessionStore.present(shuffled, exists: { $0 == "/m/b.mp3" })
        #expect(gone == [0, 2])
        #expect(kept.current == nil && kept.order == [1, 0, 2])
        let (next, _) = SessionStore.present(shuffled, exists: { $0 != "/m/a.mp3" })
        #expect(next.current == 2)
    }

    /// Of two runs at once the first saves: a second claim, while the first is held, is
    /// refused; once the first is let go (the run ended), the next one saves.
    @Test func onlyTheFirstOfTwoRunsSaves() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = Path(folder.path).appending("tplayer/last-session")
        func whileTheFirstRuns() {
            let first = SessionStore.claim(store), second = SessionStore.claim(store)
            guard case .saves(let lock) = first else { return #expect(Bool(false), "the first run must save") }
            #expect(lock != nil, "the folder is made and the lock taken")
            guard case .anotherRuns = second else { return #expect(Bool(false), "a second run must not save") }
        }
        whileTheFirstRuns()
        guard case .saves(let next) = SessionStore.claim(store) else { return #expect(Bool(false), "the lock was let go") }
        #expect(next != nil)
    }

    @Test func theLocationFollowsXDGThenHome() {
        #expect(SessionStore.location(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/tplayer/last-session")
        #expect(SessionStore.location(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/tplayer/last-session")
        #expect(SessionStore.location(environment: [:]) == nil)
    }
}

extension SessionStoreTests {
    /// A stream in a saved session is never looked for on the disk: it is not "gone".
    @Test func aStreamIsNeverGone() {
        let saved = SavedSession(entries: EntryList([Entry(path: "/m/a.mp3"), Entry(path: "https://radio.example/live")]), current: 1,
                                 position: .zero, volume: 70, muted: false, repeats: false, shuffles: false)
        let (kept, gone) = SessionStore.present(saved, exists: { _ in false })
        #expect(gone == [0])
        #expect(kept.current == 1, "the stream plays on resume")
    }
}
