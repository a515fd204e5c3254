import Foundation
import Testing

/// What a server sends besides a plain stream: playlists of streams (by type, content or name),
/// HLS, a web page, noise, audio its first bytes do not name (AAC joined mid-frame), a format
/// that changes partway. Each plays as its file would, or is one line naming the URL and why.
@Suite(.serialized)
struct ServedListTests {
    private func mp3(_ path: String, seconds: Int, rate: Int = 44100, channels: Int = 2, hertz: Int = 440) throws {
        try Harness.run("/bin/sh", ["-c", "sox -q -n -r \(rate) -c \(channels) -b 16 -t wav - synth \(seconds) sine \(hertz) gain -6 "
                                        + "| lame --silent -b 128 - \"$0\"", path])
    }

    private func server(_ folder: URL) throws -> (RadioServer, song: String) {
        let song = folder.appendingPathComponent("song.mp3").path
        try mp3(song, seconds: 3)
        return (try RadioServer(song: song, titles: ["Artist - Title"]), song)
    }

    /// A radio's `.pls` plays its streams in its place: a relative entry resolved against the
    /// playlist's URL, an absolute one as it is, and `file:///etc/passwd` never opened, said at its line.
    @Test func aPlaylistServedOverHttpPlaysItsStreams() throws {
        let folder = try Harness.temporaryFolder()
        let (server, song) = try server(folder)
        let local = folder.appendingPathComponent("local.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("radio.pls")])
        #expect(run.stderr.contains("\(server.url("radio.pls")):5: a playlist from the network names streams, not files on this machine: "
                                    + "file:///etc/passwd; not played"), "\(run.stderr)")
        #expect(!run.stderr.contains("root:"), "the file is never read")
        let file = try Harness.pcm(ofWAV: local)
        #expect(try Harness.pcm(ofWAV: out) == file + file, "song.mp3 (relative), then icy.mp3 (absolute): the file's samples, twice")
        #expect(try server.connections().contains("'/song.mp3': 1"))
    }

    /// Told by its type with no `#EXTM3U` (an entry that is a path on the same server), and by its
    /// name when the server calls it text.
    @Test(arguments: ["listen", "text.m3u"])
    func aPlaylistIsToldByItsTypeOrItsName(path: String) throws {
        let folder = try Harness.temporaryFolder()
        let (server, song) = try server(folder)
        let local = folder.appendingPathComponent("local.wav").path, out = folder.appendingPathComponent("out.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let run = try Harness.run(Harness.binary, ["-w", out, server.url(path)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Harness.pcm(ofWAV: out) == Harness.pcm(ofWAV: local))
    }

    /// What cannot be played is one line naming the URL and why, and the list goes on.
    @Test func whatAServerSendsThatIsNoStreamIsOneLineEach() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let cases = [
            ("self.m3u", "\(server.url("self.m3u")):2: playlist cycle: \(server.url("self.m3u")) -> \(server.url("self.m3u")); not followed"),
            ("one.m3u", "playlist cycle: \(server.url("one.m3u")) -> \(server.url("two.m3u")) -> \(server.url("one.m3u")); not followed"),
            ("hls.m3u8", "\(server.url("hls.m3u8")): an HLS stream (a list of segments, #EXT-X- tags); tplayer does not play HLS"),
            ("huge.pls", "\(server.url("huge.pls")): a playlist (by its type, audio/x-scpls) longer than 1 MiB; is it really one?"),
            ("page", "\(server.url("page")): the server sent text/html, not audio: is it a web page rather than the stream's own URL?"),
            ("garbage", "\(server.url("garbage")): not an audio format tplayer plays"),
        ]
        for (path, line) in cases {
            let started = Date()
            let run = try Harness.run(Harness.binary, ["-o", "null", server.url(path), server.url("song.mp3")])
            #expect(run.status == 1, "\(path): \(run.stderr)")
            #expect(run.stderr.contains(line), "\(path): \(run.stderr)")
            #expect(run.stderrLines.filter { $0.hasPrefix("tplayer:") }.count == 1, "\(path): one line: \(run.stderr)")
            #expect(run.stderr.contains("Playing 2/2") || run.stderr.contains("song.mp3"), "\(path): the list goes on: \(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 30, "\(path): no wait")
        }
    }

    /// AAC joined mid-frame has no first bytes to know it by: the server's `audio/aac` says what
    /// it is (libmpg123 once took it for MPEG frames and played half a second of noise).
    @Test(arguments: [1, 100, 1500])
    func aacJoinedMidFrameIsToldByItsType(from: Int) throws {
        let folder = try Harness.temporaryFolder()
        let wav = folder.appendingPathComponent("tone.wav").path, song = folder.appendingPathComponent("song.aac").path
        try Harness.run("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "4", "sine", "330", "gain", "-6"])
        try Harness.run("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-i", wav, "-c:a", "aac", "-f", "adts", song])
        let server = try RadioServer(song: song, titles: ["A - B"])
        let out = folder.appendingPathComponent("out.wav").path
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("typed?type=audio/aac&from=\(from)")])
        #expect(run.status == 0 && !run.stderr.contains("damaged"), "\(run.stderr)")
        let format = try StreamTests.format(ofWAV: out)
        #expect(format.rate == 44100 && format.channels == 2)
        #expect(try Harness.pcm(ofWAV: out).count > 4 * 44100 * 37 / 10, "nearly all of its 4 s")
    }

    /// A stream whose format changes partway (44.1 kHz stereo, then 22.05 kHz mono) plays on
    /// as its file does.
    @Test func aStreamThatChangesFormatPlaysAsItsFileDoes() throws {
        let folder = try Harness.temporaryFolder()
        let first = folder.appendingPathComponent("a.mp3").path, second = folder.appendingPathComponent("b.mp3").path
        try mp3(first, seconds: 3)
        try mp3(second, seconds: 2, rate: 22050, channels: 1, hertz: 660)
        let song = folder.appendingPathComponent("both.mp3").path
        try (Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second))).write(to: URL(fileURLWithPath: song))
        let server = try RadioServer(song: song, titles: ["A - B"])
        let local = folder.appendingPathComponent("local.wav").path, out = folder.appendingPathComponent("out.wav").path
        try Harness.run(Harness.binary, ["-w", local, song])
        let run = try Harness.run(Harness.binary, ["-w", out, server.url("song.mp3")])
        #expect(run.status == 0, "\(run.stderr)")
        let samples = try Harness.pcm(ofWAV: out), file = try Harness.pcm(ofWAV: local)
        #expect(samples.count > 4 * 44100 * 49 / 10 && samples == file, "both parts, as the file plays them")
    }

    /// `--check` of a served playlist lists its streams and listens to each.
    @Test func checkOfAServedPlaylistListensToEachStream() throws {
        let folder = try Harness.temporaryFolder()
        let (server, _) = try server(folder)
        let run = try Harness.run(Harness.binary, ["--check", server.url("radio.pls")])
        #expect(run.stdout.contains("\(server.url("radio.pls")): ok, a playlist of 2 streams"), "\(run.stdout)")
        #expect(run.stdout.contains("\(server.url("song.mp3")): ok, MP3 at 128 kbit/s, 44100 Hz stereo"), "\(run.stdout)")
        #expect(run.stdout.contains("\(server.url("icy.mp3")): ok, MP3") && run.stdout.contains("station Test Radio"), "\(run.stdout)")
        #expect(run.stderr.contains("radio.pls:5:7: a playlist from the network names streams"), "\(run.stderr)")
        #expect(run.status != 0, "a problem was found")
    }
}
