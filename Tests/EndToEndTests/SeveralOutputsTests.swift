import Foundation
import Glibc
import Testing

/// Several outputs (`-o null,snapcast`) over MPD's protocol: `outputs` lists each, and
/// `disableoutput`, `enableoutput` and `toggleoutput` turn each on and off by itself (an `idle
/// output` client told), where one output's "disable" is a mute; an output that cannot follow
/// is refused at the start in one line.
@Suite(.timeLimit(.minutes(5)))
struct SeveralOutputsTests {
    @Test func eachOutputIsListedAndTurnedOnAndOffByItself() throws {
        let folder = try Harness.temporaryFolder()
        let pipe = folder.appendingPathComponent("snapfifo").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let config = try Harness.settingsFile(folder, "snapcast-control = off\nsnapcast-pipe = \(pipe)\n")
        let song = try Harness.makeSong(seconds: 30, in: folder)
        let player = try ServedPlayer(environment: Harness.isolated(folder), arguments: ["--config", config, "-q", song],
                                      output: ["-o", "null,snapcast"])
        let client = try MpdWire.Client(port: player.port)
        let idle = try MpdWire.Client(port: player.port)
        let listed = try client.send("outputs")
        #expect(listed == ["outputid: 0", "outputname: null", "plugin: null", "outputenabled: 1",
                           "outputid: 1", "outputname: snapcast (\(pipe))", "plugin: snapcast", "outputenabled: 1", "OK"], "\(listed)")
        idle.write("idle output")
        #expect(try client.send("disableoutput 1") == ["OK"])
        #expect(try idle.reply() == ["changed: output", "OK"])
        #expect(try client.send("outputs").filter { $0.hasPrefix("outputenabled") } == ["outputenabled: 1", "outputenabled: 0"])
        #expect(try client.send("toggleoutput 1") == ["OK"])
        #expect(try client.send("disableoutput 0") == ["OK"])
        #expect(try client.send("outputs").filter { $0.hasPrefix("outputenabled") } == ["outputenabled: 0", "outputenabled: 1"])
        let status = try client.send("status")
        #expect(status.contains("volume: 100"), "the first output off is not a mute: \(status)")
        #expect(try client.send("enableoutput 2") == ["ACK [50@0] {enableoutput} No such audio output"])
        #expect(try client.send("toggleoutput x") == ["ACK [2@0] {toggleoutput} Integer expected: x"])
        #expect(player.stderr.isEmpty, "\(player.stderr)")
    }

    @Test func onlyBroadcastsAndRoomsFollowTheFirstOutput() throws {
        let folder = try Harness.temporaryFolder()
        let song = try Harness.makeSong(seconds: 1, in: folder)
        let run = try Harness.tplayer(["--no-config", "--no-mpris", "-o", "snapcast,pulse", song], environment: Harness.isolated(folder))
        #expect(run.status == 64 && run.stderrLines.count == 1 && run.stderr.contains("only snapcast and icecast can play beside"), "\(run.stderr)")
        let file = try Harness.tplayer(["--no-config", "--no-mpris", "-o", "wav,snapcast", "-w", folder.appendingPathComponent("x.wav").path, song],
                                       environment: Harness.isolated(folder))
        #expect(file.status == 64 && file.stderrLines.count == 1 && file.stderr.contains("-w writes a file alone"), "\(file.stderr)")
        let twice = try Harness.tplayer(["--no-config", "--no-mpris", "-o", "null,snapcast,snapcast", song], environment: Harness.isolated(folder))
        #expect(twice.status == 64 && twice.stderrLines.count == 1 && twice.stderr.contains("name each output once"), "\(twice.stderr)")
        let settings = try Harness.settingsFile(folder, "output = pulse, pulse\noutput = snapcast, ao\noutput = null, snapcast, icecast\n")
        let said = try Harness.tplayer(["--config", settings, "--no-mpris", "-o", "null", "-q", song], environment: Harness.isolated(folder))
        #expect(said.stderrLines.count == 2 && said.stderr.contains("each output once") && said.stderr.contains("ao cannot play beside snapcast"),
                "\(said.stderr)")
    }

    /// A broadcast beside the first output with no Icecast there: said once, and the song plays
    /// on the first output in its own time.
    @Test func aFollowerThatFailsIsSaidAndTheFirstPlaysOn() throws {
        let folder = try Harness.temporaryFolder()
        let (listener, port) = Harness.listening()
        close(listener)  // nothing listens there now
        let config = try Harness.settingsFile(folder, "icecast = http://source:\(IcecastServer.password)@127.0.0.1:\(port)/live.ogg\n")
        let song = try Harness.makeSong(seconds: 3, in: folder)
        let started = Date()
        let run = try Harness.tplayer(["--config", config, "--no-mpris", "-q", "-o", "null,icecast", song], environment: Harness.isolated(folder))
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 0 && took > 2.5 && took < 6, "\(run.status) in \(took) s: \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains("icecast http://source@127.0.0.1:\(port)/live.ogg: no server answers there"),
                "\(run.stderr)")
        #expect(!run.stderr.contains(IcecastServer.password))
    }
}
