import Files
import PlayerCore

/// The lyrics of the song playing, followed on its audio time (what is heard: seeks, pauses and
/// speed follow): with `lyrics = on` in the settings, each line is said as it is sung, above the
/// status line or on stderr, as mpv prints subtitles. The lyrics are the song's (`SongInfo.lyrics`:
/// its `.lrc` beside it, read with the song off the main loop, else its `LYRICS` tag when that is
/// timed; read to 1 MB, as a `.lrc` is), taken apart with the song.
struct LyricsFollower {
    private var path: Path?
    private var lyrics = Lyrics()
    /// The line said last (`nil`: none yet, or before the first line).
    private var said: Int?

    /// A song opened: its lyrics are read.
    mutating func observe(_ event: EngineEvent, session: Session) {
        guard case .opened(_, let token) = event, session.state.token == token, let song = session.state.song, song.path != path else {
            return
        }
        path = song.path
        said = nil
        lyrics = song.lyrics?.parsed ?? Lyrics()
    }

    /// The line sung now, when it was not said yet (a seek back says the line there again).
    mutating func line(_ session: Session, position: Int64) -> String? {
        guard let now = Self.milliseconds(session, position) else { return nil }
        let index = lyrics.lineIndex(at: now)
        guard index != said else { return nil }
        said = index
        return index.map { lyrics.lines[$0].text }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The song ended: the line sung last, when it was not said yet (a busy machine's main loop
    /// may not have turned between its time and the song's end: a song's only line was lost).
    mutating func lineAtEnd(of song: SongInfo) -> String? {
        guard song.path == path, let frames = song.totalFrames, song.sampleRate > 0,
              let index = lyrics.lineIndex(at: Lyrics.milliseconds(frames: frames, rate: song.sampleRate)), index != said else { return nil }
        said = index
        return lyrics.lines[index].text.isEmpty ? nil : lyrics.lines[index].text
    }

    /// How long the loop may sleep before the next line is sung (real seconds, at the speed).
    func wait(_ session: Session, position: Int64) -> Double? {
        guard let now = Self.milliseconds(session, position) else { return nil }
        let next = lyrics.lineIndex(at: now).map { $0 + 1 } ?? 0
        guard next < lyrics.lines.count else { return nil }
        return max(Double(lyrics.lines[next].time - now) / 1000 / max(session.sound.speed, 0.25), 0.01)
    }

    /// Where the song playing is heard, in milliseconds; `nil` unless one plays.
    private static func milliseconds(_ session: Session, _ position: Int64) -> Int64? {
        guard session.state.id == .play, let song = session.state.song, song.sampleRate > 0 else { return nil }
        return Lyrics.milliseconds(frames: position, rate: song.sampleRate)
    }
}
