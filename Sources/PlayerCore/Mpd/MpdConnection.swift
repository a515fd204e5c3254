/// One client's connection as MPD's protocol frames it (`client/Read.cxx`, `Process.cxx`): bytes
/// in, lines out of them, and what each line asks of the server: a command to run, a command list
/// gathered to run whole, `noidle`, or closing. A value: the server holds one per client.
public struct MpdConnection: Sendable {
    /// MPD reads a client into 8 KiB: a line that does not fit, newline and all, closes it.
    public static let maximumLine = 8192
    /// The most a command list may hold, as MPD counts it (each line and one byte): 2 MiB.
    public static let maximumCommandList = 2048 * 1024

    /// What a line asks for.
    public enum Step: Equatable, Sendable {
        /// Nothing yet (a line added to a command list, `noidle` when not idle).
        case nothing
        /// Send this, and nothing else happens (`noidle` ends an idle: `OK`).
        case reply(String)
        /// Run these lines (one, or a command list's), and answer as `MpdConnection.answer` says.
        case run(Batch)
        /// Close the connection without a word (a line no MPD client sends, a list too big, a
        /// command while idle).
        case close
    }

    /// The lines to run: one command, or a command list (`listOK`: `list_OK` after each).
    public struct Batch: Equatable, Sendable {
        public var lines: [[UInt8]]
        public var isList: Bool
        public var listOK: Bool
    }

    private var pending: [UInt8] = []
    private var list: (ok: Bool, lines: [[UInt8]], size: Int)?
    /// Waiting in `idle`: only `noidle` may come (the server sets it when it runs `idle`).
    public var isIdle = false

    public init() {}

    /// Takes `bytes` as they came from the socket; returns what each whole line asks for, in
    /// order (after a `.close`, nothing more).
    public mutating func receive(_ bytes: some Collection<UInt8>) -> [Step] {
        pending.append(contentsOf: bytes)
        var steps: [Step] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            // A line that came whole in one read is held to the same 8 KiB as one that did not.
            guard newline - start < Self.maximumLine else {
                pending = []
                steps.append(.close)
                return steps
            }
            var end = newline
            while end > start, pending[end - 1] <= 0x20 { end -= 1 }  // spaces, tabs, CR and NULs at its end
            let step = line(Array(pending[start..<end]))
            start = newline + 1
            if step != .nothing { steps.append(step) }
            if step == .close {
                pending = []
                return steps
            }
        }
        pending.removeFirst(start)
        if pending.count >= Self.maximumLine {
            pending = []
            steps.append(.close)
        }
        return steps
    }

    private mutating func line(_ line: [UInt8]) -> Step {
        // Every command begins with a lower-case letter: anything else is no MPD client (an
        // HTTP request sent to the wrong port).
        guard let first = line.first, first >= 0x61, first <= 0x7A else { return .close }
        if line.elementsEqual("noidle".utf8) {
            guard isIdle else { return .nothing }
            isIdle = false
            return .reply("OK\n")
        }
        guard !isIdle else { return .close }
        if var gathering = list {
            if line.elementsEqual("command_list_end".utf8) {
                list = nil
                return .run(Batch(lines: gathering.lines, isList: true, listOK: gathering.ok))
            }
            gathering.size += line.count + 1
            guard gathering.size <= Self.maximumCommandList else {
                list = nil
                return .close
            }
            gathering.lines.append(line)
            list = gathering
            return .nothing
        }
        if line.elementsEqual("command_list_begin".utf8) || line.elementsEqual("command_list_ok_begin".utf8) {
            list = (line.count == "command_list_ok_begin".utf8.count, [], 0)
            return .nothing
        }
        return .run(Batch(lines: [line], isList: false, listOK: false))
    }

    /// The answer to `batch`: each line read and checked as MPD does, run by `execute` (which
    /// returns what the command says, or why it failed), in order until one fails. `list_OK`
    /// after each in a list that asks for it, `OK` when all succeeded, else the failure's `ACK`
    /// with its place in the list. `closes`: the connection is to be closed once it is sent (a
    /// line whose command name could not be read).
    public static func answer(_ batch: Batch, permission: MpdCommand.Permission = .all,
                              execute: (MpdCommand, MpdRequest) -> Result<String, MpdAck>) -> (text: String, closes: Bool) {
        let (bytes, closes) = answerBytes(batch, permission: permission) { command, request in execute(command, request).map { Array($0.utf8) } }
        return (String(decoding: bytes, as: UTF8.self), closes)
    }

    /// `answer`, for commands whose replies hold bytes that are no text (a picture's).
    public static func answerBytes(_ batch: Batch, permission: MpdCommand.Permission = .all,
                                   execute: (MpdCommand, MpdRequest) -> Result<[UInt8], MpdAck>) -> (bytes: [UInt8], closes: Bool) {
        var text: [UInt8] = []
        for (index, line) in batch.lines.enumerated() {
            var failure: MpdAck
            var closes = false
            switch MpdRequest.parse(line) {
            case .failure(let refusal):
                failure = refusal.ack
                closes = refusal.closes
            case .success(let request):
                switch MpdCommand.checked(request, permission: permission) {
                case .failure(let ack): failure = ack
                case .success(let command):
                    switch execute(command, request) {
                    case .success(let said):
                        text += said
                        if batch.listOK { text += Array("list_OK\n".utf8) }
                        continue
                    case .failure(let ack):
                        failure = ack
                        failure.command = command.name
                    }
                }
            }
            failure.index = batch.isList ? index : 0
            return (text + Array(failure.line.utf8), closes)
        }
        return (text + Array("OK\n".utf8), false)
    }
}
