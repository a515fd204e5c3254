import Files
import Glibc

/// The samples the output was handed last, mixed to mono, for the spectrum: the playback thread
/// records each chunk it writes, only while a spectrum is shown (`wanted`), and the main thread
/// takes the frames that end where the output is heard (what was written less what the sound
/// server still holds), so the bars move with what is heard, not with what was decoded.
///
/// The playback thread never waits for it: it records only when the lock is free at once
/// (a look that coincides costs the spectrum one chunk, never a glitch).
final class SpectrumTap: @unchecked Sendable {
    // `@unchecked Sendable`: every field behind `mutex` (allocated: its address never moves).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// The last `capacity` mono frames written, as a ring: made when a spectrum is first shown,
    /// let go when it is hidden (1 MB no run without one keeps).
    private var ring: [Float] = []
    /// Frames recorded since the start: where the ring's next one goes.
    private var written: Int64 = 0
    private var rate = 0
    /// Set by the main thread while a spectrum is shown.
    private var isWanted = false

    /// Enough for what a sound server holds (a second at 192 kHz) and the frames looked at.
    static let capacity = 1 << 18

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    var wanted: Bool {
        get { locked { isWanted } }
        set {
            locked {
                isWanted = newValue
                if newValue, ring.isEmpty { ring = [Float](repeating: 0, count: Self.capacity) }
                if !newValue { (written, ring) = (0, []) }
            }
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Records `samples` (interleaved, `channels` of them a frame, in `encoding`) written at
    /// `rate`. Playback thread.
    func record(_ samples: UnsafeRawBufferPointer, encoding: SampleEncoding, channels: Int, rate: Int) {
        guard channels > 0, let base = samples.baseAddress, pthread_mutex_trylock(mutex) == 0 else { return }
        defer { pthread_mutex_unlock(mutex) }
        guard isWanted else { return }
        if rate != self.rate {
            self.rate = rate
            written = 0
        }
        let source = UnsafeMutableRawPointer(mutating: base)
        let frames = samples.count / (encoding.bytes * channels)
        let scale = 1 / encoding.fullScale / Double(channels)
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<channels { sum += encoding.sample(source, frame * channels + channel) }
            ring[Int(written % Int64(Self.capacity))] = Float(sum * scale)
            written += 1
        }
    }

    /// The `count` frames that end `queued` frames before the last written (those the output
    /// still holds, not heard yet), and their rate; `nil` before any, or when the output holds
    /// more than the ring keeps.
    func latest(_ count: Int, queued: Int) -> (samples: [Float], rate: Int)? {
        locked {
            guard count > 0, count <= Self.capacity, queued >= 0, queued <= Self.capacity - count else { return nil }
            let end = written - Int64(queued)
            guard end > 0, rate > 0 else { return nil }
            let start = max(end - Int64(count), 0, written - Int64(Self.capacity))
            let samples = (start..<end).map { ring[Int($0 % Int64(Self.capacity))] }
            return (samples, rate)
        }
    }
}
