/// ID3v2's synchronised lyrics (`SYLT`): a text encoding, a language, a time-stamp format
/// (milliseconds, or MPEG frames), a content type, a description, then each syllable or line with
/// the time it is sung (a 32-bit big-endian stamp after its text). Read into `Lyrics`' lines: a
/// text starting with a line break starts a new line, as ID3 says, the others being its words;
/// in a frame where none starts with one (as many writers make them), each text is a line.
/// Bounded like an `.lrc` (`Lyrics.maxLines`, `Lyrics.maxMilliseconds`); damage ends it where it
/// is, keeping what came before.
public enum SyncedLyricsFrame {
    /// The lyrics `body` (a `SYLT` frame's content, unsynchronisation undone) gives; `framesPerSecond`
    /// turns MPEG-frame stamps into time (1152 samples a frame at the song's rate for layer III).
    /// `nil` when it holds no line.
    public static func lyrics(_ body: [UInt8], framesPerSecond: Double) -> Lyrics? {
        guard body.count >= 6 else { return nil }
        let encoding = body[0]
        guard encoding <= 3 else { return nil }
        let format = body[4]
        guard format == 1 || format == 2 else { return nil }
        var at = 6
        // The description, skipped.
        guard let (_, afterDescription) = string(body, from: at, encoding: encoding) else { return nil }
        at = afterDescription
        var lyrics = Lyrics()
        var words: [(time: Int64, text: String)] = []
        var pieces: [(time: Int64, text: String)] = []
        func endLine() {
            guard let first = words.first, lyrics.lines.count < Lyrics.maxLines else { return words = [] }
            let text = words.map(\.text).joined()
            let parts = words.count > 1 ? words.map { Lyrics.Word(time: $0.time, text: $0.text) } : []
            lyrics.lines.append(Lyrics.Line(time: first.time, text: text, words: parts))
            words = []
        }
        while at < body.count, pieces.count < Lyrics.maxLines * 4 {
            guard let (text, next) = string(body, from: at, encoding: encoding), next + 4 <= body.count else { break }
            let stamp = Int64(body[next]) << 24 | Int64(body[next + 1]) << 16 | Int64(body[next + 2]) << 8 | Int64(body[next + 3])
            at = next + 4
            let milliseconds: Int64
            if format == 2 {
                milliseconds = stamp
            } else {
                guard framesPerSecond > 0, framesPerSecond.isFinite else { break }
                milliseconds = Int64((Double(stamp) * 1000 / framesPerSecond).rounded())
            }
            guard milliseconds <= Lyrics.maxMilliseconds else { break }
            pieces.append((milliseconds, text))
        }
        let breaks: Set<Character> = ["\n", "\r", "\r\n"]
        let lined = pieces.contains { $0.text.first.map(breaks.contains) ?? false }
        for piece in pieces {
            if !lined || piece.text.first.map(breaks.contains) ?? false { endLine() }
            words.append((piece.time, String(piece.text.drop { breaks.contains($0) })))
        }
        endLine()
        lyrics.lines = lyrics.lines.filter { !$0.text.isEmpty }.sorted { $0.time < $1.time }
        return lyrics.lines.isEmpty ? nil : lyrics
    }

    /// A terminated string in ID3's `encoding` (0 Latin-1, 1 UTF-16 with a BOM, 2 UTF-16BE,
    /// 3 UTF-8) from `start`, and where what follows it starts; `nil` when it is not terminated.
    static func string(_ bytes: [UInt8], from start: Int, encoding: UInt8) -> (String, Int)? {
        guard start <= bytes.count else { return nil }
        if encoding == 0 || encoding == 3 {
            guard let end = bytes[start...].firstIndex(of: 0) else { return nil }
            let raw = bytes[start..<end]
            let text = encoding == 3 ? String(decoding: raw, as: UTF8.self) : String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
            return (text, end + 1)
        }
        var at = start
        var units: [UInt16] = []
        var bigEndian = encoding == 2
        while at + 1 < bytes.count {
            let (a, b) = (bytes[at], bytes[at + 1])
            at += 2
            if a == 0 && b == 0 { return (String(decoding: units, as: UTF16.self), at) }
            if units.isEmpty && encoding == 1 && ((a == 0xFF && b == 0xFE) || (a == 0xFE && b == 0xFF)) {
                bigEndian = a == 0xFE
                continue
            }
            units.append(bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a))
        }
        return nil
    }
}
