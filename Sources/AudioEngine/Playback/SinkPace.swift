/// Whether a sound server's sink plays in real time. The player writes to a server's stream as
/// the server asks for audio, and the sink is what keeps that to time. A sink with no clock of
/// its own takes audio as fast as it comes (a pipe sink read by something faster than real
/// time, a sink made to drop what it is given): a song "played" there in 30 ms, and the position
/// with it. Such a sink says so by what it takes: more than `tolerance` times the time passed
/// since the start, and `allowance` more, and what it renders ahead (a sink starts by filling
/// that, at once). The player then paces itself by the clock, as it does on the null output.
struct SinkPace {
    static let tolerance = 1.5
    static let allowance = 0.5

    private var start: (at: Double, heard: Double)?

    /// The sink starts anew (a new stream, play, a seek, another song): watched from its next
    /// observation.
    mutating func restart() {
        start = nil
    }

    /// The sink had taken `taken` seconds of output at `now`, and renders up to `ahead` seconds
    /// ahead: whether it has taken audio faster than real time since the start.
    mutating func observe(at now: Double, taken: Double, ahead: Double = 0) -> Bool {
        guard let start else {
            self.start = (now, taken)
            return false
        }
        return taken - start.heard > Self.tolerance * max(now - start.at, 0) + Self.allowance + max(ahead, 0)
    }
}
