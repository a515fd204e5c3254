import Glibc

/// A pthread mutex with one condition variable: what the engine's command queue waits on.
///
/// `@unchecked Sendable`: the pthread objects live at stable heap addresses for the object's
/// whole life and are only ever used through the pthread calls, which are thread-safe.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure the monotonic clock, so a clock change never stalls playback.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; call only inside `withLock`.
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a signal or until the monotonic clock reaches `deadline`; false once it has.
    /// Call only inside `withLock`.
    public func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes every waiter; call inside `withLock`.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// Monotonic-clock helpers.
public enum Monotonic {
    public static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now
    }

    /// Monotonic milliseconds, for waits with a deadline.
    public static func milliseconds() -> Int64 {
        let time = now()
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}

extension timespec {
    public mutating func add(seconds: Double) {
        let nanos = Int(seconds * 1_000_000_000) + tv_nsec
        tv_sec += nanos / 1_000_000_000
        tv_nsec = nanos % 1_000_000_000
    }

    public func seconds(since earlier: timespec) -> Double {
        Double(tv_sec - earlier.tv_sec) + Double(tv_nsec - earlier.tv_nsec) / 1_000_000_000
    }
}
