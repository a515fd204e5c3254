import Library
import PlayerCore

/// `sticker`, as MPD's `StickerCommands.cxx` reads it, on the library: `rating` (0 to 10, two a
/// star of tplayer's five), `playCount`, `lastPlayed` (seconds since 1970) and `skipCount` are
/// the library's own statistics, which the keys, the library view and the listen log share;
/// any other name is kept beside the song.
struct MpdStickerCommands: MpdCommandGroup {
    let responder: MpdResponder

    static let statistics = ["lastPlayed", "playCount", "rating", "skipCount"]

    func sticker(_ arguments: [String]) -> Result<String, MpdAck> {
        guard arguments[1] == "song" else { return .failure(MpdAck(.argument, "unknown sticker domain")) }
        guard let library = link.library(), let catalog = catalog() else { return .failure(Self.noDatabase) }
        let action = arguments[0], count = arguments.count
        let known: Set = ["get", "list", "set", "delete", "find"]
        guard known.contains(action), (action == "get" && count == 4) || (action == "list" && count == 3) || (action == "set" && count == 5)
                || (action == "delete" && (count == 3 || count == 4)) || (action == "find" && (count == 4 || count == 6)) else {
            return .failure(MpdAck(.argument, "bad request"))
        }
        if action == "find" { return find(arguments, library, catalog) }
        let uri = arguments[2]
        guard let song = catalog.song(uri) else { return .failure(MpdAck(.noExist, "No such song")) }
        let path = catalog.path(song)
        // The statistics as the library holds them now.
        var stickers = (try? library.stickers(of: path).get()) ?? [:]
        if let record = (try? library.songs(at: [path]).get())?.first {
            for (name, value) in Self.own(record) { stickers[name] = value }
        }
        switch action {
        case "get":
            guard let value = stickers[arguments[3]] else { return .failure(MpdAck(.noExist, "no such sticker")) }
            return .success("sticker: \(arguments[3])=\(UntrustedText.shown(value))\n")
        case "list":
            return .success(stickers.keys.sorted().map { "sticker: \($0)=\(UntrustedText.shown(stickers[$0] ?? ""))\n" }.joined())
        case "set":
            return set(arguments[3], to: arguments[4], of: path, library)
        default:  // delete
            let names = count == 4 ? [arguments[3]] : Array(stickers.keys)
            guard names.contains(where: { stickers[$0] != nil }) else { return .failure(MpdAck(.noExist, "no such sticker")) }
            for name in names { _ = set(name, to: nil, of: path, library) }
            return .success("")
        }
    }

    /// The library's statistics of `song` that are set, as stickers.
    static func own(_ song: LibrarySong) -> [(String, String)] {
        var own: [(String, String)] = []
        if song.rating > 0 { own.append(("rating", String(song.rating * 2))) }
        if song.playCount > 0 { own.append(("playCount", String(song.playCount))) }
        if let last = song.lastPlayed { own.append(("lastPlayed", String(last))) }
        if song.skipCount > 0 { own.append(("skipCount", String(song.skipCount))) }
        return own
    }

    private func set(_ name: String, to value: String?, of path: Path, _ library: LibraryDatabase) -> Result<String, MpdAck> {
        let number = value.map { Int($0.trimmingSpaces) } ?? 0
        let written: Result<Void, LibraryError>
        switch name {
        case "rating", "playCount", "skipCount", "lastPlayed":
            guard let number, number >= 0 else {
                return .failure(MpdAck(.argument, "\(name) is tplayer's own: a whole number from 0\(name == "rating" ? " to 10" : "")"))
            }
            switch name {
            case "rating": written = library.rate(path, stars: (min(number, 10) + 1) / 2)
            case "playCount": written = library.setStatistics(of: path, plays: number)
            case "skipCount": written = library.setStatistics(of: path, skips: number)
            default: written = library.setStatistics(of: path, lastPlayed: .some(value == nil ? nil : Int64(number)))
            }
        default:
            written = library.setSticker(name, to: value, of: path).map { _ in () }
        }
        guard case .success = written else { return .failure(MpdAck(.system, "the library cannot be written")) }
        responder.stickersChanged()
        return .success("")
    }

    /// `sticker find song URI NAME [= < > VALUE]`: each song under URI with the sticker (its
    /// value equal to, or before or after VALUE as text compares, as MPD's SQL compares it).
    private func find(_ arguments: [String], _ library: LibraryDatabase, _ catalog: MpdCatalog) -> Result<String, MpdAck> {
        let name = arguments[3]
        var test: (String) -> Bool = { _ in true }
        if arguments.count == 6 {
            let value = arguments[5]
            switch arguments[4] {
            case "=": test = { $0 == value }
            case "<": test = { $0.utf8.lexicographicallyPrecedes(value.utf8) }
            case ">": test = { value.utf8.lexicographicallyPrecedes($0.utf8) }
            default: return .failure(MpdAck(.argument, "bad operator"))
            }
        }
        let folder = Self.folder(arguments[2])
        var found: [(uri: String, value: String)] = []
        if Self.statistics.contains(name) {
            let records = (try? library.songs(at: catalog.under(folder).map(catalog.path)).get()) ?? []
            for record in records {
                if let value = Self.own(record).first(where: { $0.0 == name })?.1 { found.append((link.roots.uri(of: record.path), value)) }
            }
        } else if case .success(let tagged) = library.songs(withSticker: name) {
            for (path, value) in tagged {
                let uri = link.roots.uri(of: path)
                if folder.isEmpty || uri.hasPrefix(folder + "/") || uri == folder, catalog.song(uri) != nil { found.append((uri, value)) }
            }
        }
        return .success(found.filter { test($0.value) }.sorted { $0.uri < $1.uri }.map {
            "file: \(UntrustedText.shown($0.uri))\nsticker: \(name)=\(UntrustedText.shown($0.value))\n"
        }.joined())
    }
}

private extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
