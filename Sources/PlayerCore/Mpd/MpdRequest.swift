/// One command of MPD's protocol as a client sends it: a name, then arguments, each bare or in
/// double quotes, read as MPD 0.23 reads them (`util/Tokenizer.cxx`).
///
/// The name is a letter, then letters, digits and `_`. A bare argument is any bytes above space
/// but `"` and `'`; a quoted one is anything up to the closing `"`, a backslash taking the next
/// byte as it is, and a space (or the end) must follow it. Spaces and control characters
/// separate them. What MPD refuses, this refuses with MPD's words (`MpdAck`), and the name,
/// when it is the name that is wrong: then MPD closes the connection.
public struct MpdRequest: Equatable, Sendable {
    public var name: String
    public var arguments: [String]

    public init(_ name: String, _ arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The most arguments MPD reads (`COMMAND_ARGV_MAX`: two and a pair for each of its 31 tags).
    public static let maximumArguments = 2 + 31 * 2

    /// Why a line is not a request, as MPD says it; `closes` when MPD closes the connection
    /// after saying it (the name itself could not be read: no MPD client sent it).
    public struct Refusal: Error, Equatable, Sendable {
        public var ack: MpdAck
        public var closes: Bool
    }

    /// The request on `line` (its newline and trailing spaces already taken off, as MPD does).
    public static func parse(_ line: some Collection<UInt8>) -> Result<MpdRequest, Refusal> {
        var reader = Reader(Array(line.prefix { $0 != 0 }))  // MPD reads a line as a C string
        let name: String
        switch reader.word() {
        case .success(let word?): name = word
        case .success(nil): return .failure(Refusal(ack: MpdAck(.unknown, "No command given"), closes: true))
        case .failure(let failure): return .failure(Refusal(ack: MpdAck(.unknown, failure.message), closes: true))
        }
        var arguments: [String] = []
        while true {
            guard arguments.count < maximumArguments else {
                return .failure(Refusal(ack: MpdAck(.argument, "Too many arguments"), closes: false))
            }
            switch reader.parameter() {
            case .success(let argument?): arguments.append(argument)
            case .success(nil): return .success(MpdRequest(name, arguments))
            case .failure(let failure): return .failure(Refusal(ack: MpdAck(.unknown, failure.message), closes: false))
            }
        }
    }

    /// Reads a line's words one after another, as MPD's tokenizer does.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        struct Failure: Error {
            let message: String
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte <= 0x20 }
        private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        private mutating func skipSpaces() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        private func text(_ bytes: some Collection<UInt8>) -> String {
            String(decoding: bytes, as: UTF8.self)
        }

        /// The command's name; `nil` at the end of the line.
        mutating func word() -> Result<String?, Failure> {
            guard index < bytes.count else { return .success(nil) }
            guard Self.isLetter(bytes[index]) else { return .failure(Failure(message: "Letter expected")) }
            let start = index
            index += 1
            while index < bytes.count, !Self.isSpace(bytes[index]) {
                let byte = bytes[index]
                guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "_") else {
                    return .failure(Failure(message: "Invalid word character"))
                }
                index += 1
            }
            let word = text(bytes[start..<index])
            skipSpaces()
            return .success(word)
        }

        /// The next argument, bare or quoted; `nil` at the end of the line.
        mutating func parameter() -> Result<String?, Failure> {
            guard index < bytes.count else { return .success(nil) }
            return bytes[index] == UInt8(ascii: "\"") ? quoted() : bare()
        }

        private mutating func bare() -> Result<String?, Failure> {
            let start = index
            while index < bytes.count, !Self.isSpace(bytes[index]) {
                let byte = bytes[index]
                guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "'") else { return .failure(Failure(message: "Invalid unquoted character")) }
                index += 1
            }
            let argument = text(bytes[start..<index])
            skipSpaces()
            return .success(argument)
        }

        private mutating func quoted() -> Result<String?, Failure> {
            index += 1
            var argument: [UInt8] = []
            while true {
                guard index < bytes.count else { return .failure(Failure(message: "Missing closing '\"'")) }
                var byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.count else { return .failure(Failure(message: "Missing closing '\"'")) }
                    byte = bytes[index]
                }
                argument.append(byte)
                index += 1
            }
            index += 1
            guard index >= bytes.count || Self.isSpace(bytes[index]) else { return .failure(Failure(message: "Space expected after closing '\"'")) }
            skipSpaces()
            return .success(text(argument))
        }
    }
}
