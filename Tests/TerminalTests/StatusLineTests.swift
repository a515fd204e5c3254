import PlayerCore
import Testing
@testable import Terminal

private let song = SongInfo(path: "/m/a.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100 * 200,
                            title: "Title", artist: "Artist")

struct StatusLineTests {
    @Test func showsStateTimesBarPlaceAndName() {
        let status = StatusSnapshot(state: .play, song: song, position: 44100 * 50, entry: 2, entryCount: 12)
        let line = StatusLine.render(status, width: 80)
        #expect(line.hasPrefix("Play    0:50 / 3:20 ["))
        #expect(line.hasSuffix("] 3/12 Artist – Title"))
        #expect(line.count <= 79, "never the last column")
        let bar = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
        #expect(bar.filter { $0 == "=" }.count == bar.count / 4, "a quarter played, a quarter filled")
    }

    @Test(arguments: [20, 40, 80, 200])
    func fitsTheTerminalWidth(width: Int) {
        var long = song
        long.title = String(repeating: "very long title ", count: 20)
        let line = StatusLine.render(StatusSnapshot(state: .stop, song: long, position: 0, entry: 0, entryCount: 1), width: width)
        #expect(line.count <= width - 1)
        #expect(line.hasPrefix("Stop"))
    }

    @Test func theBarGrowsWithTheTerminal() {
        let status = StatusSnapshot(state: .play, song: song, position: 0, entry: nil, entryCount: 1)
        let narrow = StatusLine.render(status, width: 60).filter { $0 == "-" }.count
        let wide = StatusLine.render(status, width: 120).filter { $0 == "-" }.count
        #expect(wide > narrow)
    }

    @Test func unknownLengthAndNoSong() {
        var noLength = song
        noLength.totalFrames = nil
        let line = StatusLine.render(StatusSnapshot(state: .play, song: noLength, position: 0, entry: nil, entryCount: 0), width: 80)
        #expect(line.contains("0:00 / ?:??"))
        #expect(StatusLine.render(StatusSnapshot(state: .idle, song: nil, position: 0, entry: nil, entryCount: 0), width: 80) == "Idle   ")
    }
}
