import Files

/// The internet stream a decoder has open, to be stopped from another thread: a read or a
/// connection that waits on the network (a stalled server, one that trickles a byte a second)
/// never holds up a new song, `q` or SIGTERM. `interrupt` stops the stream open now (and one
/// opening); `shutDown` every one from then on.
final class StreamInterruption: @unchecked Sendable {
    // `@unchecked Sendable`: everything is under the lock.
    private struct State {
        /// Let go of when it is closed (`release`): a stream closed is not kept, its buffer with
        /// it. (Strong, not weak: a weak reference's side table, pointed to by a tagged word,
        /// reads as a leak to LeakSanitizer when a stream's thread is still ending at exit.)
        var stream: NetworkStream?
        var isShutDown = false
        /// Interruptions so far (an HLS stream's waits in FFmpeg ask whether one came).
        var count = 0
    }
    private let state = Locked(State())

    /// Stops the stream open now: its waits end, its reads say it ended.
    func interrupt() {
        let stream = state.update { state -> NetworkStream? in
            state.count += 1
            return state.stream
        }
        stream?.close()
    }

    /// Interruptions so far.
    var count: Int { state.read(\.count) }

    /// Stops it, and every stream opened after it at once.
    func shutDown() {
        let stream = state.update { state -> NetworkStream? in
            state.isShutDown = true
            state.count += 1
            return state.stream
        }
        stream?.close()
    }

    /// `stream` is the one open now (false: the run is ending, it is closed already).
    func register(_ stream: NetworkStream) -> Bool {
        let isShutDown = state.update { state -> Bool in
            state.stream = stream
            return state.isShutDown
        }
        if isShutDown { stream.close() }
        return !isShutDown
    }

    /// `stream` was closed: it is not kept.
    func release(_ stream: NetworkStream) {
        state.update { state in
            if state.stream === stream { state.stream = nil }
        }
    }
}
