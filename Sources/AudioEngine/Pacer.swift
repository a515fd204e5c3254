import Glibc

/// Holds output that does not block (the null driver) to real time, so that it plays at the
/// speed a device would: `-o null` and the no-device fallback never spin the CPU.
struct Pacer {
    private var origin = Monotonic.now()
    private var frames: Int64 = 0
    private var rate = 1

    /// Starts a new real-time run from now.
    mutating func restart(rate: Int) {
        origin = Monotonic.now()
        frames = 0
        self.rate = max(rate, 1)
    }

    /// Counts `count` more frames as played and sleeps until they are due in real time.
    mutating func pace(frames count: Int) {
        frames += Int64(count)
        var due = origin
        due.add(seconds: Double(frames) / Double(rate))
        let late = Monotonic.now().seconds(since: due)
        if late > 0.2 {
            // Far behind (the machine stalled): start afresh rather than rush to catch up.
            restart(rate: rate)
            return
        }
        if late < 0 {
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
        }
    }
}
