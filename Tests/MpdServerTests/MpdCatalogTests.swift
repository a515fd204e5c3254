import Foundation
import Library
@testable import MpdServer
import PlayerCore
import Testing

/// The catalog as the server reads it from a real library: what it holds of each song in
/// memory, and each song's lines made from its row as a reply is written.
struct MpdCatalogTests {
    /// A library of odd songs in a folder of its own (removed after).
    private static func library(_ songs: [LibrarySong]) throws -> (LibraryDatabase, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tplayer-catalog-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let library = try LibraryDatabase.open(at: Path(folder + "/library.sqlite")).get().database
        try library.put(songs).get()
        return (library, folder)
    }

    private static var songs: [LibrarySong] {
        var songs: [LibrarySong] = []
        var plain = LibrarySong(path: "/m/a/01.flac", size: 10, modified: 1_700_000_000_123_456_789, rate: 96000, channels: 2)
        plain.bits = 24
        plain.title = "Plain"
        plain.artists = ["One", "Two"]
        plain.albumArtists = ["One"]
        plain.album = "Album"
        plain.track = 1
        plain.disc = 2
        plain.date = "1999-05"
        plain.genres = ["Rock", "Jazz"]
        plain.composers = ["Bach"]
        plain.seconds = 61.2505
        plain.otherTags = [LibrarySong.Tag(.musicBrainzTrack, "0b1e-…"), LibrarySong.Tag(.comment, "a\u{1B}[2Jb"), LibrarySong.Tag(.label, "")]
        songs.append(plain)
        // Control characters, a bidirectional override, accents, CJK, an empty title, a
        // floating-point file, no tags at all, a length past what can be printed.
        var odd = LibrarySong(path: "/m/a/ü 漢字\u{202E}.ogg", size: 10, modified: 0, rate: 44100, channels: 1)
        odd.title = ""
        odd.artists = ["Evil\nfile: /etc/passwd", "Ünï"]
        odd.album = "\u{7F}\u{85}"
        odd.seconds = 1e300
        songs.append(odd)
        songs.append(LibrarySong(path: "/m/b/bare.wav", size: 1, modified: -5, rate: 0, channels: 0))
        var float = LibrarySong(path: "/m/b/c/float.wav", size: 1, modified: 5_000_000_000, rate: 48000, channels: 6)
        float.seconds = .infinity
        songs.append(float)
        songs.append(LibrarySong(path: "/m/top.mp3", size: 1, modified: 1, rate: 44100, channels: 2))
        return songs
    }

    @Test(arguments: [MpdTag.served, [MpdTag.artist, .title], []])
    func eachSongsLinesAreThoseItsRecordMakes(wanted: Set<MpdTag>) throws {
        let (library, folder) = try Self.library(Self.songs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let roots = MpdRoots([Path("/m")])
        let catalog = try #require(MpdCatalog.read(library, roots: roots))
        #expect(catalog.count == Self.songs.count)
        let records = try library.songs(at: Self.songs.map(\.path)).get()
        for record in records {
            let index = try #require(catalog.song(roots.uri(of: record.path)))
            #expect(catalog.path(index) == record.path)
            #expect(catalog.texts([index], wanted) == MpdSongText(record, uri: roots.uri(of: record.path)).text(wanted), "\(record.path)")
        }
        // Several at once, in the order asked (the rows are read in another).
        let order = Array((0..<catalog.count).reversed()) + [0]
        let expected = order.map { index in
            MpdSongText(records.first { $0.path == catalog.path(index) }!, uri: catalog.uri(index)).text(wanted)
        }.joined()
        #expect(catalog.texts(order, wanted) == expected)
        #expect(!catalog.texts([0], wanted).contains("\nfile: /etc"))
    }

    /// What a filter reads is held in memory: URIs in order, times, formats and tags.
    @Test func theCatalogHoldsWhatFiltersRead() throws {
        let (library, folder) = try Self.library(Self.songs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try #require(MpdCatalog.read(library, roots: MpdRoots([Path("/m")])))
        let uris = (0..<catalog.count).map(catalog.uri)
        #expect(uris == uris.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(uris.first == "a/01.flac" && uris.last == "top.mp3")
        let plain = try #require(catalog.song("a/01.flac"))
        #expect(catalog.modified(plain) == 1_700_000_000)
        #expect(catalog.audioFormat(plain)! == (96000, 24, 2))
        #expect(catalog.values(plain, of: .artist) == ["One", "Two"] && catalog.values(plain, of: .disc) == ["2"])
        #expect(catalog.values(plain, of: .musicBrainzTrack) == ["0b1e-…"])
        #expect(catalog.seconds(plain) == 61.2505)
        let bare = try #require(catalog.song("b/bare.wav"))
        #expect(catalog.audioFormat(bare) == nil && catalog.values(bare, of: .title).isEmpty && catalog.seconds(bare) == nil)
        #expect(catalog.under("b") == 2..<4 && catalog.children(of: "b").folders == ["b/c"])
        #expect(catalog.totals.artists == 4 && catalog.totals.albums == 2, "One, Two, Evil…, Ünï; Album and one odd")
    }

    /// A song taken out after the catalog was read is left out of its lines; the others stay.
    @Test func aSongGoneSinceTheReadIsLeftOut() throws {
        let (library, folder) = try Self.library(Self.songs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try #require(MpdCatalog.read(library, roots: MpdRoots([Path("/m")])))
        try library.retire([Path("/m/a/01.flac")], carrying: []).get()
        let text = catalog.texts(0..<catalog.count, MpdTag.served)
        #expect(!text.contains("file: a/01.flac\n") && text.contains("file: top.mp3\n") && text.contains("file: b/bare.wav\n"))
    }

    /// A grouping's values are made once for each different set of them, and they are each
    /// song's: its tag's, its fallback's, or the empty value.
    @Test func groupValuesAreEachSongsMadeOnceARun() {
        var records: [LibrarySong] = []
        for index in 0..<40 {
            var song = LibrarySong(path: Path("/m/\(index / 10)/\(index).flac"), size: 1, modified: 0, rate: 44100, channels: 2)
            song.album = index % 10 < 5 ? "A\(index / 10)" : nil
            song.artists = index % 7 == 0 ? [] : ["X", index % 3 == 0 ? "Y" : "X"]
            song.albumArtists = index % 4 == 0 ? ["Z"] : []
            if index == 33 { song.album = "" }
            records.append(song)
        }
        let catalog = MpdCatalog(records, roots: MpdRoots([Path("/m")]))
        let tags: [MpdTag] = [.albumArtist, .album]
        var group = MpdGroupValues(catalog, tags, everySong: true), news = MpdGroupValues(catalog, tags, everySong: false)
        var made = 0
        var current: [[String]] = []
        var seen: [[[String]]] = []
        for song in 0..<catalog.count {
            if group.take(song) { made += 1 }
            current = group.values
            if news.take(song) {
                // (Two sets may make the same strings: an empty album, and none.)
                #expect(news.values == current)
                seen.append(news.values)
            }
            let expected = tags.map { tag in
                ([tag] + tag.fallbacks).lazy.map { catalog.values(song, of: $0) }.first { !$0.isEmpty } ?? [""]
            }
            #expect(current == expected, "song \(song)")
        }
        #expect(made < 20 && made > 4, "\(made) made for \(catalog.count) songs")
        #expect(seen.count == made, "each set once")
    }

    /// A grouping's lines are in the order of their values' bytes, the first tag's first.
    @Test func combinationsAreOrderedByTheirValuesBytes() {
        let values = ["", "a", "A", "ab", "a b", "é", "e\u{301}", "e", "z", "Z", "日本", "\u{1F}", "\u{0}", "a\u{0}", "a\u{0}b", "b", "aa"]
        let pairs = values.flatMap { one in values.map { [one, $0] } }
        func precedes(_ one: [String], _ other: [String]) -> Bool {
            for (a, b) in zip(one, other) where !a.utf8.elementsEqual(b.utf8) { return a.utf8.lexicographicallyPrecedes(b.utf8) }
            return false
        }
        for one in pairs {
            for other in pairs {
                let (a, b) = (MpdGroupValues.Bytes(sorting: one), MpdGroupValues.Bytes(sorting: other))
                #expect(a.precedes(b) == precedes(one, other), "\(one) \(other)")
                #expect((a == b) == (one.map { Array($0.utf8) } == other.map { Array($0.utf8) }))
            }
        }
    }

    /// Several library folders: each a top folder under its name, in URI order, each song's
    /// path given back byte for byte, its lines made from its row.
    @Test func severalLibraryFoldersAreTopFoldersOfTheirNames() throws {
        var songs: [LibrarySong] = []
        for path in ["/data/Music/b/1.flac", "/data/Music/a.flac", "/old/Archive/x/2.flac", "/data/Music-2/z.flac", "/elsewhere/y.flac"] {
            var song = LibrarySong(path: Path(path), size: 1, modified: 0, rate: 44100, channels: 2)
            song.title = "T \(path)"
            songs.append(song)
        }
        let (library, folder) = try Self.library(songs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let roots = MpdRoots([Path("/data/Music"), Path("/old/Archive"), Path("/data/Music-2")])
        let catalog = try #require(MpdCatalog.read(library, roots: roots))
        #expect((0..<catalog.count).map(catalog.uri) == ["Archive/x/2.flac", "Music-2/z.flac", "Music/a.flac", "Music/b/1.flac"])
        for index in 0..<catalog.count {
            #expect(roots.uri(of: catalog.path(index)) == catalog.uri(index))
            #expect(catalog.texts([index], [.title]) == "file: \(catalog.uri(index))\nLast-Modified: 1970-01-01T00:00:00Z\nFormat: 44100:f:2\nTitle: T \(catalog.path(index))\n")
        }
        #expect(catalog.children(of: "").folders == ["Archive", "Music-2", "Music"] && catalog.under("Music") == 2..<4)
    }
}
