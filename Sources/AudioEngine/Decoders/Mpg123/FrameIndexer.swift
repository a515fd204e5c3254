import Files
import Glibc
import PlayerCore

/// Where a song's frames start, every `step` frames: libmpg123's frame index, which makes a
/// far seek a jump instead of a walk through every frame header before the target.
struct FrameIndex: Sendable, Equatable {
    let offsets: [Int64]
    let step: Int64
}

/// Builds a song's frame index on a helper thread, with a handle of its own, right after the
/// playback thread opens the song; the playback thread takes it at its next seek.
///
/// Without it, the first seek to 54:00 in a 60-minute VBR file makes libmpg123 read every frame
/// header up to there, ~180 ms on the playback thread, while the device runs dry. The helper
/// reads the same headers (`mpg123_scan`) while the song plays, where it costs nothing anyone
/// hears, and the seek then lands through the index, as exactly as before: the index is the one
/// libmpg123 would have built itself.
final class FrameIndexer: @unchecked Sendable {
    // `@unchecked Sendable`: every field is touched only inside `lock`.
    private let lock = ConditionLock()
    private var wanted: (path: Path, generation: Int)?
    private var ready: (generation: Int, index: FrameIndex)?
    private var generation = 0
    private var started = false
    private var stopping = false

    /// Asks for the index of the song at `path`, forgetting any asked before; returns the
    /// number to take it by. Starts the helper thread the first time; if it cannot start,
    /// seeks are only slower.
    func index(_ path: Path) -> Int {
        lock.withLock {
            generation += 1
            wanted = (path, generation)
            ready = nil
            if !started {
                started = true
                if let thread = try? HelperThread.start(name: "tplayer-index", { [self] in run() }) {
                    pthread_detach(thread)
                }
            }
            lock.broadcast()
            return generation
        }
    }

    /// The index asked for as `generation`, once built (taken once).
    func take(_ generation: Int) -> FrameIndex? {
        lock.withLock {
            guard let ready, ready.generation == generation else { return nil }
            self.ready = nil
            return ready.index
        }
    }

    func isReady(_ generation: Int) -> Bool {
        lock.withLock { ready?.generation == generation }
    }

    /// Lets the helper thread end after the scan it is in.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    private func run() {
        while true {
            let job: (path: Path, generation: Int)? = lock.withLock {
                while wanted == nil && !stopping { lock.wait() }
                defer { wanted = nil }
                return stopping ? nil : wanted
            }
            guard let job else { return }
            let index = Self.scan(job.path)
            lock.withLock {
                if let index, job.generation == generation { ready = (job.generation, index) }
            }
        }
    }

    /// Reads every frame header of the file at `path` with a decoder of its own: a handle set
    /// up as the playback one is, so that the frames are counted the same way.
    static func scan(_ path: Path) -> FrameIndex? {
        guard let decoder = try? Mpg123Decoder(), (try? decoder.open(path)) != nil else { return nil }
        return decoder.scanIndex()
    }
}
