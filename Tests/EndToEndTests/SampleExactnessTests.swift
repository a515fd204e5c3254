import Foundation
import Testing

/// `tplayer -w` must write exactly the samples `mpg123 -w` writes: same decoder, same gapless.
@Suite(.timeLimit(.minutes(10))) struct SampleExactnessTests {
    @Test(arguments: Harness.songs)
    func eachDemoSongIsSampleIdenticalToMpg123(song: String) throws {
        let folder = try Harness.temporaryFolder()
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, song)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let ours = try Harness.pcm(ofWAV: out)
        let reference = try Harness.referenceDecode([song], in: folder)
        #expect(ours.count == reference.count, "frame count differs")
        _ = Harness.samePCM(ours, reference)
        #expect(ours.count > 44100 * 4 * 5, "a demo song is longer than five seconds")
    }

    @Test func threeSongsGoIntoOneFileBackToBackLikeMpg123() throws {
        let folder = try Harness.temporaryFolder()
        let out = folder.appendingPathComponent("all.wav").path
        let result = try Harness.tplayer(["-q", "-w", out] + Harness.songs)
        #expect(result.status == 0)
        let ours = try Harness.pcm(ofWAV: out)
        let reference = try Harness.referenceDecode(Harness.songs, in: folder)
        #expect(ours.count == reference.count)
        _ = Harness.samePCM(ours, reference)
        // And it is the three single decodes one after another: nothing dropped between songs.
        var singles = Data()
        for song in Harness.songs { singles += try Harness.referenceDecode([song], in: folder) }
        _ = Harness.samePCM(ours, singles)
    }

    @Test func theWavHeaderDescribesTheData() throws {
        let folder = try Harness.temporaryFolder()
        let out = folder.appendingPathComponent("out.wav").path
        try Harness.tplayer("-q", "-w", out, Harness.songs[0])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.prefix(4) == Data("RIFF".utf8))
        #expect(Int(Harness.littleEndian32(bytes, 4)) == bytes.count - 8)
        #expect(try Harness.pcm(ofWAV: out).count == bytes.count - 44)
    }

    /// tplayer writes its files itself (libao is not loaded for -w): the very bytes of
    /// `mpg123 -w`, to a file and to a pipe (where the header cannot be rewritten); AU and raw
    /// hold the same samples.
    @Test func filesAreTheBytesMpg123Writes() throws {
        let folder = try Harness.temporaryFolder()
        let song = Harness.songs[0]
        let ours = folder.appendingPathComponent("ours.wav").path
        let theirs = folder.appendingPathComponent("theirs.wav").path
        try Harness.tplayer("-q", "-w", ours, song)
        try Harness.run("/usr/bin/mpg123", ["-q", "-w", theirs, song])
        #expect(try Data(contentsOf: URL(fileURLWithPath: ours)) == Data(contentsOf: URL(fileURLWithPath: theirs)))

        let piped = try Harness.run("/bin/sh", ["-c", "\"$0\" -q -w - \"$2\" | cat > ours-pipe.wav && mpg123 -q -w - \"$2\" | cat > theirs-pipe.wav",
                                                 Harness.binary, "unused", song], in: folder)
        #expect(piped.status == 0)
        let oursPiped = try Data(contentsOf: folder.appendingPathComponent("ours-pipe.wav"))
        #expect(oursPiped == (try Data(contentsOf: folder.appendingPathComponent("theirs-pipe.wav"))))
        #expect(oursPiped.count > 44 && Harness.littleEndian32(oursPiped, 40) == 0, "a pipe's header says no size")

        let raw = folder.appendingPathComponent("ours.raw").path
        let au = folder.appendingPathComponent("ours.au").path
        try Harness.tplayer("-q", "-w", raw, song)
        try Harness.tplayer("-q", "-w", au, song)
        let pcm = try Harness.pcm(ofWAV: theirs)
        #expect(try Data(contentsOf: URL(fileURLWithPath: raw)) == pcm)
        let soxed = try Harness.run("/bin/sh", ["-c", "sox \"$0\" -t raw - | cmp - \"$1\"", au, raw])
        #expect(soxed.status == 0 && soxed.stderr.isEmpty, "sox reads the AU file as the same samples: \(soxed.stderr)")
    }

    @Test func aFileKeepsTheFirstSongsFormatAndLosesNothingWhenTheFormatChanges() throws {
        let folder = try Harness.temporaryFolder()
        // Two seconds of mono 22.05 kHz, between two 44.1 kHz stereo songs.
        let wav = folder.appendingPathComponent("mono.wav").path
        let mono = folder.appendingPathComponent("mono.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "22050", "-c", "1", "-b", "16", wav, "synth", "2", "sine", "330", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-b", "64", wav, mono])
        let out = folder.appendingPathComponent("mixed.wav").path
        let result = try Harness.tplayer("-q", "-w", out, Harness.songs[0], mono, Harness.songs[2])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Harness.littleEndian32(bytes, 24) == 44100, "the header keeps the first song's rate")
        #expect(bytes[bytes.startIndex + 22] == 2, "and its channels")
        let ours = try Harness.pcm(ofWAV: out)
        let first = try Harness.referenceDecode([Harness.songs[0]], in: folder)
        let last = try Harness.referenceDecode([Harness.songs[2]], in: folder)
        let middleFrames = (ours.count - first.count - last.count) / 4
        #expect(abs(middleFrames - 88200) < 1200, "2 s of the mono song, converted: \(middleFrames) frames")
        _ = Harness.samePCM(ours.prefix(first.count), first)
        _ = Harness.samePCM(ours.suffix(last.count), last)
    }

    /// A junk frame in another format at a song's end (an MPEG 2.5 Layer I frame at 11,025 Hz
    /// after a 44.1 kHz mono song, as taglib's garbage.mp3 has): the song is written whole, as
    /// mpg123 decodes it, and the frame after it converted to the file's rate (its last frame
    /// was dropped as junk: libmpg123 reported the junk's position for the read that held it,
    /// and every frame's length was counted 4 bytes long).
    @Test func aFrameInAnotherFormatAtTheEndIsConvertedAndTheSongKeptWhole() throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("mono.wav").path
        let clean = folder.appendingPathComponent("clean.mp3").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "1", "-b", "16", wav, "synth", "1", "sine", "440", "gain", "-6"])
        try Harness.run("/usr/bin/lame", ["--quiet", "-m", "m", wav, clean])
        // MPEG 2.5 Layer I, 32 kbit/s, 11,025 Hz, mono: 136 bytes, 384 samples.
        let junk: [UInt8] = [0xFF, 0xE7, 0x10, 0xC0] + (0..<132).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let garbage = folder.appendingPathComponent("garbage.mp3").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: clean)) + junk).write(to: URL(fileURLWithPath: garbage))
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, garbage)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try Harness.pcm(ofWAV: out)
        let song = try Harness.referenceDecode([clean], in: folder)
        #expect(ours.prefix(song.count) == song, "the song as mpg123 decodes it")
        #expect(ours.count - song.count == 1536 * 2, "the 384 samples at 11,025 Hz as 1,536 at 44.1 kHz")
    }

    /// A file keeps its first song's format, whatever it is: the songs after a first one at
    /// 1 kHz, 96 kHz or in six channels are converted to it (libmpg123 refuses such a format, and
    /// its refusal failed every later song, of every format: "A generic mpg123 error").
    @Test(arguments: [(1000, 1), (96000, 2), (48000, 6)])
    func theSongsAfterAFirstInAnyFormatAreConvertedToIt(rate: Int, channels: Int) throws {
        let folder = try Harness.temporaryFolder()
        let first = folder.appendingPathComponent("first.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", first, "synth", "1", "sine", "100", "gain", "-6"])
        let tone = folder.appendingPathComponent("tone.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", tone, "synth", "1", "sine", "440", "gain", "-6"])
        let flac = folder.appendingPathComponent("tone.flac").path, ogg = folder.appendingPathComponent("tone.ogg").path
        try FormatTests.encode(tone, to: flac, format: "flac")
        try FormatTests.encode(tone, to: ogg, format: "ogg")
        let mp3 = try Harness.makeSong(seconds: 1, in: folder, name: "tone.mp3")
        let out = folder.appendingPathComponent("out.wav").path
        let result = try Harness.tplayer("-q", "-w", out, first, mp3, flac, ogg)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Harness.littleEndian32(bytes, 24) == UInt32(rate) && bytes[bytes.startIndex + 22] == UInt8(channels))
        let frames = try Harness.pcm(ofWAV: out).count / (2 * channels)
        // Four songs of a second each (the MP3 a little longer: its encoder's delay as mpg123 keeps it).
        #expect(abs(frames - 4 * rate) <= rate / 20, "\(frames) frames at \(rate) Hz")
    }
}
