/// What a person asks of the named playlists (`:playlist save Road trip`, a script's line):
/// `$XDG_DATA_HOME/tplayer/playlists`, MPD's stored playlists too.
public enum PlaylistRequest: Equatable, Sendable, CustomStringConvertible {
    /// The list, saved as a new playlist.
    case save(String)
    /// The list becomes the playlist's songs (a smart one filled from the library first), and
    /// the first plays.
    case open(String)
    /// The song playing, added to the end of the playlist (made, when it is not there).
    case append(String)
    case rename(String, to: String)
    case delete(String)
    /// A smart playlist: a query of the library's (`rating:4.. played:>90d`), filled when opened.
    case smart(String, query: String)
    /// Every playlist, named in one line.
    case list

    public var description: String {
        switch self {
        case .save(let name): "playlist save \(name)"
        case .open(let name): "playlist open \(name)"
        case .append(let name): "playlist append \(name)"
        case .rename(let name, let new): "playlist rename \(name) / \(new)"
        case .delete(let name): "playlist delete \(name)"
        case .smart(let name, let query): "playlist smart \(name) / \(query)"
        case .list: "playlists"
        }
    }

    /// `save NAME`, `open NAME`, `append NAME`, `rename OLD / NEW`, `delete NAME`,
    /// `smart NAME / QUERY` (a name holds no `/`, so the first one ends it), or nothing (the
    /// list of them); why not, in one line.
    public static func parse(_ text: String) -> Result<PlaylistRequest, Refusal> {
        let trimmed = Substring(text).trimmed
        let verb = String(trimmed.prefix { $0 != " " && $0 != "\t" }).lowercased()
        let rest = String(trimmed.dropFirst(verb.count).trimmed)
        func split() -> (String, String)? {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let name = String(rest[..<slash].trimmed), other = String(rest[rest.index(after: slash)...].trimmed)
            return name.isEmpty || other.isEmpty ? nil : (name, other)
        }
        switch verb {
        case "save": return rest.isEmpty ? .failure(Refusal.needsName(verb)) : .success(.save(rest))
        case "open": return rest.isEmpty ? .failure(Refusal.needsName(verb)) : .success(.open(rest))
        case "append": return rest.isEmpty ? .failure(Refusal.needsName(verb)) : .success(.append(rest))
        case "delete": return rest.isEmpty ? .failure(Refusal.needsName(verb)) : .success(.delete(rest))
        case "rename":
            guard let (name, new) = split() else { return .failure(Refusal("playlist rename needs two names: playlist rename OLD / NEW")) }
            return .success(.rename(name, to: new))
        case "smart":
            guard let (name, query) = split() else {
                return .failure(Refusal("playlist smart needs a name and a query: playlist smart NAME / rating:4.. played:>90d"))
            }
            return .success(.smart(name, query: query))
        case "", "list": return .success(.list)
        default:
            return .failure(Refusal("\(UntrustedText.shown(String(verb.prefix(40)))): no such playlist command; "
                                    + "give save, open, append, rename, delete or smart"))
        }
    }

    /// Why a playlist command cannot be read.
    public struct Refusal: Error, Equatable, Sendable {
        public let message: String

        init(_ message: String) {
            self.message = message
        }

        static func needsName(_ verb: String) -> Refusal {
            Refusal("playlist \(verb) needs a name: playlist \(verb) NAME")
        }
    }
}
