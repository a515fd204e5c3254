import Testing
@testable import PlayerCore

/// MPD's protocol framing on its own (the replies themselves are held to a real MPD in
/// `MpdProtocolTests`): lines that come in pieces, MPD's limits on a line and a command list,
/// idle, and the command table.
struct MpdConnectionTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aLineInPiecesIsOneLineAndOnlyWholeLinesAreRead() {
        var connection = MpdConnection()
        #expect(connection.receive(bytes("pi")).isEmpty)
        #expect(connection.receive(bytes("ng\r\nsta")) == [.run(.init(lines: [bytes("ping")], isList: false, listOK: false))])
        #expect(connection.receive(bytes("tus\n")) == [.run(.init(lines: [bytes("status")], isList: false, listOK: false))])
    }

    @Test func aLineLongerThanMPDsBufferClosesTheConnection() {
        var connection = MpdConnection()
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: MpdConnection.maximumLine - 1)
        #expect(connection.receive(long).isEmpty, "one byte short of MPD's 8 KiB: still a line to come")
        #expect(connection.receive([0x61]) == [.close])
        var fresh = MpdConnection()
        #expect(fresh.receive(long.dropLast() + [0x0A]).count == 1, "a line that fits, newline and all, is read")
        var whole = MpdConnection()
        #expect(whole.receive(long + [0x61, 0x0A, 0x70]) == [.close], "a line too long that came whole, newline and all, in one read")
        var flood = MpdConnection()
        #expect(flood.receive([UInt8](repeating: 0x61, count: 1 << 20)) == [.close], "a megabyte with no newline: closed, not kept")
    }

    @Test func aCommandListPastTwoMebibytesClosesTheConnection() {
        var connection = MpdConnection()
        #expect(connection.receive(bytes("command_list_ok_begin\n")).isEmpty)
        let line = bytes("add " + String(repeating: "x", count: 1000) + "\n")
        var steps: [MpdConnection.Step] = []
        for _ in 0..<2100 where !steps.contains(.close) { steps += connection.receive(line) }
        #expect(steps == [.close], "MPD's 2 MiB: the 2,087th line of 1,005 bytes is past it")
        var small = MpdConnection()
        let listed = small.receive(bytes("command_list_ok_begin\nping\nstatus\ncommand_list_end\n"))
        #expect(listed == [.run(.init(lines: [bytes("ping"), bytes("status")], isList: true, listOK: true))])
    }

    @Test func whileIdleOnlyNoidleIsTaken() {
        var connection = MpdConnection()
        #expect(connection.receive(bytes("noidle\n")).isEmpty, "not idle: nothing to say")
        connection.isIdle = true
        #expect(connection.receive(bytes("noidle\n")) == [.reply("OK\n")] && !connection.isIdle)
        connection.isIdle = true
        #expect(connection.receive(bytes("status\nping\n")) == [.close], "a command while idle closes, and nothing after it is read")
    }

    @Test func answersFollowMPDsOrder() {
        let list = MpdConnection.Batch(lines: [bytes("ping"), bytes("setvol 50"), bytes("ping")], isList: true, listOK: true)
        let failing = MpdConnection.answer(list) { command, _ in
            command.name == "ping" ? .success("") : .failure(MpdAck(.argument, "Invalid volume value"))
        }
        #expect(failing.text == "list_OK\nACK [2@1] {setvol} Invalid volume value\n" && !failing.closes)
        let bad = MpdConnection.answer(.init(lines: [bytes("a-b")], isList: false, listOK: false)) { _, _ in .success("") }
        #expect(bad.text == "ACK [5@0] {} Invalid word character\n" && bad.closes, "a name MPD cannot read: said, then closed")
        let denied = MpdConnection.answer(.init(lines: [bytes("kill")], isList: false, listOK: false), permission: [.read]) { _, _ in
            .success("")
        }
        #expect(denied.text == "ACK [4@0] {kill} you don't have permission for \"kill\"\n")
    }

    @Test func theCommandTableIsMPDsInItsOrder() {
        let names = MpdCommand.all.map(\.name)
        #expect(names == names.sorted() && Set(names).count == names.count)
        #expect(names.count == 106, "MPD 0.23's 107 less getfingerprint")
        #expect(MpdCommand.named("status")?.permission == .read && MpdCommand.named("Status") == nil && MpdCommand.named("zzz") == nil)
        #expect(MpdCommand.named("add") == MpdCommand.all.first && MpdCommand.named("volume") == MpdCommand.all.last)
    }

    @Test func requestsAreReadAsMPDReadsThem() {
        #expect(MpdRequest.parse(bytes("find \"(artist == 'Björk')\" sort -Date")) == .success(MpdRequest("find", ["(artist == 'Björk')", "sort", "-Date"])))
        #expect(MpdRequest.parse(bytes("add \"a \\\"quoted\\\" \\\\ name\"")) == .success(MpdRequest("add", ["a \"quoted\" \\ name"])))
        #expect(MpdRequest.parse(bytes("ping \"\"")) == .success(MpdRequest("ping", [""])))
        let many = "find" + String(repeating: " a", count: MpdRequest.maximumArguments + 1)
        #expect(MpdRequest.parse(bytes(many)) == .failure(.init(ack: MpdAck(.argument, "Too many arguments"), closes: false)))
    }
}
