import Glibc
import Testing
@testable import Terminal

/// `--check`'s progress bar, drawn into a pipe, with time moved by hand.
struct ProgressBarTests {
    private final class Clock { var now = ContinuousClock.now }

    private func drained(_ fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test func drawsAtMostTenTimesASecondAndClearsItsLine() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let clock = Clock()
        var bar = ProgressBar(fd: fds[1], enabled: true, now: { clock.now })
        bar.show(done: 0, total: 4, name: "album/01.mp3")
        #expect(drained(fds[0]).isEmpty, "a check that ends at once needs no bar")
        clock.now += ProgressBar.delay
        bar.show(done: 0, total: 4, name: "album/01.mp3")
        let first = drained(fds[0])
        #expect(first.hasPrefix("\r\u{1b}[K[--------------------] 0/4 "))
        #expect(first.hasSuffix("album/01.mp3"))
        clock.now += .milliseconds(50)
        bar.show(done: 1, total: 4, name: "album/02\u{1b}[2J.mp3")
        #expect(drained(fds[0]).isEmpty, "50 ms after the last: not drawn")
        clock.now += .milliseconds(60)
        bar.show(done: 2, total: 4, name: "album/03\u{1b}[2J.mp3")
        let third = drained(fds[0])
        #expect(third.contains("[==========----------] 2/4 "))
        #expect(third.hasSuffix("album/03\\e[2J.mp3"), "a name from the disk is made safe")
        bar.clear()
        #expect(drained(fds[0]) == "\r\u{1b}[K")
    }

    /// One hour-long song is a long wait too: the bar moves within it.
    @Test func showsHowFarIntoTheSongDecodingNow() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let clock = Clock()
        var bar = ProgressBar(fd: fds[1], enabled: true, now: { clock.now })
        clock.now += ProgressBar.delay
        bar.show(done: 0, total: 1, within: 0.5, name: "hour.mp3")
        #expect(drained(fds[0]).contains("[==========----------] 0/1 50% hour.mp3"))
        clock.now += .milliseconds(100)
        bar.show(done: 1, total: 2, within: 0.25, name: "b.mp3")
        #expect(drained(fds[0]).contains("[============--------] 1/2 25% b.mp3"))
    }

    @Test func drawsNothingWhenDisabled() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let clock = Clock()
        var off = ProgressBar(fd: fds[1], enabled: false, now: { clock.now })
        clock.now += .seconds(1)
        off.show(done: 0, total: 5, name: "a.mp3")
        off.clear()
        #expect(drained(fds[0]).isEmpty)
    }
}
