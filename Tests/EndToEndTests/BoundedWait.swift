import Foundation
import Glibc
import Testing

/// Every wait for a child process is bounded: a player, a server or a tool that hangs fails its
/// test, naming what hung, and is killed, where an unbounded wait held the whole run until CI
/// gave up (a live pass that printed nothing for 70 minutes). Swift Testing's time limit cannot
/// end a test blocked in a synchronous wait: this is what does.
enum BoundedWait {
    /// How long a child is given unless a test says otherwise: far more than any test's
    /// program takes on a loaded machine, far less than CI's budget for a run.
    static let defaultSeconds = 300.0
}

extension Process {
    /// The child's status once it has ended, asked of the kernel without reaping it (`waitid`
    /// with `WNOWAIT`: Foundation reaps it, as it does every child of a `Process`); `nil` while
    /// it runs. Foundation hears of an end only when every copy of a socket it gives the child
    /// is closed, and the socket is not closed on exec: a child another test started at that
    /// moment may hold a copy, and then a child long ended stays "running" until that one ends
    /// (a recorder, a sound server: CI once waited 309 s on a `-w` run that had ended).
    var endedStatus: Int32? {
        switch kernelSays() {
        case .ended(let status): return status
        case .running, .reaped: return nil
        }
    }

    private enum KernelSays { case running, ended(Int32), reaped }

    private func kernelSays() -> KernelSays {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            return errno == ECHILD ? .reaped : .running
        }
        // The exit status, or the signal's number, as Foundation's.
        return info._sifields._sigchld.si_pid == processIdentifier ? .ended(info._sifields._sigchld.si_status) : .running
    }

    /// It has ended, whether or not Foundation has said so (it may be reaping it this moment:
    /// gone from the kernel, still "running" here).
    var hasEnded: Bool {
        guard isRunning else { return true }
        if case .running = kernelSays() { return false }
        return true
    }

    /// Its exit status (or the signal that ended it): Foundation's once it has reaped it, the
    /// kernel's before; -1 while it runs.
    var exitStatus: Int32 {
        if !isRunning { return terminationStatus }
        switch kernelSays() {
        case .running: return -1
        case .ended(let status): return status
        case .reaped:
            // Foundation is reaping it: its status is being set.
            let until = Date().addingTimeInterval(10)
            while isRunning, Date() < until { usleep(1_000) }
            return isRunning ? -1 : terminationStatus
        }
    }

    /// Waits at most `seconds` for the process to end by itself; past that it is killed
    /// (SIGKILL), the test gets an issue naming it, and the answer is false. Its status is
    /// `exitStatus` (Foundation's `terminationStatus` may not be set yet).
    @discardableResult
    func waitUntilExit(within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var ended = hasEnded
        while !ended, Date() < deadline {
            usleep(20_000)
            ended = hasEnded
        }
        guard !ended else {
            if !isRunning { waitUntilExit() }  // reaped: its status is set
            return true
        }
        let name = ([executableURL?.lastPathComponent ?? "?"] + (arguments ?? []).prefix(6)).joined(separator: " ")
        kill(processIdentifier, SIGKILL)
        // Foundation's own wait, after the kill, is bounded too: its one thread that reaps
        // children was once found blocked in wait4 for another child that still ran (a
        // recorder), so a child long dead stayed "running" and the wait never ended (CI's
        // live pass hung until its watchdog).
        let reaped = Date().addingTimeInterval(10)
        while isRunning, Date() < reaped { usleep(20_000) }
        if !isRunning { waitUntilExit() }
        Issue.record("\(name) did not end within \(Int(seconds)) s: killed", sourceLocation: sourceLocation)
        return false
    }
}

/// `waitpid` for a spawned child, at most `seconds`; past that it is killed and the test gets
/// an issue naming it. Its exit status (-1 when killed).
func waitForChild(_ pid: pid_t, named name: String, within seconds: Double = BoundedWait.defaultSeconds,
                  sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while true {
        let ended = waitpid(pid, &status, WNOHANG)
        if ended == pid { return (status >> 8) & 0xFF }
        if ended < 0 && errno != EINTR { return -1 }
        if Date() >= deadline { break }
        usleep(20_000)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    Issue.record("\(name) did not end within \(Int(seconds)) s: killed", sourceLocation: sourceLocation)
    return -1
}
