import Library
import PlayerCore

/// The queue (tplayer's list): its songs with their ids, added, taken out and moved, as MPD's
/// `QueueCommands.cxx` reads them.
extension MpdResponder {
    func queue(_ name: String, _ arguments: [String], client: MpdClientState) -> Result<String, MpdAck> {
        let count = session.entries.count
        let marks = session.marks
        switch name {
        case "add", "addid":
            return add(arguments, returnsID: name == "addid", client: client)
        case "shuffle", "prio", "prioid", "rangeid", "addtagid", "cleartagid":
            return entryEdit(name, arguments)
        case "clear":
            perform(.clearList)
        case "delete":
            return MpdArguments.range(arguments[0]).flatMap { range in
                let positions = range.clamped(to: count)
                guard range.start < count || range == .all, range.end.map({ $0 <= count }) ?? true else { return .failure(Self.badIndex) }
                for position in positions.reversed() { perform(.removeEntry(position)) }
                return .success("")
            }
        case "deleteid":
            return MpdArguments.unsigned(arguments[0]).flatMap { id in
                guard let position = marks.position(of: UInt32(clamping: id)) else { return .failure(Self.noSuchSong) }
                perform(.removeEntry(position))
                return .success("")
            }
        case "move", "moveid":
            let source: Result<Range<Int>, MpdAck> = name == "moveid"
                ? MpdArguments.unsigned(arguments[0]).flatMap { id in
                    marks.position(of: UInt32(clamping: id)).map { .success($0..<$0 + 1) } ?? .failure(Self.noSuchSong)
                }
                : MpdArguments.range(arguments[0]).flatMap { range in
                    guard range != .all, range.start < count, (range.end ?? count) <= count else { return .failure(Self.badIndex) }
                    return .success(range.clamped(to: count))
                }
            return source.flatMap { block in
                MpdArguments.int(arguments[1]).flatMap { to in
                    guard to >= 0, to + block.count <= count else { return .failure(Self.badIndex) }
                    move(block, to: to)
                    return .success("")
                }
            }
        case "swap", "swapid":
            var positions: [Int] = []
            for argument in arguments {
                switch MpdArguments.unsigned(argument) {
                case .failure(let ack): return .failure(ack)
                case .success(let number):
                    let position = name == "swapid" ? marks.position(of: UInt32(clamping: number)) : number < count ? number : nil
                    guard let position else { return .failure(name == "swapid" ? Self.noSuchSong : Self.badIndex) }
                    positions.append(position)
                }
            }
            let (a, b) = (min(positions[0], positions[1]), max(positions[0], positions[1]))
            if a != b {
                perform(.moveEntry(a, by: b - a))
                perform(.moveEntry(b - 1, by: a - (b - 1)))
            }
        case "playlist":
            let entries = session.entries
            return .success((0..<count).map { "\($0):file: \(UntrustedText.shown(link.roots.uri(of: entries[$0].path)))\n" }.joined())
        case "playlistinfo":
            return (arguments.first.map(MpdArguments.range) ?? .success(.all)).flatMap { range in
                guard range == .all || range.start <= count else { return .failure(Self.badIndex) }
                return .success(songs(range.clamped(to: count), client: client))
            }
        case "playlistid":
            guard let argument = arguments.first else { return .success(songs(0..<count, client: client)) }
            return MpdArguments.unsigned(argument).flatMap { id in
                marks.position(of: UInt32(clamping: id)).map { .success(songs([$0], client: client)) } ?? .failure(Self.noSuchSong)
            }
        case "plchanges", "plchangesposid":
            return MpdArguments.unsigned(arguments[0]).flatMap { version in
                (arguments.count > 1 ? MpdArguments.range(arguments[1]) : .success(.all)).map { range in
                    let window = range.clamped(to: count)
                    let changed = marks.changed(since: UInt32(clamping: version)).filter { window.contains($0) }
                    if name == "plchanges" { return songs(changed, client: client) }
                    return changed.map { "cpos: \($0)\nId: \(marks.ids[$0])\n" }.joined()
                }
            }
        default:
            return .failure(MpdAck(.unknown, "tplayer does not answer \"\(name)\" yet"))
        }
        return .success("")
    }

    /// Moves the entries of `block` so that the first is at `to`, in their order.
    private func move(_ block: Range<Int>, to: Int) {
        guard to != block.lowerBound else { return }
        if to > block.lowerBound {
            for _ in block { perform(.moveEntry(block.lowerBound, by: to + block.count - 1 - block.lowerBound)) }
        } else {
            for (offset, entry) in block.enumerated() { perform(.moveEntry(entry, by: to + offset - entry)) }
        }
    }

    /// `add URI [POSITION]`: a song or a folder of the library, a stream or a `file://` path
    /// for a client on this machine.
    private func add(_ arguments: [String], returnsID: Bool, client: MpdClientState) -> Result<String, MpdAck> {
        let uri = arguments[0]
        let count = session.entries.count
        var at = count
        if arguments.count > 1 {
            let text = arguments[1]
            let relative = text.hasPrefix("+") || text.hasPrefix("-")
            switch relative ? MpdArguments.int(text) : MpdArguments.unsigned(text, max: count) {
            case .failure(let ack): return .failure(ack)
            case .success(let number):
                if relative {
                    guard let current = session.status.entry else { return .failure(MpdAck(.argument, "No current song")) }
                    at = text.hasPrefix("+") ? current + 1 + number : current + number  // +0 after it, -0 before it
                } else {
                    at = number
                }
                guard at >= 0, at <= count else { return .failure(Self.badIndex) }
            }
        }
        let paths: [Path], isSong: Bool
        switch resolve(uri, client: client) {
        case .failure(let ack): return .failure(ack)
        case .success(let found): (paths, isSong) = found
        }
        // `addid` adds one song: a folder is no song (MPD's words).
        if returnsID, !isSong { return .failure(MpdAck(.noExist, "No such song")) }
        guard !paths.isEmpty else { return .failure(MpdAck(.noExist, "No such directory")) }
        session.insert(EntryList(paths: paths), at: at)
        return .success(returnsID ? "Id: \(session.marks.ids[at])\n" : "")
    }

    /// The songs a client's URI names: a song of the library, every song under one of its
    /// folders (in path order), a stream, or a local client's `file://` song; and whether it
    /// named one song.
    func resolve(_ uri: String, client: MpdClientState) -> Result<(paths: [Path], isSong: Bool), MpdAck> {
        if let scheme = uri.range(of: "://")?.lowerBound {
            let name = uri[..<scheme].lowercased()
            guard client.isLocal else { return .failure(MpdAck(.permission, "Access denied")) }
            if name == "file" {
                let path = Path(String(uri.dropFirst(7)))
                guard path.isAbsolute, !path.hasNUL else { return .failure(MpdAck(.noExist, "No such file")) }
                return .success(([path], true))
            }
            guard name == "http" || name == "https" else { return .failure(MpdAck(.noExist, "Unsupported URI scheme")) }
            return .success(([Path(uri)], true))
        }
        if uri.hasPrefix("/") {
            guard client.isLocal else { return .failure(MpdAck(.permission, "Access denied")) }
            return .success(([Path(uri)], true))
        }
        guard let library = link.library() else { return .failure(MpdAck(.noExist, "No database")) }
        guard let path = link.roots.path(of: uri) else { return .failure(MpdAck(.noExist, "No such directory")) }
        if case .success(let songs) = library.songs(at: [path]), !songs.isEmpty { return .success(([path], true)) }
        guard case .success(let under) = library.knownFiles(under: [path]) else { return .failure(MpdAck(.system, "the library cannot be read")) }
        return .success((under.keys.sorted(), false))
    }
}
