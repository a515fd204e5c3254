import Library
import PlayerCore

/// One song as MPD prints it (`SongPrint.cxx`): `file:`, `Last-Modified:`, `Format:`, its tags,
/// `Time:` and `duration:`. What is known of it: the library's record, else what the decoder
/// read when it opened (the song playing), else its name alone.
struct MpdSongText {
    var uri: String
    var modified: Int64?
    var format: String?
    var tags: [(MpdTag, String)] = []
    var seconds: Double?
    /// The part of the file that plays (MPD's `Range:`), in milliseconds; `nil`: the whole.
    var range: (start: Int64, end: Int64?)?

    init(uri: String) {
        self.uri = uri
    }

    init(_ song: LibrarySong, uri: String) {
        self.uri = uri
        modified = song.modified
        if song.rate > 0, song.channels > 0 { format = "\(song.rate):\(song.bits.map(String.init) ?? "f"):\(song.channels)" }
        Self.visit(song) { tags.append(($0, $1)) }
        seconds = song.seconds
    }

    /// Each of `song`'s values with its MPD tag, in the order its lines are printed: what the
    /// song's text, the catalog's filter columns and its per-tag values all read.
    static func visit(_ song: LibrarySong, _ value: (MpdTag, String) -> Void) {
        for artist in song.artists { value(.artist, artist) }
        for artist in song.albumArtists { value(.albumArtist, artist) }
        if let title = song.title { value(.title, title) }
        if let album = song.album { value(.album, album) }
        if let track = song.track { value(.track, String(track)) }
        if let date = song.date { value(.date, date) }
        for genre in song.genres { value(.genre, genre) }
        for composer in song.composers { value(.composer, composer) }
        if let disc = song.disc { value(.disc, String(disc)) }
        for tag in song.otherTags { value(tag.name, tag.value) }
    }

    init(_ song: SongInfo, uri: String) {
        self.uri = uri
        format = MpdStatusCommands.format(song)
        let tags = song.tags
        if let artist = tags.artist { self.tags.append((.artist, artist)) }
        if let title = tags.title { self.tags.append((.title, title)) }
        if let album = tags.album { self.tags.append((.album, album)) }
        if let track = tags.track { self.tags.append((.track, track)) }
        if let year = tags.year { self.tags.append((.date, year)) }
        if let genre = tags.genre { self.tags.append((.genre, genre)) }
        if let comment = tags.comment { self.tags.append((.comment, comment)) }
        seconds = song.totalFrames.map { Double($0) / Double(max(song.sampleRate, 1)) }
    }

    /// The lines, with the tags `wanted`; every value from a file passes the one sanitiser (a
    /// line break in a tag would end the line and forge the next).
    func text(_ wanted: Set<MpdTag>) -> String {
        var text = "file: \(UntrustedText.shown(uri))\n"
        if let (start, end) = range {
            func time(_ ms: Int64) -> String { "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())" }
            if let end, end > 0 { text += "Range: \(time(start))-\(time(end))\n" } else if start > 0 { text += "Range: \(time(start))-\n" }
        }
        if let modified, modified >= 0 { text += "Last-Modified: \(Self.utc(seconds: modified / 1_000_000_000))\n" }
        if let format { text += "Format: \(format)\n" }
        for (tag, value) in tags where wanted.contains(tag) {
            text += "\(tag.rawValue): \(UntrustedText.shown(value))\n"
        }
        if let seconds, seconds.isFinite, seconds >= 0 {
            text += "Time: \(MpdStatusCommands.whole(seconds))\nduration: \(MpdStatusCommands.decimal(seconds))\n"
        }
        return text
    }

    /// Only `span` of the file plays: its range, and its length.
    mutating func play(_ span: TrackSpan) {
        let milliseconds = { (frames: Int64) in frames.scaled(by: 1000, over: TrackSpan.framesPerSecond) }
        range = (milliseconds(span.start), span.end.map(milliseconds))
        let start = Double(span.start) / Double(TrackSpan.framesPerSecond)
        if let end = span.end {
            seconds = max(Double(end) / Double(TrackSpan.framesPerSecond) - start, 0)
        } else if let whole = seconds {
            seconds = max(whole - start, 0)
        }
    }

    /// `2024-03-05T12:00:00Z` for `seconds` since 1970 (the civil calendar, UTC).
    static func utc(seconds: Int64) -> String {
        var bytes: [UInt8] = []
        utc(seconds: seconds, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, after `output`'s bytes.
    static func utc(seconds: Int64, into output: inout [UInt8]) {
        // Any time a file system can say (a year of up to 12 digits).
        let seconds = min(max(seconds, -(1 << 50)), 1 << 50)
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let inDay = seconds - days * 86400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) {
            output.append(0x30 + UInt8(value / 10))
            output.append(0x30 + UInt8(value % 10))
        }
        if (1000...9999).contains(year) {
            two(year / 100)
            two(year % 100)
        } else {
            output += String(year).utf8
        }
        output.append(0x2D)
        two(month)
        output.append(0x2D)
        two(day)
        output.append(0x54)
        two(inDay / 3600)
        output.append(0x3A)
        two(inDay % 3600 / 60)
        output.append(0x3A)
        two(inDay % 60)
        output.append(0x5A)
    }
}

extension MpdResponder {
    /// The songs at `positions` of the list, each with `Pos:` and `Id:`, their tags read from
    /// the library in one query.
    /// A reply streamed a part at a time gives the list and its marks as they were when it
    /// began (`entries`, `marks`): the list may change between its parts.
    func songs(_ positions: some Collection<Int>, client: MpdClientState, entries: EntryList? = nil, marks: EntryMarks? = nil) -> String {
        let entries = entries ?? session.entries
        let marks = marks ?? session.marks
        let ids = marks.ids
        // The songs' tags as the library holds them: one read for them all.
        var known: [Path: LibrarySong] = [:]
        let paths = Set(positions.compactMap { $0 < entries.count ? entries[$0].path : nil })
        if let library = link.library(), case .success(let found) = library.songs(at: Array(paths)) {
            for song in found { known[song.path] = song }
        }
        let status = session.status
        var text = ""
        for position in positions where position < entries.count && position < ids.count {
            let path = entries[position].path
            let uri = link.roots.uri(of: path)
            var song = known[path].map { MpdSongText($0, uri: uri) } ?? MpdSongText(uri: uri)
            if known[path] == nil, position == status.entry, let open = status.song { song = MpdSongText(open, uri: uri) }
            if let span = entries[position].span { song.play(span) }
            for tag in marks.addedTags[ids[position]] ?? [] {
                if let name = MpdTag(named: tag.name) { song.tags.append((name, tag.value)) }
            }
            text += song.text(client.tags)
            text += "Pos: \(position)\nId: \(ids[position])\n"
            if marks.priorities[position] != 0 { text += "Prio: \(marks.priorities[position])\n" }
        }
        return text
    }
}
