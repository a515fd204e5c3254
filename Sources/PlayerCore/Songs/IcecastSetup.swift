/// What an Icecast output (`-o icecast`) broadcasts to and how: the server's mount and its
/// source password (`icecast = http://source:PASSWORD@HOST:PORT/mount`), and the encoding
/// (`icecast-format = vorbis|opus|mp3[:KBPS]`).
public struct IcecastSetup: Equatable, Sendable {
    public var mount: IcecastMount?
    public var encoding = IcecastEncoding(codec: .vorbis)

    public init(mount: IcecastMount? = nil, encoding: IcecastEncoding = IcecastEncoding(codec: .vorbis)) {
        self.mount = mount
        self.encoding = encoding
    }
}

/// An Icecast server's mount point and the source's credentials. The password is never part
/// of `description` (what messages print).
public struct IcecastMount: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String
    /// `/stream.ogg`: a slash, then printable ASCII with no space.
    public var mount: String

    public init(host: String, port: Int, user: String, password: String, mount: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.mount = mount
    }

    public static let hint = "give icecast = http://source:PASSWORD@HOST:PORT/MOUNT, e.g. http://source:hackme@127.0.0.1:8000/tplayer.ogg"

    /// `http://USER:PASSWORD@HOST[:PORT]/MOUNT` (untrusted: a settings file); the user and
    /// password may be percent-encoded. The reason it is not one, never naming the password.
    public static func parse(_ text: String) -> Result<IcecastMount, IcecastSetupProblem> {
        guard text.hasPrefix("http://") else {
            return .failure(IcecastSetupProblem(reason: text.hasPrefix("https://") ? "tplayer's Icecast output speaks http:// only" : hint))
        }
        let rest = text.dropFirst(7)
        guard let slash = rest.firstIndex(of: "/"), let at = rest[..<slash].lastIndex(of: "@") else {
            return .failure(IcecastSetupProblem(reason: hint))
        }
        let credentials = rest[..<at], place = rest[rest.index(after: at)..<slash], mount = String(rest[slash...])
        guard let colon = credentials.firstIndex(of: ":"),
              let user = percentDecoded(credentials[..<colon]), let password = percentDecoded(credentials[credentials.index(after: colon)...]),
              !user.isEmpty, !password.isEmpty else {
            return .failure(IcecastSetupProblem(reason: "name the source's user and password before the @: " + hint))
        }
        guard mount.utf8.count >= 2, mount.utf8.count <= 255, mount.utf8.allSatisfy({ (33...126).contains($0) && $0 != 63 && $0 != 35 }) else {
            return .failure(IcecastSetupProblem(reason: "the mount must be a / and a name (printable, no space, ? or #): " + hint))
        }
        guard let (host, port) = server(place) else {
            return .failure(IcecastSetupProblem(reason: "the server must be HOST or HOST:PORT (a name, an IPv4 address or [IPv6], a port 1 to 65535): " + hint))
        }
        return .success(IcecastMount(host: host, port: port, user: user, password: password, mount: mount))
    }

    /// `HOST`, `HOST:PORT`, `[IPV6]:PORT`: a name or address libshout resolves, and the port
    /// (8000, Icecast's, by default).
    private static func server(_ text: Substring) -> (String, Int)? {
        var host = text, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                portText = rest.dropFirst()
            }
            guard !host.isEmpty, host.utf8.allSatisfy({ $0 == 58 || $0 == 46 || hexValue($0) != nil }) else { return nil }
        } else {
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            }
            guard !host.isEmpty, host.utf8.count <= 253,
                  host.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 46 }) else { return nil }
        }
        guard let portText else { return (String(host), 8000) }
        guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (48...57).contains($0) }),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// `%XX` decoded; `nil` for a bad escape, a control character or text that is not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == 37 else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(where: { $0 < 32 || $0 == 127 }) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 65...70: digit - 55
        case 97...102: digit - 87
        default: nil
        }
    }

    /// The mount as messages name it: the user, never the password.
    public var description: String {
        let server = host.contains(":") ? "[\(host)]" : host
        return "http://\(user)@\(server):\(port)\(mount)"
    }
}

/// Why `icecast =` or `icecast-format =` cannot be used: one line, no password in it.
public struct IcecastSetupProblem: Error, Equatable, Sendable {
    public let reason: String
}

/// What a broadcast is encoded as: the codec and its bit rate.
public struct IcecastEncoding: Equatable, Sendable, CustomStringConvertible {
    public enum Codec: String, Sendable, CaseIterable {
        case vorbis, opus, mp3

        /// What it is sent at, unless set: Icecast's common choices.
        public var defaultKbps: Int {
            switch self {
            case .vorbis: 128
            case .opus: 96
            case .mp3: 192
            }
        }

        /// The one rate every song is converted to (Opus is 48 kHz whatever it was made from).
        public var rate: Int {
            switch self {
            case .vorbis, .mp3: 44100
            case .opus: 48000
            }
        }
    }

    public var codec: Codec
    public var kbps: Int

    public init(codec: Codec, kbps: Int? = nil) {
        self.codec = codec
        self.kbps = kbps ?? codec.defaultKbps
    }

    public static let kbpsRange = 16...320
    public static let hint = "give vorbis, opus or mp3, and a bit rate if you like: e.g. icecast-format = mp3:192 (16 to 320 kbit/s)"

    /// `vorbis`, `opus:96`, `mp3:192`; `nil` for anything else.
    public static func parse(_ text: String) -> IcecastEncoding? {
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let codec = Codec(rawValue: String(parts[0])) else { return nil }
        guard parts.count == 2 else { return IcecastEncoding(codec: codec) }
        guard (1...3).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ (48...57).contains($0) }),
              let kbps = Int(parts[1]), kbpsRange.contains(kbps) else { return nil }
        return IcecastEncoding(codec: codec, kbps: kbps)
    }

    public var description: String { "\(codec.rawValue):\(kbps)" }
}
