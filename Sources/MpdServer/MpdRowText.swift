import Library
import PlayerCore

/// One song's lines made straight from its row's bytes (`SongRow`), as a large reply
/// (`listallinfo`, a `find` of half the library) writes them: the same lines
/// `MpdSongText(record, uri:).text(wanted)` makes from the record read from that row, without
/// making the record. Every value passes the one sanitiser.
struct MpdRowText {
    /// Whether each tag is wanted, by its place in MPD's table.
    private let wanted: [Bool]
    /// Each tag's line's start (`Artist: `), by its place.
    private static let starts: [[UInt8]] = {
        var starts = [[UInt8]](repeating: [], count: MpdTag.allCases.count)
        for tag in MpdTag.allCases { starts[Int(tag.place)] = Array("\(tag.rawValue): ".utf8) }
        return starts
    }()

    private static let file = Array("file: ".utf8), lastModified = Array("Last-Modified: ".utf8), format = Array("Format: ".utf8)
    private static let time = Array("Time: ".utf8), duration = Array("\nduration: ".utf8)

    init(_ wanted: Set<MpdTag>) {
        var places = [Bool](repeating: false, count: MpdTag.allCases.count)
        for tag in wanted { places[Int(tag.place)] = true }
        self.wanted = places
    }

    /// `row`'s lines, named `uri` (its bytes), after `output`'s.
    func append(_ row: SongRow, uri: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        Self.line(Self.file, uri, &output)
        if let modified = row.integer(.modified), modified >= 0 {
            output += Self.lastModified
            MpdSongText.utc(seconds: modified / 1_000_000_000, into: &output)
            output.append(0x0A)
        }
        if let rate = row.integer(.rate).flatMap(Int.init(exactly:)), rate > 0,
           let channels = row.integer(.channels).flatMap(Int.init(exactly:)), channels > 0 {
            output += Self.format
            output += String(rate).utf8
            output.append(0x3A)
            if let bits = row.integer(.bits).flatMap(Int.init(exactly:)) { output += String(bits).utf8 } else { output.append(0x66) }
            output.append(0x3A)
            output += String(channels).utf8
            output.append(0x0A)
        }
        Self.visit(row) { tag, value in
            if wanted[Int(tag.place)] { Self.line(Self.starts[Int(tag.place)], value, &output) }
        }
        if let seconds = row.real(.seconds), seconds.isFinite, seconds >= 0 {
            output += Self.time
            output += String(MpdStatusCommands.whole(seconds)).utf8
            output += Self.duration
            MpdStatusCommands.decimal(seconds, into: &output)
            output.append(0x0A)
        }
    }

    /// Each of `row`'s tags' values as its bytes, in the order MPD prints them (as
    /// `MpdSongText.visit` gives a record's): several in a column apart by the separator (an
    /// empty one is none), a number in decimal digits.
    static func visit(_ row: SongRow, _ value: (MpdTag, UnsafeBufferPointer<UInt8>) -> Void) {
        func each(_ field: SongRow.Field, _ tag: MpdTag) {
            guard let values = row.bytes(field) else { return }
            for one in values.split(separator: SongRow.separator) { value(tag, UnsafeBufferPointer(rebasing: one)) }
        }
        func one(_ field: SongRow.Field, _ tag: MpdTag) {
            if let one = row.bytes(field) { value(tag, one) }
        }
        func number(_ field: SongRow.Field, _ tag: MpdTag) {
            guard let number = row.integer(field).flatMap(Int.init(exactly:)) else { return }
            var digits = String(number)
            digits.withUTF8 { value(tag, $0) }
        }
        each(.artists, .artist)
        each(.albumArtists, .albumArtist)
        one(.title, .title)
        one(.album, .album)
        number(.track, .track)
        one(.date, .date)
        each(.genres, .genre)
        each(.composers, .composer)
        number(.disc, .disc)
        guard let others = row.bytes(.others) else { return }
        for pair in others.split(separator: SongRow.separator) {
            guard let mark = pair.firstIndex(of: SongRow.pairMark),
                  let tag = MpdTag(rawValue: String(decoding: UnsafeBufferPointer(rebasing: pair[..<mark]), as: UTF8.self)) else { continue }
            value(tag, UnsafeBufferPointer(rebasing: pair[(mark + 1)...]))
        }
    }

    /// `name` and `value`, shown as the sanitiser shows it, and the line's end. Printable ASCII
    /// is as it is; anything else is read as UTF-8 and passed through the sanitiser.
    private static func line(_ start: [UInt8], _ value: UnsafeBufferPointer<UInt8>, _ output: inout [UInt8]) {
        output += start
        if value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            output += value
        } else {
            output += UntrustedText.shown(String(decoding: value, as: UTF8.self)).utf8
        }
        output.append(0x0A)
    }
}
