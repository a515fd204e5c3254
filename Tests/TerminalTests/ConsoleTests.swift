import Glibc
import PlayerCore
import Testing
@testable import Terminal

/// The console while Tab's completion is under way off the main loop: every key is answered
/// meanwhile, and a completion is applied only to the text it was asked for.
struct ConsoleTests {
    final class Completions {
        var asked: [String] = []
        var answers: [(Console.Completion) -> Void] = []
    }

    static func console() -> (Console, Completions) {
        let completions = Completions()
        let paths = Console.TypedPaths(complete: { text, done in
            completions.asked.append(text)
            completions.answers.append(done)
        }, resolve: { Path($0) })
        let console = Console(screen: Screen(fd: open("/dev/null", O_WRONLY | O_CLOEXEC)), showsStatus: true, paths: paths)
        return (console, completions)
    }

    static let tab: [UInt8] = [0x09]
    static let enter: [UInt8] = [0x0D]

    /// What is typed at a prompt becomes the path it means there, once (the player takes it as it is).
    @Test func aTypedPathIsResolvedWhereItIsTyped() {
        let paths = Console.TypedPaths(complete: { text, done in done(Console.Completion(text: text)) },
                                       resolve: { Path("/home/me/" + String($0.dropFirst(2))) })
        let console = Console(screen: Screen(fd: open("/dev/null", O_WRONLY | O_CLOEXEC)), showsStatus: true, paths: paths)
        #expect(console.commands(from: Array("l~/a b.mp3".utf8) + Self.enter) == [Command.load("/home/me/a b.mp3")])
    }

    @Test func keysAreAnsweredWhileACompletionIsUnderWay() {
        let (console, completions) = Self.console()
        #expect(console.commands(from: Array("lmus".utf8)).isEmpty)
        #expect(console.commands(from: Self.tab).isEmpty)
        #expect(completions.asked == ["mus"])
        // The listing has not come back: the prompt still edits, Enter still loads.
        #expect(console.commands(from: Array("ic".utf8)).isEmpty)
        #expect(console.commands(from: Self.enter) == [.load("music")])
        // And with the prompt closed, keys are commands again.
        #expect(console.commands(from: Array(" n".utf8)) == [.toggle, .next])
        // The late answer changes nothing.
        completions.answers[0](Console.Completion(text: "musicians/"))
        #expect(console.promptText == nil)
        #expect(console.commands(from: Array("s".utf8)) == [.stop])
    }

    /// Esc and a key read together (tmux sends them so; a busy player reads them so) are the two
    /// keys, unless Alt and that key is bound: Esc closes the prompt and `s` pauses.
    @Test func escAndAKeyTogetherAreTwoKeysUnlessAltAndItIsBound() {
        let (console, _) = Self.console()
        #expect(console.commands(from: Array("lmusic".utf8)).isEmpty)
        #expect(console.commands(from: [0x1B] + Array("s".utf8)) == [.stop])
        #expect(console.promptText == nil)
        var keys = KeyBindings.standard
        keys.bind(.alt("d"), to: .remove)
        console.bindings = keys
        #expect(console.commands(from: [0x1B] + Array("s".utf8)) == [.stop], "alt-d is bound in the list view only")
        keys.bind(.alt("s"), to: .next)
        console.bindings = keys
        #expect(console.commands(from: [0x1B] + Array("s".utf8)) == [.next], "alt-s is bound: it is Alt-s")
        #expect(console.commands(from: Array("l".utf8) + [0x1B] + Array("s".utf8)) == [.stop], "at a prompt Esc closes it")
    }

    @Test func aCompletionIsAppliedToTheTextItWasAskedFor() {
        let (console, completions) = Self.console()
        _ = console.commands(from: Array("lal".utf8) + Self.tab)
        completions.answers[0](Console.Completion(text: "album/", choices: []))
        #expect(console.promptText == "album/")
        // Typed on since: the answer is moot.
        _ = console.commands(from: Array("x".utf8) + Self.tab + Array("y".utf8))
        completions.answers[1](Console.Completion(text: "album/xylophone.mp3"))
        #expect(console.promptText == "album/xy")
    }

    /// A paste at the prompt is drawn once, not once a key: each drawing measures the whole
    /// line, so thousands of keys drew for minutes.
    @Test func aPasteAtThePromptIsDrawnOnce() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let console = Console(screen: Screen(fd: fds[1]), showsStatus: true, paths: .literal)
        defer { close(fds[1]) }
        func drained() -> [UInt8] {
            var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                guard count > 0 else { return bytes }
                bytes += buffer[..<count]
            }
        }
        _ = console.commands(from: Array("l".utf8))
        _ = drained()
        let pasted = String(repeating: "/music/album", count: 400)
        #expect(console.commands(from: Array(pasted.utf8)).isEmpty)
        let drawn = String(decoding: drained(), as: UTF8.self)
        #expect(drawn.components(separatedBy: "Load: ").count + drawn.components(separatedBy: "…").count - 2 == 1,
                "one drawing for \(pasted.count) keys")
        #expect(console.promptText == pasted)
    }

    /// A filter pasted into the library view (17 KB, as in one read) is read key by key and
    /// the library asked once, when the view is drawn after them: it was asked again for
    /// each character, and a paste froze every key for a minute on 100,000 songs.
    @Test func aPastedFilterAsksTheLibraryOnce() {
        let (console, _) = Self.console()
        let shelf = ShelfInMemory(artists: 50)
        console.library = shelf
        #expect(console.commands(from: Array("L".utf8)).isEmpty)
        #expect(console.showsLibrary)
        let opened = shelf.reads
        let pasted = String(repeating: "Artist 1 ", count: 2000)
        #expect(console.commands(from: Array(("/" + pasted).utf8)).isEmpty)
        #expect(shelf.reads - opened <= 1, "the library asked \(shelf.reads - opened) times for one paste")
        let said = console.withLibrary { $0.view.message } ?? nil
        #expect(said == "a filter is cut at 1024 characters, the longest query the library reads")
        #expect(console.withLibrary { $0.view.filter.count } == 1024)
        // Keys that came after the filter's move in what it left.
        #expect(console.commands(from: Self.enter + Array("/Artist 2".utf8) + Self.enter + [0x1B, 0x5B, 0x42]).isEmpty)
        #expect(console.showsLibrary)
    }

    /// Once the player counts off the main loop, a filter typed reads nothing on it: the view
    /// says "counting…" until the count comes, and a count for a filter typed over since is
    /// dropped (the 32-term filter took 0.19 s of the main loop on 100,000 songs, every key
    /// behind it waiting).
    @Test func aFilterIsCountedOffTheMainLoopAndAStaleCountIsDropped() throws {
        let (console, _) = Self.console()
        let shelf = ShelfInMemory(artists: 50)
        shelf.counting = true
        console.library = shelf
        #expect(console.commands(from: Array("L".utf8)).isEmpty)
        #expect(console.takeLibraryCount() == nil, "the view opened counted where it was")
        let opened = shelf.reads
        #expect(console.commands(from: Array("/Artist 1".utf8)).isEmpty)
        #expect(shelf.reads == opened, "typing reads nothing on the main loop")
        #expect(console.withLibrary { $0.view.isCounting } == true)
        let first = try #require(console.takeLibraryCount())
        #expect(console.takeLibraryCount() == nil, "asked for once")
        #expect(console.commands(from: Array("2".utf8)).isEmpty)
        let second = try #require(console.takeLibraryCount())
        console.showLibraryCount(LibraryCountResult(generation: first.generation, counted: first.run()))
        #expect(console.withLibrary { $0.view.isCounting } == true, "the count for 'Artist 1' is dropped")
        console.showLibraryCount(LibraryCountResult(generation: second.generation, counted: second.run()))
        #expect(console.withLibrary { $0.view.count } == 1, "Artist 12 alone")
        #expect(shelf.reads == opened, "the first screen came with the count")
    }

    /// `i` pressed with a command in the same keys (`:equalizer rock` then `i`, read together)
    /// shows what the player made of it once it is done: the details follow the status while
    /// open (they showed the status from before the command until the next key).
    @Test func theSongsDetailsFollowTheStatusWhileOpen() {
        let (console, _) = Self.console()
        var song = SongInfo(path: "/music/song.flac", sampleRate: 44100, channels: 2, totalFrames: 44100 * 60, title: "Song")
        song.codec = "FLAC, 16 bits"
        var status = StatusSnapshot(state: .play, song: song, position: 0, entry: 0, entryCount: 1)
        console.show(status)
        #expect(console.commands(from: Array(":equalizer rock".utf8) + Self.enter + Array("i".utf8))
                    == [.setGraphicEqualizer(EqualizerPresets.gains("rock")!, on: true)])
        #expect(console.screen.panelLines.contains("EQ       off"))
        status.list.equalizerBands = EqualizerPresets.gains("rock")
        console.show(status)
        #expect(console.screen.panelLines.contains { $0.hasPrefix("EQ       31 Hz +5") })
        // A status that changes nothing in them draws nothing again.
        let before = console.screen.panelLines
        console.show(status)
        #expect(console.screen.panelLines == before)
    }
}

/// Several outputs in the song's details: a digit while `i` is open turns that output on or off
/// and the details stay; elsewhere a digit is what it always was.
struct OutputKeysTests {
    @Test func aDigitInTheDetailsTurnsAnOutputOnOrOff() {
        let (console, _) = ConsoleTests.console()
        console.outputSwitches.names = ["pulse", "snapcast (/tmp/snapfifo)"]
        #expect(console.commands(from: Array("i".utf8)).isEmpty)
        #expect(console.commands(from: Array("2".utf8)) == [.setOutput(1, nil)])
        #expect(console.commands(from: Array("1".utf8)) == [.setOutput(0, nil)], "the details stayed open")
        #expect(!console.commands(from: Array("3".utf8)).contains(.setOutput(2, nil)), "no third output")
        #expect(!console.commands(from: Array("2".utf8)).contains(.setOutput(1, nil)), "the details closed at the key before")
    }

    @Test func withOneOutputADigitInTheDetailsIsNoOutputKey() {
        let (console, _) = ConsoleTests.console()
        #expect(console.commands(from: Array("i".utf8)).isEmpty)
        #expect(!console.commands(from: Array("1".utf8)).contains(.setOutput(0, nil)))
    }

    @Test func theDetailsListTheOutputs() {
        let lines = SongDetails.lines(nil, outputs: [("pulse", true), ("snapcast (/tmp/snapfifo)", false)])
        #expect(lines.last == "Outputs  1 pulse on · 2 snapcast (/tmp/snapfifo) off  (1–2 turns one on or off)")
        #expect(SongDetails.lines(nil, outputs: [("pulse", true)]) == ["No song is open."])
    }
}
