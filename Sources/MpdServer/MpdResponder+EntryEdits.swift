import PlayerCore

/// The queue's edits in place, as MPD's `QueueCommands.cxx` and `TagCommands.cxx` read them:
/// `shuffle`, `prio`, `prioid`, `rangeid`, `addtagid`, `cleartagid`.
extension MpdResponder {
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
            return position(arguments[0]).flatMap { entry in
                guard let (start, asked) = Self.timeRange(arguments[1]) else { return .failure(MpdAck(.argument, "Bad range")) }
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
        if let song = cachedCatalog?.song(link.roots.uri(of: path)), let seconds = song.record.seconds { return seconds }
        let status = session.status
        guard entry == status.entry, let song = status.song, let frames = song.totalFrames, song.sampleRate > 0 else { return nil }
        return Double(frames) / Double(song.sampleRate)
    }
}
