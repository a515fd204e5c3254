/// MPRIS counts time in microseconds (signed 64-bit, from any client on the bus); the player
/// counts samples. Every conversion between the two is here, checked: a client's number can be
/// anything, a song's length can be absurd (a 16 TB file), and none of it may trap.
public enum MprisTime {
    /// `frames` samples at `rate`, as MPRIS's `Position` and `mpris:length` give them.
    public static func microseconds(frames: Int64, rate: Int) -> Int64 {
        AudioTime(frames: frames, rate: rate).microseconds
    }

    /// `Seek(Offset)`: a move by `offset` microseconds (negative goes back); `nil` when it cannot
    /// be counted.
    public static func seek(offset: Int64) -> SeekTarget? {
        AudioTime(microseconds: offset).map { .by($0) }
    }

    /// `SetPosition(TrackId, Position)`: where to go in `song`; `nil` when the spec says to do
    /// nothing (a position before the start or past the end). A position at the very end is
    /// ignored too: nothing is left to play there, and going there would end the song and move
    /// on to the next (a slider dragged to its end sends exactly the length).
    public static func setPosition(_ microseconds: Int64, in song: SongInfo) -> SeekTarget? {
        guard microseconds >= 0, let time = AudioTime(microseconds: microseconds) else { return nil }
        if let total = song.totalFrames, time >= AudioTime(frames: total, rate: song.sampleRate) { return nil }
        return .to(time)
    }
}
