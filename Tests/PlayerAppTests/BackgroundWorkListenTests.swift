import Foundation
import Testing
@testable import PlayerApp

/// A thread of its own (the library's watcher) tells the main loop what it did through a
/// listening slot: each piece reaches the main loop in order, and nothing waits for the slot.
struct BackgroundWorkListenTests {
    @Test func piecesFromAnotherThreadReachTheMainLoopInOrder() throws {
        let work = try BackgroundWork()
        var heard: [Int] = []
        let send = work.listen(.libraryWatch) { (piece: Int) in heard.append(piece) }
        let thread = Thread { for piece in 1...3 { send(piece) } }
        thread.start()
        var waited = 0
        while heard.count < 3, waited < 1000 {
            work.deliver()
            usleep(10_000)
            waited += 1
        }
        #expect(heard == [1, 2, 3])
        work.cancel(.libraryWatch)
        send(4)
        work.deliver()
        #expect(heard == [1, 2, 3], "a cancelled slot hears nothing more")
    }

    @Test func nothingWaitsForAListener() throws {
        let work = try BackgroundWork()
        _ = work.listen(.libraryWatch) { (_: Bool) in }
        var asked = 0
        work.deliver { asked += 1; return false }
        #expect(asked == 1, "no job: deliver(until:) returns at once, the listener never finishing")
    }
}
