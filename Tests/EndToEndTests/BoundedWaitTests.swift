import Foundation
import Glibc
import Testing

/// The harness's waits see a child's end when the kernel does, not when Foundation hears of it.
@Suite(.timeLimit(.minutes(2)))
struct BoundedWaitTests {
    /// A child that leaves a process of its own behind (here a `sleep`, in CI a recorder or a
    /// sound server another test started at that moment) leaves its copy of Foundation's socket
    /// with it: Foundation says it runs until that one ends. The harness sees its end and its
    /// status at once, and Foundation's are the same once it hears.
    /// Skipped in the pass: there (CI, 2026-12-07, a0cd3c0) it ran past its time limit, for
    /// 237 s, with the other suites' children about; alone it takes 10 s. Foundation's one thread
    /// that reaps children also stalls while another child, still running, has closed its copy
    /// of the socket (it then waits for that child in `waitpid`): not yet found which wait here
    /// met it. Run it with `--filter BoundedWaitTests` after removing the trait.
    @Test(.disabled("stalls in the parallel pass behind Foundation's reaping thread; see the comment"))
    func aChildWhoseSocketAnotherHoldsIsSeenToEnd() throws {
        let started = Date()
        let result = try Harness.run("/bin/sh", ["-c", "sleep 10 & exit 3"], timeout: 60)
        #expect(result.status == 3)
        #expect(Date().timeIntervalSince(started) < 3, "seen to end at once, not when the sleep did")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 10 & exit 5"]
        try process.run()
        #expect(process.waitUntilExit(within: 60))
        #expect(process.isRunning, "Foundation has not heard: the sleep holds the socket")
        #expect(process.exitStatus == 5)
        while process.isRunning, Date().timeIntervalSince(started) < 60 { usleep(50_000) }
        #expect(!process.isRunning && process.terminationStatus == 5)
    }
}
