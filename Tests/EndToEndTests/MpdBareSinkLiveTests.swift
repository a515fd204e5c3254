import Foundation
import Glibc
import Testing

/// MPD's clients never take a sample from the sound: a gapless album played in a terminal on
/// the bare null sink users have, recorded from its monitor, while `--mpd` serves 100 clients
/// waiting in `idle` (each woken at every song and waiting again) and 10 that ask for the
/// status, the queue and the rest as fast as they can: the recording must be what `-w` writes,
/// from the first frame to the last, with no silence inside.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdBareSinkLiveTests {
    @Test(.enabled(if: BareSinkLiveTests.unsanitized))
    func anAlbumIsHeardWholeWhileAHundredAndTenClientsAreServed() throws {
        let port = try MpdWire.freePort()
        let config = try Harness.temporaryFolder().appendingPathComponent("config")
        try "mpd-max-connections = 120\n".write(to: config, atomically: true, encoding: .utf8)
        let crowd = MpdCrowd(port: port, idle: 100, busy: 10)
        try LiveProofs.whole(Harness.songs, playing: ["--config", config.path, "--mpd=127.0.0.1:\(port)"],
                                 inTerminal: true) {
            try MonitorRecording(bare: true)
        }
        let served = crowd.stop()
        #expect(served.connected == 110, "every client was served: \(served)")
        #expect(served.wakes >= 100, "the idle clients were woken as the songs changed: \(served)")
        #expect(served.replies > 1000, "the busy clients were answered all along: \(served)")
    }
}

/// Clients of an MPD server, each on a thread of its own, connecting as soon as it listens:
/// `idle` ones that wait for changes and wait again when woken, and busy ones that send a
/// command list of the usual polls, read its reply, and send it again.
final class MpdCrowd: @unchecked Sendable {
    struct Served: CustomStringConvertible {
        var connected = 0, wakes = 0, replies = 0, refused = 0
        var description: String { "\(connected) connected (\(refused) refused), \(wakes) idle wakes, \(replies) busy replies" }
    }

    private let lock = NSLock()
    private var served = Served()
    private var stopping = false
    private var sockets: [Int32] = []
    private let done = DispatchGroup()

    init(port: UInt16, idle: Int, busy: Int) {
        for index in 0..<(idle + busy) {
            let isBusy = index >= idle
            done.enter()
            Thread.detachNewThread { [self] in
                defer { done.leave() }
                serve(port: port, busy: isBusy)
            }
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func count(_ change: (inout Served) -> Void) { lock.withLock { change(&served) } }

    private func serve(port: UInt16, busy: Bool) {
        var client: MpdWire.Client?
        let deadline = Date().addingTimeInterval(60)
        while client == nil, !isStopping, Date() < deadline {
            client = try? MpdWire.Client(port: port, timeout: 1)
            if client == nil { usleep(50_000) }
        }
        guard let client else { return }
        guard client.greeting.hasPrefix("OK MPD ") else { return count { $0.refused += 1 } }
        lock.withLock { sockets.append(client.socket) }
        count { $0.connected += 1 }
        let polls = ["command_list_ok_begin", "status", "currentsong", "playlistinfo", "plchanges 0", "stats", "outputs",
                     "command_list_end"].joined(separator: "\n")
        while !isStopping {
            if busy {
                guard let reply = try? client.send(polls) else { continue }
                if reply.last == "<closed>" { return }  // the player has quit
                if reply.last == "OK" { count { $0.replies += 1 } }
            } else {
                client.write("idle")
                // Woken by a change, or by the 1 s receive limit (then `noidle`, and wait again).
                var reply = try? client.reply()
                if reply == nil {
                    client.write("noidle")
                    reply = try? client.reply()
                }
                if reply?.last == "<closed>" { return }
                if reply?.contains(where: { $0.hasPrefix("changed: ") }) == true { count { $0.wakes += 1 } }
            }
        }
    }

    /// Stops every client (their sockets shut down) and says what they were served.
    func stop() -> Served {
        lock.withLock {
            stopping = true
            sockets.forEach { shutdown($0, Int32(SHUT_RDWR)) }
        }
        done.wait()
        return lock.withLock { served }
    }
}
