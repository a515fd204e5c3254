import Foundation
import Glibc
import Testing

/// Numbers a file, a saved session or a front-end claims, as an attack sent them: a rate of
/// 2 GHz, 64 channels at 40 MHz, a pitch of 1e308, an iTunSMPB length of 2^63, a span of 2^40 CD
/// frames, a position 50 years into a 5 s song. Each trapped (SIGILL, exit 132) or said
/// nonsense; each is now one line, or bounded, and the run goes on.
@Suite(.timeLimit(.minutes(10)))
struct UntrustedNumbersTests {
    /// A WAV whose header says `rate` Hz and `channels` channels, holding `frames` frames.
    static func wav(_ name: String, rate: UInt32, channels: UInt16, frames: Int, in folder: URL) throws -> String {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)] }
        let data = [UInt8](repeating: 0x10, count: frames * Int(channels) * 2)
        let blockAlign = channels &* 2
        let format = le16(1) + le16(channels) + le32(rate) + le32(rate &* UInt32(blockAlign)) + le16(blockAlign) + le16(16)
        let body = Array("WAVEfmt ".utf8) + le32(16) + format + Array("data".utf8) + le32(UInt32(data.count)) + data
        let path = folder.appendingPathComponent(name).path
        try Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A header's rate or channels past what anything plays: one line naming the file, and the
    /// songs around it play (`FileSink.header` trapped multiplying 2e9 Hz by the frame size, and
    /// left a 0-byte file; a live run trapped in the device's format).
    @Test(arguments: [(2_000_000_000, 2), (40_000_000, 64), (44100, 200), (0, 2)] as [(UInt32, UInt16)])
    func anImpossibleFormatIsOneLine(rate: UInt32, channels: UInt16) throws {
        let folder = try Harness.temporaryFolder()
        let bad = try Self.wav("bad.wav", rate: rate, channels: channels, frames: 100, in: folder)
        let song = try Harness.makeSong(seconds: 0.5, in: folder)
        let out = folder.appendingPathComponent("out.wav").path
        for arguments in [["-w", out], ["-o", "null"]] {
            try? FileManager.default.removeItem(atPath: out)
            let result = try Harness.tplayer(["-q"] + arguments + [song, bad, song])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            let said = "tplayer: \(bad): its header claims \(rate) Hz and \(channels) channels; tplayer plays 1 Hz to 768 kHz, 1 to 64 channels"
            if rate == 0 || channels > 64 {
                // What FFmpeg itself refuses to read, it says.
                #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("tplayer: \(bad): "), "\(result.stderr)")
            } else {
                #expect(result.stderrLines == [said])
            }
            if arguments[0] == "-w" {
                let written = try Data(contentsOf: URL(fileURLWithPath: out))
                #expect(Harness.littleEndian32(written, 40) == UInt32(written.count - 44), "a header that says what follows")
                #expect(try Harness.pcm(ofWAV: out).count == 2 * (try Harness.pcm(ofWAV: Self.decoded(song, in: folder)).count))
            }
        }
    }

    /// What tplayer writes of `song` alone.
    static func decoded(_ song: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("alone.wav").path
        try? FileManager.default.removeItem(atPath: path)
        let result = try Harness.tplayer("-q", "-w", path, song)
        #expect(result.status == 0)
        return path
    }

    /// An M4A whose iTunSMPB claims 2^63 - 1 samples, written after an MP3 at another rate: the
    /// length converted to the file's rate trapped, and the WAV's header said 0 bytes. The
    /// claim is past what the file holds: the container's length is the song's.
    @Test func anAbsurdITunesLengthIsNotTheSongs() throws {
        let folder = try Harness.temporaryFolder()
        let tone = folder.appendingPathComponent("tone48.wav").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", tone, "synth", "1", "sine", "440", "gain", "-6"])
        let m4a = folder.appendingPathComponent("smpb.m4a").path
        try Harness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", tone, "-c:a", "aac", "-movflags", "use_metadata_tags",
                                            "-metadata", "iTunSMPB= 00000000 00000840 000001CA 7FFFFFFFFFFFFFFF 00000000", m4a])
        let mp3 = try Harness.makeSong(seconds: 1, in: folder, name: "base.mp3")
        let out = folder.appendingPathComponent("o.wav").path
        let result = try Harness.tplayer("-q", "-w", out, mp3, m4a)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Harness.littleEndian32(written, 40) == UInt32(written.count - 44), "a header that says what follows")
        let frames = (written.count - 44) / 4
        // The MP3's second (and its encoder's delay and padding as mpg123 keeps them), and the
        // M4A's second resampled to 44.1 kHz.
        #expect(frames > 44_100 * 2 - 2_000 && frames < 44_100 * 2 + 4_000, "\(frames) frames")
        let check = try Harness.tplayer("--check", m4a)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// `-R`'s PITCH with numbers mpg123 takes (1e5, 1e308): on libao's null device it trapped
    /// making the device's Int32 rate, and converting an infinite rate; the pitch is kept
    /// within 101 times the song's speed, and the device's rate within what it plays.
    @Test func anAbsurdPitchIsBounded() throws {
        let commands = RemoteTests.send("SILENCE", "LOAD \(Harness.songs[1])") + ["sleep 0.3"]
            + RemoteTests.send("PITCH -1e308") + ["sleep 0.3"] + RemoteTests.send("PITCH 1e5") + ["sleep 0.2"]
            + RemoteTests.send("PITCH 1e308", "SAMPLE", "Q")
        let result = try RemoteTests.drive("timeout 30 \(Harness.binary) -R -o null", commands)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("@PITCH") } == ["@PITCH -0.990000", "@PITCH 100.000000", "@PITCH 100.000000"])
        #expect(lines.contains { $0.hasPrefix("@SAMPLE ") })
    }

    /// A saved session whose track starts 2^40 - 1 CD frames into a WAV at 8.4 MHz: the span in
    /// samples trapped on --resume. Such a file is refused in one line; at a rate tplayer plays,
    /// the track starts past the end of the file, and that is said.
    @Test(arguments: [8_400_000, 768_000] as [UInt32])
    func anAbsurdSavedSpanIsOneLine(rate: UInt32) throws {
        let folder = try Harness.temporaryFolder()
        let image = try Self.wav("image.wav", rate: rate, channels: 2, frames: 1000, in: folder)
        let state = folder.appendingPathComponent("state/tplayer")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let session = "tplayer saved session 1\nvolume 100\nmuted 0\nrepeat 0\nshuffle 0\ncurrent 0\nposition 0\n"
            + "entry \(image)\nspan 1099511627775 -\nend\n"
        try Data(session.utf8).write(to: state.appendingPathComponent("last-session"))
        let result = try Harness.tplayer(["--resume", "-o", "null"], environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(result.status == 1, "\(result.stderr)")
        let why = rate == 768_000 ? "cannot decode it: the track starts at 244335917:17:00, past the end of the file"
            : "its header claims 8400000 Hz and 2 channels; tplayer plays 1 Hz to 768 kHz, 1 to 64 channels"
        #expect(result.stderrLines.contains("tplayer: \(image): \(why)"), "\(result.stderr)")
    }

    /// A saved position 50 years into a 1 s song: it resumed "at 453877:30:48" and ended at
    /// once; it plays from the start, and says why.
    @Test func aSavedPositionPastTheEndResumesFromTheStart() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder)
        let state = folder.appendingPathComponent("state/tplayer")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let flicks = Int64(1_633_959_048) * 705_600_000  // 453877:30:48, just under the reader's bound
        let session = "tplayer saved session 1\nvolume 100\nmuted 0\nrepeat 0\nshuffle 0\ncurrent 0\nposition \(flicks)\nentry \(song)\nend\n"
        try Data(session.utf8).write(to: state.appendingPathComponent("last-session"))
        let result = try Harness.tplayer(["--resume", "-o", "null", "--trace"], environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("Resuming: 1/1 short.mp3 from the start: the saved place, 453877:30:48, is past its end (0:01) (tplayer --help for more)"),
                "\(result.stderr)")
        #expect(result.stderr.contains("engine: seeked to 0:00.00 (sample 0)"), "\(result.stderr)")
        #expect(result.stderr.contains("Play -> Prepare (ended)"), "played to its end")
    }
}

/// What a sound server cannot take: a song at 500 kHz (past PA_RATE_MAX) fails alone, in one
/// line, and the next plays (PulseOutput trapped working out its buffer); a pitch of 25,000
/// plays at the server's highest rate.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct UntrustedNumbersLiveTests {
    @Test func aRateTheServerCannotTakeFailsThatSongAlone() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let folder = try Harness.temporaryFolder()
        let fast = try UntrustedNumbersTests.wav("fast.wav", rate: 500_000, channels: 2, frames: 50_000, in: folder)
        let song = try Harness.makeSong(seconds: 0.5, in: folder)
        let result = try Harness.run("/usr/bin/timeout", ["30", Harness.binary, "-q", "-o", "pulse", fast, song], environment: server.environment)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderrLines == ["tplayer: \(fast): pulse: the PulseAudio server plays at most 384000 Hz and 32 channels, not 500000 Hz stereo"])
    }

    @Test func aPitchPastTheServersRatePlaysAtItsHighest() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let commands = RemoteTests.send("SILENCE", "LOAD \(Harness.songs[1])") + ["sleep 0.5"]
            + RemoteTests.send("PITCH 25000") + ["sleep 0.3", "pactl list sink-inputs | grep 'Sample Specification' >&2"]
            + RemoteTests.send("Q")
        let script = "(" + commands.joined(separator: "; ") + ") | timeout 30 \(Harness.binary) -R -o pulse"
        let result = try Harness.run("/bin/sh", ["-c", script], environment: server.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("@PITCH 100.000000"))
        #expect(result.stderr.contains("s16le 2ch 384000Hz"), "\(result.stderr)")
    }
}
