import PlayerCore

/// A track's part of its file (a CUE sheet's track in its image): reading starts at the track's
/// first sample and stops after its last, and positions count from its start. The next track
/// opens the same file at the sample this one stopped before, so the two play gaplessly.
struct TrackWindow: Equatable {
    /// The track's first and past-last sample frames in the file, in the format given out.
    let start: Int64
    let end: Int64?
    /// Frames given out since the track's start.
    private(set) var position: Int64 = 0

    init(start: Int64, end: Int64?) {
        self.start = start
        self.end = end
    }

    /// The window of `span` in a song given out at `rate` that holds `total` frames (when known);
    /// a span that starts past the end is refused.
    init(_ span: TrackSpan, rate: Int, total: Int64?) throws(LoadFailure) {
        let (start, end) = span.samples(at: rate)
        if let total, start >= total {
            throw .damaged("the track starts at \(TrackSpan.time(span.start)), past the end of the file")
        }
        var last = end
        if let total, let bound = last { last = min(bound, total) }
        self.init(start: start, end: last)
    }

    /// The track's length in frames, when the file's is known or the track has an end.
    func length(ofFile total: Int64?) -> Int64? {
        (end ?? total).map { $0 - start }
    }

    var isOver: Bool { end.map { start + position >= $0 } ?? false }

    /// How many of `bytes` just read belong to the track (those after its end do not).
    mutating func take(_ bytes: Int, bytesPerFrame: Int) -> Int {
        let frames = Int64(bytes / bytesPerFrame)
        let kept = end.map { min(frames, max($0 - start - position, 0)) } ?? frames
        position += kept
        return Int(kept) * bytesPerFrame
    }

    /// After a seek that landed at `frame` in the file.
    mutating func landed(at frame: Int64) {
        position = frame - start
    }
}
