import Glibc
import PlayerCore
import Testing
@testable import Terminal

/// The now-playing view's layout at each size, its lyrics on the song's time, its cover's box.
struct NowPlayingViewTests {
    static func song(lrc: String? = nil) -> SongInfo {
        var song = SongInfo(path: "/music/album/song.flac", sampleRate: 44100, channels: 2, totalFrames: 44100 * 60, title: "Song")
        song.tags.artist = "Artist"
        song.tags.album = "Album"
        song.tags.year = "1999"
        song.codec = "FLAC, 16 bits"
        song.played = "pulse: 16-bit, 44100 Hz, stereo"
        song.lyrics = lrc.map { SongLyrics(file: "song.lrc", bytes: Array($0.utf8)) }
        return song
    }

    static func status(_ song: SongInfo, at seconds: Double) -> StatusSnapshot {
        StatusSnapshot(state: .play, song: song, position: Int64(seconds * 44100), entry: 0, entryCount: 3)
    }

    static let lrc = "[00:01.00]one\n[00:05.00]<00:05.00>five <00:05.50>and <00:06.00>a half\n[00:12.00]twelve\n[00:20.00]twenty\n"

    /// The row the current line is on, and its text.
    static func current(_ frame: [StyledLine]) -> (row: Int, text: String)? {
        frame.enumerated().first { $0.element.parts.contains { $0.style == .reverse || $0.style == .yellow } }
            .map { ($0.offset, $0.element.text.trimmingCharacters(in: " ")) }
    }

    @Test func eachSizeGivesEachPartItsRowsAndTheSmallGiveWayInOrder() {
        let big = NowPlayingView.layout(width: 200, height: 60, cover: true, spectrum: true, next: 9)
        #expect(big.cover?.rows == 23 && big.cover?.columns == 46)
        #expect(big.fields == 5 && big.top == 24 && big.spectrum == 6 && big.next == 6 && big.lyrics == 23)
        let usual = NowPlayingView.layout(width: 80, height: 24, cover: true, spectrum: false, next: 3)
        #expect(usual.cover?.rows == 9 && usual.cover?.columns == 18)
        #expect(usual.top == 10 && usual.next == 4 && usual.lyrics == 9)
        // Narrow: the cover goes first.
        let narrow = NowPlayingView.layout(width: 40, height: 24, cover: true, spectrum: true, next: 3)
        #expect(narrow.cover == nil && narrow.top == 6 && narrow.spectrum == 3 && narrow.next == 4)
        // Short: then the next songs and the spectrum; then the fields fold into one line.
        let short = NowPlayingView.layout(width: 80, height: 12, cover: true, spectrum: true, next: 3)
        #expect(short.cover == nil && short.next == 0 && short.spectrum == 0 && short.fields == 5 && short.lyrics == 5)
        let shorter = NowPlayingView.layout(width: 80, height: 6, cover: true, spectrum: true, next: 3)
        #expect(shorter.fields == 1 && shorter.top == 2 && shorter.lyrics == 3)
        let tiny = NowPlayingView.layout(width: 80, height: 2, cover: true, spectrum: true, next: 3)
        #expect(tiny.fields == 0 && tiny.lyrics == 1)
        for height in 1...70 {
            for width in [1, 20, 49, 50, 80, 300] {
                let layout = NowPlayingView.layout(width: width, height: height, cover: true, spectrum: true, next: 5)
                #expect(layout.top + layout.next + layout.spectrum + layout.lyrics == max(height - 1, 0), "\(width)×\(height)")
                var view = NowPlayingView(options: .init(cover: .symbols(.truecolor), spectrum: SpectrumStyle()))
                view.next = ["a", "b"]
                let frame = view.lines(Self.status(Self.song(lrc: Self.lrc), at: 6), width: width, height: height, bottom: "status")
                #expect(frame.count == height && frame.last?.text == "status")
                #expect(frame.dropLast().allSatisfy { $0.columns <= max(width - 1, 1) }, "\(width)×\(height)")
            }
        }
    }

    @Test func theLineSungIsHighlightedOnTheMiddleRowAndItsWordsLightAsTheyAreSung() throws {
        var view = NowPlayingView(options: .init(cover: nil))
        let song = Self.song(lrc: Self.lrc)
        let layout = NowPlayingView.layout(width: 80, height: 24, cover: false, spectrum: false, next: 0)
        let middle = layout.top + layout.lyrics / 2
        let before = view.lines(Self.status(song, at: 0.5), width: 80, height: 24, bottom: "")
        #expect(Self.current(before) == nil)
        #expect(before[middle + 1].text.trimmingCharacters(in: " ") == "one", "the first line waits below the middle")
        let twelve = view.lines(Self.status(song, at: 12.2), width: 80, height: 24, bottom: "")
        #expect(Self.current(twelve)?.row == middle && Self.current(twelve)?.text == "twelve")
        #expect(twelve[middle - 1].text.trimmingCharacters(in: " ") == "five and a half")
        #expect(twelve[middle + 1].text.trimmingCharacters(in: " ") == "twenty")
        // 5.7 s: "five" and "and" sung, "a half" to come.
        let karaoke = view.lines(Self.status(song, at: 5.7), width: 80, height: 24, bottom: "")
        let parts = karaoke[middle].parts.filter { !$0.text.trimmingCharacters(in: " ").isEmpty }
        #expect(parts.map(\.text) == ["five ", "and ", "a half"])
        #expect(parts.map(\.style) == [.yellow, .yellow, .bold])
    }

    @Test func aLineSungAgainLightsItsWordsFromItsOwnTime() {
        var view = NowPlayingView(options: .init(cover: nil))
        let song = Self.song(lrc: "[00:10.00][01:30.00]<00:10.00>Hel<00:11.00>lo\n")
        let frame = view.lines(Self.status(song, at: 90.5), width: 80, height: 24, bottom: "")
        let sung = try! #require(frame.last { $0.text.contains("Hello") })
        #expect(sung.parts.filter { !$0.text.trimmingCharacters(in: " ").isEmpty }.map(\.style) == [.yellow, .bold])
    }

    @Test func aMessageIsSaidAboveTheStatusLine() {
        var view = NowPlayingView(options: .init(cover: nil))
        view.message = "a message"
        let frame = view.lines(Self.status(Self.song(), at: 1), width: 80, height: 24, bottom: "status")
        #expect(frame[22].text == "a message" && frame[23].text == "status")
    }

    @Test func aWideLineIsCentredByItsColumns() {
        var view = NowPlayingView(options: .init(cover: nil))
        let song = Self.song(lrc: "[00:01.00]二番目の歌詞\n")
        let frame = view.lines(Self.status(song, at: 2), width: 80, height: 24, bottom: "")
        let line = try! #require(frame.first { $0.text.contains("二番目") })
        // 12 columns in 79: 33 before it.
        #expect(line.text.prefix { $0 == " " }.count == 33 && line.columns == 45)
    }

    @Test func unsyncedAndMissingAndRefusedLyricsSaySo() {
        var view = NowPlayingView(options: .init(cover: nil))
        let plain = view.lines(Self.status(Self.song(lrc: "just words\nand more\n"), at: 2), width: 80, height: 24, bottom: "")
        #expect(plain.contains { $0.text.hasSuffix("just words") } && Self.current(plain) == nil)
        let none = view.lines(Self.status(Self.song(), at: 2), width: 80, height: 24, bottom: "")
        #expect(none.contains { $0.text.contains("no lyrics: a .lrc beside the song") })
        var stream = Self.song()
        stream.path = "http://radio.example/live.mp3"
        stream.isStream = true  // as its source says when it opens
        let radio = view.lines(Self.status(stream, at: 2), width: 80, height: 24, bottom: "")
        #expect(!radio.contains { $0.text.contains("no lyrics") }, "a stream has none to look for")
        var refused = Self.song()
        refused.lyrics = SongLyrics(file: "song.lrc", bytes: [], refusal: "song.lrc: larger than 1 MB; tplayer reads lyrics of up to 1 MB")
        let said = view.lines(Self.status(refused, at: 2), width: 80, height: 24, bottom: "")
        #expect(said.contains { $0.text.contains("song.lrc: larger than 1 MB") })
    }

    /// With no styles drawn (NO_COLOR), the line sung is marked by glyphs, centred as it is.
    @Test func withoutStylesTheLineSungIsMarked() {
        var view = NowPlayingView(options: .init(cover: nil))
        view.options.plain = true
        let frame = view.lines(Self.status(Self.song(lrc: Self.lrc), at: 5.6), width: 80, height: 24, bottom: "")
        let sung = frame.filter { $0.text.contains("▶") }
        #expect(sung.map { $0.text.trimmingCharacters(in: " ") } == ["▶ five and a half ◀"], "\(frame.map(\.text))")
        #expect(frame.contains { $0.text.trimmingCharacters(in: " ") == "twelve" })
    }

    /// A song of an album already found to have no picture gets no box from its first frame (no
    /// box shown, then taken back); nor does a stream.
    @Test func noBoxForASongOfAnAlbumWithoutAPictureNorForAStream() throws {
        var view = NowPlayingView(options: .init(cover: .symbols(.truecolor)))
        func song(_ path: String, album: String = "Album") -> SongInfo {
            var song = SongInfo(path: Path(path), sampleRate: 44100, channels: 2, totalFrames: 44100 * 60, title: "Song")
            song.tags.album = album
            return song
        }
        let first = song("/music/album/one.flac")
        #expect(try #require(view.lines(Self.status(first, at: 1), width: 80, height: 24, bottom: "").first).text.hasPrefix(" "))
        view.cover = .none(try #require(view.coverRequest(for: first)), "no cover", missing: true)
        #expect(try #require(view.lines(Self.status(first, at: 1), width: 80, height: 24, bottom: "").first).text.hasPrefix("Song"))
        // The album's next song: no box from its first frame, and nothing asked for.
        let second = song("/music/album/two.flac")
        #expect(try #require(view.lines(Self.status(second, at: 0), width: 80, height: 24, bottom: "").first).text.hasPrefix("Song"))
        #expect(view.coverRequest(for: second) == nil)
        // Another album in the same folder, or the same album's name in another folder, is looked at.
        for other in [song("/music/album/three.flac", album: "Other"), song("/music/other/one.flac")] {
            #expect(try #require(view.lines(Self.status(other, at: 0), width: 80, height: 24, bottom: "").first).text.hasPrefix(" "))
            #expect(view.coverRequest(for: other) != nil)
        }
        // A stream never has a box.
        var fresh = NowPlayingView(options: .init(cover: .symbols(.truecolor)))
        var stream = song("http://127.0.0.1:8000/radio")
        stream.isStream = true
        #expect(try #require(fresh.lines(Self.status(stream, at: 0), width: 80, height: 24, bottom: "").first).text.hasPrefix("Song"))
        #expect(fresh.coverRequest(for: stream) == nil)
    }

    @Test func theCoverIsAskedForItsBoxOnceAndDrawnThereOrWhyNot() throws {
        var view = NowPlayingView(options: .init(cover: .symbols(.truecolor)))
        let song = Self.song()
        #expect(view.coverRequest(for: song) == nil, "no layout yet")
        _ = view.lines(Self.status(song, at: 1), width: 80, height: 24, bottom: "")
        let request = try #require(view.coverRequest(for: song))
        #expect(request == CoverRequest(song: song.path, album: "Album", columns: 18, rows: 9, style: .symbols(.truecolor)))
        let drawing = Array(repeating: "\u{1B}[38;2;255;0;0m▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\u{1B}[0m", count: 9)
        view.cover = CoverArt(request: request, lines: drawing, columns: 18, rows: 9, source: "cover.jpg")
        #expect(view.coverRequest(for: song) == nil, "drawn for this box")
        let frame = view.lines(Self.status(song, at: 1), width: 80, height: 24, bottom: "")
        #expect(frame[0].rendered(colours: true).hasPrefix("\u{1B}[38;2;255;0;0m▀▀"))
        #expect(frame[0].text.hasSuffix("Song") && frame[0].columns == 18 + 2 + 4)
        // With colours off, the drawing's cells are blank…
        #expect(frame[0].rendered(colours: false).hasPrefix(String(repeating: " ", count: 18)))
        // …but one of symbols alone (drawn for a terminal without colours) is shown as it is.
        view.cover = CoverArt(request: request, lines: Array(repeating: String(repeating: "▀", count: 18), count: 9), columns: 18, rows: 9,
                              source: "cover.jpg")
        let shapes = view.lines(Self.status(song, at: 1), width: 80, height: 24, bottom: "")
        #expect(shapes[0].rendered(colours: false).hasPrefix(String(repeating: "▀", count: 18) + "  "))
        // Resized: asked again for the new box; meanwhile the box is blank.
        _ = view.lines(Self.status(song, at: 1), width: 200, height: 60, bottom: "")
        #expect(view.coverRequest(for: song)?.columns == 46)
        view.cover = .none(try #require(view.coverRequest(for: song)), "cover.jpg: not a picture tplayer reads (JPEG, PNG, WebP, GIF or BMP)")
        let said = view.lines(Self.status(song, at: 1), width: 200, height: 60, bottom: "")
        #expect(said.contains { $0.text.hasPrefix("cover.jpg: not a picture") })
    }

    @Test func theNextSongsAndTheSpectrumHaveTheirRows() {
        var view = NowPlayingView(options: .init(cover: nil, spectrum: SpectrumStyle(bars: 8)))
        view.next = ["two", "three"]
        view.spectrum = [0, 0.125, 0.25, 0.5, 0.75, 1, 1, 0]
        let frame = view.lines(Self.status(Self.song(), at: 1), width: 80, height: 24, bottom: "")
        let next = try! #require(frame.firstIndex { $0.text == "Next:" })
        #expect(frame[next + 1].text == "  two" && frame[next + 2].text == "  three")
        let bars = frame.suffix(4).prefix(3).map(\.text)
        #expect(bars.last?.contains("█") == true && bars.last?.contains("▃") == true, "\(bars)")
        #expect(bars.first?.contains("█") == true && !(bars.first?.contains("▃") ?? true))
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

/// A cover in a terminal's own graphics: drawn over blank cells, once, and again only when a
/// line under it was written; kitty's deleted before it is drawn again.
struct ScreenGraphicTests {
    /// A screen writing into a pipe: the screen, the pipe's reading end, and its writing end.
    static func screen() -> (Screen, Int32, Int32) {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        return (Screen(fd: ends[1], colours: false), ends[0], ends[1])
    }

    static func drained(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aGraphicIsDrawnOnceAndAgainOnlyWhenALineUnderItIsWritten() {
        let (screen, output, input) = Self.screen()
        defer { close(output); close(input) }
        screen.enterFullScreen()
        _ = Self.drained(output)
        let sixel = ScreenGraphic(row: 1, column: 2, rows: 3, text: "\u{1B}Pq#0;2;0;0;0~-\u{1B}\\", kitty: false)
        var lines = (0..<6).map { StyledLine("row \($0)") }
        screen.drawFrame(lines, graphic: sixel)
        #expect(Self.drained(output).hasSuffix("\u{1B}[2;3H" + sixel.text))
        screen.drawFrame(lines, graphic: sixel)
        #expect(Self.drained(output).isEmpty, "nothing changed: nothing written")
        lines[5] = "below it"
        screen.drawFrame(lines, graphic: sixel)
        #expect(!Self.drained(output).contains(sixel.text), "a line below it leaves it as it is")
        lines[2] = "under it"
        screen.drawFrame(lines, graphic: sixel)
        #expect(Self.drained(output).hasSuffix(sixel.text), "a line under it wiped it: drawn again")
        let kitty = ScreenGraphic(row: 0, column: 0, rows: 2, text: "\u{1B}_Ga=T;AAAA\u{1B}\\", kitty: true)
        screen.drawFrame(lines, graphic: kitty)
        #expect(Self.drained(output).hasSuffix("\u{1B}_Ga=d\u{1B}\\\u{1B}[1;1H" + kitty.text))
        // A sixel picture going away: its rows are written again, which erases it.
        screen.drawFrame(lines, graphic: sixel)
        _ = Self.drained(output)
        screen.drawFrame(lines, graphic: nil)
        let erased = Self.drained(output)
        #expect(erased.contains("\u{1B}[2;1H") && erased.contains("\u{1B}[4;1H") && !erased.contains("\u{1B}[5;1H"), "\(erased.debugDescription)")
        screen.drawFrame(lines, graphic: kitty)
        _ = Self.drained(output)
        screen.leaveFullScreen()
        #expect(Self.drained(output).hasPrefix("\u{1B}_Ga=d\u{1B}\\"), "kitty's image deleted on the way out")
    }

    @Test func theViewLeavesAGraphicsCoversCellsBlankAndPlacesIt() throws {
        var view = NowPlayingView(options: .init(cover: .kitty))
        let song = NowPlayingViewTests.song()
        _ = view.lines(NowPlayingViewTests.status(song, at: 1), width: 80, height: 24, bottom: "")
        let request = try #require(view.coverRequest(for: song, cell: (9, 18)))
        #expect(request.cellWidth == 9 && request.cellHeight == 18 && request.style == .kitty)
        view.cover = CoverArt(request: request, lines: ["\u{1B}_Ga=T;AAAA\u{1B}\\"], columns: 18, rows: 9, source: "cover.jpg")
        let frame = view.lines(NowPlayingViewTests.status(song, at: 1), width: 80, height: 24, bottom: "")
        #expect(frame[0].text.hasPrefix(String(repeating: " ", count: 18) + "  Song"))
        #expect(view.graphic == ScreenGraphic(row: 0, column: 0, rows: 9, text: "\u{1B}_Ga=T;AAAA\u{1B}\\", kitty: true))
    }
}
