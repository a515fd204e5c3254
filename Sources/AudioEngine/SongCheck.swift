import Files
import PlayerCore

/// Decodes a whole song as fast as its decoder goes, to nothing: `tplayer --check` on audio, and
/// the counterpart of `mpg123 -t` and `flac -t`.
public final class SongChecker {
    private let decoder: SongDecoder
    private let buffer: UnsafeMutableRawPointer
    private static let bufferBytes = 1 << 18

    public init() {
        decoder = SongDecoder()
        decoder.verifies = true
        buffer = .allocate(byteCount: Self.bufferBytes, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// What the song at `path` is (its tags, stream and length), from opening it, without
    /// decoding it.
    public func info(_ source: SongSource) -> Result<SongInfo, LoadFailure> {
        defer { decoder.close() }
        do {
            return .success(try decoder.open(source).info)
        } catch {
            return .failure(error)
        }
    }

    /// What the song is, as `info` says, read the fastest way that says the same: an Ogg
    /// Vorbis or Opus file from its headers and its last page (`OggHeaders`), anything else
    /// (or an Ogg file it cannot be sure of) opened by its decoder. For the library's scan.
    public func tags(_ source: SongSource) -> Result<SongInfo, LoadFailure> {
        if source.span == nil, let file = try? SongFile.open(source.path),
           [.oggVorbis, .opus].contains(SongFile.content(of: file)), let info = OggHeaders.info(file, path: source.path) {
            return .success(info)
        }
        return info(source)
    }

    /// Decodes the whole song; `progress` hears how far it is (0 to 1, when the length is known).
    public func check(_ source: SongSource, progress: (Double) -> Void = { _ in }) -> SongVerdict {
        let song: OpenedSong
        do {
            song = try decoder.open(source)
        } catch {
            return .unplayable(error)
        }
        defer { decoder.close() }
        // The length the stream declares, when it is exact (a LAME/Xing tag's frame count), not
        // an estimate from the file's size.
        let declared = decoder.lengthIsExact ? song.info.totalFrames : nil
        var format = song.format
        // Whole parts in seconds, the part decoding now in frames: a sum of each chunk's
        // seconds drifts below the length (30 s came out as 29.99999…, shown as 0:29).
        var before = 0.0
        var frames: Int64 = 0
        var seconds: Double { before + Double(frames) / Double(format.rate) }
        var spans = DamageSpans()
        let length = song.info.totalFrames.map { Double($0) / Double(song.format.rate) }
        while true {
            switch decoder.read(into: buffer, capacity: Self.bufferBytes) {
            case .data(let bytes):
                frames += Int64(bytes / format.bytesPerFrame)
                if let length, length > 0 { progress(min(seconds / length, 1)) }
            case .newFormat(let next):
                before = seconds
                frames = 0
                format = next
            case .skipped(let lost):
                spans.add(seconds...(seconds + lost))
            case .done:
                if !spans.spans.isEmpty { return .skippedDamage(spans.spans, seconds: seconds) }
                if let declared, seconds < Double(declared) / Double(song.format.rate) - 0.05 {
                    return .truncated(at: seconds, declared: Double(declared) / Double(song.format.rate))
                }
                return .clean(seconds: seconds)
            case .damaged(let bytes, let reason):
                frames += Int64(bytes / format.bytesPerFrame)
                return .damaged(at: seconds, reason: reason)
            case .pending:
                return .damaged(at: seconds, reason: "the decoder gave nothing")  // the decoders decode at once: never
            }
        }
    }

    /// The longest `listen` spends on one URL, connecting with it.
    public static let listenDeadline = 15.0

    /// An internet stream, as `--check` tells of it: opened, `seconds` of it decoded, what it
    /// is, its station and its title ("ok, MP3 at 128 kbit/s, 44100 Hz stereo; station …;
    /// title …; 5.0 s decoded"). A live stream never ends: it is not decoded whole. All of it
    /// within `deadline` seconds: a server too slow for that (a byte a second) is said so.
    public func listen(_ url: Path, seconds: Double = 5, deadline: Double = listenDeadline) -> Result<String, LoadFailure> {
        let said = Locked(StreamState())
        decoder.streamNews = { _, news in said.update { $0.hear(news) } }
        decoder.streamTitle = { _, title, _ in said.update { $0.title = title } }
        defer {
            decoder.streamNews = { _, _ in }
            decoder.streamTitle = { _, _, _ in }
        }
        let clock = StreamDeadline(seconds: deadline, interrupt: decoder.streams)
        defer { clock.end() }
        let tooSlow = { (heard: Double) -> LoadFailure in
            .network("the server is too slow: " + (heard > 0 ? "\((heard * 10).rounded() / 10) s of audio" : "no audio")
                     + " in \(Int(deadline)) s (\(Int(seconds)) s are listened to)")
        }
        let song: OpenedSong
        do {
            song = try decoder.open(SongSource(url))
        } catch {
            return .failure(clock.hasPassed ? tooSlow(0) : error)
        }
        defer { decoder.close() }
        var format = song.format
        var heard = 0.0
        reading: while heard < seconds {
            switch decoder.read(into: buffer, capacity: Self.bufferBytes) {
            case .data(let bytes), .damaged(let bytes, _): heard += Double(bytes / format.bytesPerFrame) / Double(format.rate)
            case .newFormat(let next): format = next
            case .skipped: continue
            case .done, .pending: break reading
            }
        }
        if clock.hasPassed { return .failure(tooSlow(heard)) }
        let info = song.info
        var kind = info.codec ?? (info.stream.map { $0.layer == 3 ? "MP3" : "MPEG layer \($0.layer)" } ?? "audio")
        if let rate = info.stream?.bitrate, rate > 0 { kind += " at \(rate) kbit/s" }
        var parts = ["ok, \(kind), \(info.sampleRate) Hz \(ChannelLayout.name(info.channels))"]
        let state = said.read { $0 }
        if let name = state.station?.name { parts.append("station \(name)") }
        if let title = state.title, !title.isEmpty { parts.append("title \(title)") }
        parts.append("\((heard * 10).rounded() / 10) s decoded")
        return .success(parts.joined(separator: "; "))
    }
}
