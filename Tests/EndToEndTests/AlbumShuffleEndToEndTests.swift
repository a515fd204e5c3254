import Foundation
import Testing

/// Shuffle by album as a run plays it, the albums read from real FLAC files' tags: for each
/// seed every album whole and in disc and track order, and the albums' order differs between
/// seeds; the same seed, the same order, from the option, the settings or a script; the album
/// keys as a script says them.
@Suite(.timeLimit(.minutes(10))) struct AlbumShuffleEndToEndTests {
    /// Three tagged albums and the untagged songs of a folder, listed out of order: each album's
    /// files by name, in the order they must play.
    static let albums: [[String]] = [
        ["a-d1t1", "a-d1t2", "a-d2t1", "a-d2t2"],  // disc 2 after disc 1, whatever the names say
        ["b-t1", "b-t2", "b-t3"],
        ["c-t1", "c-t2"],
        ["loose-1", "loose-2"],  // no tags: their folder's, in list order
    ]
    static let listed = ["b-t3", "a-d2t1", "loose-1", "c-t2", "a-d1t2", "b-t1", "a-d2t2", "loose-2", "c-t1", "a-d1t1", "b-t2"]

    /// Makes the songs (0.1 s each) in `folder`; returns their paths in `listed` order.
    static func songs(in folder: URL) throws -> [String] {
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "0.1", "sine", "440"])
        var paths: [String: String] = [:]
        for name in albums.joined() {
            var tags: [String] = []
            let parts = name.split(separator: "-")
            if parts[0] != "loose" {
                let digits = parts[1].filter(\.isNumber).map(String.init)
                tags = ["-T", "ALBUM=Album \(parts[0].uppercased())", "-T", "ALBUMARTIST=Someone", "-T", "TRACKNUMBER=\(digits.last!)"]
                if digits.count == 2 { tags += ["-T", "DISCNUMBER=\(digits[0])"] }
            }
            // Disc 2's files sort before disc 1's by name: the tags, not the names, give the order.
            let file = folder.appendingPathComponent((name.hasPrefix("a-d2") ? "0" : "1") + name + ".flac").path
            let made = try Harness.run("/usr/bin/flac", ["-s", "-f"] + tags + ["-o", file, wav])
            try #require(made.status == 0, "\(made.stderr)")
            paths[name] = file
        }
        return listed.map { paths[$0]! }
    }

    /// The songs a run opened, by name, in order.
    static func played(_ arguments: [String], folder: URL) throws -> [String] {
        let out = folder.appendingPathComponent("out-\(UUID().uuidString).wav").path
        let result = try Harness.tplayer(["-q", "-w", out, "--trace"] + arguments)
        #expect(result.status == 0, "\(result.stderrLines.suffix(3))")
        return result.stderrLines.filter { $0.contains("(load ") }.map { line in
            let file = String(line.split(separator: "/").last ?? "").replacingOccurrences(of: ".flac)", with: "")
            return String(file.dropFirst())
        }
    }

    /// The albums in the order `order` plays them; each must be whole and in order.
    static func albumOrder(_ order: [String]) -> [Int] {
        var found: [Int] = []
        var rest = order[...]
        while let first = rest.first, let album = albums.firstIndex(where: { $0.first == first }) {
            #expect(Array(rest.prefix(albums[album].count)) == albums[album], "album \(album) whole and in order: \(order)")
            found.append(album)
            rest = rest.dropFirst(albums[album].count)
        }
        #expect(rest.isEmpty, "every song starts or follows in its album: \(order)")
        return found
    }

    @Test func everySeedPlaysEachAlbumWholeInOrderAndTheOrdersDiffer() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try Self.songs(in: folder)
        var orders: Set<[Int]> = []
        for seed in 1...6 {
            let order = try Self.played(["--shuffle-albums", "--seed", "\(seed)"] + songs, folder: folder)
            #expect(order.count == songs.count)
            let albums = Self.albumOrder(order)
            #expect(albums.sorted() == [0, 1, 2, 3], "\(order)")
            orders.insert(albums)
            if seed == 1 {
                #expect(try Self.played(["--shuffle-albums", "--seed", "1"] + songs, folder: folder) == order, "the same seed, the same order")
            }
        }
        #expect(orders.count >= 3, "other seeds, other album orders: \(orders)")
    }

    @Test func theSettingsAndAScriptShuffleByAlbumAsTheOptionDoes() throws {
        let folder = try Harness.temporaryFolder()
        let songs = try Self.songs(in: folder)
        let byOption = try Self.played(["--shuffle-albums", "--seed", "7"] + songs, folder: folder)
        let config = folder.appendingPathComponent("config")
        try Data("shuffle = albums\n".utf8).write(to: config)
        #expect(try Self.played(["--config", config.path, "--seed", "7"] + songs, folder: folder) == byOption)
        try Data("shuffle = sometimes\n".utf8).write(to: config)
        let refused = try Harness.tplayer(["-q", "-w", folder.appendingPathComponent("r.wav").path, "--config", config.path] + songs)
        #expect(refused.stderrLines.contains { $0.contains("config:1") && $0.contains("give songs, albums or off") }, "\(refused.stderrLines)")

        // A script: albums on, then the album keys: the next album's first song, the album before's.
        let script = folder.appendingPathComponent("walk.tps")
        try Data("shuffle albums\nplay\nnext-album\nnext-album\nnext\nprevious-album\nquit\n".utf8).write(to: script)
        let walked = try Self.played(["--seed", "7", "--script", script.path] + songs, folder: folder)
        try #require(walked.count == 5, "\(walked)")
        let starts = Self.albums.map { $0[0] }
        #expect(walked.prefix(3).allSatisfy(starts.contains) && Set(walked.prefix(3)).count == 3, "album by album: \(walked)")
        #expect(walked[3] == Self.albums.first { $0[0] == walked[2] }?[1], "next: the album's second song: \(walked)")
        #expect(walked[4] == walked[1], "previous-album: the first song of the album before: \(walked)")
        #expect(try Self.played(["--seed", "7", "--script", script.path] + songs, folder: folder) == walked, "the same seed, the same walk")
    }
}
