import PlayerCore

/// Client-to-client messages (`subscribe`, `sendmessage`, `readmessages`, `channels`), as MPD
/// keeps them (`client/Subscribe.cxx`, `command/MessageCommands.cxx`): a client subscribes to
/// at most 16 channels and holds at most 64 messages unread.
extension MpdServer {
    static let maximumSubscriptions = 16
    static let maximumMessages = 64

    /// A channel's name: letters, digits, `_`, `-`, `.` and `:`, at least one.
    static func isChannel(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "_-.:".utf8.contains(byte)
        }
    }

    func message(_ name: String, _ arguments: [String], for client: Client) -> Result<String, MpdAck> {
        switch name {
        case "subscribe":
            let channel = arguments[0]
            guard Self.isChannel(channel) else { return .failure(MpdAck(.argument, "invalid channel name")) }
            guard client.state.subscriptions.count < Self.maximumSubscriptions else {
                return .failure(MpdAck(.exist, "subscription list is full"))
            }
            guard client.state.subscriptions.insert(channel).inserted else {
                return .failure(MpdAck(.exist, "already subscribed to this channel"))
            }
            notify(.subscription)
            return .success("")
        case "unsubscribe":
            guard client.state.subscriptions.remove(arguments[0]) != nil else {
                return .failure(MpdAck(.noExist, "not subscribed to this channel"))
            }
            notify(.subscription)
            return .success("")
        case "channels":
            return .success(channelNames.sorted().map { "channel: \($0)\n" }.joined())
        case "readmessages":
            let messages = client.state.messages
            client.state.messages = []
            return .success(messages.map { "channel: \($0.channel)\nmessage: \($0.text)\n" }.joined())
        default:  // sendmessage
            let (channel, text) = (arguments[0], arguments[1])
            guard Self.isChannel(channel) else { return .failure(MpdAck(.argument, "invalid channel name")) }
            var sent = false
            for other in everyClient where other.state.subscriptions.contains(channel)
                && other.state.messages.count < Self.maximumMessages {
                if other.state.messages.isEmpty { notify(.message, only: [other.socket.descriptor]) }
                other.state.messages.append((channel, text))
                sent = true
            }
            return sent ? .success("") : .failure(MpdAck(.noExist, "nobody is subscribed to this channel"))
        }
    }
}
