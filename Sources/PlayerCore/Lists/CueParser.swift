/// Reads a CUE sheet line by line (`CueSheet.parse`): the commands, with what is wrong with
/// each located at its line and column.
struct CueParser {
    private let file: String
    private let windows1252: Bool
    private var sheet = CueSheet()
    /// The `FILE` in effect: its name, its line, and its ordinal (two `FILE` lines naming the same
    /// file are two files: a track never ends in another one's audio).
    private var current: (path: Path, location: SourceLocation, ordinal: Int)?
    private var fileCount = 0
    /// The track being read, and whether it is to be left out (its problem already said).
    private var track: CueSheet.Track?
    private var trackSkipped = false
    private var hasStart = false
    /// The last index read in the current file: indexes never go back.
    private var lastIndex: Int64 = -1
    /// Where `INDEX 00` put the track's pregap, in the current file.
    private var pendingPregap: Int64?
    /// The file ordinal of each track kept, to find ends.
    private var ordinals: [Int] = []
    private var stopped = false

    init(file: String, windows1252: Bool) {
        self.file = file
        self.windows1252 = windows1252
    }

    /// One line, split into words as bytes: their text and 1-based columns.
    private struct Words {
        let line: UnsafeBufferPointer<UInt8>
        let number: Int

        /// The rest of the line from `offset`, trimmed.
        func rest(from offset: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
            TextLines.trimmed(line[min(offset, line.count)...])
        }

        /// The word at `offset` (blank-separated) and where the next one may start.
        func word(at offset: Int) -> (word: Slice<UnsafeBufferPointer<UInt8>>, next: Int)? {
            var start = offset
            while start < line.count, TextLines.isBlank(line[start]) { start += 1 }
            guard start < line.count else { return nil }
            var end = start
            while end < line.count, !TextLines.isBlank(line[end]) { end += 1 }
            return (line[start..<end], end)
        }

        func column(_ offset: Int) -> Int { TextLines.column(of: offset, in: line) }
    }

    mutating func take(_ line: LineSplitter.Line) {
        guard !stopped else { return }
        let words = Words(line: line.bytes, number: line.number)
        guard let (command, next) = words.word(at: 0) else { return }
        let column = words.column(command.startIndex)
        if let unreadable = line.unreadable { return problem(line.number, column, unreadable) }
        let name = String(decoding: command.prefix(16), as: UTF8.self).uppercased()
        let shown = TextLines.shown(words.rest(from: command.startIndex))
        let say = { (parser: inout CueParser, message: String) in parser.problem(line.number, column, "\(shown): \(message)") }
        switch name {
        case "REM": rem(words, after: next)
        case "FILE": fileCommand(words, after: next, column: column, say: say)
        case "TRACK": trackCommand(words, after: next, column: column, say: say)
        case "INDEX": index(words, after: next, say: say)
        case "PREGAP", "POSTGAP":
            guard track != nil else { return say(&self, "outside a track; ignored") }
            guard let frames = time(words.rest(from: next), say: say) else { return }
            if name == "PREGAP" { track?.pregap = frames } else { track?.postgap = frames }
        case "TITLE", "PERFORMER", "SONGWRITER":
            let value = text(words.rest(from: next))
            let field: WritableKeyPath<CueSheet.Track, String?> = name == "TITLE" ? \.title : name == "PERFORMER" ? \.performer : \.songwriter
            if track != nil {
                track?[keyPath: field] = value
            } else {
                let sheetField: WritableKeyPath<CueSheet, String?> = name == "TITLE" ? \.title : name == "PERFORMER" ? \.performer : \.songwriter
                sheet[keyPath: sheetField] = value
            }
        case "ISRC", "FLAGS":
            let value = text(words.rest(from: next))
            guard track != nil else { return say(&self, "outside a track; ignored") }
            if name == "ISRC" { track?.isrc = value } else { track?.flags = value }
        case "CATALOG": sheet.catalog = text(words.rest(from: next))
        case "CDTEXTFILE": break  // CD-Text for a burner: the sheet's own fields say the same
        default: say(&self, "unknown command \(String(decoding: command.prefix(32), as: UTF8.self)); ignored")
        }
    }

    mutating func finish() -> CueSheet {
        endTrack()
        // Ends: the next kept track's start, when it is in the same file.
        for index in sheet.tracks.indices.dropLast() where ordinals[index] == ordinals[index + 1] {
            sheet.tracks[index].end = sheet.tracks[index + 1].start
        }
        for index in sheet.tracks.indices {
            sheet.tracks[index].replayGain.albumGain = sheet.replayGain.albumGain
            sheet.tracks[index].replayGain.albumPeak = sheet.replayGain.albumPeak
        }
        return sheet
    }

    // MARK: Commands

    /// `REM KEY value`: a comment, but rippers keep the genre, the date and ReplayGain there.
    private mutating func rem(_ words: Words, after offset: Int) {
        guard let (key, next) = words.word(at: offset) else { return }
        let name = String(decoding: key.prefix(32), as: UTF8.self).uppercased()
        let value = text(words.rest(from: next))
        switch name {
        case "GENRE": if track != nil { track?.genre = value } else { sheet.genre = value }
        case "DATE": if track != nil { track?.date = value } else { sheet.date = value }
        case _ where name.hasPrefix("REPLAYGAIN_"):
            guard let value else { return }
            if track != nil { track?.replayGain.read(key: name, value: value) } else { sheet.replayGain.read(key: name, value: value) }
        default: break
        }
    }

    /// `FILE "name" TYPE`: the type is not used (the file's content decides how it is decoded).
    private mutating func fileCommand(_ words: Words, after offset: Int, column: Int, say: (inout CueParser, String) -> Void) {
        let rest = words.rest(from: offset)
        var name = rest
        if rest.first == UInt8(ascii: "\""), let close = rest.lastIndex(of: UInt8(ascii: "\"")), close > rest.startIndex {
            name = rest[(rest.startIndex + 1)..<close]
        } else if rest.first != UInt8(ascii: "\""), let blank = rest.lastIndex(where: TextLines.isBlank) {
            name = TextLines.trimmed(rest[..<blank])  // `FILE my album.wav WAVE`
        } else if rest.first == UInt8(ascii: "\"") {
            name = rest.dropFirst()
        }
        fileCount += 1
        lastIndex = -1
        pendingPregap = nil
        guard !name.isEmpty, !name.contains(0) else {
            current = nil
            return say(&self, "no file name; the tracks in it are left out")
        }
        current = (Path(bytes: name), SourceLocation(file: file, line: words.number, column: column), fileCount)
    }

    /// `TRACK nn AUDIO`: other types (data tracks of a mixed-mode CD) are left out.
    private mutating func trackCommand(_ words: Words, after offset: Int, column: Int, say: (inout CueParser, String) -> Void) {
        endTrack()
        let place = SourceLocation(file: file, line: words.number, column: column)
        let number = words.word(at: offset)
        let kind = number.flatMap { words.word(at: $0.next) }.map { String(decoding: $0.word.prefix(16), as: UTF8.self).uppercased() }
        let value = number.flatMap { Self.number($0.word, digits: 2) } ?? -1
        track = CueSheet.Track(number: value, file: current?.path ?? Path(""), fileLocation: current?.location ?? place,
                               location: place, start: 0)
        trackSkipped = true
        hasStart = false
        guard (1...99).contains(value) else { return say(&self, "not a track number from 1 to 99; the track is left out") }
        guard kind == "AUDIO" else { return say(&self, "not an audio track (\(kind ?? "no type")); left out") }
        guard current != nil else { return say(&self, "a track before any FILE; left out") }
        trackSkipped = false
    }

    /// `INDEX nn mm:ss:ff`: 00 is the pregap, 01 the track's start; later ones are marks within it.
    private mutating func index(_ words: Words, after offset: Int, say: (inout CueParser, String) -> Void) {
        guard track != nil else { return say(&self, "outside a track; ignored") }
        guard let (word, next) = words.word(at: offset), let number = Self.number(word, digits: 2), number <= 99 else {
            return failIndex(say, "not an index number from 00 to 99")
        }
        guard let frames = time(words.rest(from: next), say: { parser, message in parser.failIndex(say, message) }) else { return }
        if frames < lastIndex {
            return failIndex(say, "before the index above it (\(TrackSpan.time(lastIndex))); indexes go forward")
        }
        if number == 1 {
            guard !hasStart else { return say(&self, "a second INDEX 01 in the track; ignored") }
            if let last = sheet.tracks.last, ordinals.last == current?.ordinal, frames <= last.start {
                return failIndex(say, "not after track \(last.number)'s start (\(TrackSpan.time(last.start)))")
            }
            hasStart = true
            track?.start = frames
            if let current {
                track?.file = current.path
                track?.fileLocation = current.location
            }
            if track?.pregap == nil, let pregapStart = pendingPregap { track?.pregap = frames - pregapStart }
        } else if number == 0 {
            pendingPregap = frames
        }
        lastIndex = frames
    }

    /// An index the track cannot do without is wrong: the track is left out.
    private mutating func failIndex(_ say: (inout CueParser, String) -> Void, _ message: String) {
        say(&self, message + (trackSkipped ? "" : "; the track is left out"))
        trackSkipped = true
    }

    /// Keeps the track read, if it is whole.
    private mutating func endTrack() {
        defer {
            track = nil
            pendingPregap = nil
        }
        guard let track, !trackSkipped else { return }
        guard hasStart, let ordinal = current?.ordinal else {
            let number = track.number < 10 ? "0\(track.number)" : "\(track.number)"
            return problem(track.location.line, track.location.column, "TRACK \(number): no INDEX 01; the track is left out")
        }
        sheet.tracks.append(track)
        ordinals.append(ordinal)
    }

    // MARK: Values

    /// `mm:ss:ff` in CD frames; minutes are not bounded by a CD's 99 (an image may be longer).
    private mutating func time(_ text: Slice<UnsafeBufferPointer<UInt8>>, say: (inout CueParser, String) -> Void) -> Int64? {
        let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 3, let minutes = Self.number(parts[0], digits: 5), let seconds = Self.number(parts[1], digits: 2),
              let frames = Self.number(parts[2], digits: 2) else {
            say(&self, "not a time mm:ss:ff")
            return nil
        }
        guard seconds < 60 else {
            say(&self, "seconds past 59")
            return nil
        }
        guard frames < 75 else {
            say(&self, "frames past 74 (75 a second)")
            return nil
        }
        return (Int64(minutes) * 60 + Int64(seconds)) * 75 + Int64(frames)
    }

    /// A number of 1 to `digits` decimal digits.
    private static func number<C: Collection<UInt8>>(_ bytes: C, digits: Int) -> Int? {
        guard (1...digits).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// A value, quoted or not: between the first and the last quote (a title may hold quotes),
    /// or the rest of the line; `nil` when empty.
    private func text(_ rest: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var value = rest
        if rest.first == UInt8(ascii: "\"") {
            let close = rest.lastIndex(of: UInt8(ascii: "\"")).flatMap { $0 > rest.startIndex ? $0 : nil } ?? rest.endIndex
            value = rest[(rest.startIndex + 1)..<close]
        }
        guard !value.isEmpty else { return nil }
        return windows1252 ? TextLines.windows1252(value) : String(decoding: value, as: UTF8.self)
    }

    private mutating func problem(_ line: Int, _ column: Int, _ message: String) {
        guard sheet.problems.count < CueSheet.maxProblems else {
            stopped = true
            sheet.problems.append(Diagnostic(SourceLocation(file: file, line: line, column: column),
                                             "more than \(CueSheet.maxProblems) problems; the rest is not read: is it really a CUE sheet?"))
            return
        }
        sheet.problems.append(Diagnostic(SourceLocation(file: file, line: line, column: column), message))
    }
}
