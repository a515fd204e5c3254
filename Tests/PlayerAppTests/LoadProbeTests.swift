import PlayerCore
import Testing
@testable import PlayerApp

struct LoadProbeTests {
    private let failures: [Path: LoadFailure] = ["/m/a.flac": .otherFormat(.flac), "/m/gone.mp3": .missing]
    private func opens(_ source: SongSource) -> LoadFailure? { failures[source.path] }

    @Test func aLoadStartsAtItsFirstSongThatOpensAndSaysTheOnesBefore() {
        let entries = [Entry(path: "/m/a.flac"), Entry(path: "/m/gone.mp3"), Entry(path: "/m/b.mp3"), Entry(path: "/m/gone.mp3")]
        let probed = LoadProbe.playable(EntryList(entries), opens: opens)
        #expect(probed.entries.map(\.path) == ["/m/b.mp3", "/m/gone.mp3"], "only the start is opened: later songs are skipped as they come")
        #expect(probed.refused == ["/m/a.flac: FLAC audio, which tplayer cannot decode", "/m/gone.mp3: no such file"])
    }

    @Test func aLoadOfNothingThatOpensBringsNothing() {
        let probed = LoadProbe.playable([Entry(path: "/m/a.flac")], opens: opens)
        #expect(probed.entries.isEmpty)
        #expect(probed.refused == ["/m/a.flac: FLAC audio, which tplayer cannot decode"])
    }

    @Test func aCancelledLoadBringsNothing() {
        let probed = LoadProbe.playable([Entry(path: "/m/b.mp3")], opens: opens, isCancelled: { true })
        #expect(probed.entries.isEmpty && probed.refused.isEmpty)
    }
}
