import Glibc

/// The time the playback thread keeps: monotonic seconds, and sleeping until a moment. Tests
/// use a fake whose sleep only moves its time on.
protocol PlaybackClock: AnyObject {
    var now: Double { get }
    func sleep(until moment: Double)
}

/// The monotonic clock (never stepped by a clock change).
final class MonotonicClock: PlaybackClock {
    var now: Double {
        let time = Monotonic.now()
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    func sleep(until moment: Double) {
        var due = timespec(tv_sec: Int(moment), tv_nsec: Int((moment - moment.rounded(.down)) * 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
    }
}

/// Holds output that does not block (the null driver) to real time, so that it plays at the
/// speed a device would: `-o null` and the no-device fallback never spin the CPU.
struct Pacer {
    private var origin = 0.0
    private var frames: Int64 = 0
    private var rate = 1

    /// Starts a new real-time run from `now`.
    mutating func restart(rate: Int, at now: Double) {
        origin = now
        frames = 0
        self.rate = max(rate, 1)
    }

    /// Counts `count` more frames as played and sleeps until they are due in real time.
    mutating func pace(frames count: Int, clock: PlaybackClock) {
        frames += Int64(count)
        let due = origin + Double(frames) / Double(rate)
        let now = clock.now
        if now - due > 0.2 {
            // Far behind (the machine stalled): start afresh rather than rush to catch up.
            restart(rate: rate, at: now)
        } else if due > now {
            clock.sleep(until: due)
        }
    }
}
