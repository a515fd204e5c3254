/// How the live output is set up beyond its driver (`-o`): the device it plays on (`-a`, as
/// mpg123 names one), and what a Snapcast or an Icecast output needs to know of its server.
public struct OutputSetup: Equatable, Sendable {
    /// PulseAudio's sink; for `-o snapcast`, snapserver's pipe or `tcp://HOST:PORT`.
    public var device: String?
    public var snapcast = SnapcastSetup()
    /// Where `-o icecast` broadcasts, and as what.
    public var icecast = IcecastSetup()
    /// The outputs that play beside the first (`output = pulse, snapcast`; `-o pulse,snapcast`).
    public var also: [String] = []

    public init(device: String? = nil, snapcast: SnapcastSetup = SnapcastSetup(), icecast: IcecastSetup = IcecastSetup(), also: [String] = []) {
        self.device = device
        self.snapcast = snapcast
        self.icecast = icecast
        self.also = also
    }
}

/// What a Snapcast output asks its server, and what it takes when the server does not say.
public struct SnapcastSetup: Equatable, Sendable {
    /// The pipe Debian's snapserver.conf reads (`source = pipe:///tmp/snapfifo?name=default`).
    public static let defaultPipe = "/tmp/snapfifo"
    /// The pipe (or `tcp://HOST:PORT`) a Snapcast output writes to when `-a` (`device`) does not
    /// name one, or when it follows another output (`snapcast-pipe`).
    public var pipe = SnapcastSetup.defaultPipe
    /// snapserver's JSON-RPC control port (`snapcast-control = HOST:PORT`, `off`: never asked),
    /// where the source's sample format is read.
    public var control: String? = "127.0.0.1:1705"
    /// The stream's format when the control port does not say (`snapcast-format`).
    public var format = SnapcastFormat(rate: 48000, bits: 16, channels: 2)
    /// snapserver's buffer (its `stream.buffer`, 1000 ms by default): how long after it reads
    /// audio the rooms hear it, so that the time shown is what they hear.
    public var bufferSeconds = 1.0

    public init() {}
}

/// A Snapcast stream's sample format, as snapserver writes it: `RATE:BITS:CHANNELS`.
public struct SnapcastFormat: Equatable, Sendable, CustomStringConvertible {
    public var rate: Int
    public var bits: Int
    public var channels: Int

    public init(rate: Int, bits: Int, channels: Int) {
        self.rate = rate
        self.bits = bits
        self.channels = channels
    }

    /// The depths a Snapcast stream carries (24 bits in 4 bytes, as snapserver holds them).
    public static let depths = [16, 24, 32]
    public static let hint = "give RATE:BITS:CHANNELS, e.g. 48000:16:2 (bits 16, 24 or 32; 1 to 8 channels)"

    /// `48000:16:2`; `nil` for anything else (untrusted: from a file or the network).
    public static func parse(_ text: String) -> SnapcastFormat? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ (1...6).contains($0.utf8.count) && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let rate = Int(parts[0]), let bits = Int(parts[1]), let channels = Int(parts[2]),
              (8000...384_000).contains(rate), depths.contains(bits), (1...8).contains(channels) else { return nil }
        return SnapcastFormat(rate: rate, bits: bits, channels: channels)
    }

    public var description: String { "\(rate):\(bits):\(channels)" }
}
