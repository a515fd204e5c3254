import Foundation
import Glibc
import PlayerCore
import Testing
@testable import Files

/// The named playlists' store: names that could lead out of the folder or break a line refused
/// in one line, a playlist saved and read back the same, a smart one keeping its query through
/// writes, renames and removals of regular files alone.
struct NamedPlaylistsTests {
    private func failed<Value>(_ result: Result<Value, NamedPlaylists.Failure>) -> NamedPlaylists.Failure? {
        if case .failure(let failure) = result { failure } else { nil }
    }

    private func store() throws -> (NamedPlaylists, String) {
        let folder = try WritingTests.folder() + "/playlists"
        return (NamedPlaylists(folder: Path(folder)), folder)
    }

    @Test func namesThatCouldLeadOutOrBreakALineAreRefused() throws {
        let (store, folder) = try store()
        for name in ["", ".", "..", "../escape", "a/b", "/etc/passwd", "line\nbreak", "tab\there", "nul\u{0}", "escape\u{1B}[2J",
                     "bell\u{7}", "del\u{7F}", String(repeating: "x", count: 201)] {
            guard case .failure(.badName(let why)) = store.write(name, ["/m/a.mp3"], new: true) else {
                Issue.record("\(name.debugDescription) was taken")
                continue
            }
            #expect(!why.contains("\n") && !why.isEmpty)
            #expect(!NamedPlaylists.Failure.badName(why).said(about: name).contains("\n"), "one line: \(name.debugDescription)")
        }
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(written.isEmpty, "nothing written: \(written)")
        for name in ["Road trip", "Björk's best", "a.b", "...and more", "日本語"] {
            #expect(NamedPlaylists.refusal(name) == nil, "\(name)")
        }
    }

    @Test func aPlaylistIsSavedAndReadBackAndASmartOneKeepsItsQuery() throws {
        let (store, folder) = try store()
        let songs: [Path] = ["/m/Post/01.mp3", "/m/with space/02.flac", "http://radio.example/stream"]
        try store.write("Road trip", songs, new: true).get()
        #expect(try store.songs("Road trip").get() == songs)
        #expect(try store.read("Road trip").get().query == nil)
        #expect(failed(store.write("Road trip", [], new: true)) == .exists, "a new one never over one there")
        #expect(try store.songs("Road trip").get() == songs)
        try store.write("Recent", ["/m/a.mp3"], new: true, query: "played:<30d\nrating:4..").get()
        let text = try String(contentsOfFile: folder + "/Recent.m3u", encoding: .utf8)
        #expect(text.hasPrefix("#EXTM3U\n#TPLAYER-QUERY:played:<30d rating:4..\n"), "one line: \(text)")
        #expect(try store.read("Recent").get().query == "played:<30d rating:4..")
        // Changed (an MPD client's playlistadd), it stays smart.
        try store.change("Recent", { (songs: inout [Path]) -> Result<Void, NamedPlaylists.Failure> in
            songs.append("/m/b.mp3")
            return .success(())
        }, failure: { $0 }).get()
        #expect(try store.read("Recent").get().query == "played:<30d rating:4..")
        #expect(try store.songs("Recent").get() == ["/m/a.mp3", "/m/b.mp3"])
        #expect(store.all().map(\.name) == ["Recent", "Road trip"])
        try store.rename("Road trip", to: "Long drive").get()
        #expect(failed(store.rename("Recent", to: "Long drive")) == .exists)
        #expect(failed(store.rename("Gone", to: "Other")) == .noSuch)
        try store.remove("Recent").get()
        #expect(store.all().map(\.name) == ["Long drive"])
        #expect(failed(store.remove("Recent")) == .noSuch)
    }

    @Test func onlyRegularFilesOfTheFolderAreWrittenRenamedOrRemoved() throws {
        let (store, folder) = try store()
        try FileManager.default.createDirectory(atPath: folder + "/Folder.m3u", withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/Pipe.m3u", 0o644) == 0)
        #expect(failed(store.write("Folder", ["/m/a.mp3"], new: true)) == .exists)
        if case .success = store.write("Pipe", ["/m/a.mp3"], new: false) { Issue.record("written over a pipe") }
        #expect(store.songs("Pipe") == .failure(.noSuch), "a pipe is never opened")
        #expect(failed(store.remove("Folder")) == .noSuch && failed(store.remove("Pipe")) == .noSuch)
        #expect(failed(store.rename("Pipe", to: "Mine")) == .noSuch)
        #expect(store.all().isEmpty, "neither is a playlist")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder + "/Folder.m3u", isDirectory: &isFolder) && isFolder.boolValue)
    }
}
