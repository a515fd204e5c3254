import Files
import Foundation
import PlayerCore
import Testing
@testable import Inputs

/// This process's temporary folders, removed when it ends.
private let temporaryRoot: String = {
    atexit { try? FileManager.default.removeItem(atPath: temporaryRoot) }
    return FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-inputs-\(getpid())").path
}()

/// A temporary folder with the named files (contents given or a placeholder).
private func folder(_ files: [String: String]) throws -> String {
    let root = temporaryRoot + "/" + UUID().uuidString
    for (name, contents) in files {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    return root
}

private func names(_ entries: some Sequence<Entry>, under root: String) -> [String] {
    entries.map { String("\($0.path)".dropFirst(root.count + 1)) }
}

extension InputExpander {
    static func expand(_ inputs: [String], checksEntries: Bool = false) -> InputExpander {
        expand(inputs.map { Path($0) }, checksEntries: checksEntries)
    }
}

extension ScriptCompiler {
    init(path: String) {
        self.init(path: Path(path))
    }
}

struct InputExpanderTests {
    /// /proc, /sys and /dev are the system's, never music: named, they are refused in one
    /// line; met on the way (a link in a music folder), they are passed by.
    @Test func systemFoldersAreNeverWalked() throws {
        for folder in ["/proc", "/sys", "/dev", "/proc/self/root/proc"] {
            let expanded = InputExpander.expand([Path(folder)])
            #expect(expanded.entries.isEmpty)
            #expect(expanded.problems.map(\.brief) == ["\(folder): the system's own files, not music; not walked"])
        }
        let root = try folder(["a.mp3": "x"])
        for link in ["proc", "sys", "dev"] {
            try FileManager.default.createSymbolicLink(atPath: root + "/" + link, withDestinationPath: "/" + link)
        }
        let expanded = InputExpander.expand([Path(root)])
        #expect(names(expanded.entries, under: root) == ["a.mp3"])
        #expect(expanded.problems.isEmpty)
    }

    @Test func aCancelledWalkStopsWhereItIsAndSaysNothingMore() throws {
        let root = try folder(Dictionary(uniqueKeysWithValues: (0..<50).map { ("d\($0)/s.mp3", "x") }))
        let asked = Locked(0)
        var expander = InputExpander()
        expander.isCancelled = { asked.update { $0 += 1; return $0 > 20 } }
        expander.add(Path(root))
        #expect(expander.entries.count < 50 && expander.entries.count > 0)
        #expect(expander.problems.isEmpty, "no 'no audio files' for what was not looked at")
    }

    /// The list fills in the middle of a piece of the playlist: the rest of that piece is not a
    /// line, and must not be read as one ("no such file: son" at the cap).
    @Test func aFullListStopsWithoutReadingAPieceOfALine() throws {
        let lines = (0..<6000).map { "song-\($0).mp3" }.joined(separator: "\n") + "\n"
        let root = try folder(["big.m3u": lines])
        let expanded = InputExpander.expand([Path(root + "/big.m3u")], maxEntries: 3)
        #expect(names(expanded.entries, under: root) == ["song-0.mp3", "song-1.mp3", "song-2.mp3"])
        #expect(expanded.problems.map(\.brief) == ["\(root)/big.m3u:4: the list is full (3 songs): this and later entries are left out"])
    }

    @Test func foldersGiveTheirAudioFilesRecursivelyInNaturalOrder() throws {
        let root = try folder([
            "track10.mp3": "x", "track2.mp3": "x", "Track1.MP3": "x", ".hidden.mp3": "x", "notes.txt": "x",
            "cover.jpg": "x", "cd2/a.mp2": "x", "cd10/b.mpga": "x", "cd1/c.mp1": "x", ".git/d.mp3": "x",
            "list.m3u": "track2.mp3",
        ])
        let expanded = InputExpander.expand([root])
        #expect(expanded.problems.isEmpty)
        #expect(names(expanded.entries, under: root) == [
            "cd1/c.mp1", "cd2/a.mp2", "cd10/b.mpga", "Track1.MP3", "track2.mp3", "track10.mp3",
        ])
    }

    @Test func aSymbolicLinkLoopIsWalkedOnce() throws {
        let root = try folder(["a/song.mp3": "x"])
        try FileManager.default.createSymbolicLink(atPath: root + "/a/loop", withDestinationPath: root + "/a")
        let expanded = InputExpander.expand([root + "/a"])
        #expect(names(expanded.entries, under: root) == ["a/song.mp3"])
    }

    @Test func aFolderWithNoAudioIsReported() throws {
        let root = try folder(["readme.txt": "x"])
        let expanded = InputExpander.expand([root])
        #expect(expanded.entries.isEmpty)
        #expect(expanded.problems.map(\.brief) == ["\(root): no audio files in it (looked for .mp3 .flac .ogg .opus .m4a .wav and other audio extensions)"])
    }

    @Test func playlistEntriesResolveAgainstThePlaylistsFolderAndMissingOnesAreReported() throws {
        let root = try folder([
            "music/a.mp3": "x", "music/b c.mp3": "x", "music/sub/d.mp3": "x",
            "music/list.m3u8": "#EXTM3U\n#EXTINF:3,Band - A\na.mp3\nmissing.mp3\nfile://\(FileManager.default.temporaryDirectory.path)/nowhere%20x.mp3\nsub\n",
        ])
        try Data("File1=b c.mp3\nTitle1=Bee\nFile2=list.m3u8\n".utf8).write(to: URL(fileURLWithPath: root + "/music/radio.pls"))
        // Checked (--check, scripts): missing entries are problems at their lines.
        let expanded = InputExpander.expand([root + "/music/radio.pls"], checksEntries: true)
        #expect(names(expanded.entries, under: root) == ["music/b c.mp3", "music/a.mp3", "music/sub/d.mp3"])
        #expect(expanded.entries.map(\.title) == ["Bee", "Band - A", nil])
        #expect(expanded.entries[1].origin == SourceLocation(file: root + "/music/list.m3u8", line: 3, column: 1))
        // Playing: audio entries are not stat-ed up front; they keep their line for the loader.
        let lazy = InputExpander.expand([root + "/music/radio.pls"])
        #expect(lazy.problems.isEmpty)
        #expect(lazy.entries.map { "\($0.path)" } == [root + "/music/b c.mp3", root + "/music/a.mp3", root + "/music/missing.mp3",
                                             FileManager.default.temporaryDirectory.path + "/nowhere x.mp3", root + "/music/sub/d.mp3"])
        #expect(lazy.entries[2].describe(LoadError(path: lazy.entries[2].path, reason: .missing))
                == "\(root)/music/list.m3u8:4: no such file: \(root)/music/missing.mp3")
        #expect(expanded.problems.map(\.brief) == [
            "\(root)/music/list.m3u8:4: no such file: \(root)/music/missing.mp3",
            "\(root)/music/list.m3u8:5: no such file: \(FileManager.default.temporaryDirectory.path)/nowhere x.mp3",
        ])
    }

    @Test func aPlaylistCycleIsReportedAndNotFollowed() throws {
        let root = try folder(["a.mp3": "x", "one.m3u": "a.mp3\ntwo.m3u\n", "two.m3u": "# back\none.m3u\na.mp3\n", "self.m3u": "self.m3u\n"])
        let expanded = InputExpander.expand([root + "/one.m3u", root + "/self.m3u"])
        #expect(names(expanded.entries, under: root) == ["a.mp3", "a.mp3"])
        #expect(expanded.problems.map(\.brief) == [
            "\(root)/two.m3u:2: playlist cycle: one.m3u -> two.m3u -> one.m3u; not followed",
            "\(root)/self.m3u:1: playlist cycle: self.m3u -> self.m3u; not followed",
        ])
    }

    @Test(arguments: [("a.mp3", true), ("A.MPGA", true), ("x/b.Mp2", true), ("c.mp1", true), ("mp3", false),
                      (".mp3", false), ("x.mp3/", false), ("song.ogg", true), ("Cover.JPG", false), ("dir.mp3/x", false), ("a.mp33", false)])
    func audioFilesAreKnownByExtension(name: String, isAudio: Bool) {
        #expect(InputExpander.isAudioFile(Path(name)) == isAudio)
    }

    @Test func songsNamedDirectlyAreLeftForTheLoaderToJudge() {
        let expanded = InputExpander.expand(["/no/such/song.mp3"])
        #expect(expanded.entries == [Entry(path: "/no/such/song.mp3")])
        #expect(expanded.problems.isEmpty)
    }
}

struct ScriptCompilerTests {
    @Test func pathsResolveAgainstTheScriptsFolderAndProblemsAreLocated() throws {
        let root = try folder(["s/a.mp3": "x", "s/list.m3u": "a.mp3\ngone.mp3\n"])
        try Data("""
            add a.mp3
            list.m3u
            plya
            load nothing.mp3
            wait 2x
            """.utf8).write(to: URL(fileURLWithPath: root + "/s/go.tps"))
        let script = ScriptCompiler(path: root + "/s/go.tps")
        #expect(script.allProblems.map(\.located) == [
            "\(root)/s/go.tps:3:1: unknown command 'plya' (did you mean 'play'?); a song path needs a / or an extension, or add PATH",
            "\(root)/s/go.tps:4:6: no such file: nothing.mp3",
            "\(root)/s/go.tps:5:6: bad duration '2x': use e.g. 1.5s, 250ms, 2m, 1:30 or end",
            "\(root)/s/list.m3u:2:1: no such file: \(root)/s/gone.mp3",
        ])
        let origin = SourceLocation(file: root + "/s/go.tps", line: 1, column: 5)
        #expect(script.lines.first == ScriptLine(SourceLocation(file: root + "/s/go.tps", line: 1),
                                                 .add([Entry(path: Path(root + "/s/a.mp3"), origin: origin)], playNow: false)))
    }

    /// A playlist's missing entry is the playlist's problem, not the script's: it is left out of
    /// the lines (a run says it and plays the rest); a missing song the script names is the
    /// script's own.
    @Test func aMissingPlaylistEntryIsThePlaylistsProblemAndLeftOut() throws {
        let root = try folder(["a.mp3": "x", "b.mp3": "x", "list.m3u": "a.mp3\ngone.mp3\nb.mp3\n"])
        try Data("load list.m3u\nadd nothing.mp3\n".utf8).write(to: URL(fileURLWithPath: root + "/go.tps"))
        let script = ScriptCompiler(path: root + "/go.tps")
        #expect(script.problems.map(\.located) == ["\(root)/go.tps:2:5: no such file: nothing.mp3"])
        #expect(script.playlistProblems.map(\.located) == ["\(root)/list.m3u:2:1: no such file: \(root)/gone.mp3"])
        #expect(script.allProblems == script.problems + script.playlistProblems, "in file and line order")
        #expect(names(script.entries, under: root) == ["a.mp3", "b.mp3"])
    }

    /// A script with more problems than are listed still lists its playlists' problems, and
    /// the note of what was not listed stays last.
    @Test func theNoteOfProblemsNotListedStaysLast() throws {
        let junk = (0..<60).map { "w\($0) x\n" }.joined()
        let root = try folder(["a.mp3": "x", "list.m3u": "gone.mp3\n", "junk.tps": "add list.m3u\n" + junk])
        let script = ScriptCompiler(path: root + "/junk.tps")
        #expect(script.problems.count == ScriptCompiler.maxProblems + 1)
        #expect(script.playlistProblems.count == 1)
        #expect(script.allProblems.count == ScriptCompiler.maxProblems + 2)
        #expect(script.allProblems.last?.message.hasSuffix("is it really a script?") == true)
    }

    @Test func aBinaryFileIsOneProblemFromItsFirstBytes() throws {
        var generator = SplitMix64(seed: 11)
        let junk = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let root = try folder([:])
        try Data(junk).write(to: URL(fileURLWithPath: root + "/junk.tps"))
        let script = ScriptCompiler(path: root + "/junk.tps")
        #expect(script.problems.map(\.located) == [
            "\(root)/junk.tps: binary data, not a script (an audio file? play it with tplayer FILE)",
        ])
    }

    @Test func textThatIsNotAScriptGivesABoundedList() throws {
        var generator = SplitMix64(seed: 11)
        let words = (0..<20_000).map { _ in "w\(generator.next() % 1000) x\n" }.joined()
        let root = try folder(["junk.tps": words])
        let script = ScriptCompiler(path: root + "/junk.tps")
        #expect(script.problems.count == ScriptCompiler.maxProblems + 1)
        #expect(script.problems.last?.message.hasSuffix("is it really a script?") == true)
    }

    @Test func aMissingScriptIsOneProblem() {
        let script = ScriptCompiler(path: "/no/such/evening.tps")
        #expect(script.problems.map(\.located) == ["/no/such/evening.tps: cannot read script: no such file"])
    }
}

struct TypedPathTests {
    @Test(arguments: [("  song.mp3 ", "song.mp3"), ("'my song.mp3'", "my song.mp3"), ("\"a b/\"", "a b/"),
                      ("'unbalanced.mp3", "'unbalanced.mp3"), ("日本語.mp3", "日本語.mp3")])
    func spacesAndQuotesAroundAPathAreDropped(typed: String, path: String) {
        #expect(TypedPath.resolve(typed) == Path(path))
    }

    @Test func aTildeIsTheHomeFolder() {
        let home = String(cString: getenv("HOME"))
        #expect(TypedPath.resolve("~/Music/x.mp3") == Path(home).appending("Music/x.mp3"))
        #expect(TypedPath.resolve("~") == Path(home))
    }

    @Test func tabCompletesAsFarAsTheNamesAgreeAndListsTheChoices() throws {
        let root = try folder(["album/a.mp3": "x", "beta.mp3": "x", "betamax.mp3": "x", ".hidden.mp3": "x", "日本語の歌.mp3": "x"])
        let completed = TypedPath.complete(root + "/b")
        #expect(completed.text == root + "/beta")
        #expect(completed.choices == ["beta.mp3", "betamax.mp3"])
        #expect(TypedPath.complete(root + "/al").text == root + "/album/", "a folder gets its slash")
        #expect(TypedPath.complete(root + "/al").choices.isEmpty)
        #expect(TypedPath.complete(root + "/日").text == root + "/日本語の歌.mp3")
        #expect(TypedPath.complete(root + "/.h").text == root + "/.hidden.mp3")
        #expect(TypedPath.complete(root + "/zzz").text == root + "/zzz", "nothing matches: unchanged")
    }
}
