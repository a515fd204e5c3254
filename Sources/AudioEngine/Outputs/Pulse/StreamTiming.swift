/// What a sound server last said of a stream's queue, and what follows from it now.
///
/// libpulse's own interpolation (`PA_STREAM_INTERPOLATE_TIMING`) counts a stream as playing from
/// the moment it is uncorked. A sink that had rendered silence ahead before the stream came (a
/// bare null sink renders 2 s ahead while its recorder asks for that much) plays the stream only
/// after it, and meanwhile the position ran on: tplayer said 1.4 to 5.1 s were heard a second
/// after a start. So the position is counted from the server's own figures, as mpv counts them:
/// what the stream holds (its write index less its read index: writes since are counted), what
/// its sink holds (rendered, not yet played), and, only while the server says the stream plays,
/// the time since it said so.
struct StreamTiming: Equatable {
    /// Bytes written and not yet taken by the sink, when it was said (writes since counted).
    var queuedBytes: Int64
    /// Seconds the sink had rendered and not yet played, then.
    var sinkLatency: Double
    /// The sink was taking the stream's audio, then.
    var playing: Bool
    /// Seconds since it was said.
    var age: Double

    /// Figures older than this that said the sink was not taking the stream are not believed:
    /// it is taken to have started since (its figures are asked for whenever it asks for audio,
    /// and whenever they are read and older than 50 ms: so old, the server was not asked, or
    /// does not answer).
    static let believedNotPlaying = 0.25

    /// Seconds written and not yet heard, now.
    func unheard(bytesPerSecond: Double) -> Double {
        guard bytesPerSecond > 0 else { return 0 }
        let played = playing || age > Self.believedNotPlaying ? age : 0
        return max(Double(queuedBytes) / bytesPerSecond + sinkLatency - played, 0)
    }

    /// Seconds at the end of the queue that the sink cannot have taken yet, now, whatever it
    /// does: it takes no more than real time since, and at most `renderAhead` (its latency)
    /// beyond, in one go; `margin` more for a write's way to the server.
    func untaken(bytesPerSecond: Double, renderAhead: Double, margin: Double) -> Double {
        guard bytesPerSecond > 0 else { return 0 }
        return max(Double(queuedBytes) / bytesPerSecond - age - renderAhead - margin, 0)
    }
}
