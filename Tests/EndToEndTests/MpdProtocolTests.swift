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
        // Those MPD answers without listing them (it lists only what it can carry out) aside.
        let ours = Set(MpdCommand.all.map(\.name)).subtracting(MpdCommand.unlisted)
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
