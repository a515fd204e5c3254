extension SavedSession {
    /// A line the reader set right or left out, and what it did: the rest of the session is
    /// kept. `line 5: repeat yes: not 0 or 1; ignored`.
    public struct Note: Equatable, Sendable, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { line > 0 ? "line \(line): \(text)" : text }
    }

    /// Reads a saved session a piece at a time, as playlists are read: memory stays bounded
    /// however large the file, and the list stops at `limit` (`Entry.listLimit`; the rest of the
    /// file is then not read).
    ///
    /// Only what makes the file no session at all refuses it (another first line, a file cut
    /// short, a line too long to be tplayer's). A field it cannot take is set right (a volume
    /// past 100 is 100) or ignored, an entry it cannot take is left out, each with a `Note`,
    /// and the rest is kept. Lines may end in CR LF.
    public struct Reader {
        private var session = SavedSession(entries: [], current: nil, position: .zero)
        /// The line each field was read from.
        private var fields: [String: Int] = [:]
        /// The start of a line whose end has not been read yet.
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var ended = false
        private var full = false
        private var failure: Unreadable?
        /// Entry lines read, those left out included: the number of the next one.
        private var entryLines = 0
        /// The entry lines left out (by their number), so that `current` still names its song.
        private var leftOut: [Int] = []
        private var notes: [Note] = []
        private var unnoted = 0
        /// The `order` lines' numbers (only those below `limit`), and the first such line.
        private var order: [Int] = []
        private var orderLine: Int?
        /// The `queue` line's entries, as saved, and where it was.
        private var queued: [Int] = []
        private var queueLine: Int?
        private var orderBroken = false
        /// The line before was an entry kept (or its `span` or `tags`): a `span` or `tags` line is its.
        private var afterEntry = false

        /// The longest line taken: a path and a title, each percent-encoded (three bytes a byte).
        public static let maximumLineLength = 64 << 10

        /// The most notes kept: a file of nothing but bad lines is said in a few lines, not millions.
        public static let noteLimit = 10

        /// The most entries kept.
        private let limit: Int

        public init(limit: Int = Entry.listLimit) {
            self.limit = limit
        }

        /// What was read, and whether the list was cut at the limit (the rest of the file was
        /// then not read).
        public struct Result {
            public var session: SavedSession
            public var cut: Bool
            /// What was set right or left out, in line order (at most `noteLimit`).
            public var notes: [Note] = []
            /// How many more there were.
            public var unnoted = 0
        }

        /// Reads the next piece of the file; false once nothing more is wanted (a problem was
        /// found, or the list is full).
        public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
            var start = 0
            while failure == nil, !full, let end = chunk[start...].firstIndex(of: 0x0A) {
                if partial.isEmpty {
                    line(chunk[start..<end])
                } else {
                    partial += chunk[start..<end]
                    let whole = partial
                    partial = []
                    line(whole[...])
                }
                start = end + 1
            }
            guard failure == nil, !full else { return false }
            partial += chunk[start...]
            if partial.count > Self.maximumLineLength {
                failure = Unreadable(line: lineNumber + 1, reason: "a line longer than \(Self.maximumLineLength) bytes")
            }
            return failure == nil
        }

        /// The session read, or why the file is not one.
        public mutating func finish() -> Swift.Result<Result, Unreadable> {
            if let failure { return .failure(failure) }
            if !full {
                guard partial.isEmpty else { return .failure(Unreadable(line: 0, reason: "cut short (no final line break)")) }
                guard lineNumber > 0 else { return .failure(Unreadable(line: 1, reason: "not a tplayer saved session")) }
                guard ended else { return .failure(Unreadable(line: 0, reason: "cut short (no end line)")) }
            }
            var read = session
            if read.current == nil, let line = fields["position"] {
                note(line, "position: no current entry; ignored")
                read.position = .zero
            }
            let places = places()
            if let current = read.current {
                if current < places.count, places[current] >= 0 {
                    read.current = places[current]
                } else {
                    // A list cut at the limit may have left its current song out: start at the first.
                    if !full || leftOut.contains(current) {
                        note(fields["current"] ?? 0, "current \(current): no such song in the list; the list starts at its first")
                    }
                    read.current = nil
                    read.position = .zero
                }
            }
            if let queueLine {
                // Each queued entry where the list has it now; one left out of the list leaves the queue.
                read.upNext = queued.compactMap { $0 >= 0 && $0 < places.count && places[$0] >= 0 ? places[$0] : nil }
                if read.upNext.count != queued.count { note(queueLine, "queue: an entry not in the list; left out of the queue") }
            }
            if let orderLine {
                read.order = playOrder(places: places, count: read.entries.count)
                if read.order == nil, !read.entries.isEmpty {
                    note(orderLine, "order: not an order of the \(read.entries.count) songs; list order is used")
                }
            }
            notes.sort { $0.line < $1.line }
            return .success(Result(session: read, cut: full, notes: notes, unnoted: unnoted))
        }

        /// Where each entry line read is in the list read; -1 for one left out.
        private func places() -> [Int] {
            guard !leftOut.isEmpty else { return Array(0..<entryLines) }
            var places = [Int](repeating: 0, count: entryLines)
            var out = 0
            for number in 0..<entryLines {
                if out < leftOut.count, leftOut[out] == number {
                    places[number] = -1
                    out += 1
                } else {
                    places[number] = number - out
                }
            }
            return places
        }

        /// The `order` lines as a play order of the list read: the entries left out (and, in a
        /// list cut at the limit, those past it) taken out; `nil` unless every song is in it once.
        private func playOrder(places: [Int], count: Int) -> [Int]? {
            guard !orderBroken else { return nil }
            let kept = order.compactMap { index -> Int? in
                if index < places.count { return places[index] >= 0 ? places[index] : nil }
                return full ? nil : -1  // past the list: in a list cut at the limit, a song not read
            }
            // An order of no songs is list order (and is saved as none).
            guard kept.count == count, count > 0 else { return nil }
            var seen = [Bool](repeating: false, count: count)
            for index in kept {
                guard index >= 0, !seen[index] else { return nil }
                seen[index] = true
            }
            return kept
        }

        private mutating func note(_ line: Int, _ text: String) {
            if notes.count < Self.noteLimit { notes.append(Note(line: line, text: text)) } else { unnoted += 1 }
        }

        private mutating func line<Bytes: BidirectionalCollection<UInt8>>(_ raw: Bytes) where Bytes.Index == Int {
            lineNumber += 1
            let number = lineNumber
            // CR LF as well as LF: a file that passed through an editor or a copy from Windows.
            let line = raw.last == 0x0D ? raw.dropLast() : raw[...]
            if number == 1 {
                if !line.elementsEqual(header.utf8) { failure = Unreadable(line: number, reason: "not a tplayer saved session") }
                return
            }
            guard !ended else { return note(number, "\(TextLines.shown(line)): after the end line; ignored") }
            if line.elementsEqual("end".utf8) {
                ended = true
                return
            }
            let attached = afterEntry
            afterEntry = false
            if line.starts(with: "span ".utf8) || line.starts(with: "tags ".utf8) || line.starts(with: "sheet ".utf8) {
                return attached ? sheetTrack(line, at: number) : note(number, "\(TextLines.shown(line)): not after an entry; ignored")
            }
            if line.starts(with: "prio ".utf8) {
                guard attached else { return note(number, "\(TextLines.shown(line)): not after an entry; ignored") }
                afterEntry = true
                guard let priority = UInt8(String(decoding: line.dropFirst(5).prefix(4), as: UTF8.self)), priority > 0 else {
                    return note(number, "prio: not 1 to 255; left out")
                }
                session.priorities[session.entries.count - 1] = priority
                return
            }
            if line.starts(with: "order ".utf8) { return orderNumbers(line.dropFirst(6), at: number) }
            if line.starts(with: "queue ".utf8), queueLine == nil {
                queueLine = number
                queued = line.dropFirst(6).split(separator: 0x20).prefix(SavedSession.orderLineLength)
                    .compactMap { Int(String(decoding: $0, as: UTF8.self)) }
                return
            }
            let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            let key = String(decoding: parts[0], as: UTF8.self)
            if key == "entry" { return entry(parts.dropFirst(), at: number) }
            field(key, parts.count == 2 ? parts[1] : nil, shown: TextLines.shown(line), at: number)
        }

        /// `entry PATH [TITLE]`: a path that is not valid leaves the entry out; a title that is
        /// not valid leaves the title out.
        private mutating func entry<Part: Collection<UInt8>>(_ parts: ArraySlice<Part>, at number: Int) {
            guard entryLines < limit else {
                full = true
                return
            }
            entryLines += 1
            guard let first = parts.first, let path = percentDecoded(Array(first)), !path.isEmpty else {
                leftOut.append(entryLines - 1)
                return note(number, "entry: not a valid path; left out")
            }
            var title: String?
            if parts.count == 2 {
                if let decoded = percentDecoded(Array(parts[parts.startIndex + 1])), let text = String(validating: decoded, as: UTF8.self) {
                    title = text
                } else {
                    note(number, "entry: not a valid title; the song is kept without it")
                }
            }
            session.entries.append(Entry(path: Path(bytes: path), title: title))
            afterEntry = true
        }

        /// `span START END|-` (CD frames), `tags TITLE ARTIST ALBUM YEAR GENRE TRACK COMMENT` or
        /// `sheet PATH` after an entry: a CUE sheet's track. A span that is not valid leaves the entry out (the
        /// whole image is not the song that was listed); tags that are not valid are left out.
        private mutating func sheetTrack<Bytes: BidirectionalCollection<UInt8>>(_ line: Bytes, at number: Int) {
            let parts = line.split(separator: 0x20, omittingEmptySubsequences: false).dropFirst()
            afterEntry = true
            if line.starts(with: "sheet ".utf8) {
                guard parts.count == 1, let path = parts.first.flatMap({ percentDecoded(Array($0)) }), !path.isEmpty else {
                    return note(number, "sheet: not a valid path; left out")
                }
                session.entries[session.entries.count - 1].sheet = Path(bytes: path)
                return
            }
            if line.starts(with: "span ".utf8) {
                let values = parts.map { String(decoding: $0.prefix(24), as: UTF8.self) }
                let limit: Int64 = 1 << 40  // 465 years of CD frames
                let start = values.first.flatMap { Int64($0) }
                let end = values.last.flatMap { Int64($0) }
                guard values.count == 2, let start, (0..<limit).contains(start),
                      values[1] == "-" || end.map({ $0 > start && $0 < limit }) == true else {
                    session.entries.removeLast()
                    session.priorities[session.entries.count] = nil
                    leftOut.append(entryLines - 1)
                    afterEntry = false
                    return note(number, "span: not a valid track of a file; the song is left out")
                }
                session.entries[session.entries.count - 1].span = TrackSpan(start: start, end: end)
                return
            }
            var tags = SongInfo.Tags()
            guard parts.count == SongInfo.Tags.fields.count else { return note(number, "tags: not \(SongInfo.Tags.fields.count) fields; left out") }
            for (field, part) in zip(SongInfo.Tags.fields, parts) {
                guard let decoded = percentDecoded(Array(part)), let text = String(validating: decoded, as: UTF8.self) else {
                    return note(number, "tags: not valid text; left out")
                }
                tags[keyPath: field] = text.isEmpty ? nil : text
            }
            session.entries[session.entries.count - 1].sheetTags = tags
        }

        /// `order N N …`, on as many lines as it takes: kept to be checked against the list at
        /// the end (at most `limit` numbers: no list holds more).
        private mutating func orderNumbers<Numbers: Collection<UInt8>>(_ numbers: Numbers, at number: Int) {
            orderLine = orderLine ?? number
            guard !orderBroken else { return }
            for part in numbers.split(separator: 0x20, omittingEmptySubsequences: false) {
                guard let index = Int(String(decoding: part, as: UTF8.self)), index >= 0, index >= limit || order.count < limit else {
                    orderBroken = true
                    order = []
                    return
                }
                if index < limit { order.append(index) }
            }
        }

        /// `KEY VALUE`: a value out of range is set right or ignored, an unknown key ignored.
        private mutating func field<Part: Collection<UInt8>>(_ key: String, _ part: Part?, shown: String, at number: Int) {
            guard ["volume", "muted", "repeat", "shuffle", "current", "position", "repeat-one", "album-mode", "stop-after-each",
                   "consume", "shuffle-albums"].contains(key) else {
                return note(number, "\(shown): not a field tplayer writes; ignored")
            }
            guard fields[key] == nil else { return note(number, "\(shown): \(key) again; the first is kept") }
            let value = part.flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
            let flags = [("muted", \SavedSession.muted), ("repeat", \.repeats), ("shuffle", \.shuffles), ("repeat-one", \.repeatsOne),
                         ("album-mode", \.albumMode), ("stop-after-each", \.stopsAfterEach), ("consume", \.consumes),
                         ("shuffle-albums", \.shufflesAlbums)]
            if let flag = flags.first(where: { $0.0 == key }) {
                guard let value, value == 0 || value == 1 else { return note(number, "\(shown): not 0 or 1; ignored") }
                session[keyPath: flag.1] = value == 1
            } else {
                guard let value else { return note(number, "\(shown): not a number; ignored") }
                switch key {
                case "volume":
                    session.volume = Int(min(max(value, 0), 100))
                    if Int64(session.volume) != value { note(number, "\(shown): not 0 to 100; \(session.volume) is used") }
                case "current" where value >= 0 && value < Int64(Int32.max): session.current = Int(value)
                case "position" where value >= 0 && value < 1 << 60: session.position = AudioTime(flicks: value)
                default: return note(number, "\(shown): out of range; ignored")
                }
            }
            fields[key] = number
        }
    }
}
