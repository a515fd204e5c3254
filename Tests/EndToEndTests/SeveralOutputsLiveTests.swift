import Foundation
import Glibc
import Testing

/// Several outputs at once (`-o pulse,snapcast`): a PulseAudio null sink's monitor and a
/// snapclient's room recorded together, each hearing the list as it would alone: the monitor
/// is `-w`'s file frame for frame, the room the whole list in tune, converted to its 48 kHz.
/// In real time, so it runs alone, with the other live suites (the `snapcast-live` pass).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SeveralOutputsLiveTests {
    /// On a quiet machine, and on a busy one (twice as many processes spinning as cores).
    @Test(.enabled(if: BareSinkLiveTests.unsanitized), arguments: [false, true])
    func aSoundServerAndARoomHearTheListTogether(busy: Bool) throws {
        let folder = try Harness.temporaryFolder()
        let songs = [folder.appendingPathComponent("a.flac").path, folder.appendingPathComponent("e.flac").path]
        try SnapcastLiveTests.Setup.tone(songs[0], rate: 44100, seconds: 4, frequency: 440, title: "Tone in A")
        try SnapcastLiveTests.Setup.tone(songs[1], rate: 44100, seconds: 3, frequency: 660, title: "Tone in E")
        let reference = folder.appendingPathComponent("reference.raw")
        let written = try Harness.tplayer(["--no-config", "-q", "-w", reference.path] + songs)
        try #require(written.status == 0, "\(written.stderr)")

        // The sound server runs first, as a desktop's does; then snapserver and its room.
        let recording = try MonitorRecording(bare: true)
        let server = try SnapServer()
        let room = try SnapServer.Room(server, name: "kitchen")
        let config = try Harness.settingsFile(folder, "snapcast-control = \(server.control)\nsnapcast-pipe = \(server.pipe)\n")
        usleep(1_000_000)  // the room connects
        let spinners = busy ? try Spinners() : nil
        defer { spinners?.stop() }
        let played = try Harness.tplayer(["--config", config, "--no-mpris", "-q", "-o", "pulse,snapcast"] + songs,
                                         environment: recording.server.environment.merging(Harness.isolated(folder)) { $1 })
        #expect(played.status == 0 && played.stderr.isEmpty, "\(played.status): \(played.stderr)")
        spinners?.stop()
        usleep(2_000_000)  // the room plays what snapserver holds
        room.stop()

        let heard = try Heard.compare(Heard.frames(recording.stopRaw()), with: Heard.frames(try Data(contentsOf: reference)))
        #expect(heard.start == 0 && heard.gaps.isEmpty && heard.difference == nil,
                "the sink heard -w's file: starts \(heard.start) frames in, gaps \(heard.gaps), first difference \(heard.difference ?? -1)")
        let sound = try RoomSound(path: room.recording)
        let span = try #require(sound.span, "\(room.recording): silent")
        let second = Int(RoomSound.rate)
        let first = span.lowerBound...(span.lowerBound + 39 * second / 10)
        let last = (span.upperBound - 29 * second / 10)...span.upperBound
        #expect(abs(sound.seconds - 7) <= 0.02, "the room heard \(sound.seconds) s")
        #expect(sound.gaps().isEmpty, "\(sound.gaps())")
        #expect(abs(sound.pitch(in: first) - 440) < 2 && abs(sound.pitch(in: last) - 660) < 2,
                "\(sound.pitch(in: first)) Hz, \(sound.pitch(in: last)) Hz")
    }

    /// The room turned off over MPD's protocol 2 s into the list: the sink hears the list
    /// untouched (`-w`'s file, frame for frame), the room no more of it.
    @Test(.enabled(if: BareSinkLiveTests.unsanitized))
    func aRoomTurnedOffLeavesTheSinkUntouched() throws {
        let folder = try Harness.temporaryFolder()
        let songs = [folder.appendingPathComponent("a.flac").path, folder.appendingPathComponent("e.flac").path]
        try SnapcastLiveTests.Setup.tone(songs[0], rate: 44100, seconds: 4, frequency: 440, title: "Tone in A")
        try SnapcastLiveTests.Setup.tone(songs[1], rate: 44100, seconds: 3, frequency: 660, title: "Tone in E")
        let reference = folder.appendingPathComponent("reference.raw")
        try #require(try Harness.tplayer(["--no-config", "-q", "-w", reference.path] + songs).status == 0)

        let recording = try MonitorRecording(bare: true)
        let server = try SnapServer()
        let room = try SnapServer.Room(server, name: "attic")
        let config = try Harness.settingsFile(folder, "snapcast-control = \(server.control)\nsnapcast-pipe = \(server.pipe)\n")
        usleep(1_000_000)
        let player = try ServedPlayer(environment: recording.server.environment.merging(Harness.isolated(folder)) { $1 },
                                      arguments: ["--config", config, "-q"] + songs, output: ["-o", "pulse,snapcast"])
        let client = try MpdWire.Client(port: player.port)
        if !(try client.send("status")).contains("state: play") { _ = try client.send("play") }
        #expect(server.await(state: "playing", within: 10) != nil, "snapserver's stream never played")
        usleep(2_000_000)
        #expect(try client.send("disableoutput 1") == ["OK"])
        #expect(server.await(state: "idle", within: 5) != nil, "the room's stream stayed playing")
        var ended = false
        for _ in 0..<200 where !ended {
            usleep(50_000)
            ended = try client.send("status").contains("state: stop")
        }
        #expect(ended, "the list never ended")
        usleep(1_500_000)
        room.stop()
        let heard = try Heard.compare(Heard.frames(recording.stopRaw()), with: Heard.frames(try Data(contentsOf: reference)))
        #expect(heard.start == 0 && heard.gaps.isEmpty && heard.difference == nil,
                "the sink heard -w's file: starts \(heard.start) frames in, gaps \(heard.gaps), first difference \(heard.difference ?? -1)")
        let sound = try RoomSound(path: room.recording)
        #expect(sound.seconds > 1 && sound.seconds < 4, "the room heard \(sound.seconds) s of the 7")
        #expect(player.stderr.isEmpty, "\(player.stderr)")
    }
}
