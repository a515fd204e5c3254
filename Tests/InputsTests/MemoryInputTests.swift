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
}
