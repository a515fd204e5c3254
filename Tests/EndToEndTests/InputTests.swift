import Foundation
import Testing

/// Folders, playlists and the play order, checked by what `-w` writes against `mpg123 -w`.
@Suite(.timeLimit(.minutes(10))) struct InputTests {
    /// A folder whose file names sort differently by text and by number.
    static func album() throws -> (URL, [String]) {
        let folder = try Harness.temporaryFolder()
        let album = folder.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album.appendingPathComponent("bonus"), withIntermediateDirectories: true)
        let links = [("track1.mp3", 0), ("track10.mp3", 2), ("Track2.MP3", 1), (".hidden.mp3", 0), ("bonus/x.mp3", 1)]
        for (name, song) in links {
            try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent(name).path,
                                                       withDestinationPath: Harness.songs[song])
        }
        try Data("not audio".utf8).write(to: album.appendingPathComponent("notes.txt"))
        return (folder, [Harness.songs[1], Harness.songs[0], Harness.songs[1], Harness.songs[2]])
    }

    @Test func aFolderPlaysItsSongsInNaturalOrderGaplessly() throws {
        let (folder, expectedOrder) = try Self.album()
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, folder.appendingPathComponent("album").path)
        #expect(result.status == 0, "\(result.stderr)")
        // bonus/x.mp3 (Harness.songs[1]), track1, Track2, track10; .hidden and notes.txt skipped.
        _ = Harness.samePCM(try Harness.pcm(ofWAV: out), try Harness.referenceDecode(expectedOrder, in: folder))
    }

    @Test func playlistsNestAndMissingEntriesAreReportedByLine() throws {
        let folder = try Harness.temporaryFolder()
        let inner = folder.appendingPathComponent("inner.pls")
        try Data("[playlist]\nFile1=file://\(Harness.songs[2].replacingOccurrences(of: "-", with: "%2D"))\nTitle1=Waltz\n".utf8).write(to: inner)
        let list = folder.appendingPathComponent("list.m3u")
        try Data("#EXTM3U\r\n\(Harness.songs[0])\r\ngone.mp3\r\ninner.pls\r\nlist.m3u\r\n".utf8).write(to: list)
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, list.path)
        #expect(result.status == 1, "a missing entry makes the exit status 1")
        // The cycle is found while reading the lists; the missing song when its turn comes.
        #expect(result.stderrLines == [
            "tplayer: \(list.path):5: playlist cycle: list.m3u -> list.m3u; not followed",
            "tplayer: \(list.path):3: no such file: \(folder.path)/gone.mp3",
        ])
        _ = Harness.samePCM(try Harness.pcm(ofWAV: out),
                            try Harness.referenceDecode([Harness.songs[0], Harness.songs[2]], in: folder))
    }

    @Test func shuffleWithASeedGivesTheSameOrderEveryRun() throws {
        let folder = try Harness.temporaryFolder()
        func order(seed: Int) throws -> [String] {
            let result = try Harness.tplayer(["-q", "-o", "null", "--trace", "--shuffle", "--seed", "\(seed)", "--script",
                                              try Self.nextScript(in: folder)] + Harness.songs)
            return result.stderrLines.filter { $0.contains("(load ") }.map { String($0.split(separator: "/").last ?? "") }
        }
        let first = try order(seed: 7)
        #expect(first.count == 3 && Set(first).count == 3)
        #expect(try order(seed: 7) == first)
        let others = try (1...6).map { try order(seed: $0) }
        #expect(others.contains { $0 != first }, "other seeds give other orders")
    }

    /// A shuffle turned on mid-script is repeatable with `--seed` alone or with the script's
    /// own `seed N`; without either, each run shuffles anew.
    @Test func aScriptThatShufflesIsRepeatableWithASeed() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try (0..<8).map { index in
            let copy = folder.appendingPathComponent("song\(index).mp3").path
            try FileManager.default.copyItem(atPath: Harness.songs[index % Harness.songs.count], toPath: copy)
            return copy
        }
        func order(script: String, options: [String] = []) throws -> [String] {
            let file = folder.appendingPathComponent("shuffle.tps")
            try Data(script.utf8).write(to: file)
            let result = try Harness.tplayer(["-q", "-o", "null", "--trace"] + options + ["--script", file.path] + songs)
            #expect(result.status == 0, "\(result.stderrLines.suffix(3))")
            return result.stderrLines.filter { $0.contains("(load ") }.map { String($0.split(separator: "/").last ?? "") }
        }
        let walk = "play\nshuffle on\n" + String(repeating: "next\n", count: 7) + "quit\n"
        let seeded = try order(script: "seed 42\n" + walk)
        #expect(seeded.count == 8 && Set(seeded).count == 8, "\(seeded)")
        #expect(try order(script: "seed 42\n" + walk) == seeded)
        let byOption = try order(script: walk, options: ["--seed", "42"])
        #expect(try order(script: walk, options: ["--seed", "42"]) == byOption, "--seed without --shuffle")
        let unseeded = try (0..<4).map { _ in try order(script: walk) }
        #expect(Set(unseeded).count > 1, "without a seed each run shuffles anew")
    }

    /// A script that loads each entry in turn and quits, for order tests without playing.
    static func nextScript(in folder: URL) throws -> String {
        let script = folder.appendingPathComponent("walk.tps")
        try Data("play\nnext\nnext\nquit\n".utf8).write(to: script)
        return script.path
    }
}
