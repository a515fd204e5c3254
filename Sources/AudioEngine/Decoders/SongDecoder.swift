import Files
import Glibc
import PlayerCore

/// The decoder the engine uses: opens and checks each song's file, chooses its format's decoder
/// by what the file holds (libmpg123 for MPEG audio, `FormatDecoder`s for the rest, each made
/// when first needed), and gives the PCM in the format the output was promised (`FormatRule`),
/// with the song's ReplayGain when asked. libmpg123 converts and scales itself; the other
/// formats go through a `PCMConverter`. The listener's volume is not applied here but after the
/// decode-ahead queue (`SampleStage`), so that a key never decodes anything again.
final class SongDecoder: AudioDecoder {
    /// MPEG audio's decoder, always there (the engine sets up its frame indexer).
    let mpeg: Mpg123Decoder
    /// The other formats' decoders, made when a song of their format first opens.
    private var decoders: [Codec: FormatDecoder] = [:]
    /// The decoder of the song open now, when it is not MPEG audio.
    private var active: FormatDecoder?
    private var converter: PCMConverter?
    /// Converts the MPEG song open now to the format a file keeps, where libmpg123 cannot
    /// itself (96 kHz, 1 kHz, 6 channels): libmpg123 decodes it in its own format, with its
    /// gain (it scales), and this converts.
    private var mpegConverter: PCMConverter?
    private var file: OpenFile?
    private var openedSize: Int64 = 0
    private var rule: FormatRule = .any
    private var replayGain = ReplayGainChoice.off
    /// What the song open now is scaled by: its ReplayGain, when applied (for MPEG audio, only the
    /// pre-amp: libmpg123 applies the tag's gain itself).
    private var songFactor = 1.0
    /// The part of the file the song open now is, when it is a track of it.
    private var window: TrackWindow?
    /// The format given out now (a stream can change it).
    private var format = PCMFormat(rate: 44100, channels: 2)
    /// Songs are opened to be decoded whole, from start to end, and checked (`--check`).
    var verifies = false
    /// Makes the decoder of a format: the live libraries, or fakes in tests.
    private let make: (Codec) throws(LoadFailure) -> FormatDecoder

    init(mpeg: Mpg123Decoder, make: @escaping (Codec) throws(LoadFailure) -> FormatDecoder = SongDecoder.library) {
        self.mpeg = mpeg
        self.make = make
    }

    /// The library's decoder for `codec`, loading the library.
    static func library(_ codec: Codec) throws(LoadFailure) -> FormatDecoder {
        switch codec {
        case .mpeg: throw .otherFormat(.mpegAudio)  // never asked: libmpg123 is `mpeg`
        case .flac: return try FlacDecoder()
        case .vorbis: return try VorbisDecoder()
        case .opus: return try OpusDecoder()
        case .ffmpeg: return try FFmpegDecoder()
        }
    }

    func open(_ source: SongSource) throws(LoadFailure) -> OpenedSong {
        var song = try openFile(source.path)
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

    /// Opens the whole file at `path`.
    private func openFile(_ path: Path) throws(LoadFailure) -> OpenedSong {
        close()
        let (opened, size) = try SongFile.open(path)
        let content = SongFile.content(of: opened)
        guard var codec = Codec(content) else { throw .otherFormat(content ?? .executable) }
        songFactor = 1
        if codec == .mpeg {
            do {
                mpeg.setReplayGain(replayGain)  // the song before may have had it turned off
                var song = try mpeg.open(opened, size: size, path: path)
                song.info.replayGain = ReplayGain(song.info.id3)
                // libmpg123 applies the gain and prevents clipping; the pre-amp is its volume.
                var decibels = replayGain.gain == .off ? 0 : mpeg.replayGainDecibels
                if !(-64...64).contains(decibels) {
                    // A tag's number as libmpg123 read it (`atof`: inf, nan, 1e30): the song is
                    // opened again without any (its tables were made with it).
                    mpeg.setReplayGain(.off)
                    song = try mpeg.open(opened, size: size, path: path)
                    song.info.replayGain = ReplayGain(song.info.id3)
                    decibels = 0
                }
                if decibels != 0 {
                    songFactor = pow(10, replayGain.preamp / 20)
                    song.info.appliedGain = decibels + replayGain.preamp
                }
                mpeg.setVolume(songFactor)
                song.info.totalFrames = Self.sane(length: song.info.totalFrames)
                if case .exactly(let target) = rule, !mpeg.convertsItself, song.format != target {
                    mpegConverter = PCMConverter(from: song.format, to: target, keepsFormat: true, gain: 1)
                    Self.convert(&song.info, from: song.format, to: target)
                    song.format = target
                }
                return song
            } catch .notAudio where content == nil {
                // Nothing known by its first bytes, and no MPEG audio: FFmpeg may know it (AC-3,
                // DTS…); it says `.notAudio` too unless it is sure.
                mpeg.close()
                codec = .ffmpeg
            }
        }
        let decoder: FormatDecoder
        if let made = decoders[codec] {
            decoder = made
        } else {
            do {
                decoder = try make(codec)
            } catch .decoderMissing where content == nil {
                throw .notAudio
            }
            decoders[codec] = decoder
        }
        let song = try decoder.open(opened, size: size, path: path, verifies: verifies)
        if let refusal = song.format.refusal {
            decoder.close()
            throw refusal
        }
        let output: PCMFormat
        switch rule {
        case .any, .first: output = song.format
        case .exactly(let format): output = format
        }
        active = decoder
        file = opened
        openedSize = size
        var info = song.info
        let tags = info.tags
        if info.id3.v1 == nil, info.id3.v2 == nil, [tags.title, tags.artist, tags.album].contains(where: { $0 != nil }) {
            info.id3.v2 = SongInfo.ID3.V2(tags)  // what mpg123's remote protocol shows
        }
        if let applied = info.replayGain.applied(replayGain) {
            songFactor = applied.factor
            info.appliedGain = applied.decibels
        }
        converter = PCMConverter(from: song.format, to: output, keepsFormat: rule != .any, gain: songFactor)
        info.totalFrames = Self.sane(length: info.totalFrames)
        Self.convert(&info, from: song.format, to: output)
        return OpenedSong(info: info, format: output)
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
        mpeg.close()
        active?.close()
        active = nil
        converter = nil
        mpegConverter = nil
        file = nil
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
        guard let active, let converter else {
            if let mpegConverter {
                do {
                    return try mpegConverter.read(into: buffer, capacity: capacity, from: mpeg)
                } catch {
                    return .damaged(bytes: 0, reason: error.description)
                }
            }
            let result = mpeg.read(into: buffer, capacity: capacity)
            if case .newFormat(let next) = result { format = next }
            return result
        }
        do {
            let result = try converter.read(into: buffer, capacity: capacity, from: active)
            if case .newFormat(let next) = result, let refusal = next.refusal {
                return .damaged(bytes: 0, reason: refusal.description)
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
        guard let active, let converter else {
            return mpegConverter.map { $0.seek(toFrame: frame, in: mpeg) } ?? mpeg.seek(toFrame: frame)
        }
        return converter.seek(toFrame: frame, in: active)
    }

    func restrictFormat(to rule: FormatRule) throws(LoadFailure) {
        self.rule = rule
        try mpeg.restrictFormat(to: rule)
    }

    func setReplayGain(_ choice: ReplayGainChoice) {
        replayGain = choice
        mpeg.setReplayGain(choice)
    }

    var truncation: (was: Int64, now: Int64)? {
        guard active != nil else { return mpeg.truncation }
        guard let file, case .success(let info) = file.status(), info.size < openedSize else { return nil }
        return (openedSize, info.size)
    }

    /// Whether the song's length is exact: what the format declares (FLAC's STREAMINFO, an Ogg
    /// stream's last granule position), or for MPEG a LAME/Info tag's frame count, not an estimate
    /// from the file's size.
    var lengthIsExact: Bool { active != nil || mpeg.lengthIsExact }

    func promoted() {
        if active == nil { mpeg.promoted() }
    }

    /// With no thread of its own, it opens the next song when asked for the outcome.
    func startOpening(_ source: SongSource) {}
    func opened(_ source: SongSource) throws(LoadFailure) -> OpenedSong { try open(source) }
}
