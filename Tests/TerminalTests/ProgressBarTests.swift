import Glibc
import Testing
@testable import Terminal

/// `--check`'s progress bar, drawn into a pipe, with time moved by hand.
struct ProgressBarTests {
    private final class Clock { var now = ContinuousClock.now }

    /// A pipe the bar draws into, its reading end non-blocking so an empty drain returns at once.
    private final class Pipe {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(Glibc.pipe(&ends) == 0)
            (read, write) = (ends[0], ends[1])
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }

        deinit { close(read); close(write) }

        /// What the bar has drawn since the last drain.
        func drained() -> String {
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(read, &bytes, bytes.count)
            return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        }
    }

    @Test func drawsAtMostTenTimesASecondAndClearsItsLine() throws {
        let pipe = try Pipe()
        let clock = Clock()
        var bar = ProgressBar(fd: pipe.write, enabled: true, now: { clock.now })
        bar.show(done: 0, total: 4, name: "album/01.mp3")
        #expect(pipe.drained().isEmpty, "a check that ends at once needs no bar")
        clock.now += ProgressBar.delay
        bar.show(done: 0, total: 4, name: "album/01.mp3")
        let first = pipe.drained()
        #expect(first.hasPrefix("\r\u{1b}[K[--------------------] 0/4 "))
        #expect(first.hasSuffix("album/01.mp3"))
        clock.now += .milliseconds(50)
        bar.show(done: 1, total: 4, name: "album/02\u{1b}[2J.mp3")
        #expect(pipe.drained().isEmpty, "50 ms after the last: not drawn")
        clock.now += .milliseconds(60)
        bar.show(done: 2, total: 4, name: "album/03\u{1b}[2J.mp3")
        let third = pipe.drained()
        #expect(third.contains("[==========----------] 2/4 "))
        #expect(third.hasSuffix("album/03\\e[2J.mp3"), "a name from the disk is made safe")
        bar.clear()
        #expect(pipe.drained() == "\r\u{1b}[K")
    }

    /// One hour-long song is a long wait too: the bar moves within it.
    @Test func showsHowFarIntoTheSongDecodingNow() throws {
        let pipe = try Pipe()
        let clock = Clock()
        var bar = ProgressBar(fd: pipe.write, enabled: true, now: { clock.now })
        clock.now += ProgressBar.delay
        bar.show(done: 0, total: 1, within: 0.5, name: "hour.mp3")
        #expect(pipe.drained().contains("[==========----------] 0/1 50% hour.mp3"))
        clock.now += .milliseconds(100)
        bar.show(done: 1, total: 2, within: 0.25, name: "b.mp3")
        #expect(pipe.drained().contains("[============--------] 1/2 25% b.mp3"))
    }

    @Test func drawsNothingWhenDisabled() throws {
        let pipe = try Pipe()
        let clock = Clock()
        var off = ProgressBar(fd: pipe.write, enabled: false, now: { clock.now })
        clock.now += .seconds(1)
        off.show(done: 0, total: 5, name: "a.mp3")
        off.clear()
        #expect(pipe.drained().isEmpty)
    }
}
