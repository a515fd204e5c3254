import Files

/// The internet stream a decoder has open, to be stopped from another thread: a read or a
/// connection that waits on the network (a stalled server, one that trickles a byte a second)
/// never holds up `q` or SIGTERM, nor a new song on a live output. (While a file is written,
/// `-w`, the song playing is read on the playback thread: a new song waits until that read
/// returns.) `interrupt` stops the stream open now (and one opening); `shutDown` every one
/// from then on; `supersede` a song still opening, from the thread that asked for another (its
/// open waits on the playback thread, where the new one is queued behind it).
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
        /// A song is being opened from the network (connecting, its first bytes awaited, its
        /// playlist or first frames read).
        var opening = false
    }
    private let state = Locked(State())

    /// Whether a command that replaces the song opening now (another open, the run's end)
    /// waits behind it: a stream that registers then is closed at once. The engine's.
    var isSuperseded: @Sendable () -> Bool = { false }

    /// A song is being opened from the network until `endOpening`.
    func beginOpening() {
        state.update { $0.opening = true }
    }

    func endOpening() {
        state.update { $0.opening = false }
    }

    /// Another song was asked for (called once it is queued): the song opening now, if one is
    /// and it was asked for before that one (`isSuperseded`: the new one still waits behind
    /// it), is stopped: its waits on the network end, its open fails as stopped. The song the
    /// call was made for may be opening already: it is not. A song playing is not either: it
    /// plays until the playback thread opens the next, as it always has.
    func supersede() {
        // Asked under the lock (the engine's is taken inside this one, never the other way):
        // the open that began meanwhile, the new song's own, is not stopped.
        let stream = state.update { state -> NetworkStream? in
            guard state.opening, isSuperseded() else { return nil }
            state.count += 1
            return state.stream
        }
        stream?.close()
    }

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

    /// `stream` is the one open now (false: the run is ending, or the song it opens for was
    /// replaced already; it is closed). A command posted before this is seen here; one posted
    /// after finds the stream here to close (`supersede`).
    func register(_ stream: NetworkStream) -> Bool {
        let (isShutDown, opening) = state.update { state -> (Bool, Bool) in
            state.stream = stream
            return (state.isShutDown, state.opening)
        }
        guard !isShutDown, !opening || !isSuperseded() else {
            stream.close()
            return false
        }
        return true
    }

    /// `stream` was closed: it is not kept.
    func release(_ stream: NetworkStream) {
        state.update { state in
            if state.stream === stream { state.stream = nil }
        }
    }
}
