import Foundation
import Testing

/// `tplayer -w` must write exactly the samples `mpg123 -w` writes: same decoder, same gapless.
@Suite struct SampleExactnessTests {
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
        #expect(try Harness.pcm(ofWAV: out).count == bytes.count - 68)
    }
}
