import Foundation
import Testing

/// The built binary with stdin not a terminal: exit codes and one-line messages.
@Suite(.timeLimit(.minutes(10))) struct CommandLineTests {
    /// Makes a bad input in `folder` and returns its name.
    enum BadInput: String, CaseIterable {
        case missing, directory, empty, text

        func make(in folder: URL) throws -> String {
            switch self {
            case .missing:
                return "nope.mp3"
            case .directory:
                try FileManager.default.createDirectory(at: folder.appendingPathComponent("album"), withIntermediateDirectories: true)
                return "album"
            case .empty:
                FileManager.default.createFile(atPath: folder.appendingPathComponent("empty.mp3").path, contents: Data())
                return "empty.mp3"
            case .text:
                let text = Data("This is a shopping list, not a song.\nmilk\neggs\n".utf8)
                FileManager.default.createFile(atPath: folder.appendingPathComponent("list.mp3").path, contents: text)
                return "list.mp3"
            }
        }

        var message: String {
            switch self {
            case .missing: "tplayer: nope.mp3: no such file"
            case .directory: "tplayer: album: no audio files in it (looked for .mp3 .flac .ogg .opus .m4a .wav and other audio extensions)"
            case .empty: "tplayer: empty.mp3: file is empty"
            case .text: "tplayer: list.mp3: not an audio format tplayer plays (no MPEG audio or other format found in it)"
            }
        }
    }

    @Test(arguments: BadInput.allCases)
    func aBadInputGivesOneLineAndStatusOne(input: BadInput) throws {
        let folder = try Harness.temporaryFolder()
        let name = try input.make(in: folder)
        let result = try Harness.tplayer("-o", "null", name, in: folder)
        #expect(result.status == 1)
        #expect(result.stderrLines == [input.message])
        #expect(result.stdout.isEmpty)
    }

    @Test func theGoodInputsStillPlayWhenOthersCannot() throws {
        let folder = try Harness.temporaryFolder()
        let names = try BadInput.allCases.map { try $0.make(in: folder) }
        let song = Harness.songs[1]
        let result = try Harness.run(Harness.binary, ["-q", "-w", "out.wav", names[0], song, names[1], names[2], names[3]], in: folder)
        #expect(result.status == 1)
        // Folders are expanded (and found empty) before anything plays; the rest fail as they load.
        #expect(result.stderrLines == [BadInput.directory, .missing, .empty, .text].map(\.message))
        let written = try Harness.pcm(ofWAV: folder.appendingPathComponent("out.wav").path)
        _ = Harness.samePCM(written, try Harness.referenceDecode([song], in: folder))
    }

    @Test func writeRefusesToOverwriteAnExistingFileWithoutForce() throws {
        let folder = try Harness.temporaryFolder()
        let path = folder.appendingPathComponent("keep.wav").path
        let precious = Data("my precious recording".utf8)
        FileManager.default.createFile(atPath: path, contents: precious)
        let result = try Harness.tplayer("-w", path, Harness.songs[0])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tplayer: \(path): file exists; add --force to overwrite it"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == precious)

        let forced = try Harness.tplayer("-q", "--force", "-w", path, Harness.songs[0])
        #expect(forced.status == 0)
        _ = Harness.samePCM(try Harness.pcm(ofWAV: path), try Harness.referenceDecode([Harness.songs[0]], in: folder))
    }

    @Test func noInputFilesAreWrittenWhenNothingCanBePlayed() throws {
        let folder = try Harness.temporaryFolder()
        let result = try Harness.tplayer("-w", "out.wav", "nope.mp3", in: folder)
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.wav").path))
    }

    @Test(arguments: [
        (["--no-such-option", "a.mp3"], "tplayer: Unknown option '--no-such-option' (see tplayer --help)"),
        ([], "tplayer: no INPUT given: name a song, a folder, a playlist or a CUE sheet; or tplayer --scan FOLDER, and tplayer alone opens the library (see tplayer --help)"),
        // An unknown option is named, whatever else is missing (it was "no INPUT given").
        (["--frobnicate"], "tplayer: Unknown option '--frobnicate' (see tplayer --help)"),
        (["--volume", "150", "a.mp3"], "tplayer: --volume 150: give a volume from 0 to 100 (see tplayer --help)"),
        (["--start", "+5s", "a.mp3"], "tplayer: --start +5s: give a time in the song, e.g. 1:30, 90, 45.5s or 25% (see tplayer --help)"),
        (["--start", "1:00", "--resume"], "tplayer: --start applies to the inputs' first song: leave out --script, --resume, -R and --check (see tplayer --help)"),
        (["-o", "wav", "a.mp3"], "tplayer: -o wav writes a file: give its path with -w PATH (see tplayer --help)"),
        (["-o", "nosuch", "a.mp3"], "tplayer: nosuch: no such output driver; see tplayer --list-outputs"),
        (["--force", "a.mp3"], "tplayer: --force only applies with -w PATH (see tplayer --help)"),
        (["--version", "extra"], "tplayer: --version takes nothing else (see tplayer --help)"),
        (["--list-outputs", "--print-states"], "tplayer: --list-outputs and --print-states do different things: give one (see tplayer --help)"),
        (["--print-states", "a.mp3"], "tplayer: --print-states plays nothing: leave out the inputs, --script and -w (see tplayer --help)"),
    ])
    func usageErrorsGiveOneLineAndStatus64(arguments: [String], message: String) throws {
        let result = try Harness.tplayer(arguments)
        #expect(result.status == 64)
        #expect(result.stderrLines == [message])
    }

    @Test func aPlaylistPlaysItsEntriesRelativeToItsFolder() throws {
        let folder = try Harness.temporaryFolder()
        let sub = folder.appendingPathComponent("lists")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let playlist = "#EXTM3U\r\n# a comment\r\n\(Harness.songs[2])\r\n../nope.mp3\r\n"
        try playlist.write(to: sub.appendingPathComponent("p.m3u"), atomically: true, encoding: .utf8)
        let result = try Harness.tplayer("-q", "-w", "out.wav", "lists/p.m3u", in: folder)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tplayer: lists/p.m3u:4: no such file: lists/../nope.mp3"])
        _ = Harness.samePCM(try Harness.pcm(ofWAV: folder.appendingPathComponent("out.wav").path),
                            try Harness.referenceDecode([Harness.songs[2]], in: folder))
    }

    @Test func traceShowsEachTransition() throws {
        let folder = try Harness.temporaryFolder()
        let result = try Harness.tplayer("--trace", "-q", "-w", "out.wav", Harness.songs[0], in: folder)
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            "Idle -> Loading (load \(Harness.songs[0]))",
            "Loading -> Loading (play)",
            "Loading -> Play (opened, play asked)",
            "Play -> Prepare (ended)",
        ])
    }

    /// The README's usage is `tplayer --help`'s, word for word: every option and every help
    /// line true to what tplayer does (it said "Play MP3 files", INPUT "MP3 files, folders and
    /// playlists", and -o's default "libao's default live device").
    @Test func theReadmesUsageIsTheHelp() throws {
        let result = try Harness.tplayer("--help")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Play music in the terminal, gaplessly and exactly."))
        let usage = try #require(result.stdout.range(of: "USAGE:")).lowerBound
        let readme = try String(contentsOf: Harness.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```\n" + result.stdout[usage...] + "```"), "README.md must show the current `tplayer --help` from USAGE on")
        for stale in ["MP3 files", "libao's default live device", "an MP3 file"] {
            #expect(!result.stdout.contains(stale), "\(stale)")
        }
    }

    /// `--volume` and `--start` (mpv's), which users reach for: the file written starts at the
    /// time asked, at the volume asked.
    @Test func volumeAndStartAreTaken() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "gain", "-6"])
        let flac = folder.appendingPathComponent("tone.flac").path
        try FormatTests.encode(wav, to: flac, format: "flac")
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "--volume", "50%", "--start", "1.5", "-w", out, flac)
        #expect(result.status == 0, "\(result.stderr)")
        let samples = FFmpegFormatTests.samples(try Harness.pcm(ofWAV: out))
        let whole = FFmpegFormatTests.samples(try Harness.pcm(ofWAV: wav))
        #expect(samples.count == whole.count / 4, "from 1.5 s of 2")
        let expected = whole.suffix(samples.count).map { Int16((Double($0) * 0.5).rounded()) }
        #expect(zip(samples, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "at half the volume")
    }

    /// `--start 100%` with `-w`: nothing is left to write, and the file asked for is made, a
    /// WAV of no frames (it exited 0 and left no file).
    @Test func aStartAtTheEndWritesAnEmptyFile() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440"])
        let flac = folder.appendingPathComponent("tone.flac").path
        try FormatTests.encode(wav, to: flac, format: "flac")
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "--start", "100%", "-w", out, flac)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out), "the file asked for is there")
        #expect(try Harness.pcm(ofWAV: out).isEmpty, "with no audio in it")
    }

    @Test func printStatesIsTheTableTheReadmeShows() throws {
        let result = try Harness.tplayer("--print-states")
        #expect(result.status == 0)
        #expect(result.stdout.contains("| Prepare | play | Play | play |"))
        let readme = try String(contentsOf: Harness.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(result.stdout), "README.md must show the current `tplayer --print-states`")
    }

    @Test func listOutputsNamesLiveAndFileDrivers() throws {
        let result = try Harness.tplayer("--list-outputs")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("null") && $0.contains(" live ") })
        #expect(lines.contains { $0.hasPrefix("wav") && $0.contains(" file ") })
        #expect(lines.filter { $0.hasPrefix("pulse ") }.count == 1, "the native output, once")
        #expect(lines.contains { $0.hasPrefix("ao ") && $0.contains(" live ") })
    }

    /// With no terminal there is no one to wait for: --keep-open does not keep a run going.
    @Test(arguments: [["-o", "null"], ["-w", "out.wav"]])
    func withNoTerminalARunEndsWithItsListEvenWithKeepOpen(output: [String]) throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 0.5, in: folder)
        let result = try RawProcess.run([Array(Harness.binary.utf8)] + (["--keep-open"] + output + [song]).map { Array($0.utf8) },
                                        in: folder, timeout: 10)
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(result.stderrLines == ["Playing 1/1: short.mp3"], "each song named once on stderr, as mpg123 does")
    }
}

/// `--help` shows every key, as `h` does (it listed only `space p s n b r z l h q`).
@Suite(.timeLimit(.minutes(10))) struct HelpTests {
    @Test func helpListsEveryKeyTheHelpPanelShows() throws {
        let help = try Harness.tplayer("--help")
        #expect(help.status == 0)
        let keyLines = [
            "  space     play / pause", "  →         5 s forward", "  ←         5 s back", "  ↑         a minute forward",
            "  ↓         a minute back", "  0 … 9     jump to", "  g         back to the start", "  + =       volume up",
            "  -         volume down", "  m         mute", "  i         the song's details", "  l         load",
            "  h ?       show these keys", "  q         quit", "  n N       next", "  b B       previous",
        ]
        for line in keyLines {
            #expect(help.stdout.contains(line), "\(line)")
        }
    }

    /// The help's key list is laid out only when the help is asked for, however it is asked.
    @Test(arguments: [["--help"], ["-h"], ["-qh"], ["--shuffle", "-h"]])
    func everyWayOfAskingShowsTheKeys(arguments: [String]) throws {
        let help = try Harness.tplayer(arguments)
        #expect(help.status == 0)
        #expect(help.stdout.contains("Keys (when stdin is a terminal"), "\(arguments)")
        #expect(help.stdout.contains("  space     play / pause"), "\(arguments)")
    }
}
