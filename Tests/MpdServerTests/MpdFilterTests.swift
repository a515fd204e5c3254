import Files
import PlayerCore
import Testing

/// MPD's filters read and matched as MPD 0.23 reads and matches them, its regular expressions
/// POSIX's, which no pattern can make slow.
struct MpdFilterTests {
    struct Song: MpdFilterable {
        var uri = "Artist/Album/01.flac"
        var tags: [MpdTag: [String]] = [.artist: ["Artist"], .title: ["Song 1"], .album: ["Album"], .date: ["2001"]]
        func values(of tag: MpdTag) -> [String] { tags[tag] ?? [] }
        var allValues: [String] { MpdTag.allCases.flatMap(values(of:)) }
        var modified: Int64 = 1_700_000_000
        var audioFormat: (rate: Int, bits: Int?, channels: Int)? = (44100, 16, 2)
    }

    func filter(_ arguments: String..., search: Bool = false) -> MpdFilter? {
        try? MpdFilter.parse(arguments, foldCase: search, patterns: PosixPatterns()).get()
    }

    func matches(_ arguments: String..., search: Bool = false, on song: Song = Song()) -> Bool {
        guard let filter = try? MpdFilter.parse(arguments, foldCase: search, patterns: PosixPatterns()).get() else { return false }
        return filter.matches(song, PosixPatterns())
    }

    @Test func expressionsAndPairsMatchAsMPDMatchesThem() {
        #expect(matches("(artist == 'Artist')") && !matches("(artist != 'Artist')"))
        #expect(matches("((artist == 'Artist') AND (date == '2001'))") && !matches("((artist == 'Artist') AND (date == '1999'))"))
        #expect(matches("(!(artist == 'Other'))") && matches("(title contains 'ong')") && matches("(title !contains 'x')"))
        #expect(matches("(title =~ '^Song [0-9]$')") && !matches("(title !~ 'Song')") && matches("(title starts_with 'So')"))
        #expect(matches("artist", "Artist") && !matches("artist", "art") && matches("artist", "art", search: true))
        #expect(matches("(ARTIST == 'Artist')") && matches("(any == '2001')") && matches("(file == 'Artist/Album/01.flac')"))
        #expect(matches("(base 'Artist')") && !matches("(base 'Art')") && matches("(modified-since '2023-01-01')"))
        #expect(!matches("(modified-since '2024-01-01T00:00:00Z')") && matches("(modified-since '1600000000')"))
        #expect(matches("(AudioFormat == '44100:16:2')") && matches("(AudioFormat =~ '*:16:*')") && !matches("(AudioFormat == '48000:16:2')"))
        // An absent tag: its fallback, else it matches the empty value.
        #expect(matches("(albumartist == 'Artist')") && matches("(composer == '')") && !matches("(composer != '')"))
        #expect(matches("(title == 'it\\'s')", on: Song(tags: [.title: ["it's"]])))
    }

    @Test func refusalsAreMPDsWords() {
        func problem(_ arguments: String...) -> String? {
            guard case .failure(let problem) = MpdFilter.parse(arguments, foldCase: false, patterns: PosixPatterns()) else { return nil }
            return problem.message
        }
        #expect(problem("(artist = 'x')") == "'==' or '!=' expected")
        #expect(problem("(nope == 'x')") == "Unknown filter type: nope")
        #expect(problem("(artist == x)") == "Quoted string expected")
        #expect(problem("(artist == 'x") == "Closing quote not found")
        #expect(problem("(artist == 'x'") == "')' expected")
        #expect(problem("((artist == 'x') OR (artist == 'y'))") == "'AND' expected")
        #expect(problem("(artist == 'x') junk") == "Unparsed garbage after expression")
        #expect(problem("(! artist == 'x')") == "'(' expected")
        #expect(problem("( == 'x')") == "Word expected")
        #expect(problem("(AudioFormat != 'x')") == "'==' or '=~' expected")
        #expect(problem("artist") == "Incorrect number of filter arguments")
        #expect(problem("nope", "x") == "Unknown filter type")
        #expect(problem("base", "../x") == "Bad URI")
        #expect(problem(String(repeating: "(", count: 100) + "artist == 'x'" + String(repeating: ")", count: 100)) == "Expression too deep")
        #expect(problem("(title =~ '(a')")?.hasPrefix("Invalid regular expression") == true)
        #expect(problem("(title =~ '(a)\\\\1')")?.hasPrefix("Invalid regular expression") == true, "a back-reference is refused")
    }

    @Test func aPatternBuiltToBacktrackIsMatchedAtOnce() {
        let long = Song(tags: [.title: [String(repeating: "a", count: 5000) + "!"]])
        let clock = ContinuousClock()
        let took = clock.measure { _ = matches("(title =~ '^(a+)+$')", on: long) }
        // Exponential backtracking would take longer than the universe has left; POSIX's matcher is
        // polynomial. A generous bound: the point is that it ends.
        #expect(took < .seconds(20), "\(took)")
    }
}
