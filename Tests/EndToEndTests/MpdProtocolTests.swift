import Foundation
import Glibc
import PlayerCore
import Testing

/// MPD's protocol as tplayer reads it, held to MPD 0.23 itself: the same lines sent to a real
/// `mpd` on 127.0.0.1 and read by tplayer's reader (`MpdConnection`, `MpdRequest`,
/// `MpdCommand`), replies compared byte for byte: every command with a wrong number of
/// arguments, unknown commands, lines MPD's tokenizer refuses, lines it closes the connection
/// on, and command lists with their `list_OK`s and the index of the command that failed.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MpdProtocolTests {
    /// A private `mpd` on a free port of 127.0.0.1, over an empty music folder, playing to no
    /// device; stopped when the test ends.
    final class ReferenceServer {
        let process = Process()
        let port: UInt16

        init() throws {
            let folder = try Harness.temporaryFolder()
            for name in ["music", "playlists"] {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            port = try Self.freePort()
            let config = folder.appendingPathComponent("mpd.conf")
            try """
                music_directory "\(folder.path)/music"
                playlist_directory "\(folder.path)/playlists"
                db_file "\(folder.path)/database"
                log_file "\(folder.path)/log"
                sticker_file "\(folder.path)/sticker.sql"
                bind_to_address "127.0.0.1"
                port "\(port)"
                audio_output {
                    type "null"
                    name "null"
                }
                """.write(to: config, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mpd")
            process.arguments = ["--no-daemon", "--stderr", config.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<200 {
                if let greeting = try? exchange([]), greeting.hasPrefix("OK MPD 0.23") { return }
                usleep(50_000)
            }
            throw Failure("mpd did not answer on 127.0.0.1:\(port)")
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }

        static func freePort() throws -> UInt16 {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
            }
            guard bound else { throw Failure("no free port") }
            return UInt16(bigEndian: address.sin_port)
        }

        /// Connects, sends `lines` (each with a newline) and reads until MPD answers the last of
        /// them (`OK` or `ACK` at a line's start) or closes; returns what it said after its
        /// greeting (or the greeting, for no lines).
        func exchange(_ lines: [[UInt8]]) throws -> String {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { throw Failure("cannot connect") }
            var received: [UInt8] = []
            func readMore() -> Bool {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return false }
                received += buffer[..<count]
                return true
            }
            while !received.contains(0x0A) { if !readMore() { throw Failure("no greeting") } }
            let greeting = String(decoding: received, as: UTF8.self)
            guard !lines.isEmpty else { return greeting }
            received.removeFirst(received.firstIndex(of: 0x0A)! + 1)
            var request: [UInt8] = []
            for line in lines { request += line + [0x0A] }
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            while true {
                let text = String(decoding: received, as: UTF8.self)
                let answered = text.hasSuffix("\n") && (text.hasPrefix("OK\n") || text.contains("\nOK\n") || text.hasPrefix("ACK ")
                                                         || text.contains("\nACK "))
                if answered { return text }
                if !readMore() { return text }  // closed (or silent for 5 s)
            }
        }
    }

    /// What tplayer's reader says to `lines`: `ping` answered as MPD answers it; nothing else in
    /// these lines is run. A connection closed ends what is said.
    static func ours(_ lines: [[UInt8]]) -> String {
        var connection = MpdConnection()
        var said = ""
        for step in connection.receive(lines.flatMap { $0 + [0x0A] }) {
            switch step {
            case .nothing: break
            case .reply(let text): said += text
            case .close: return said
            case .run(let batch):
                let (text, closes) = MpdConnection.answer(batch) { command, _ in
                    command.name == "ping" ? .success("") : .failure(MpdAck(.system, "not run in this test"))
                }
                said += text
                if closes { return said }
            }
        }
        return said
    }

    static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func everyCommandWithTheWrongNumberOfArgumentsIsRefusedAsMPDRefusesIt() throws {
        let mpd = try ReferenceServer()
        let listed = try mpd.exchange([Self.line("commands")])
        let theirs = Set(listed.split(separator: "\n").compactMap {
            $0.hasPrefix("command: ") ? String($0.dropFirst(9)) : nil
        })
        let ours = Set(MpdCommand.all.map(\.name))
        #expect(ours.subtracting(theirs).isEmpty, "commands MPD 0.23 does not have: \(ours.subtracting(theirs).sorted()); it said \(listed.prefix(300))")
        var compared = 0
        for command in MpdCommand.all {
            guard let minimum = command.minimum else { continue }
            var counts: [Int] = []
            if minimum > 0 { counts.append(minimum - 1) }
            if let maximum = command.maximum { counts.append(maximum + 1) }
            for count in counts {
                let line = Self.line(([command.name] + Array(repeating: "1", count: count)).joined(separator: " "))
                let (theirs, ours) = (try mpd.exchange([line]), Self.ours([line]))
                #expect(theirs == ours, "\(command.name) with \(count) arguments")
                compared += 1
            }
        }
        #expect(compared > 150, "\(compared)")
    }

    @Test func whatTheTokenizerRefusesIsSaidInMPDsWords() throws {
        let mpd = try ReferenceServer()
        let lines = [
            "foo", "nosuchcommand a b", "ping\"", "pi-ng", "p1ng", "status \"abc", "status \"ab\"c", "status a'b", "status a\"b",
            "find \"x\\\"", "ping \"a\\\\\" \"b\"", "ping \"a\\\"b\"", "find " + Array(repeating: "a", count: 70).joined(separator: " "),
            "ping ", "ping \r", "ping\t", "PING", " ping", "", "1ping", "_ping", "command_list_end",
            "ping \"\"", "ping ''", "ping \"a b\" c",
        ]
        for text in lines {
            let line = Self.line(text)
            let (theirs, ours) = (try mpd.exchange([line]), Self.ours([line]))
            #expect(theirs == ours, "\(text.debugDescription)")
        }
        let nul: [UInt8] = Array("ping".utf8) + [0] + Array(" x".utf8)
        let (theirs, ours) = (try mpd.exchange([nul]), Self.ours([nul]))
        #expect(theirs == ours, "a NUL ends the line")
    }

    @Test func commandListsAnswerAsMPDAnswersThem() throws {
        let mpd = try ReferenceServer()
        let lists: [[String]] = [
            ["command_list_begin", "ping", "ping", "command_list_end"],
            ["command_list_ok_begin", "ping", "ping", "command_list_end"],
            ["command_list_ok_begin", "ping", "nosuch", "ping", "command_list_end"],
            ["command_list_begin", "ping", "ping 1", "command_list_end"],
            ["command_list_ok_begin", "ping", "status \"x", "command_list_end"],
            ["command_list_ok_begin", "ping", "a-b", "ping", "command_list_end"],
            ["command_list_begin", "command_list_end"],
            ["command_list_ok_begin", "command_list_begin", "command_list_end"],
            ["noidle", "ping"],
            ["command_list_begin", "PING", "command_list_end"],
        ]
        for list in lists {
            let lines = list.map(Self.line)
            let (theirs, ours) = (try mpd.exchange(lines), Self.ours(lines))
            #expect(theirs == ours, "\(list)")
        }
    }
}
