import Files

/// The internet stream a decoder has open, to be stopped from another thread: a read or a
/// connection that waits on the network (a stalled server, one that trickles a byte a second)
/// never holds up a new song, `q` or SIGTERM. `interrupt` stops the stream open now (and one
/// opening); `shutDown` every one from then on.
final class StreamInterruption: @unchecked Sendable {
    // `@unchecked Sendable`: everything is under the lock.
    private struct State {
        /// Weak: a stream closed and let go of is not kept (its buffer with it).
        weak var stream: NetworkStream?
        var isShutDown = false
        /// Interruptions so far (an HLS stream's waits in FFmpeg ask whether one came).
        var count = 0
    }
    private let state = Locked(State())

    /// Stops the stream open now: its waits end, its reads say it ended.
    func interrupt() {
        state.update {
            $0.count += 1
            $0.stream?.close()
        }
    }

    /// Interruptions so far.
    var count: Int { state.read(\.count) }

    /// Stops it, and every stream opened after it at once.
    func shutDown() {
        state.update {
            $0.isShutDown = true
            $0.count += 1
            $0.stream?.close()
        }
    }

    /// `stream` is the one open now (false: the run is ending, it is closed already).
    func register(_ stream: NetworkStream) -> Bool {
        state.update { state in
            state.stream = stream
            if state.isShutDown { stream.close() }
            return !state.isShutDown
        }
    }
}
