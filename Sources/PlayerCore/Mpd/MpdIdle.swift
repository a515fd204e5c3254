/// MPD's `idle` subsystems (`IdleFlags.cxx`), each a bit, in the order MPD names them in its
/// `changed:` lines.
public struct MpdIdle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let names = ["database", "stored_playlist", "playlist", "player", "mixer", "output", "options", "sticker",
                               "update", "subscription", "message", "neighbor", "mount", "partition"]
    public static let database = MpdIdle(rawValue: 1 << 0)
    public static let storedPlaylist = MpdIdle(rawValue: 1 << 1)
    public static let playlist = MpdIdle(rawValue: 1 << 2)
    public static let player = MpdIdle(rawValue: 1 << 3)
    public static let mixer = MpdIdle(rawValue: 1 << 4)
    public static let output = MpdIdle(rawValue: 1 << 5)
    public static let options = MpdIdle(rawValue: 1 << 6)
    public static let sticker = MpdIdle(rawValue: 1 << 7)
    public static let update = MpdIdle(rawValue: 1 << 8)
    public static let subscription = MpdIdle(rawValue: 1 << 9)
    public static let message = MpdIdle(rawValue: 1 << 10)
    public static let all = MpdIdle(rawValue: (1 << 14) - 1)

    /// The subsystem `name` names, as MPD reads it (letter case aside); `nil` for none.
    public init?(name: String) {
        let lower = String(name.unicodeScalars.map { ("A"..."Z").contains($0) ? Character(Unicode.Scalar($0.value + 32)!) : Character($0) })
        guard let index = Self.names.firstIndex(of: lower) else { return nil }
        self.init(rawValue: 1 << UInt16(index))
    }

    /// What the player's changes are to MPD's clients.
    public init(_ changes: StatusChanges) {
        var idle: MpdIdle = []
        for (change, flag) in [(StatusChanges.player, MpdIdle.player), (.mixer, .mixer), (.options, .options), (.playlist, .playlist),
                               (.storedPlaylist, .storedPlaylist), (.database, .database), (.output, .output), (.sticker, .sticker)]
            where changes.contains(change) {
            idle.insert(flag)
        }
        self = idle
    }

    /// `changed: NAME` for each, in MPD's order.
    public var lines: String {
        var text = ""
        for (index, name) in Self.names.enumerated() where contains(MpdIdle(rawValue: 1 << UInt16(index))) {
            text += "changed: \(name)\n"
        }
        return text
    }
}
