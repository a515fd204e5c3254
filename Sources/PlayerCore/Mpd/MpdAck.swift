/// An error as MPD's protocol says it: `ACK [CODE@INDEX] {COMMAND} MESSAGE`, the index being the
/// command's place in a command list (0 outside one) and the command the name it was looked up
/// by (empty before it was).
public struct MpdAck: Error, Equatable, Sendable {
    /// MPD's error codes (`protocol/Ack.hxx`).
    public enum Code: Int, Sendable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    public var code: Code
    public var index = 0
    public var command = ""
    public var message: String

    public init(_ code: Code, _ message: String, command: String = "", index: Int = 0) {
        self.code = code
        self.message = message
        self.command = command
        self.index = index
    }

    /// The line sent, with its newline.
    public var line: String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(message)\n"
    }
}
