import Glibc

/// Puts the terminal on a file descriptor into raw-ish mode: keys arrive one by one, unechoed.
///
/// Signals stay on (ISIG), so Ctrl-C and Ctrl-Z reach `SignalWatcher` as signals. The saved
/// settings are also kept where a crash handler can reach them (`restoreAfterCrash`), so the
/// terminal comes back on every exit path but SIGKILL.
public final class RawMode {
    private let fd: Int32
    private var saved: termios
    private var active = false

    /// Saved settings for the crash handler: written before raw mode is entered, read only by
    /// an async-signal-safe `tcsetattr`.
    nonisolated(unsafe) private static var crashRestore: (fd: Int32, settings: termios)?
    /// Where the status line is drawn (the cursor is shown there again after a crash); set
    /// once by the `Screen`, before anything can crash.
    nonisolated(unsafe) static var displayFD: Int32 = STDERR_FILENO
    /// Whether the alternate screen is shown (the list view): a crash switches back from it.
    nonisolated(unsafe) static var alternateScreen = false

    /// Enters raw mode on `fd`, or returns nil when `fd` is not a terminal.
    public init?(fd: Int32 = STDIN_FILENO) {
        var settings = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &settings) == 0 else { return nil }
        self.fd = fd
        saved = settings
        Self.crashRestore = (fd, settings)
        Self.installCrashHandlers()
        enter()
    }

    deinit { restore() }

    /// Switches raw mode on (again, after a suspend).
    public func enter() {
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | IEXTEN)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSAFLUSH, &raw)
        active = true
    }

    /// Puts the terminal back as it was found. Safe to call more than once.
    public func restore() {
        guard active else { return }
        active = false
        tcsetattr(fd, TCSAFLUSH, &saved)
    }

    /// The actions that were installed before ours, by signal number, so a crash still reaches
    /// them (the Swift runtime's backtracer among them) after the terminal is restored.
    nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()
    nonisolated(unsafe) private static var crashHandlersInstalled = false

    /// On a crash signal: restore the terminal, then hand the signal to whoever had it before.
    private static func installCrashHandlers() {
        guard !crashHandlersInstalled else { return }
        crashHandlersInstalled = true
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if var saved = RawMode.crashRestore {
                    tcsetattr(saved.fd, TCSANOW, &saved.settings)
                }
                if RawMode.alternateScreen {
                    let normalScreen: StaticString = "\u{1B}[?1049l"
                    _ = write(RawMode.displayFD, normalScreen.utf8Start, normalScreen.utf8CodeUnitCount)
                }
                let cursorOn: StaticString = "\u{1B}[?25h"
                _ = write(RawMode.displayFD, cursorOn.utf8Start, cursorOn.utf8CodeUnitCount)
                sigaction(number, RawMode.previousActions + Int(number), nil)
                raise(number)
            }
            sigaction(signal, &action, previousActions + Int(signal))
        }
    }
}
