import Glibc
import PlayerCore

/// The interactive terminal for one run: raw mode on stdin and the console on stderr, put back
/// as they were by `close()` (and on a crash, by `RawMode`'s handler).
public final class TerminalSession {
    private let rawMode: RawMode
    private let console: Console

    /// Takes the terminal on stdin, or returns nil when stdin is not one.
    public init?(showsStatus: Bool) {
        guard let rawMode = RawMode() else { return nil }
        self.rawMode = rawMode
        console = Console(showsStatus: showsStatus)
    }

    deinit { close() }

    public func commands(from bytes: [UInt8]) -> [Command] { console.commands(from: bytes) }
    public func show(_ status: StatusSnapshot) { console.show(status) }
    public func print(_ line: String) { console.print(line) }
    public func resized() { console.resized() }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    public func suspend() {
        console.close()
        rawMode.restore()
        SignalWatcher.suspendSelf()
        rawMode.enter()
        console.resized()
    }

    /// Leaves the bottom line empty, the cursor visible and the terminal as it was. Safe to
    /// call more than once.
    public func close() {
        console.close()
        rawMode.restore()
    }
}
