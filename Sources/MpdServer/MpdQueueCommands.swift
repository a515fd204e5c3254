import Files
import Library
import PlayerCore

/// The queue (tplayer's list): its songs with their ids, added, taken out, moved, shuffled and
/// edited in place (priorities, ranges, a stream's tags), and searched (`playlistfind`,
/// `playlistsearch`), as MPD's `QueueCommands.cxx` and `TagCommands.cxx` read them.
struct MpdQueueCommands: MpdCommandGroup {
    let responder: MpdResponder

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

    func entryEdit(_ name: String, _ arguments: [String]) -> Result<String, MpdAck> {
        let count = session.entries.count
        let marks = session.marks
        func position(_ text: String) -> Result<Int, MpdAck> {
            MpdArguments.unsigned(text).flatMap { id in marks.position(of: UInt32(clamping: id)).map { .success($0) } ?? .failure(Self.noSuchSong) }
        }
        switch name {
        case "shuffle":
            return (arguments.first.map(MpdArguments.range) ?? .success(.all)).flatMap { range in
                guard range == .all || range.start <= count else { return .failure(Self.badIndex) }
                perform(.shuffleEntries(range.clamped(to: count)))
                return .success("")
            }
        case "prio", "prioid":
            return MpdArguments.unsigned(arguments[0], max: 255).flatMap { priority in
                // Each range or id in turn, as MPD: one that is wrong stops there.
                for argument in arguments.dropFirst() {
                    let entries: Result<Range<Int>, MpdAck> = name == "prioid"
                        ? position(argument).map { $0..<$0 + 1 }
                        : MpdArguments.range(argument).flatMap { range in
                            range == .all || range.start <= count ? .success(range.clamped(to: count)) : .failure(Self.badIndex)
                        }
                    switch entries {
                    case .failure(let ack): return .failure(ack)
                    case .success(let range): perform(.setPriority(UInt8(priority), entries: range))
                    }
                }
                return .success("")
            }
        case "rangeid":
            // The id read, then the range, then the song found (MPD's order of refusals).
            if case .failure(let ack) = MpdArguments.unsigned(arguments[0]) { return .failure(ack) }
            guard let (start, asked) = Self.timeRange(arguments[1]) else { return .failure(MpdAck(.argument, "Bad range")) }
            return position(arguments[0]).flatMap { entry in
                let status = session.status
                if entry == status.entry, status.playback != .stopped {
                    return .failure(MpdAck(.permission, "Cannot edit the current song"))
                }
                var end = asked
                if let seconds = length(of: entry) {
                    guard start <= seconds else { return .failure(MpdAck(.argument, "Invalid start offset")) }
                    if let last = end, last >= seconds { end = nil }
                }
                // Kept to 1/75 s, a CD frame, as a CUE sheet's tracks are.
                let frames = { (seconds: Double) in Int64((seconds * Double(TrackSpan.framesPerSecond)).rounded()) }
                // A range shorter than a frame is none (MPD's is a millisecond at least).
                if let end, frames(end) <= frames(start) { return .failure(MpdAck(.argument, "Bad range")) }
                let span = start == 0 && end == nil ? nil : TrackSpan(start: frames(start), end: end.map(frames))
                perform(.setSpan(entry, span))
                return .success("")
            }
        case "addtagid", "cleartagid":
            // The id read, then the tag's name, then the song found (MPD's order of refusals).
            if case .failure(let ack) = MpdArguments.unsigned(arguments[0]) { return .failure(ack) }
            var tag: MpdTag?
            if arguments.count > 1 {
                guard let named = MpdTag(named: arguments[1]) else { return .failure(MpdAck(.argument, "Unknown tag type: \(arguments[1])")) }
                tag = named
            }
            return position(arguments[0]).flatMap { entry in
                guard session.entries[entry].source.isStream else {
                    return .failure(MpdAck(.permission, "Cannot edit tags of local file"))
                }
                perform(.tagEntry(entry, name: tag?.rawValue, value: name == "addtagid" ? arguments[2] : nil))
                return .success("")
            }
        default:
            return .failure(MpdAck(.unknown, "tplayer does not answer \"\(name)\" yet"))
        }
    }

    /// `START:END` in seconds, either left out (0: the start; none: the end), as MPD's
    /// `parse_time_range` reads it (single precision); `nil` when it is no range.
    static func timeRange(_ text: String) -> (start: Double, end: Double?)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        func seconds(_ part: Substring) -> Double?? {
            let trimmed = part.drop { " \t\n\r\u{0B}\u{0C}".contains($0) }
            if trimmed.isEmpty { return .some(nil) }
            guard let value = Float(trimmed), value.isFinite, value >= 0, value < 4_000_000 else { return nil }
            // MPD keeps milliseconds, cut off.
            return .some(Double(Int64(Double(value) * 1000)) / 1000)
        }
        guard let start = seconds(text[..<colon]), let end = seconds(text[text.index(after: colon)...]) else { return nil }
        let from = start ?? 0, to = end.flatMap { $0 == 0 ? nil : $0 }
        if let to, to <= from { return nil }
        return (from, to)
    }

    /// How long entry `entry`'s whole song is, when the library or the decoder knows.
    private func length(of entry: Int) -> Double? {
        let path = session.entries[entry].path
        if let catalog = cachedCatalog, let song = catalog.song(link.roots.uri(of: path)), let seconds = catalog.seconds(song) { return seconds }
        let status = session.status
        guard entry == status.entry, let song = status.song, let frames = song.totalFrames, song.sampleRate > 0 else { return nil }
        return Double(frames) / Double(song.sampleRate)
    }

    /// A song of the queue as a filter sees it: the catalog's, else its URI alone.
    private struct QueuedSong: MpdFilterable {
        let uri: String
        func values(of tag: MpdTag) -> [String] { [] }
        var allValues: [String] { [] }
        var modified: Int64 { 0 }
        var audioFormat: (rate: Int, bits: Int?, channels: Int)? { nil }
    }

    func queueMatch(_ arguments: [String], foldCase: Bool, client: MpdClientState) -> Result<String, MpdAck> {
        let patterns = PosixPatterns()
        return MpdFilter.parse(arguments, foldCase: foldCase, patterns: patterns).mapError { MpdAck(.argument, $0.message) }.map { filter in
            let entries = session.entries
            let catalog = cachedCatalog
            let matching = entries.indices.filter { position in
                let uri = link.roots.uri(of: entries[position].path)
                if let catalog, let song = catalog.song(uri) { return !filter.select(catalog, among: [song], patterns).isEmpty }
                return filter.matches(QueuedSong(uri: uri), patterns)
            }
            return songs(matching, client: client)
        }
    }

    /// `playlistinfo`'s reply, the whole list, as a stream; `nil` for a part of it.
    func stream(_ arguments: [String], client: MpdClientState) -> Result<MpdStream, MpdAck>? {
        guard arguments.isEmpty else { return nil }
        let (entries, marks) = (session.entries, session.marks)
        return .success(MpdStream(count: entries.count) { [self] range in songs(range, client: client, entries: entries, marks: marks) })
    }
}
