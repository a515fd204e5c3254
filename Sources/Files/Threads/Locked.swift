import Glibc

/// A value shared between threads: one pthread mutex guards it, and one condition lets a thread
/// wait until the value says there is something to do.
///
/// `@unchecked Sendable`: the value is only ever touched inside the lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Reads or changes the value under the lock, then wakes every waiter.
    @discardableResult
    public func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock {
            defer { lock.broadcast() }
            return try body(&value)
        }
    }

    /// Reads the value under the lock.
    public func read<T>(_ body: (Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(value) }
    }

    /// Waits until `ready` holds or `timeout` seconds have passed (`nil`: no time limit), then
    /// runs `body` under the same lock. A spurious wake-up never cuts the wait short.
    public func wait<T>(until ready: (Value) -> Bool, timeout: Double?, then body: (inout Value) -> T) -> T {
        lock.withLock {
            if let timeout {
                var deadline = Monotonic.now()
                deadline.add(seconds: max(timeout, 0))
                while !ready(value), lock.wait(until: deadline) {}
            } else {
                while !ready(value) { lock.wait() }
            }
            return body(&value)
        }
    }
}
