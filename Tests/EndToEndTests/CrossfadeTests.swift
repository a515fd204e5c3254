import Foundation
import Testing

/// The crossfade, proved on what `-w` writes, sample for sample: a fade between two albums is
/// the equal-power mix of the two songs' own samples (each as `-w` writes it alone); the join of
/// consecutive tracks of one album stays the gapless file; a song too short is never faded; a
/// skip fades by `crossfade-skip`, or cuts with 0.
@Suite(.timeLimit(.minutes(5)))
struct CrossfadeTests {
    /// The demo album's tracks: 01, 02 and 03 of "tplayer demos", 9 to 11 s each.
    static let (first, second, third) = (Harness.songs[0], Harness.songs[1], Harness.songs[2])

    @Test func aFadeBetweenAlbumsIsTheEqualPowerMix() throws {
        let folder = try Harness.temporaryFolder()
        // 03 then 01: not the album's order, so it fades (2 s).
        let faded = try Self.write(["--crossfade", "2", Self.third, Self.first], in: folder)
        let ending = try Self.write([Self.third], in: folder), starting = try Self.write([Self.first], in: folder)
        let expected = Self.mix(fadingOut: ending, fadingIn: starting, at: ending.count / 2 - 88200, frames: 88200)
        #expect(faded.count == ending.count + starting.count - 2 * 88200, "the list is 2 s shorter")
        #expect(Self.same(faded, expected))
    }

    @Test func theJoinInsideAnAlbumStaysGapless() throws {
        let folder = try Harness.temporaryFolder()
        let plain = try Self.write(Harness.songs, in: folder)
        #expect(Self.same(try Self.write(["--crossfade", "3"] + Harness.songs, in: folder), plain))
    }

    @Test func aSongShorterThanTwiceTheOverlapIsNeverFaded() throws {
        let folder = try Harness.temporaryFolder()
        // 1.5 s between two songs of other albums: a 1 s fade would need 2 s.
        let short = try Harness.makeSong(seconds: 1.5, in: folder)
        let songs = [Self.third, short, Self.first]
        #expect(Self.same(try Self.write(["--crossfade", "1"] + songs, in: folder), try Self.write(songs, in: folder)))
    }

    /// A script's `next` 2 s into a song: with `crossfade-skip = 0.5`, the song left fades out
    /// over 0.5 s from there as the next one fades in from its start; with 0, it cuts.
    @Test func aSkipFadesAsSet() throws {
        let folder = try Harness.temporaryFolder()
        let script = folder.appendingPathComponent("skip.tps")
        try "add \(Self.third)\nadd \(Self.second)\nplay\nwait 2s\nnext\nwait end\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        func run(_ settings: String) throws -> [Int16] {
            let config = folder.appendingPathComponent("settings.conf")
            try settings.write(to: config, atomically: true, encoding: .utf8)
            return try Self.write(["--config", config.path, "--script", script.path], in: folder)
        }
        let left = try Self.write([Self.third], in: folder), skippedTo = try Self.write([Self.second], in: folder)
        let faded = try run("crossfade = 4\ncrossfade-skip = 0.5\n")
        // Nothing of the song skipped to is left out; 2 s of the one left are heard.
        var expected = Array(left[..<(2 * 88200)])
        expected += Self.mix(fadingOut: Array(left[(2 * 88200)...]), fadingIn: skippedTo, at: 0, frames: 22050, skip: true)
        #expect(Self.same(faded, expected))
        let cut = try run("crossfade = 4\ncrossfade-skip = 0\n")
        #expect(Self.same(cut, Array(left[..<(2 * 88200)]) + skippedTo))
        #expect(Self.same(try run("crossfade = 0\ncrossfade-skip = 0.5\n"), cut), "no skip fade while crossfade is off")
    }

    /// A file keeps its first song's format: a song of another rate is converted to it as it
    /// would be without a crossfade, and faded so (its samples are never written as they are).
    @Test func aSongOfAnotherRateIsConvertedForTheFileAndFaded() throws {
        let folder = try Harness.temporaryFolder()
        let tone = folder.appendingPathComponent("tone48.flac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-b", "16", "-c", "2", tone, "synth", "4", "sine", "660", "gain", "-6"])
        let ending = try Self.write([Self.third], in: folder)
        let converted = Array(try Self.write([Self.third, tone], in: folder)[ending.count...])
        #expect(converted.count == 4 * 44100 * 2, "converted to the file's 44.1 kHz")
        let faded = try Self.write(["--crossfade", "1", Self.third, tone], in: folder)
        #expect(Self.same(faded, Self.mix(fadingOut: ending, fadingIn: converted, at: ending.count / 2 - 44100, frames: 44100)))
    }

    @Test func aCrossfadeThatCannotBeReadIsRefusedInOneLine() throws {
        let result = try Harness.tplayer("--crossfade", "soon", Self.first)
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("--crossfade soon"), "\(result.stderr)")
    }

    // MARK: Helpers

    /// What `tplayer -w` writes for `arguments` (16-bit stereo samples, interleaved).
    static func write(_ arguments: [String], in folder: URL) throws -> [Int16] {
        let out = folder.appendingPathComponent("\(UUID().uuidString).raw").path
        let result = try Harness.tplayer(["-q", "--no-mpris", "-w", out] + arguments, environment: Harness.isolated(folder))
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// `ending` up to its frame `start`, then its next `frames` frames faded out with equal power
    /// (cos) as `starting`'s first faded in (sin), summed and rounded, then the rest of `starting`.
    /// Summed as the player sums them: the song playing's first (the one ending, at a song's end;
    /// the one skipped to, after a skip: `skip`).
    static func mix(fadingOut ending: [Int16], fadingIn starting: [Int16], at start: Int, frames: Int, skip: Bool = false) -> [Int16] {
        var mixed = Array(ending[..<(start * 2)])
        for index in 0..<frames {
            let angle = (Double(index) + 0.5) / Double(frames) * (Double.pi / 2)
            for channel in 0..<2 {
                let sample = index * 2 + channel
                let incoming = Double(starting[sample]) * sin(angle)
                let outgoing = (start + index) * 2 + channel < ending.count ? Double(ending[(start + index) * 2 + channel]) : 0
                let value = skip ? incoming + outgoing * cos(angle) : outgoing * cos(angle) + incoming
                mixed.append(Int16(max(-32768, min(32767, value.rounded()))))
            }
        }
        return mixed + starting[(frames * 2)...]
    }

    /// Whether two sample arrays are the same, saying where they part when not.
    static func same(_ ours: [Int16], _ expected: [Int16], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard ours != expected else { return true }
        let first = zip(ours, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        Issue.record("\(ours.count / 2) frames against \(expected.count / 2) expected; the first difference at frame \(first.map { "\($0 / 2)" } ?? "none (one is the other's start)")",
                     sourceLocation: sourceLocation)
        return false
    }
}
