import Foundation
import Testing

/// Scripts writing to a file: their output is known to the sample, and the same on every run.
@Suite(.timeLimit(.minutes(10))) struct ScriptTests {
    static let bytesPerFrame = 4  // 16-bit stereo

    /// Runs `script` (lines) with `-w` and returns the PCM written and the result.
    static func run(_ lines: [String], extra: [String] = [], in folder: URL) throws -> (Data, Harness.Result) {
        let script = folder.appendingPathComponent("s-\(UUID().uuidString).tps")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: script)
        let out = folder.appendingPathComponent("out-\(UUID().uuidString).wav").path
        let result = try Harness.tplayer(["-q", "-w", out, "--script", script.path] + extra)
        return (Harness.fileSize(out) > 0 ? try Harness.pcm(ofWAV: out) : Data(), result)
    }

    static func frames(_ data: Data, _ range: Range<Int>) -> Data {
        let base = data.startIndex  // a WAV's PCM is a slice of the file's bytes
        return data.subdata(in: (base + range.lowerBound * bytesPerFrame)..<(base + range.upperBound * bytesPerFrame))
    }

    @Test func playWaitStopSeekPlayWaitQuitWritesExactlyTheFramesAsked() throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[0]
        let script = ["add \(song)", "play", "wait 1s", "stop", "seek 0", "play", "wait 0.5s", "quit"]
        let (ours, result) = try Self.run(script, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ours.count == 66150 * Self.bytesPerFrame)
        let reference = try Harness.referenceDecode([song], in: folder)
        _ = Harness.samePCM(ours, Self.frames(reference, 0..<44100) + Self.frames(reference, 0..<22050))
        let (again, _) = try Self.run(script, in: folder)
        _ = Harness.samePCM(again, ours)
    }

    @Test(arguments: [(0, "3.25s", 143_325), (1, "1:02", 10_000_000), (1, "4.5s", 198_450), (2, "50%", -1)])
    func seekingLandsOnTheExactSample(song index: Int, to target: String, frame: Int) throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[index]
        let reference = try Harness.referenceDecode([song], in: folder)
        let total = reference.count / Self.bytesPerFrame
        // `1:02` is past the end of a 10 s song: it clamps to the end, and the song ends at once.
        let start = frame >= 0 ? frame : total / 2
        let (ours, result) = try Self.run(["add \(song)", "play", "seek \(target)", "wait 1s", "quit"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = Self.frames(reference, min(start, total)..<min(start + 44100, total))
        _ = Harness.samePCM(ours, expected)
    }

    /// `seek` and `volume` before the first `play` apply to the song that `play` starts (as
    /// `mpv --start` does); they used to be dropped, and the song started at 0:00.
    @Test func aSeekAndAVolumeBeforeTheFirstPlayApplyToTheSongItStarts() throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[1]
        let reference = try Harness.referenceDecode([song], in: folder)
        let (ours, result) = try Self.run(["add \(song)", "seek 4.5s", "seek +0.5s", "play", "wait 1s", "quit"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        _ = Harness.samePCM(ours, Self.frames(reference, 220_500..<264_600))
        let (quiet, _) = try Self.run(["add \(song)", "volume 0%", "play", "wait 1s", "quit"], in: folder)
        #expect(quiet.count == 44100 * Self.bytesPerFrame && quiet.allSatisfy { $0 == 0 }, "silent from its first sample")
    }

    @Test func aSeekRightAfterALoadWaitsForTheSongToOpen() throws {
        let folder = try Harness.temporaryFolder()
        let reference = try Harness.referenceDecode([Harness.songs[2]], in: folder)
        let (ours, result) = try Self.run(["add \(Harness.songs[0])", "play", "wait 0.5s", "load \(Harness.songs[2])", "seek 50%",
                                           "wait 0.5s", "quit"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let half = reference.count / Self.bytesPerFrame / 2
        _ = Harness.samePCM(Self.frames(ours, 22050..<44100), Self.frames(reference, half..<(half + 22050)))
    }

    @Test func relativeSeeksCountFromWhatWasPlayed() throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[1]
        let reference = try Harness.referenceDecode([song], in: folder)
        let (ours, _) = try Self.run(["add \(song)", "play", "wait 1s", "seek +2s", "wait 250ms", "seek -1.5s", "wait 250ms", "quit"], in: folder)
        let expected = Self.frames(reference, 0..<44100) + Self.frames(reference, 132_300..<143_325)
            + Self.frames(reference, 77_175..<88_200)
        _ = Harness.samePCM(ours, expected)
    }

    @Test func aWaitCarriesOnIntoTheNextSongGaplessly() throws {
        let folder = try Harness.temporaryFolder()
        let (first, second) = (Harness.songs[0], Harness.songs[2])
        let one = try Harness.referenceDecode([first], in: folder)
        let two = try Harness.referenceDecode([second], in: folder)
        // The first song is 396,900 frames: 10 s of audio is all of it and 44,100 of the next.
        let (ours, _) = try Self.run(["add \(first)", "add \(second)", "play", "wait 10s", "quit"], in: folder)
        #expect(one.count == 396_900 * Self.bytesPerFrame)
        _ = Harness.samePCM(ours, one + Self.frames(two, 0..<44100))
        let (untilEnd, _) = try Self.run(["add \(first)", "add \(second)", "play", "wait end", "quit"], in: folder)
        _ = Harness.samePCM(untilEnd, one)
    }

    @Test func volumeScalesTheSamplesAndHoldsAcrossSongs() throws {
        let folder = try Harness.temporaryFolder()
        let songs = [Harness.songs[0], Harness.songs[1]]
        let reference = try Harness.referenceDecode(songs, in: folder)
        let (full, _) = try Self.run(songs.map { "add \($0)" } + ["volume 100%", "play", "wait 30s"], in: folder)
        _ = Harness.samePCM(full, reference)
        let (half, _) = try Self.run(songs.map { "add \($0)" } + ["volume 50%", "play", "wait 30s"], in: folder)
        #expect(half.count == reference.count)
        let count = min(half.count, reference.count) / 2
        var worst = 0
        half.withUnsafeBytes { (ours: UnsafeRawBufferPointer) in
            reference.withUnsafeBytes { (ref: UnsafeRawBufferPointer) in
                let a = ours.bindMemory(to: Int16.self)
                let b = ref.bindMemory(to: Int16.self)
                for index in stride(from: 0, to: count, by: 7) {
                    worst = max(worst, abs(Int(a[index]) - Int(b[index]) / 2))
                }
            }
        }
        #expect(worst <= 2, "every sample is half the reference (±2), in both songs")
        let (silent, _) = try Self.run(["add \(songs[0])", "volume 0%", "play", "wait 1s", "quit"], in: folder)
        #expect(silent.count == 44100 * Self.bytesPerFrame && silent.allSatisfy { $0 == 0 })
    }

    @Test func aWaitWhileStoppedPassesAtOnceForAFileAndInRealTimeLive() throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[0]
        let start = Date()
        let (ours, _) = try Self.run(["add \(song)", "wait 20s", "play", "wait 0.5s", "quit"], in: folder)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(ours.count == 22050 * Self.bytesPerFrame, "nothing is written for a wait while stopped")

        let script = folder.appendingPathComponent("live.tps")
        try Data("add \(song)\nwait 1s\nplay\nwait 0.5s\nquit\n".utf8).write(to: script)
        let liveStart = Date()
        let result = try Harness.tplayer("-q", "-o", "null", "--script", script.path)
        let elapsed = Date().timeIntervalSince(liveStart)
        #expect(result.status == 0)
        #expect(elapsed > 1.4 && elapsed < 3, "1 s stopped and 0.5 s played, in real time: took \(elapsed) s")
    }

    @Test func theScriptEndingWhileASongPlaysLetsTheListPlayOut() throws {
        let folder = try Harness.temporaryFolder()
        let (ours, result) = try Self.run(["add \(Harness.songs[0])", "add \(Harness.songs[1])", "play", "wait 1s"], in: folder)
        #expect(result.status == 0)
        _ = Harness.samePCM(ours, try Harness.referenceDecode(Array(Harness.songs[0...1]), in: folder))
    }

    @Test func aScriptWithProblemsIsRefusedBeforeAnythingPlays() throws {
        let folder = try Harness.temporaryFolder()
        let script = folder.appendingPathComponent("bad.tps")
        try Data("add \(Harness.songs[0])\nplay\nwiat 1s\nseek 10x\nadd gone.mp3\n".utf8).write(to: script)
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, "--script", script.path)
        #expect(result.status == 65)
        #expect(result.stderrLines == [
            "\(script.path):3:1: unknown command 'wiat' (did you mean 'wait'?); a song path needs a / or an extension, or add PATH",
            "\(script.path):4:6: bad seek '10x': use a time (1:30, 90s), +10s, -5s or a percentage (50%)",
            "\(script.path):5:5: no such file: gone.mp3",
            "tplayer: \(script.path): not run because of the problems above; tplayer --check \(script.path) lists them",
        ])
        #expect(!FileManager.default.fileExists(atPath: out), "nothing was written")

        let check = try Harness.tplayer("--check", script.path)
        #expect(check.status == 65)
        #expect(check.stderrLines.count == 3)
        #expect(check.stdout.isEmpty)
    }

    /// A playlist with a missing entry plays the same named in a script as named directly: the
    /// entry is said with its line and skipped, the rest plays, and the exit status is 1; the
    /// script was refused whole (65). `--check` lists the entry.
    @Test func aScriptsPlaylistWithAMissingEntryPlaysTheRestAsItDoesDirectly() throws {
        let folder = try Harness.temporaryFolder()
        let list = folder.appendingPathComponent("list.m3u").path
        try Data("\(Harness.songs[0])\ngone.mp3\n\(Harness.songs[2])\n".utf8).write(to: URL(fileURLWithPath: list))
        let said = "tplayer: \(list):2: no such file: \(folder.path)/gone.mp3"
        let out = folder.appendingPathComponent("direct.wav").path
        let direct = try Harness.tplayer("-q", "-w", out, list)
        #expect(direct.status == 1)
        #expect(direct.stderrLines == [said])

        let (ours, result) = try Self.run(["load list.m3u", "wait 0.5s", "next", "wait 0.5s", "quit"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderrLines == [said])
        let first = try Harness.referenceDecode([Harness.songs[0]], in: folder)
        let third = try Harness.referenceDecode([Harness.songs[2]], in: folder)
        _ = Harness.samePCM(ours, Self.frames(first, 0..<22050) + Self.frames(third, 0..<22050))

        let script = folder.appendingPathComponent("list.tps")
        try Data("load list.m3u\n".utf8).write(to: script)
        let check = try Harness.tplayer("--check", script.path)
        #expect(check.status == 65)
        #expect(check.stderrLines == ["\(list):2:1: no such file: \(folder.path)/gone.mp3"])
        #expect(check.stdout.isEmpty)
    }

    @Test func checkAcceptsACleanScriptAndPlaylist() throws {
        let folder = try Harness.temporaryFolder()
        let script = folder.appendingPathComponent("ok.tps")
        try Data("# fine\n\(Harness.songs[0])\nplay\nwait 1:30\nseek 50%\nvolume 80%\nrepeat off\nquit\n".utf8).write(to: script)
        let check = try Harness.tplayer("--check", script.path)
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty)
        #expect(check.stdout == "\(script.path): ok, 7 commands\n")
        let demo = Harness.root.appendingPathComponent("Resources/demo.m3u").path
        let lines = try Harness.tplayer("--check", demo).stdout.split(separator: "\n")
        #expect(lines.first == "\(demo): ok, 3 songs")
        #expect(lines.count == 2 && lines[1].hasPrefix("3 songs decoded ("))
        let missing = try Harness.tplayer("--check", folder.appendingPathComponent("none.tps").path)
        #expect(missing.status == 65)
    }
}
