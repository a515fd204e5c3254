import Testing
@testable import PlayerApp
import PlayerCore

struct SessionStoreTests {
    private func saved(current: Int?) -> SavedSession {
        SavedSession(entries: ["/m/a.mp3", "/m/b.mp3", "/m/c.mp3"].map { Entry(path: Path($0)) }, current: current,
                     position: .seconds(42), volume: 70, muted: false, repeats: true, shuffles: false)
    }

    @Test func everySongThereKeepsTheSessionAsItWas() {
        let (kept, gone) = SessionStore.present(saved(current: 1), exists: { _ in true })
        #expect(kept == saved(current: 1))
        #expect(gone.isEmpty)
    }

    /// The song that was playing is gone: the list picks up at the next one, from its start.
    @Test func aGoneCurrentSongMovesOnToTheNextFromItsStart() {
        let (kept, gone) = SessionStore.present(saved(current: 1), exists: { $0 != "/m/b.mp3" })
        #expect(gone == ["/m/b.mp3"])
        #expect(kept.entries.map(\.path) == ["/m/a.mp3", "/m/c.mp3"])
        #expect(kept.current == 1)
        #expect(kept.position == .zero)
        #expect(kept.volume == 70 && kept.repeats)
    }

    /// A song before the current one is gone: the current keeps its place in the song.
    @Test func aGoneEarlierSongKeepsThePosition() {
        let (kept, gone) = SessionStore.present(saved(current: 2), exists: { $0 != "/m/a.mp3" })
        #expect(gone == ["/m/a.mp3"])
        #expect(kept.current == 1)
        #expect(kept.position == .seconds(42))
        let (none, all) = SessionStore.present(saved(current: 0), exists: { _ in false })
        #expect(none.entries.isEmpty && none.current == nil)
        #expect(all.count == 3)
    }

    @Test func theLocationFollowsXDGThenHome() {
        #expect(SessionStore.location(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/tplayer/last-session")
        #expect(SessionStore.location(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/tplayer/last-session")
        #expect(SessionStore.location(environment: [:]) == nil)
    }
}
