import ArgumentParser
import Testing
@testable import tplayer

/// The quick reading of the command line (`QuickArguments`) against the argument parser's: what
/// the quick one reads, it reads to the same values; what it cannot be sure of, it leaves.
@Suite(.timeLimit(.minutes(10))) struct QuickArgumentsTests {
    /// The argument parser's reading, or nil when it refuses the line (its own checks or
    /// `validate()`'s).
    static func parsed(_ arguments: [String]) -> Invocation? {
        (try? TPlayer.parse(arguments))?.invocation
    }

    /// Holds the two readers to each other on `arguments`: the same values when both read
    /// it; when the argument parser refuses it, the quick reading must not pass `validate()`
    /// (so that `main` hands it to the argument parser, which says why).
    static func expectSame(_ arguments: [String], read: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let quick = QuickArguments.parse(arguments)
        if read {
            #expect(quick != nil, "read quickly: \(arguments)", sourceLocation: sourceLocation)
        }
        guard let quick else { return }
        if let full = parsed(arguments) {
            #expect(quick == full, "\(arguments)", sourceLocation: sourceLocation)
        } else {
            #expect((try? quick.validate()) == nil, "the argument parser refuses \(arguments); so must validate()",
                    sourceLocation: sourceLocation)
        }
    }

    static let values = ["--replaygain": "album", "--replaygain-preamp": "2.5", "--seed": "42", "--volume": "50%", "--bits": "24", "--speed": "1.5",
                         "--start": "1:30", "--output": "null", "--write": "out.wav"]

    @Test func everyOptionIsReadAsTheArgumentParserReadsIt() {
        for flag in CommandOption.allCases.filter(\.isFlag).map(\.facts.long) {
            Self.expectSame([flag, "song.mp3"])
            Self.expectSame(["song.mp3", flag])
        }
        for name in CommandOption.allCases.filter({ !$0.isFlag }).map(\.facts.long) {
            let value = Self.values[name] ?? "some thing.txt"
            Self.expectSame([name, value, "song.mp3"])
            Self.expectSame(["song.mp3", "\(name)=\(value)"])
        }
        for (short, long) in [("-o", "null"), ("-w", "out.wav")] {
            Self.expectSame([short, long, "a.mp3"])
        }
        Self.expectSame(["-q", "a.mp3"])
        Self.expectSame(["-R"])
    }

    @Test func theUsualCommandLinesAreReadQuickly() {
        Self.expectSame(["-q", "--force", "-w", "out.wav", "one-second.mp3"])
        Self.expectSame(["-o", "null", "a.mp3", "b.flac", "Music/", "list.m3u"])
        Self.expectSame(["--shuffle", "--seed", "7", "--repeat", "Music"])
        Self.expectSame(["a.mp3", "--replaygain=track", "b.mp3", "--replaygain-preamp", "-0"], read: false)
        Self.expectSame(["--scan"])
        Self.expectSame(["--scan", "Music", "--verbose"])
        Self.expectSame(["--find", "artist:björk year:1990..1999"])
        Self.expectSame(["--play-find", "album:\"debut\"", "-o", "null"])
        Self.expectSame(["--script", "run.tps", "-w", "out.wav", "--force"])
        Self.expectSame(["--check", "a.tps", "b.mp3"])
        Self.expectSame(["-R", "--fifo", "/tmp/fifo", "--remote-err"])
        Self.expectSame(["--config", "settings", "--no-mpris", "--no-fade", "x.opus"])
        Self.expectSame([RawArguments.escape([0x66, 0xFF, 0x2E, 0x6D, 0x70, 0x33])])  // f\xFF.mp3
        // Combinations `validate()` refuses: read, then refused there, as the argument parser refuses them.
        Self.expectSame(["--verbose", "a.mp3"])
        Self.expectSame(["--check"])
        Self.expectSame(["--fifo", "f", "a.mp3"])
        Self.expectSame(["--volume", "101", "a.mp3"])
        Self.expectSame(["--replaygain-preamp", "16", "a.mp3"])
        Self.expectSame(["--force", "a.mp3"])
        Self.expectSame(["--scan", "--find", "x"])
        Self.expectSame(["--bits", "20", "a.flac"])
    }

    /// What the quick reading leaves to the argument parser, which says what is wrong (or
    /// shows the help) in its own words.
    @Test func anythingUnusualIsLeftToTheArgumentParser() {
        for arguments in [
            ["--help"], ["-h"], ["help"], ["--version"], ["--generate-completion-script", "bash"],
            ["--experimental-dump-help"], ["-qR"], ["-onull", "a.mp3"], ["--", "-a.mp3"], ["-"], ["-x"], ["--unknown", "a"],
            ["--quiet", "--quiet", "a"], ["-o", "null", "--output", "pulse", "a"], ["--volume"], ["--volume", "-5", "a"],
            ["--replaygain", "loud", "a"], ["--seed", "-1", "a"], ["--seed", "x", "a"], ["--replaygain-preamp", "3dB", "a"],
            ["--quiet=yes", "a"], ["--output=", "a"], ["-w"],
        ] {
            #expect(QuickArguments.parse(arguments) == nil, "\(arguments)")
        }
    }

    /// Each option the argument parser knows (its help's) is one of `CommandOption`'s, which the
    /// quick reading reads by, so a new option cannot make every start-up slow unnoticed.
    @Test func theQuickReadingKnowsEveryOption() {
        let help = TPlayer.helpMessage(columns: 1000)
        var names = Set<String>()
        var rest = Substring(help)
        while let range = rest.range(of: "--") {
            let name = rest[range.lowerBound...].prefix { $0 == "-" || $0.isLetter }
            if name.count > 2 { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        let own: Set = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help"]
        let known = Set(CommandOption.allCases.map(\.facts.long))
        #expect(names.count > 20, "\(names)")
        #expect(names.subtracting(own).subtracting(known).isEmpty, "\(names.subtracting(own).subtracting(known))")
    }
}
