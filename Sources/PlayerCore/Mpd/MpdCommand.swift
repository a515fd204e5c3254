/// Every command of MPD 0.23's protocol that tplayer answers: its name, the permission it
/// needs and how many arguments it takes (`command/AllCommands.cxx`, the same for each). Left
/// out, as an MPD built without Chromaprint leaves it out: `getfingerprint` ("unknown
/// command"); `listneighbors` is answered as an MPD with no neighbour plugin configured answers
/// it (and, as that one, not listed by `commands`).
public struct MpdCommand: Equatable, Sendable {
    /// MPD's permissions (`Permission.hxx`), each a bit; a password gives a set of them.
    public struct Permission: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let read = Permission(rawValue: 1)
        public static let add = Permission(rawValue: 2)
        public static let control = Permission(rawValue: 4)
        public static let admin = Permission(rawValue: 8)
        public static let player = Permission(rawValue: 16)
        /// What a connection has with no password set: everything.
        public static let all: Permission = [.read, .add, .control, .admin, .player]
    }

    public let name: String
    /// What it needs (empty: nothing, as `ping` and `password`).
    public let permission: Permission
    /// How many arguments it takes: at least `minimum`, at most `maximum` (`nil`: no most);
    /// `minimum` `nil`: any number, unchecked (`close`, `kill`).
    public let minimum: Int?
    public let maximum: Int?

    /// Commands answered but not listed by `commands` and `notcommands` (MPD lists only those
    /// it can carry out).
    public static let unlisted: Set = ["listneighbors"]

    /// The commands, in MPD's order (by name).
    public static let all: [MpdCommand] = [
        MpdCommand("add", .add, 1, 2),
        MpdCommand("addid", .add, 1, 2),
        MpdCommand("addtagid", .add, 3, 3),
        MpdCommand("albumart", .read, 2, 2),
        MpdCommand("binarylimit", [], 1, 1),
        MpdCommand("channels", .read, 0, 0),
        MpdCommand("clear", .player, 0, 0),
        MpdCommand("clearerror", .player, 0, 0),
        MpdCommand("cleartagid", .add, 1, 2),
        MpdCommand("close", [], nil, nil),
        MpdCommand("commands", [], 0, 0),
        MpdCommand("config", .admin, 0, 0),
        MpdCommand("consume", .player, 1, 1),
        MpdCommand("count", .read, 1, nil),
        MpdCommand("crossfade", .player, 1, 1),
        MpdCommand("currentsong", .read, 0, 0),
        MpdCommand("decoders", .read, 0, 0),
        MpdCommand("delete", .player, 1, 1),
        MpdCommand("deleteid", .player, 1, 1),
        MpdCommand("delpartition", .admin, 1, 1),
        MpdCommand("disableoutput", .admin, 1, 1),
        MpdCommand("enableoutput", .admin, 1, 1),
        MpdCommand("find", .read, 1, nil),
        MpdCommand("findadd", .add, 1, nil),
        MpdCommand("getvol", .read, 0, 0),
        MpdCommand("idle", .read, 0, nil),
        MpdCommand("kill", .admin, nil, nil),
        MpdCommand("list", .read, 1, nil),
        MpdCommand("listall", .read, 0, 1),
        MpdCommand("listallinfo", .read, 0, 1),
        MpdCommand("listfiles", .read, 0, 1),
        MpdCommand("listmounts", .read, 0, 0),
        MpdCommand("listneighbors", .read, 0, 0),
        MpdCommand("listpartitions", .read, 0, 0),
        MpdCommand("listplaylist", .read, 1, 1),
        MpdCommand("listplaylistinfo", .read, 1, 1),
        MpdCommand("listplaylists", .read, 0, 0),
        MpdCommand("load", .add, 1, 3),
        MpdCommand("lsinfo", .read, 0, 1),
        MpdCommand("mixrampdb", .player, 1, 1),
        MpdCommand("mixrampdelay", .player, 1, 1),
        MpdCommand("mount", .admin, 2, 2),
        MpdCommand("move", .player, 2, 2),
        MpdCommand("moveid", .player, 2, 2),
        MpdCommand("moveoutput", .admin, 1, 1),
        MpdCommand("newpartition", .admin, 1, 1),
        MpdCommand("next", .player, 0, 0),
        MpdCommand("notcommands", [], 0, 0),
        MpdCommand("outputs", .read, 0, 0),
        MpdCommand("outputset", .admin, 3, 3),
        MpdCommand("partition", .read, 1, 1),
        MpdCommand("password", [], 1, 1),
        MpdCommand("pause", .player, 0, 1),
        MpdCommand("ping", [], 0, 0),
        MpdCommand("play", .player, 0, 1),
        MpdCommand("playid", .player, 0, 1),
        MpdCommand("playlist", .read, 0, 0),
        MpdCommand("playlistadd", .control, 2, 3),
        MpdCommand("playlistclear", .control, 1, 1),
        MpdCommand("playlistdelete", .control, 2, 2),
        MpdCommand("playlistfind", .read, 1, nil),
        MpdCommand("playlistid", .read, 0, 1),
        MpdCommand("playlistinfo", .read, 0, 1),
        MpdCommand("playlistmove", .control, 3, 3),
        MpdCommand("playlistsearch", .read, 1, nil),
        MpdCommand("plchanges", .read, 1, 2),
        MpdCommand("plchangesposid", .read, 1, 2),
        MpdCommand("previous", .player, 0, 0),
        MpdCommand("prio", .player, 2, nil),
        MpdCommand("prioid", .player, 2, nil),
        MpdCommand("random", .player, 1, 1),
        MpdCommand("rangeid", .add, 2, 2),
        MpdCommand("readcomments", .read, 1, 1),
        MpdCommand("readmessages", .read, 0, 0),
        MpdCommand("readpicture", .read, 2, 2),
        MpdCommand("rename", .control, 2, 2),
        MpdCommand("repeat", .player, 1, 1),
        MpdCommand("replay_gain_mode", .player, 1, 1),
        MpdCommand("replay_gain_status", .read, 0, 0),
        MpdCommand("rescan", .control, 0, 1),
        MpdCommand("rm", .control, 1, 1),
        MpdCommand("save", .control, 1, 1),
        MpdCommand("search", .read, 1, nil),
        MpdCommand("searchadd", .add, 1, nil),
        MpdCommand("searchaddpl", .control, 2, nil),
        MpdCommand("seek", .player, 2, 2),
        MpdCommand("seekcur", .player, 1, 1),
        MpdCommand("seekid", .player, 2, 2),
        MpdCommand("sendmessage", .control, 2, 2),
        MpdCommand("setvol", .player, 1, 1),
        MpdCommand("shuffle", .player, 0, 1),
        MpdCommand("single", .player, 1, 1),
        MpdCommand("stats", .read, 0, 0),
        MpdCommand("status", .read, 0, 0),
        MpdCommand("sticker", .admin, 3, nil),
        MpdCommand("stop", .player, 0, 0),
        MpdCommand("subscribe", .read, 1, 1),
        MpdCommand("swap", .player, 2, 2),
        MpdCommand("swapid", .player, 2, 2),
        MpdCommand("tagtypes", [], 0, nil),
        MpdCommand("toggleoutput", .admin, 1, 1),
        MpdCommand("unmount", .admin, 1, 1),
        MpdCommand("unsubscribe", .read, 1, 1),
        MpdCommand("update", .control, 0, 1),
        MpdCommand("urlhandlers", .read, 0, 0),
        MpdCommand("volume", .player, 1, 1),
    ]

    init(_ name: String, _ permission: Permission, _ minimum: Int?, _ maximum: Int?) {
        (self.name, self.permission, self.minimum, self.maximum) = (name, permission, minimum, maximum)
    }

    /// The command named `name` (MPD's names are lower case; a name in another case is unknown).
    public static func named(_ name: String) -> MpdCommand? {
        var low = 0
        var high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < all.count && all[low].name == name ? all[low] : nil
    }

    /// The command `request` names, checked as MPD checks it before running it: known, allowed
    /// with `permission`, and given as many arguments as it takes; else why not, as MPD says it.
    public static func checked(_ request: MpdRequest, permission: Permission = .all) -> Result<MpdCommand, MpdAck> {
        guard let command = named(request.name) else { return .failure(MpdAck(.unknown, "unknown command \"\(request.name)\"")) }
        let name = command.name
        guard command.permission.isSubset(of: permission) else {
            return .failure(MpdAck(.permission, "you don't have permission for \"\(name)\"", command: name))
        }
        guard let minimum = command.minimum else { return .success(command) }
        let count = request.arguments.count
        if minimum == command.maximum, count != minimum {
            return .failure(MpdAck(.argument, "wrong number of arguments for \"\(name)\"", command: name))
        }
        if count < minimum { return .failure(MpdAck(.argument, "too few arguments for \"\(name)\"", command: name)) }
        if let maximum = command.maximum, count > maximum {
            return .failure(MpdAck(.argument, "too many arguments for \"\(name)\"", command: name))
        }
        return .success(command)
    }
}
