import Files
import Inputs
import PlayerCore
import Testing
@testable import PlayerApp

/// `--check` and what a run checks before it starts, on a file system in memory and with the
/// decoding injected: every verdict and refusal built in a line, no disk and no decoder.
struct CheckAndLaunchTests {
    private func library() -> MemoryFiles {
        let files = MemoryFiles()
        files.add("/music/a.mp3", text: "x")
        files.add("/music/b.mp3", text: "x")
        files.add("/music/list.m3u", text: "a.mp3\nb.mp3\n")
        files.add("/music/broken.m3u", text: "a.mp3\ngone.mp3\n")
        files.add("/music/good.tps", text: "add a.mp3\nplay\nwait 2s\nquit\n")
        files.add("/music/bad.tps", text: "add a.mp3\nplya\n")
        files.add("/music/broken.tps", text: "load broken.m3u\nquit\n")
        return files
    }

    private static func decode(_ verdicts: [Path: SongVerdict]) -> Check.Decode {
        { path, within in
            within(0.5)
            return verdicts[path] ?? .clean(seconds: 30)
        }
    }

    @Test func aCleanPlaylistAndScriptAreOkWithTheirSongsLength() {
        let check = Check.run(["/music/list.m3u", "/music/good.tps"], decode: Self.decode([:]), files: library())
        #expect(check.problems.isEmpty)
        #expect(check.status == 0)
        #expect(check.summary == ["/music/good.tps: ok, 4 commands", "/music/list.m3u: ok, 2 songs",
                                  "2 songs decoded (1:00): none damaged"])
    }

    @Test func aDamagedSongTakesItsPlaylistsOkAwayAndEveryProblemIsOneLine() {
        var heard: [String] = []
        let check = Check.run(["/music/list.m3u", "/music/broken.m3u", "/music/bad.tps"],
                              decode: Self.decode(["/music/b.mp3": .damaged(at: 12.46, reason: "bad frame")]),
                              found: { heard.append($0) }, files: library())
        #expect(check.status == Launch.problemsFound)
        #expect(check.problems == [
            "/music/broken.m3u:2:1: no such file: /music/gone.mp3",
            "/music/bad.tps:2:1: unknown command 'plya' (did you mean 'play'?); a song path needs a / or an extension, or add PATH",
            "/music/b.mp3: damaged at 0:12.46: bad frame",
        ])
        #expect(heard == check.problems, "each problem is heard as it is found")
        #expect(check.summary == ["3 songs decoded: 1 damaged or not playable"])
    }

    /// A CUE sheet: its problems located, an image that is missing said at its FILE line, the
    /// image decoded once for all its tracks, and a track past the image's end said.
    @Test func aSheetIsCheckedLineByLineAndItsImageDecodedOnce() {
        let files = library()
        files.add("/music/album.flac", text: "x")
        files.add("/music/album.cue", text: "FILE \"album.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:00:00\n TRACK 02 AUDIO\n  INDEX 01 00:20:00\n")
        files.add("/music/bad.cue", text: "TITLE x\nFILE \"gone.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:61:00\n TRACK 02 AUDIO\n  INDEX 01 01:00:00\n")
        var decoded: [Path] = []
        let decode: Check.Decode = { path, _ in
            decoded.append(path)
            return .clean(seconds: 30)
        }
        let good = Check.run(["/music/album.cue"], decode: decode, files: files)
        #expect(good.problems.isEmpty && good.status == 0)
        #expect(good.summary == ["/music/album.cue: ok, 2 tracks", "1 song decoded (0:30): none damaged"])
        #expect(decoded == ["/music/album.flac"], "one image, decoded once for its two tracks")
        // One of each: counted in the singular ("ok, 1 tracks").
        files.add("/music/one.cue", text: "FILE \"album.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:00:00\n")
        files.add("/music/one.m3u", text: "album.flac\n")
        files.add("/music/one.tps", text: "play\n")
        #expect(Check.run(["/music/one.cue", "/music/one.m3u", "/music/one.tps"], decode: decode, files: files).summary
                    == ["/music/one.tps: ok, 1 command", "/music/one.cue: ok, 1 track", "/music/one.m3u: ok, 1 song",
                        "2 songs decoded (1:00): none damaged"])
        let bad = Check.run(["/music/bad.cue"], decode: decode, files: files)
        #expect(bad.status == Launch.problemsFound)
        #expect(bad.problems == ["/music/bad.cue:4:3: INDEX 01 00:61:00: seconds past 59; the track is left out",
                                 "/music/bad.cue:2:1: no such file: gone.flac"])
        files.add("/music/album.cue", text: "FILE \"album.flac\" WAVE\n TRACK 01 AUDIO\n  INDEX 01 00:00:00\n TRACK 02 AUDIO\n  INDEX 01 00:40:00\n")
        let short = Check.run(["/music/album.cue"], decode: decode, files: files)
        #expect(short.problems == ["/music/album.cue:4:2: starts at 00:40:00, past the end of album.flac (0:30)"])
        #expect(short.summary == ["1 song decoded: 1 damaged or not playable"])
    }

    @Test func theProgressCountsEverySongAndEnds() {
        var steps: [String] = []
        _ = Check.run(["/music/list.m3u"], decode: Self.decode([:]),
                      progress: { done, total, within, path in steps.append("\(done)/\(total) \(within) \(path)") },
                      files: library())
        #expect(steps == ["0/2 0.0 /music/a.mp3", "0/2 0.5 /music/a.mp3", "1/2 0.0 /music/b.mp3", "1/2 0.5 /music/b.mp3", "2/2 0.0 "],
                "each song's own progress too")
    }

    /// A FLAC or WAV file is a song that cannot be played, said as the decoder says it, not a
    /// script that is binary; a playlist by content stays a playlist, a text file a script.
    @Test func audioOfAnotherFormatIsCheckedAsASongWhateverItsName() {
        let files = library()
        files.add("/music/song.flac", .file(Array("fLaC".utf8) + [0, 0, 0, 34, 1, 2, 3, 4]))
        files.add("/music/take.wav", .file(Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8)))
        let check = Check.run(["/music/song.flac", "/music/take.wav", "/music/good.tps"],
                              decode: Self.decode(["/music/song.flac": .unplayable(.otherFormat(.flac)),
                                                   "/music/take.wav": .unplayable(.otherFormat(.wav))]),
                              files: files)
        #expect(check.problems == ["/music/song.flac: FLAC audio, which tplayer cannot decode",
                                   "/music/take.wav: WAV audio, which tplayer cannot decode"])
        #expect(check.summary == ["/music/good.tps: ok, 4 commands", "2 songs decoded: 2 damaged or not playable"])
    }

    @Test func anEmptyFolderIsSaidWithWhatWasLookedFor() {
        let files = library()
        files.add("/music/empty", .folder)
        let check = Check.run(["/music/empty"], decode: Self.decode([:]), files: files)
        #expect(check.problems == ["/music/empty: no audio files in it (looked for .mp3 .flac .ogg .opus .m4a .wav and other audio extensions)"])
    }

    @Test func aScriptWithProblemsIsRefusedWholeAndNamesCheck() {
        let refused = Launch.prepare(inputs: [], script: "/music/bad.tps", writing: nil, files: library())
        guard case .failure(let refusal) = refused else {
            Issue.record("a script with problems ran")
            return
        }
        #expect(refusal.status == Launch.problemsFound)
        #expect(refusal.lines.last == "tplayer: /music/bad.tps: not run because of the problems above; tplayer --check /music/bad.tps lists them")
    }

    /// The lines above the refusal are its reasons: a playlist's missing entry, which would be
    /// skipped, is left for `--check`.
    @Test func aRefusalListsOnlyTheScriptsOwnProblems() {
        let files = library()
        files.add("/music/both.tps", text: "load broken.m3u\nplya\n")
        guard case .failure(let refusal) = Launch.prepare(inputs: [], script: "/music/both.tps", writing: nil, files: files) else {
            Issue.record("a script with problems ran")
            return
        }
        #expect(refusal.lines == [
            "/music/both.tps:2:1: unknown command 'plya' (did you mean 'play'?); a song path needs a / or an extension, or add PATH",
            "tplayer: /music/both.tps: not run because of the problems above; tplayer --check /music/both.tps lists them",
        ])
        #expect(Check.run(["/music/both.tps"], decode: Self.decode([:]), files: files).problems.count == 2, "--check lists both")
    }

    /// A playlist's missing entry is said and skipped, as when the playlist is named directly:
    /// the script runs (the exit status counts it), and `--check` lists it with its column.
    @Test func aMissingEntryInAScriptsPlaylistIsSaidAndSkippedNotRefused() throws {
        let launch = try Launch.prepare(inputs: [], script: "/music/broken.tps", writing: nil, files: library()).get()
        #expect(launch.problems.map(\.brief) == ["/music/broken.m3u:2: no such file: /music/gone.mp3"])
        let kept = Entry(path: "/music/a.mp3", origin: SourceLocation(file: "/music/broken.m3u", line: 1))
        #expect(launch.script?.first?.command == .add([kept], playNow: true), "the missing entry is left out")
        let check = Check.run(["/music/broken.tps"], decode: Self.decode([:]), files: library())
        #expect(check.problems == ["/music/broken.m3u:2:1: no such file: /music/gone.mp3"])
        #expect(check.summary.isEmpty, "no ok for a script whose playlist has a problem")
        #expect(check.status == Launch.problemsFound)
    }

    @Test func theInputsBecomeTheListInOrder() throws {
        let launch = try Launch.prepare(inputs: ["/music/broken.m3u", "/music/b.mp3"], script: "/music/good.tps",
                                        writing: nil, files: library()).get()
        // A missing song stays in the list: it is said when the player comes to it, and played
        // if it is back by then.
        #expect(launch.entries.map(\.path) == ["/music/a.mp3", "/music/gone.mp3", "/music/b.mp3"])
        #expect(launch.problems.isEmpty)
        #expect(launch.script?.count == 4)
    }

    @Test func writingOverAnInputOrAnExistingFileIsRefusedBeforeAnythingStarts() {
        let files = library()
        files.add("/music/out.wav", .link("/music/b.mp3"))
        files.add("/music/old.wav", text: "RIFF")
        func refusal(_ output: Path, overwrite: Bool = false) -> Launch.Refusal? {
            if case .failure(let refusal) = Launch.prepare(inputs: ["/music/list.m3u"], script: nil,
                                                           writing: (output, overwrite), files: files) {
                return refusal
            }
            return nil
        }
        #expect(refusal("/music/out.wav")?.lines.first?.contains("the same file as the input /music/b.mp3") == true)
        #expect(refusal("/music/out.wav")?.status == 64)
        #expect(refusal("/music/old.wav") == Launch.Refusal(lines: ["tplayer: /music/old.wav: file exists; add --force to overwrite it"], status: 1))
        #expect(refusal("/music/old.wav", overwrite: true) == nil)
        #expect(refusal("/music/new.wav") == nil)
    }

    /// A long list starts with its first songs and the rest arrives as it is read, in order,
    /// the last piece saying so; a short one, or one whose `-w` file is there to be written
    /// over (checked against every song first), is read whole before the run starts.
    @Test func aLongListStartsWithItsFirstSongsAndTheRestArrives() throws {
        let files = library()
        let count = 10_000
        files.add("/music/long.m3u", text: (0..<count).map { "song\($0).mp3\n" }.joined() + "gone.m3u\n")
        files.add("/music/old.wav", text: "RIFF")
        let work = try BackgroundWork()
        let launch = try Launch.prepare(inputs: ["/music/long.m3u"], script: nil, writing: ("/music/new.wav", false),
                                        files: files, reading: work).get()
        let first = InputExpander().handOnFirst
        #expect(launch.entries.count == first && launch.problems.isEmpty)
        let rest = try #require(launch.rest)
        var arrived: [(count: Int, problems: [String], isLast: Bool)] = []
        var paths = launch.entries.map(\.path)
        rest.arrive = { piece, isLast in
            arrived.append((piece.entries.count, piece.problems.map(\.brief), isLast))
            paths += piece.entries.map(\.path)
        }
        work.deliver { rest.isComplete }
        #expect(paths == (0..<count).map { Path("/music/song\($0).mp3") })
        #expect(arrived.last?.isLast == true && arrived.dropLast().allSatisfy { !$0.isLast })
        #expect(arrived.flatMap(\.problems) == ["/music/long.m3u:\(count + 1): no such file: /music/gone.m3u"])

        let whole = try Launch.prepare(inputs: ["/music/long.m3u"], script: nil, writing: ("/music/old.wav", true),
                                       files: files, reading: work).get()
        #expect(whole.rest == nil && whole.entries.count == count, "a file to be written over: every song checked first")
        let short = try Launch.prepare(inputs: ["/music/list.m3u"], script: nil, writing: nil, files: files, reading: work).get()
        #expect(short.rest == nil)
    }
}
