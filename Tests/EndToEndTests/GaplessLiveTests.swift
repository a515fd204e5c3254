import Foundation
import Glibc
import Testing

/// Gapless on a live device, proven on the samples that reach a real sound server: the null
/// sink runs at the songs' format (44.1 kHz, 16-bit stereo) at 100 % volume, so nothing is
/// resampled or scaled, and its monitor, recorded while tplayer plays three songs back to back,
/// holds exactly the samples `tplayer -w` writes for them: not one missing, doubled or zeroed
/// at the song boundaries.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct GaplessLiveTests {
    /// (Not under a sanitizer: a player slowed ten times cannot keep a real-time device fed.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func whatReachesTheServerIsExactlyWhatAFileGets() throws {
        try Self.proveGapless()
    }

    /// The same on a busy machine: twice as many processes spinning as there are cores, at
    /// tplayer's own priority, for the whole run (the server holds a second of audio for it).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func whatReachesTheServerIsExactlyWhatAFileGetsOnABusyMachine() throws {
        let spinners = try Spinners()
        defer { spinners.stop() }
        try Self.proveGapless()
    }

    /// A crossfade heard on the server: the demo album's third track fades into its first over
    /// 2 s (not the album's order), the first joins the second gaplessly (the album's order):
    /// the recording is `-w`'s file, frame for frame, the overlap decoded ahead as the next song
    /// is (quiet, and on a machine with 16 processes spinning).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aCrossfadeHeardIsTheFile() throws {
        try Self.proveGapless([Harness.songs[2], Harness.songs[0], Harness.songs[1]], options: ["--crossfade", "2"])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aCrossfadeHeardIsTheFileOnABusyMachine() throws {
        let spinners = try Spinners(count: 16)
        defer { spinners.stop() }
        try Self.proveGapless([Harness.songs[2], Harness.songs[0], Harness.songs[1]], options: ["--crossfade", "2"])
    }

    /// `songs` (44.1 kHz stereo unless `rate` says otherwise) played on the server are what
    /// `-w` writes of them (with `options` both).
    static func proveGapless(_ songs: [String] = Harness.songs, rate: Int = 44100, options: [String] = []) throws {
        let folder = try Harness.temporaryFolder()
        let reference = folder.appendingPathComponent("reference.raw")
        try Harness.tplayer(["-q", "-w", reference.path] + options + songs)
        let expected = try Data(contentsOf: reference)

        let recording = try MonitorRecording(rate: rate)
        let played = try Harness.tplayer(["-q", "-o", "pulse"] + options + songs, environment: recording.server.environment)
        #expect(played.status == 0, "\(played.stderr)")
        let ours = Heard.frames(expected)
        let heard = try Heard.compare(recording.stop(), with: ours)
        // The monitor starts recording once the sink wakes, a little into the first song (mpg123
        // loses 50 ms there too).
        #expect(heard.start <= 4410, "at most 100 ms missing at the start (\(heard.start) frames)")
        #expect(heard.gaps.isEmpty, "no silence anywhere: \(heard.gaps) (songs end at \(Self.boundaries(songs)))")
        let difference = heard.difference.map { "the first difference is at frame \($0) of \(ours.count) (songs end at \(Self.boundaries(songs)))" }
        #expect(heard.difference == nil, "the recording is the file, frame for frame: \(difference ?? "")")
    }

    /// Paused on the server (`--no-fade`: the queue ends where the sink has got to) and resumed:
    /// the recording with the pause's silence cut out is the file, not a frame lost or repeated.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TPLAYER_SANITIZED"] == nil))
    func aPauseAndResumeLosesAndRepeatsNothing() throws {
        try LiveProofs.pauseLosesNothing { try MonitorRecording() }
    }

    /// Where the songs end, in frames, for the message when something differs.
    static func boundaries(_ songs: [String] = Harness.songs) -> [Int] {
        var total = 0
        return songs.compactMap { song in
            let folder = try? Harness.temporaryFolder()
            guard let out = folder?.appendingPathComponent("one.raw").path,
                  (try? Harness.tplayer("-q", "-w", out, song)) != nil,
                  let size = try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int else { return nil }
            total += size / 4
            return total
        }
    }
}
