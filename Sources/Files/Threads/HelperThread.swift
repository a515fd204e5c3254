import Glibc

/// A thread of tplayer's own: named (as `ps -L` and /proc show it), and with every signal
/// blocked but the faults, so that signals reach the main thread, which turns them into events;
/// a fault on it still reaches the handler that puts the terminal back.
public enum HelperThread {
    public static func start(name: String, _ body: @escaping () -> Void) throws(SystemError) -> pthread_t {
        final class Job {
            let name: String
            let body: () -> Void
            init(name: String, body: @escaping () -> Void) {
                self.name = name
                self.body = body
            }
        }
        var blocked = sigset_t()
        var previous = sigset_t()
        sigfillset(&blocked)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS] { sigdelset(&blocked, fault) }
        pthread_sigmask(SIG_SETMASK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Job(name: name, body: body)).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            _ = setThreadName(pthread_self(), job.name)
            job.body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            throw SystemError(code: started)
        }
        return thread
    }
}

/// glibc's `pthread_setname_np`, which the Glibc module does not export.
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
