import Foundation
import Glibc
import Testing

/// `-o snapcast` against what is not a snapserver, or one that misbehaves: a user's file named
/// by `-a` is refused and left as it was; a `tcp` source that accepts and never reads, a pipe
/// nobody reads and a control port that answers garbage are each said in one line, and the song
/// plays on to its end in its own time: nothing waits on them.
@Suite(.timeLimit(.minutes(5)))
struct SnapcastHostileTests {
    @Test func aUsersFileNamedByDashAIsRefusedAndLeftAsItWas() throws {
        let folder = try Harness.temporaryFolder()
        let file = folder.appendingPathComponent("notes.txt").path
        try "my notes\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Harness.tplayer(["--no-config", "--no-mpris", "-q", "-o", "snapcast", "-a", file, Harness.songs[2]],
                                      environment: Harness.isolated(folder))
        #expect(run.status == 64)
        #expect(run.stderrLines.count == 1 && run.stderr.contains(file) && run.stderr.contains("is not a named pipe"), "\(run.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my notes\n")
    }

    /// A song of 3 s played to something that takes nothing: the run ends in about 3 s, having
    /// said so once.
    private func playsOnInItsOwnTime(_ arguments: [String], folder: URL, said expected: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let song = try Harness.makeSong(seconds: 3, in: folder)
        let started = Date()
        let run = try Harness.tplayer(arguments + [song], environment: Harness.isolated(folder))
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(took > 2.5 && took < 6, "played in \(took) s", sourceLocation: sourceLocation)
        #expect(run.stderrLines.count == 1 && run.stderr.contains(expected), "\(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aTcpSourceThatAcceptsAndNeverReadsHoldsNothingUp() throws {
        let folder = try Harness.temporaryFolder()
        // A tiny receive buffer, so that the sender fills it within the song; accepted by the
        // kernel (the backlog), never read.
        let (listener, port) = Harness.listening(receiveBuffer: 4096)
        defer { close(listener) }
        let config = try Harness.settingsFile(folder, "snapcast-control = off\n")
        try playsOnInItsOwnTime(["--config", config, "--no-mpris", "-q", "-o", "snapcast", "-a", "tcp://127.0.0.1:\(port)"],
                                folder: folder, said: "snapserver stopped reading")
    }

    @Test func aPipeNobodyReadsHoldsNothingUp() throws {
        let folder = try Harness.temporaryFolder()
        let pipe = folder.appendingPathComponent("snapfifo").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // A reader that holds the pipe open and never reads, as a frozen snapserver does.
        let reader = open(pipe, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let config = try Harness.settingsFile(folder, "snapcast-control = off\n")
        try playsOnInItsOwnTime(["--config", config, "--no-mpris", "-q", "-o", "snapcast", "-a", pipe], folder: folder,
                                said: "snapserver stopped reading")
    }

    @Test func aControlPortThatAnswersGarbageIsSaidAndTheSettingsFormatWritten() throws {
        let folder = try Harness.temporaryFolder()
        let (listener, port) = Harness.listening()
        defer { close(listener) }
        let answering = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let garbage = Array("\u{1B}]2;owned\u{07}{\"result\": 12}\n".utf8)
            _ = garbage.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            usleep(2_000_000)
            close(client)
        }
        answering.start()
        let pipe = folder.appendingPathComponent("snapfifo").path
        let config = try Harness.settingsFile(folder, "snapcast-control = 127.0.0.1:\(port)\n")
        // Read as snapserver would, so that only the control port is said.
        let reader = Thread {
            let descriptor = open(pipe, O_RDONLY)
            guard descriptor >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(descriptor, &buffer, buffer.count) > 0 {}
            close(descriptor)
        }
        #expect(mkfifo(pipe, 0o600) == 0)
        reader.start()
        try playsOnInItsOwnTime(["--config", config, "--no-mpris", "-q", "-o", "snapcast", "-a", pipe], folder: folder,
                                said: "; writing snapcast-format 48000:16:2")
    }
}
