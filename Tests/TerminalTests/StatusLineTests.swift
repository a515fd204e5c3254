import PlayerCore
import Testing
@testable import Terminal

private let song = SongInfo(path: "/m/a.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100 * 200,
                            title: "Title", artist: "Artist")

private func render(_ status: StatusSnapshot, width: Int) -> String {
    StatusLine.render(status, width: width).text
}

struct StatusLineTests {
    @Test func showsStateTimesBarPlaceVolumeAndName() {
        var status = StatusSnapshot(state: .play, song: song, position: 44100 * 50, entry: 2, entryCount: 12, repeats: true)
        status.volume = 80
        let line = render(status, width: 100)
        #expect(line.hasPrefix("Playing  0:50 / 3:20 ["))
        #expect(line.hasSuffix("]  3/12  vol 80% [repeat]  Artist – Title"))
        #expect(TextWidth.columns(line) <= 99, "never the last column")
        let bar = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
        #expect(bar.filter { $0 == "=" }.count == bar.count / 4, "a quarter played, a quarter filled")
    }

    /// While the rest of a long list is read, its length is shown as so far, with a `+`.
    @Test func aListStillBeingReadShowsItsLengthSoFar() {
        var status = StatusSnapshot(state: .play, song: song, position: 0, entry: 0, entryCount: 4096)
        status.list.isGrowing = true
        #expect(render(status, width: 100).contains("  1/4096+  "))
        status.list.isGrowing = false
        #expect(render(status, width: 100).contains("  1/4096  "))
    }

    /// A stream whose connection dropped says so where the state is, with the try under way;
    /// once it is back, it is playing again.
    @Test func aStreamReconnectingSaysSo() {
        var status = StatusSnapshot(state: .play, song: song, position: 44100 * 5, entry: 0, entryCount: 1)
        status.reconnecting = 2
        #expect(render(status, width: 100).hasPrefix("Reconnecting (2)… 0:05"))
        status.reconnecting = nil
        #expect(render(status, width: 100).hasPrefix("Playing  0:05"))
    }

    @Test(arguments: [(StateID.play, false, "Playing"), (.stop, false, "Paused"), (.deviceLost, false, "No device"),
                      (.prepare, true, "End of list"), (.loading, false, "Loading")])
    func theStateIsNamedAsAPersonReadsIt(state: StateID, atEnd: Bool, label: String) {
        var status = StatusSnapshot(state: state, song: song, position: 0, entry: 0, entryCount: 1)
        status.atEndOfList = atEnd
        #expect(render(status, width: 80).hasPrefix(label))
    }

    /// Idle keeps why the last load failed; the line shows it, made safe and cut to fit.
    @Test func idleShowsTheLastFailure() {
        var status = StatusSnapshot(state: .idle, song: nil, position: 0, entry: nil, entryCount: 1)
        status.failure = "gone\u{1B}[2J.mp3: no such file"
        #expect(render(status, width: 80) == "Idle     gone\\e[2J.mp3: no such file")
        #expect(render(status, width: 20) == "Idle     gone\\e[2J…")
        #expect(SongDetails.lines(nil, failure: status.failure) == ["No song is open.", "The last load failed: gone\\e[2J.mp3: no such file"])
        #expect(SongDetails.lines(nil) == ["No song is open."])
    }

    @Test func muteIsShownInsteadOfTheVolume() {
        var status = StatusSnapshot(state: .play, song: song, position: 0, entry: 0, entryCount: 1)
        status.muted = true
        #expect(render(status, width: 80).contains("  muted  "))
    }

    /// Wide characters take two columns; cutting by characters made such a line wider than the
    /// terminal, which then scrolled at every redraw.
    @Test(arguments: [40, 80, 200], ["日本語のタイトル", "🎵🎶 emoji 🎸", "Ünïcödé with combining e\u{0301}"])
    func longTitlesOfAnyScriptFitInColumns(width: Int, piece: String) {
        var long = song
        long.title = String(repeating: piece, count: 200 / piece.count + 1)
        let line = render(StatusSnapshot(state: .play, song: long, position: 0, entry: 4, entryCount: 9), width: width)
        #expect(TextWidth.columns(line) <= width - 1, "\(TextWidth.columns(line)) columns at \(width)")
        #expect(line.hasSuffix("…"))
        #expect(line.hasPrefix("Playing"))
    }

    @Test func theTitleGetsItsRoomBeforeTheBar() {
        var titled = song
        titled.title = "A Rather Long Song Title"
        titled.artist = nil
        let narrow = render(StatusSnapshot(state: .play, song: titled, position: 0, entry: 0, entryCount: 1), width: 50)
        #expect(!narrow.contains("[") && !narrow.contains("1/1"), "no bar, no place: the title first")
        #expect(narrow.hasSuffix("A Rather Long Song Title"), "\(narrow)")
        let wide = render(StatusSnapshot(state: .play, song: titled, position: 0, entry: 0, entryCount: 1), width: 120)
        #expect(wide.contains("[") && wide.hasSuffix("A Rather Long Song Title"))
    }

    /// At 40 columns the whole "artist – title" stays: the place, the volume and the total time
    /// gave way for it (it was cut to `Test Artist…` with `1/1` kept).
    @Test func atFortyColumnsTheTitleKeepsItsRoom() {
        let tagged = SongInfo(path: "/m/t.mp3", sampleRate: 44100, channels: 2, totalFrames: 44100 * 30,
                              title: "Test Title", artist: "Test Artist")
        let line = render(StatusSnapshot(state: .play, song: tagged, position: 44100, entry: 0, entryCount: 1), width: 40)
        #expect(line == "Playing  0:01  Test Artist – Test Title")
        let wider = render(StatusSnapshot(state: .play, song: tagged, position: 44100, entry: 0, entryCount: 1), width: 53)
        #expect(wider == "Playing  0:01 / 0:30  1/1  Test Artist – Test Title")
    }

    /// The bar stays where it is, as wide as it is, while the volume, mute, the modes and the
    /// elapsed time's digits change.
    @Test func theBarKeepsItsPlaceAndWidthWhileTheRestChanges() {
        func barSpan(_ change: (inout StatusSnapshot) -> Void) -> (Int, Int) {
            var status = StatusSnapshot(state: .play, song: song, position: 44100 * 5, entry: 2, entryCount: 12)
            change(&status)
            let rendered = render(status, width: 100)
            #expect(TextWidth.columns(rendered) <= 99)
            if status.list.repeats { #expect(rendered.contains("[repeat")) }
            let line = Array(rendered)
            let open = line.firstIndex(of: "[") ?? -1
            let close = line.firstIndex(of: "]") ?? -1
            return (open, close)
        }
        let plain = barSpan { _ in }
        #expect(plain.0 > 0 && plain.1 > plain.0 + 8)
        let changes: [(inout StatusSnapshot) -> Void] = [
            { $0.volume = 95 }, { $0.volume = 5 }, { $0.muted = true }, { $0.list.repeats = true },
            { $0.list.repeats = true; $0.list.shuffles = true }, { $0.position = 44100 * 150 }, { $0.list.entry = 11 },
        ]
        for change in changes {
            let span = barSpan(change)
            #expect(span == plain)
        }
    }

    /// The bar gives way first: at 100 columns with repeat and shuffle on, a title that leaves
    /// no room for a bar is whole (a 25-column bar stayed and the title was cut to "The Quiet
    /// Foxes –…"); the modes give way before the title is cut.
    @Test func theBarGivesWayFirstThenTheModes() {
        var titled = song
        titled.artist = "The Quiet Foxes"
        titled.title = "A Song Of Ours"
        var status = StatusSnapshot(state: .play, song: titled, position: 44100 * 5, entry: 2, entryCount: 20,
                                    repeats: true, shuffles: true)
        #expect(render(status, width: 100) == "Playing  0:05 / 3:20  3/20  vol 100% [repeat shuffle]  The Quiet Foxes – A Song Of Ours")
        titled.title = "A Song With A Long Enough Name"
        status.song = titled
        #expect(render(status, width: 100) == "Playing  0:05 / 3:20  3/20  vol 100%  The Quiet Foxes – A Song With A Long Enough Name")
    }

    /// A title too long for any line keeps half of it: the times, the place and the volume stay
    /// (they all went at once: "Playing 0:00  The Quiet Foxes – A Very Long … R…").
    @Test func aVeryLongTitleLeavesTheRest() {
        var titled = song
        titled.artist = "The Quiet Foxes"
        titled.title = "A Very Long " + String(repeating: "Title ", count: 30)
        let status = StatusSnapshot(state: .play, song: titled, position: 0, entry: 0, entryCount: 20, repeats: true, shuffles: true)
        let line = render(status, width: 100)
        #expect(line.hasPrefix("Playing  0:00 / 3:20  1/20  vol 100%  The Quiet Foxes – A Very Long Title"), "\(line)")
        #expect(line.hasSuffix("…") && TextWidth.columns(line) == 99)
    }

    @Test func theKeysHintEndsTheLineWhereThereIsRoom() {
        var status = StatusSnapshot(state: .play, song: song, position: 0, entry: 0, entryCount: 1)
        status.keysHint = true
        #expect(render(status, width: 100).hasSuffix("Artist – Title  h: keys"))
        let narrow = render(status, width: 30)
        #expect(!narrow.contains("h: keys") && narrow.hasSuffix("Artist – Title"))
        status.keysHint = false
        #expect(!render(status, width: 100).contains("h: keys"))
    }

    /// A song still loading (the device slow to open) shows where it is in the list and its
    /// name at once: a key that moved on is seen to have acted (it showed just `Loading`).
    @Test func loadingShowsThePlaceAndTheName() {
        let status = StatusSnapshot(state: .loading, song: nil, position: 0, entry: 1, entryCount: 3,
                                    name: "02-night-drive.mp3")
        #expect(render(status, width: 80) == "Loading  2/3  02-night-drive.mp3")
    }

    /// MPRIS `Stop` rewinds: the line says Stopped, as MPRIS does; a pause keeps Paused.
    @Test func stoppedAtTheStartIsStopped() {
        var status = StatusSnapshot(state: .stop, song: song, position: 0, entry: 0, entryCount: 1)
        #expect(render(status, width: 80).hasPrefix("Paused "))
        status.stoppedAtStart = true
        #expect(render(status, width: 80).hasPrefix("Stopped "))
    }

    @Test func unknownLengthAndNoSong() {
        var noLength = song
        noLength.totalFrames = nil
        // The time listened alone (a live stream), and no bar.
        let line = render(StatusSnapshot(state: .play, song: noLength, position: 44100 * 65, entry: nil, entryCount: 0), width: 80)
        #expect(line.hasPrefix("Playing  1:05  vol 100%  Artist – Title"), "\(line)")
        #expect(!line.contains("["))
        #expect(render(StatusSnapshot(state: .idle, song: nil, position: 0, entry: nil, entryCount: 0), width: 80)
            .hasPrefix("Idle"))
    }

    @Test func stylesBecomeColoursOnlyWhenAskedAndTextIsAlwaysSanitised() {
        var line = StyledLine("Playing", .green)
        line.append(" \u{1B}]2;x")
        #expect(line.rendered(colours: false) == "Playing \\e]2;x")
        #expect(line.rendered(colours: true) == "\u{1B}[32mPlaying\u{1B}[0m \\e]2;x")
    }
}

struct TextWidthTests {
    @Test(arguments: [("abc", 3), ("日本", 4), ("🎵", 2), ("e\u{0301}", 1), ("❤️", 2), ("🇯🇵", 2),
                      ("👨‍👩‍👧", 2), ("ｱ", 1), ("Ａ", 2), ("\u{200B}", 0), ("한국어", 6)])
    func columnsAreWhatATerminalDraws(text: String, columns: Int) {
        #expect(TextWidth.columns(text) == columns)
    }

    @Test func fittingNeverSplitsACharacterAndMarksTheCut() {
        #expect(TextWidth.fit("日本語のタイトル", 7) == "日本語…")
        #expect(TextWidth.fit("short", 10) == "short")
        #expect(TextWidth.fit("abcdef", 4) == "abc…")
        #expect(TextWidth.columns(TextWidth.fit("🎵🎵🎵🎵", 5)) <= 5)
    }
}
