import Files
import Glibc
import PlayerCore

/// The decoder the engine uses: opens and checks each song's file (or internet stream), chooses
/// its format's decoder by what the file holds (a `FormatDecoder` for each library, made when
/// first needed), and gives the PCM in the format the output was promised (`FormatRule`). What a
/// library does not do itself (libmpg123 converts to its own rates) goes through a
/// `PCMConverter`. Only an MP3's ReplayGain is applied here, by libmpg123; every other song's,
/// and the listener's volume, are applied after the decode-ahead queue (`SampleStage`), so that
/// a key never decodes anything again.
final class SongDecoder: AudioDecoder {
    /// The formats' decoders, made when a song of their format first opens.
    private var decoders: [Codec: FormatDecoder] = [:]
    /// The decoder of the song open now, and what converts what it gives.
    private var active: FormatDecoder?
    private var converter: PCMConverter?
    /// The song's bytes, and their length when it was opened (to tell a song that ends from one
    /// cut short while it played).
    private var bytes: ByteSource?
    private var openedLength: Int64?
    private var rule: FormatRule = .any
    private var replayGain = ReplayGainChoice.off
    /// libmpg123's equaliser bands, once a front-end set them (`setEqualizer`).
    private var equalizer: [[Double]]?
    /// The part of the file the song open now is, when it is a track of it.
    private var window: TrackWindow?
    /// The format given out now (a stream can change it).
    private var format = PCMFormat(rate: 44100, channels: 2)
    /// Songs are opened to be decoded whole, from start to end, and checked (`--check`).
    var verifies = false
    /// What an internet stream's network side says (its station, titles, reconnections), on
    /// its thread.
    var streamNews: @Sendable (Path, StreamNews) -> Void = { _, _ in }
    /// A stream's new title, on the decoder's thread, with the frame of the song it comes at
    /// (frames given out since the song opened): said when that frame is heard.
    var streamTitle: @Sendable (Path, String, Int64) -> Void = { _, _, _ in }
    /// The bounds a stream is opened with (the tries to reconnect: a setting).
    var streamLimits = StreamLimits()
    /// Frames given out since the song opened (a stream's titles are placed by it).
    private var framesGiven: Int64 = 0
    let streams = StreamInterruption()
    /// Makes the decoder of a format: the live libraries, or fakes in tests.
    private let make: (Codec) throws(LoadFailure) -> FormatDecoder

    init(make: @escaping (Codec) throws(LoadFailure) -> FormatDecoder = DecoderLibrary().make) {
        self.make = make
    }

    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        // A CUE sheet's track named as a path (the library's, `--find`'s): its sheet read now,
        // its image opened at the track, the song named by the sheet and by that path.
        if source.span == nil, !FileSystem.exists(source.path), let resolved = CueTrackPath.resolve(source.path) {
            let track = try resolved.get()
            var song = try open(SongSource(track.image, span: track.span))
            song.info = song.info.named(by: track.tags)
            song.info.path = source.path
            return song
        }
        var song = try openFile(source)
        if !verifies { song.info.lyrics = LyricsReader.lyrics(of: source.path, song: song.info, in: bytes) }
        format = song.format
        guard let span = source.span else { return song }
        // A track of the file: from its start to its end, positions counted from its start.
        let total = song.info.totalFrames
        var window = try TrackWindow(span, rate: song.format.rate, total: total)
        if window.start > 0 {
            guard let landed = seekFile(toFrame: window.start), landed == window.start else {
                close()
                throw .damaged("cannot seek to the track's start at \(TrackSpan.time(span.start))")
            }
            window.landed(at: landed)
        }
        song.info.totalFrames = window.length(ofFile: total)
        self.window = window
        return song
    }

    /// Opens the whole file (or stream) `source` names, with the decoder its content asks for.
    private func openFile(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        close()
        let path = source.path
        if source.isStream {
            // Until it has opened, a song asked for meanwhile stops it (`StreamInterruption`).
            streams.beginOpening()
            defer { streams.endOpening() }
            let report = streamNews
            switch try StreamOpener.open(path, limits: streamLimits, interruption: streams, news: { report(path, $0) }) {
            case .hls(let input):
                // FFmpeg's HLS demuxer reads it, each URL it names opened by the network side.
                var song = try open(input, path: path, with: .ffmpeg)
                song.info.totalFrames = nil
                song.info.isSeekable = false
                song.info.isStream = true
                return song
            case .stream(let stream):
                do throws(LoadFailure) {
                    // Titles before its first audio: in its name as it opens.
                    defer { stream.takeReachedTitles(before: active?.inputOffset).forEach { report(path, .title($0)) } }
                    var song = try open(stream, named: path)
                    if stream.isLive { song.info.totalFrames = nil }
                    song.info.isSeekable = stream.length != nil
                    song.info.isStream = true
                    return song
                } catch {
                    stream.close()
                    throw error
                }
            }
        }
        return try open(try SongFile.open(path), named: path)
    }


    /// Opens the song `source` holds (a file opened and checked, a stream), with the decoder its
    /// content asks for; `path` names it in its `SongInfo` and messages.
    func open(_ source: ByteSource, named path: Path) throws(LoadFailure) -> OpenedSong {
        close()
        // A stream's first bytes may be any (joined mid-frame): then its Content-Type says (AAC
        // read from its first whole frame); text (a web page) is no stream's.
        var content = SongFile.content(of: source)
        if content == nil, let stream = source.stream, let type = stream.contentType {
            if let told = FileContent(mediaType: type) {
                content = told
                if told == .adts, let first = AdtsSync.firstFrame(in: stream.bytes(16 << 10, at: 0)) { stream.start(at: Int64(first)) }
            } else if FileContent.mediaType(type).hasPrefix("text/") {
                throw .network("the server sent \(FileContent.mediaType(type)), not audio: is it a web page rather than "
                               + "the stream's own URL?")
            }
        }
        guard let codec = Codec(content) else { throw .otherFormat(content ?? .executable) }
        do {
            return try open(source, path: path, with: codec)
        } catch .notAudio where content == nil && codec != .ffmpeg {
            // Nothing known by its first bytes, and not what its decoder looked for: FFmpeg may
            // know it (AC-3, DTS…); it says `.notAudio` too unless it is sure, or is not there.
            do {
                return try open(source, path: path, with: .ffmpeg)
            } catch .decoderMissing {
                throw .notAudio
            }
        }
    }

    /// Opens the song in `source` with `codec`'s decoder.
    private func open(_ source: ByteSource, path: Path, with codec: Codec) throws(LoadFailure) -> OpenedSong {
        let decoder: FormatDecoder
        if let made = decoders[codec] {
            decoder = made
        } else {
            decoder = try make(codec)
            decoders[codec] = decoder
            if let equalizer { decoder.setEqualizer(equalizer) }
        }
        let convertsItself = try decoder.decode(as: rule)
        let applied = decoder.applyReplayGain(replayGain)
        let length = source.length
        let song = try decoder.open(source, path: path, verifies: verifies)
        if let refusal = song.format.refusal {
            decoder.close()
            throw refusal
        }
        let output: PCMFormat
        switch rule {
        case .exactly(let format) where !convertsItself: output = format
        case .any, .first, .exactly: output = song.format
        }
        active = decoder
        bytes = source
        openedLength = length
        framesGiven = 0
        var info = song.info
        let tags = info.tags
        if info.id3.v1 == nil, info.id3.v2 == nil, [tags.title, tags.artist, tags.album].contains(where: { $0 != nil }) {
            info.id3.v2 = SongInfo.ID3.V2(tags)  // what mpg123's remote protocol shows
        }
        // The gain of a song libmpg123 does not decode is the processing stage's (a new mode is
        // heard at once, nothing decoded again): `PlaybackLoop` applies it, and says so.
        converter = PCMConverter(from: song.format, to: output, keepsFormat: rule != .any)
        info.totalFrames = Self.sane(length: info.totalFrames)
        Self.convert(&info, from: song.format, to: output)
        return OpenedSong(info: info, format: output, appliedInDecoder: applied)
    }

    /// The longest a song's stated length is believed: 2^42 frames (66 days at 768 kHz). A
    /// length past it, or below 0 (FFmpeg's rescaling overflows to INT64_MIN), is a header's
    /// nonsense: the length is unknown.
    static let longestLength: Int64 = 1 << 42

    /// `info` of a song in `format` as given out in `output`: its rate, channels and length.
    private static func convert(_ info: inout SongInfo, from format: PCMFormat, to output: PCMFormat) {
        info.sampleRate = output.rate
        info.channels = output.channels
        if output.rate != format.rate {
            info.totalFrames = info.totalFrames.map { $0.scaled(by: Int64(output.rate), over: Int64(format.rate)) }
        }
    }

    static func sane(length: Int64?) -> Int64? {
        length.flatMap { (0...longestLength).contains($0) ? $0 : nil }
    }

    func close() {
        window = nil
        active?.close()
        active = nil
        converter = nil
        bytes?.stream?.close()
        bytes = nil
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        guard var window else { return readFile(into: buffer, capacity: capacity) }
        if window.isOver { return .done }
        var result = readFile(into: buffer, capacity: capacity)
        switch result {
        case .data(let bytes):
            let kept = window.take(bytes, bytesPerFrame: format.bytesPerFrame)
            result = kept > 0 ? .data(bytes: kept) : .done
        case .damaged(let bytes, let reason):
            result = .damaged(bytes: window.take(bytes, bytesPerFrame: format.bytesPerFrame), reason: reason)
        case .newFormat(let next):
            format = next
        case .done, .skipped, .pending:
            break
        }
        self.window = window
        return result
    }

    /// Reads on in the file, whatever track it holds.
    private func readFile(into buffer: UnsafeMutableRawPointer, capacity: Int) -> DecodeResult {
        guard let active, let converter else { return .done }
        do {
            let result = try converter.read(into: buffer, capacity: capacity, from: active)
            if case .newFormat(let next) = result, let refusal = next.refusal {
                return .damaged(bytes: 0, reason: refusal.description)
            }
            if case .data(let given) = result { framesGiven += Int64(given / format.bytesPerFrame) }
            if let stream = bytes?.stream {
                // ICY titles the decoder has read up to, and an Ogg stream's next link (a
                // radio's next song: its comments are its title).
                let titles = stream.takeReachedTitles(before: active.inputOffset) + (active.takeLinkTitle().map { [$0] } ?? [])
                for title in titles { streamTitle(Path(stream.url), title, framesGiven) }
            }
            // A stream that failed: the network's reason, not the decoder's "cannot read".
            if case .damaged(let bytes, _) = result, let failure = self.bytes?.stream?.failure {
                return .damaged(bytes: bytes, reason: failure)
            }
            return result
        } catch {
            return .damaged(bytes: 0, reason: error.description)
        }
    }

    func seek(toFrame frame: Int64) -> Int64? {
        guard var window else { return seekFile(toFrame: frame) }
        // A frame from a front-end may be Int64.max (an unknown length bounds nothing).
        let inFile = window.start.addingReportingOverflow(max(frame, 0))
        let target = min(inFile.overflow ? .max : inFile.partialValue, window.end ?? .max)
        guard let landed = seekFile(toFrame: target) else { return nil }
        window.landed(at: landed)
        self.window = window
        return landed - window.start
    }

    /// Moves in the file, whatever track it holds.
    private func seekFile(toFrame frame: Int64) -> Int64? {
        guard let active, let converter else { return nil }
        let landed = converter.seek(toFrame: frame, in: active)
        if let landed { framesGiven = landed }
        return landed
    }

    func restrictFormat(to rule: FormatRule) throws(LoadFailure) {
        self.rule = rule
    }

    func setReplayGain(_ choice: ReplayGainChoice) {
        replayGain = choice
    }

    /// The bands, to every decoder made and to those made later (`open`).
    func setEqualizer(_ bands: [[Double]]) {
        equalizer = bands
        decoders.values.forEach { $0.setEqualizer(bands) }
    }

    /// The song's file is now smaller than when it was opened (someone truncated it while it
    /// played): its size then and now.
    var truncation: (was: Int64, now: Int64)? {
        guard let was = openedLength, let now = bytes?.length, now < was else { return nil }
        return (was, now)
    }

    /// Whether the song's length is exact (`FormatDecoder.lengthIsExact`).
    var lengthIsExact: Bool { active?.lengthIsExact ?? false }

    func promoted() {
        active?.promoted()
    }

    /// With no thread of its own, it opens the next song when asked for the outcome.
    func startOpening(_ source: SongSource) {}
    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong { try open(source) }
}
