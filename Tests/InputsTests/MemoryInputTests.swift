import Files
import PlayerCore
import Testing
@testable import Inputs

/// The inputs read from a file system in memory (`MemoryFiles`): no disk, every case built in a
/// line, including those the disk makes hard (a FIFO, a folder that cannot be read).
struct MemoryInputTests {
    private func library() -> MemoryFiles {
        let files = MemoryFiles()
        files.add("/music/Album/10 Ten.mp3", text: "x")
        files.add("/music/Album/2 Two.mp3", text: "x")
        files.add("/music/Album/cover.jpg", text: "x")
        files.add("/music/Album/.hidden.mp3", text: "x")
        files.add("/music/Album/Disc 1/1 One.MP3", text: "x")
        files.add("/music/list.m3u", text: "#EXTM3U\n#EXTINF:10,Two by name\nAlbum/2 Two.mp3\n/elsewhere/gone.mp3\n")
        files.add("/music/pipe.m3u", .special(.fifo))
        files.add("/music/link", .link("/music/Album"))
        return files
    }

    private func expand(_ inputs: [Path], checksEntries: Bool = false, _ files: MemoryFiles) -> InputExpander {
        InputExpander.expand(inputs, checksEntries: checksEntries, files: files)
    }

    @Test func aFolderGivesItsSongsInNaturalOrderAndSkipsTheRest() {
        let expanded = expand(["/music/Album"], library())
        #expect(expanded.entries.map(\.path) == ["/music/Album/2 Two.mp3", "/music/Album/10 Ten.mp3", "/music/Album/Disc 1/1 One.MP3"])
        #expect(expanded.problems.isEmpty)
        #expect(expand(["/music/link"], library()).entries.count == 3, "a link to a folder is walked")
    }

    @Test func aPlaylistsEntriesAreResolvedFromItsFolderAndMissingOnesLocated() {
        let expanded = expand(["/music/list.m3u"], checksEntries: true, library())
        #expect(expanded.entries.map(\.path) == ["/music/Album/2 Two.mp3"])
        #expect(expanded.entries.first?.title == "Two by name")
        #expect(expanded.problems.map(\.brief) == ["/music/list.m3u:4: no such file: /elsewhere/gone.mp3"])
        #expect(expanded.playlists == ["/music/list.m3u"])
    }

    @Test func whatCannotBeReadIsOneLineEach() {
        let files = library()
        files.failures["/music/locked"] = .permissionDenied
        files.add("/music/locked", .folder)
        files.add("/dev/snd", .folder)
        // Loaded while playing: each is said at once (from the command line a path that is not
        // there is left for the player to say when it comes to it).
        let loads = ["/music/pipe.m3u", "/music/locked", "/nothing", "/dev/snd"].map {
            InputExpander.expandLoaded(Path($0), files: files)
        }
        #expect(loads.allSatisfy { $0.entries.isEmpty })
        #expect(loads.flatMap(\.problems).map(\.brief) == [
            "/music/pipe.m3u: not a regular file (it is a named pipe (FIFO))",
            "/music/locked: permission denied",
            "/nothing: no such file",
            "/dev/snd: the system's own files, not music; not walked",
        ])
    }

    @Test func tabCompletesAsFarAsTheNamesAgreeAndListsTheRest() {
        let files = library()
        #expect(TypedPath.complete("/music/Al", files: files) == ("/music/Album/", []))
        #expect(TypedPath.complete("/music/l", files: files) == ("/music/li", ["link/", "list.m3u"]))
        #expect(TypedPath.complete("/music/Album/.h", files: files) == ("/music/Album/.hidden.mp3", []))
        #expect(TypedPath.complete("/music/Album/x", files: files) == ("/music/Album/x", []))
    }

    /// Handed on in pieces (a long list plays from its first songs while the rest is read):
    /// in order, each with the problems and playlists found since the piece before, the cap
    /// counting every entry found, and a short list read whole before anything is handed on.
    @Test func aLongListIsHandedOnInPiecesInOrder() {
        let files = MemoryFiles()
        let lines = (1...10).map { $0 == 5 ? "gone.m3u\n" : $0 == 8 ? "inner.m3u\n" : "song\($0).mp3\n" }.joined()
        files.add("/music/list.m3u", text: lines)
        files.add("/music/inner.m3u", text: "inner.mp3\n")
        let pieces = Locked<[InputExpander.Piece]>([])
        var expander = InputExpander(maxEntries: 8, files: files)
        expander.handOnFirst = 3
        expander.handOnEvery = 4
        expander.handOn = { piece in pieces.update { $0.append(piece) } }
        expander.add("/music/list.m3u")
        let rest = expander.takeRest()
        let all = pieces.read { $0 } + [rest]
        #expect(all.map { $0.entries.map(\.path.lastComponent) } == [
            ["song1.mp3", "song2.mp3", "song3.mp3"],
            ["song4.mp3", "song6.mp3", "song7.mp3", "inner.mp3"],
            ["song9.mp3"],
        ])
        #expect(all.map { $0.problems.map(\.brief) } == [
            [], ["/music/list.m3u:5: no such file: /music/gone.m3u"], ["/music/list.m3u:10: the list is full (8 songs): this and later entries are left out"],
        ])
        #expect(all.map(\.playlists) == [["/music/list.m3u"], ["/music/inner.m3u"], []])
        #expect(expander.found == 8 && expander.entries.isEmpty)

        var short = InputExpander(files: files)
        short.handOn = { piece in pieces.update { $0.append(piece) } }
        short.add("/music/inner.m3u")
        #expect(pieces.read(\.count) == 2, "a list shorter than the first piece is not handed on")
        #expect(short.takeRest().entries.map(\.path) == ["/music/inner.mp3"])
    }
}
