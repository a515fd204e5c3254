import PlayerCore
import PlayerApp
import Terminal

/// The promises tplayer's parsers make, checked on any input: what the fuzz targets assert on
/// every input libFuzzer makes up, and what the tests assert on the saved cases.
///
/// Each check returns the promises broken (empty when all hold); a parser that traps fails
/// by crashing, which is what the fuzzer looks for first.
public enum ParserChecks {
    /// What a fuzz target does with libFuzzer's input: run `check` on it and stop the run, naming
    /// the promise, when one is broken.
    public static func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) -> [String]) -> Int32 {
        let broken = check(Array(UnsafeBufferPointer(start: data, count: size)))
        if let first = broken.first { fatalError("promise broken: \(first)") }
        return 0
    }

    /// M3U and PLS: entries are real paths, problems are located and one line each, a file
    /// with many problems is cut off, and chunks of any size parse as the whole.
    public static func playlist(_ bytes: [UInt8], format: Playlist.Format) -> [String] {
        var broken: [String] = []
        let whole = Playlist.parse(bytes, format: format)
        let lines = lineCount(bytes)
        for item in whole.items {
            let place = item.location
            if item.path.isEmpty { broken.append("an entry with an empty path at line \(place.line)") }
            if item.path.hasNUL { broken.append("an entry with a NUL byte at line \(place.line)") }
            if !(1...max(lines, 1)).contains(place.line) || place.column < 1 {
                broken.append("an entry at \(place.line):\(place.column), outside the \(lines) lines")
            }
        }
        broken += located(whole.problems, lines: lines)
        if whole.problems.count > Playlist.maxProblems + 1 {
            broken.append("\(whole.problems.count) problems; the cap is \(Playlist.maxProblems) and one more")
        }
        // Fed in two pieces split where the input says, and byte by byte when it is short.
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        for sizes in [[split, bytes.count - split]] + (bytes.count <= 256 ? [Array(repeating: 1, count: bytes.count)] : []) {
            var parser = Playlist.Parser(format: format)
            var items: [Playlist.Item] = []
            var problems: [Diagnostic] = []
            var start = 0
            for size in sizes {
                bytes[start..<(start + size)].withUnsafeBufferPointer {
                    _ = parser.feed($0, item: { items.append($0) }, problem: { problems.append($0) })
                }
                start += size
            }
            parser.finish(item: { items.append($0) }, problem: { problems.append($0) })
            if items != whole.items || problems != whole.problems {
                broken.append("chunks of \(sizes.prefix(2)) parse differently from the whole")
            }
        }
        return broken
    }

    /// ICY metadata from a station: fields have real keys, values are no longer than the block
    /// could make them, NUL padding changes nothing, the title is the first `StreamTitle`; the
    /// headers' numbers are within their bounds. The first byte splits the input into a block
    /// and a header's value.
    public static func icy(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let block = Array(bytes[split...])
        let fields = IcyMetadata.fields(block)
        for field in fields {
            if field.key.isEmpty || field.key.contains("=") || !field.key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) {
                broken.append("a field's key is not a word: \(Array(field.key.utf8))")
            }
        }
        let valueBytes = fields.reduce(0) { $0 + $1.value.utf8.count }
        if valueBytes > 3 * min(block.count, IcyMetadata.maximumBlock) {
            broken.append("\(valueBytes) bytes of values from a block of \(block.count)")
        }
        let padded = IcyMetadata.fields(block + [0, 0, 0])
        if padded.map(\.key) != fields.map(\.key) || padded.map(\.value) != fields.map(\.value), block.count + 3 <= IcyMetadata.maximumBlock {
            broken.append("NUL padding changed the fields")
        }
        if IcyMetadata.title(block) != fields.first(where: { $0.key == "StreamTitle" })?.value {
            broken.append("the title is not the first StreamTitle")
        }
        if let utf8 = String(validating: block, as: UTF8.self), IcyMetadata.text(block) != utf8 {
            broken.append("valid UTF-8 was changed")
        }
        let value = Array(bytes[..<split])
        let station = IcyMetadata.station(headers: [("icy-name", value), ("icy-br", value), ("icy-metaint", value)])
        if let bitrate = station.bitrate, !(1...IcyMetadata.maximumBitrate).contains(bitrate) { broken.append("a bit rate of \(bitrate)") }
        if let interval = station.interval, !(1...IcyMetadata.maximumInterval).contains(interval) { broken.append("an interval of \(interval)") }
        if let name = station.name, name.utf8.count > 3 * IcyMetadata.maximumValue { broken.append("a name of \(name.utf8.count) bytes") }
        return broken
    }

    /// Scripts: every statement and problem is at a real line, problems are located and one
    /// line each, waits are never negative.
    public static func script(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let parsed = ScriptParser.parse(bytes)
        let lines = lineCount(bytes)
        var last = 0
        for (place, statement) in parsed.statements {
            let line = place.line
            if line <= last || line > lines { broken.append("a statement at line \(line) after \(last), of \(lines)") }
            last = line
            switch statement {
            case .command(.wait(let time)) where time < .zero: broken.append("a negative wait at line \(line)")
            case .path(let path, let column, _):
                if path.isEmpty || path.hasNUL || column < 1 { broken.append("a bad path at line \(line)") }
            case .bare(let path, _):
                if path.isEmpty || path.hasNUL { broken.append("a bad bare path at line \(line)") }
            default: break
            }
        }
        broken += located(parsed.problems, lines: lines)
        return broken
    }

    /// Durations: never a trap, never negative, too long said apart from malformed, a bare
    /// number the same as that many seconds.
    public static func duration(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        let parsed = DurationParser.parse(Substring(text))
        if case .success(let time) = parsed, time < .zero { broken.append("'\(text)' parsed as a negative time") }
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
           DurationParser.parse(Substring(text + "s")) != parsed {
            broken.append("'\(text)' and '\(text)s' parse differently")
        }
        return broken
    }

    /// Seek targets: never a trap, a percentage in range, a time never negative, an offset
    /// that goes the way its sign says, and too long exactly when the duration is.
    public static func seekTarget(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        let parsed = ScriptParser.seekTarget(text)
        switch parsed {
        case .success(.fraction(let permyriad)) where !(0...10_000).contains(permyriad):
            broken.append("'\(text)' is a percentage out of range: \(permyriad)")
        case .success(.to(let time)) where time < .zero:
            broken.append("'\(text)' seeks to a negative time")
        case .success(.by(let offset)) where offset.flicks != 0 && (offset.flicks < 0) != text.hasPrefix("-"):
            broken.append("'\(text)' seeks the wrong way")
        default: break
        }
        if text.hasPrefix("+") || text.hasPrefix("-"),
           (parsed == .failure(.tooLong)) != (DurationParser.parse(text.dropFirst()) == .failure(.tooLong)) {
            broken.append("'\(text)' is too long as a seek but not as a duration, or the other way")
        }
        return broken
    }

    /// Remote protocol lines: never a trap; a line too long or with control bytes is refused;
    /// a load's path is the rest of the line, byte for byte; and no reply made from the line's
    /// text (a tag, a path) can hold a line break or a control character.
    public static func remoteLine(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let parsed = RemoteCommand.parse(bytes)
        let hasControl = bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        if bytes.count > RemoteCommand.maximumLineLength || hasControl {
            if case .invalid = parsed {} else { broken.append("a long or binary line was taken as \(String(describing: parsed))") }
        }
        // The path is what follows the name and one blank (blanks before the name skipped), as
        // it is, but for a `file://` in front.
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let command = bytes.drop(while: isBlank)
        if case .load(let path) = parsed, let end = command.firstIndex(where: isBlank) {
            var rest = Array(command[(end + 1)...])
            let scheme = Array("file://".utf8)
            if rest.count > scheme.count, zip(rest, scheme).allSatisfy({ $0 | 0x20 == $1 }) { rest.removeFirst(scheme.count) }
            if path.bytes != rest { broken.append("LOAD's path is not the rest of the line") }
        }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let unsafe: (String) -> Bool = { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }
        if unsafe(RemoteReplies.line(text)) { broken.append("a reply line holds a control character") }
        if RemoteReplies.split(text).contains(where: unsafe) { broken.append("a tag's lines hold a control character") }
        return broken
    }

    /// Saved sessions: never a trap; read in two pieces (split where the input says) it reads as
    /// read whole, notes and all; a few notes at most; what decodes encodes back to the same session.
    public static func savedSession(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let noting = SavedSession.decodeNoting(bytes)
        let whole = noting.map(\.session)
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        var reader = SavedSession.Reader()
        if bytes[..<split].withUnsafeBufferPointer({ reader.feed($0) }) {
            _ = bytes[split...].withUnsafeBufferPointer { reader.feed($0) }
        }
        let pieces = reader.finish()
        if pieces.map(\.session) != whole || pieces.map(\.notes) != noting.map(\.notes) {
            broken.append("read in pieces at \(split), it reads differently")
        }
        if case .success(let read) = noting, read.notes.count > SavedSession.Reader.noteLimit {
            broken.append("more than \(SavedSession.Reader.noteLimit) notes kept")
        }
        if case .success(let session) = whole, SavedSession.decode(session.encoded()) != .success(session) {
            broken.append("a decoded session does not survive encoding")
        }
        return broken
    }

    /// CUE sheets: every track kept is audio numbered 1 to 99, in a named file, at a real line,
    /// and has length (its start before its end, or it plays to the file's end); its texts are one
    /// line each; problems are located and one line each, and a sheet of problems is cut off.
    public static func cue(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let sheet = CueSheet.parse(bytes, file: "fuzz.cue")
        let lines = lineCount(bytes)
        let oneLine: (String?) -> Bool = { $0.map { !$0.contains("\n") && !$0.contains("\r") } ?? true }
        for track in sheet.tracks {
            let place = "track \(track.number) at line \(track.location.line)"
            if track.start < 0 { broken.append("\(place) starts at \(track.start)") }
            if let end = track.end, end <= track.start { broken.append("\(place) ends at \(end), not after its start \(track.start)") }
            if !(1...99).contains(track.number) { broken.append("\(place): number out of range") }
            if track.file.isEmpty || track.file.hasNUL { broken.append("\(place): no file, or a NUL in its name") }
            for location in [track.location, track.fileLocation] where !(1...max(lines, 1)).contains(location.line) || location.column < 1 {
                broken.append("\(place): at \(location.line):\(location.column), outside the \(lines) lines")
            }
            let tags = sheet.tags(of: track)
            if !SongInfo.Tags.fields.allSatisfy({ oneLine(tags[keyPath: $0]) }) { broken.append("\(place): a tag of more than one line") }
        }
        for (track, next) in zip(sheet.tracks, sheet.tracks.dropFirst()) where track.file == next.file && track.end != nil {
            if track.end != next.start { broken.append("track \(track.number) ends at \(track.end ?? -1), not where track \(next.number) starts") }
        }
        broken += located(sheet.problems, lines: lines)
        if sheet.problems.count > CueSheet.maxProblems + 1 {
            broken.append("\(sheet.problems.count) problems; the cap is \(CueSheet.maxProblems) and one more")
        }
        return broken
    }

    /// The configuration file: problems are located and one line each, a file of problems is
    /// cut off, every key bound is one a terminal can send and every action a real one, and the
    /// steps and the volume stay in their ranges.
    public static func config(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let parsed = Settings.parse(bytes, file: "fuzz", outputs: { ["pulse", "ao", "null"] })
        broken += located(parsed.problems, lines: lineCount(bytes))
        if parsed.problems.count > Settings.maxProblems + 1 {
            broken.append("\(parsed.problems.count) problems; the cap is \(Settings.maxProblems) and one more")
        }
        let settings = parsed.settings
        if let volume = settings.volume, !(0...100).contains(volume) { broken.append("volume \(volume)") }
        if !(1...100).contains(settings.steps.volume) { broken.append("volume step \(settings.steps.volume)") }
        for seconds in [settings.steps.seek, settings.steps.longSeek] where !(0.1...3600).contains(seconds) {
            broken.append("a seek step of \(seconds) s")
        }
        if let preamp = settings.replayGainPreamp, !(-15...15).contains(preamp) { broken.append("preamp \(preamp) dB") }
        if let output = settings.output, !["pulse", "ao", "null"].contains(output) { broken.append("output \(output)") }
        for (key, action) in settings.bindings.everywhere + settings.bindings.inList {
            if key == .other { broken.append("a key that no terminal sends, bound to \(action.name)") }
            if case .character(let character) = key, character.isWhitespace && character != " " {
                broken.append("a blank key bound to \(action.name)")
            }
            if action.isListAction != settings.bindings.inList.contains(where: { $0.key == key && $0.action == action }) {
                broken.append("\(action.name) bound in the wrong place")
            }
            if Action.named(action.name) != action { broken.append("\(action.name) does not name itself") }
        }
        return broken
    }

    /// A song as the fuzzer makes it up from `bytes`: any MPEG rate and frame size, any start
    /// delay a LAME tag can declare, any length (none, or absurd), and the rest of the bytes.
    static func song(_ bytes: [UInt8]) -> (song: SongInfo, rest: ArraySlice<UInt8>) {
        var reader = ByteReader(bytes)
        let rates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        var song = SongInfo(path: "/fuzz.mp3", sampleRate: rates[Int(reader.byte() % 9)], channels: 2,
                            totalFrames: reader.byte() % 4 == 0 ? nil : abs(reader.int64() % .max))
        var stream = SongInfo.Stream(layer: [1, 2, 3][Int(reader.byte() % 3)], bitrate: 128)
        stream.header.version = Int(reader.byte() % 3)
        stream.startDelay = Int64(reader.byte()) * 19 % 4625
        stream.frameCount = song.totalFrames.map { $0 / 1152 }
        song.stream = stream
        return (song, reader.rest)
    }

    /// `-R`'s jumps and seeks: from any position in any song, the sample a `JUMP` or `SEEK` line
    /// names is never negative, lands within the song, and its replies never trap.
    public static func remoteSeek(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let (song, rest) = song(bytes)
        var reader = ByteReader(Array(rest))
        let position = reader.int64()
        let target: Int64
        switch RemoteCommand.parse(Array(reader.rest)) {
        case .jump(let jump): target = RemoteReplies.sample(for: jump, from: position, in: song)
        case .seek(let samples, let relative): target = RemoteReplies.sample(forSeek: samples, relative: relative, from: position)
        default: return []
        }
        if target < 0 { broken.append("a jump or seek to sample \(target)") }
        let landed = SeekTarget.to(AudioTime(frames: target, rate: song.sampleRate)).frame(in: song, from: position)
        if landed < 0 || landed > (song.totalFrames ?? .max) { broken.append("landed at \(landed), outside the song") }
        if RemoteReplies.mpegFrame(of: landed, in: song) < 0 { broken.append("a negative frame for sample \(landed)") }
        _ = RemoteReplies.progress(song, position: landed)
        return broken
    }

    /// MPRIS's microseconds, from any client: `Seek` goes the way its sign says, `SetPosition`
    /// lands within the song or is ignored, and positions and lengths are never negative.
    public static func mprisTime(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        let (song, rest) = song(bytes)
        var reader = ByteReader(Array(rest))
        let microseconds = reader.int64()
        let frames = abs(reader.int64() % .max)
        if MprisTime.microseconds(frames: frames, rate: song.sampleRate) < 0 { broken.append("a negative position for \(frames) frames") }
        if case .by(let offset) = MprisTime.seek(offset: microseconds), (offset.flicks < 0) != (microseconds < 0), offset.flicks != 0 {
            broken.append("Seek(\(microseconds)) goes the wrong way")
        }
        if let target = MprisTime.setPosition(microseconds, in: song) {
            let landed = target.frame(in: song, from: 0)
            if microseconds < 0 || landed < 0 || landed > (song.totalFrames ?? .max) {
                broken.append("SetPosition(\(microseconds)) lands at \(landed), outside the song")
            }
        }
        return broken
    }

    /// A song's tags and stream, as the decoder read them from a file: every line made of them
    /// (`-R`'s `@I` and `TAG`, the status line's name once sanitised) is one line with no control
    /// character, and its length converts without a trap.
    public static func songInfo(_ song: SongInfo) -> [String] {
        var broken: [String] = []
        let unsafe: (String) -> Bool = { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }
        if (RemoteReplies.info(song) + RemoteReplies.tag(song)).contains(where: unsafe) {
            broken.append("a reply made of the tags holds a control character")
        }
        if unsafe(TerminalText.safe(song.displayName)) { broken.append("the sanitised name holds a control character") }
        if let total = song.totalFrames, MprisTime.microseconds(frames: total, rate: song.sampleRate) < 0 {
            broken.append("a negative length")
        }
        _ = RemoteReplies.stream(song)
        _ = RemoteReplies.progress(song, position: song.totalFrames ?? 0)
        return broken
    }

    /// Problems at real lines (0 for the whole file), at column 1 or more, with a message of one
    /// non-empty line.
    private static func located(_ problems: [Diagnostic], lines: Int) -> [String] {
        problems.compactMap { problem in
            let place = problem.location
            if !(0...max(lines, 1)).contains(place.line) || place.column < 1 {
                return "a problem at \(place.line):\(place.column), outside the \(lines) lines"
            }
            // Other controls are the sanitiser's to show; a line end would split the message.
            if problem.message.isEmpty || problem.message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                return "a problem message that is not one line: \(problem.message.debugDescription)"
            }
            return nil
        }
    }

    private static func lineCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        LineSplitter.forEachLine(in: bytes) { _ in count += 1 }
        return count
    }
}

/// Numbers taken from the front of the fuzzer's bytes (zeros once they run out).
struct ByteReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    var rest: ArraySlice<UInt8> { bytes }

    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    mutating func int64() -> Int64 {
        (0..<8).reduce(Int64(0)) { value, _ in value << 8 | Int64(byte()) }
    }
}
