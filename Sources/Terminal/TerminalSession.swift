import Files
import Glibc
import PlayerCore

/// The interactive terminal for one run: keys from stdin whenever it is a terminal, the status
/// line on the controlling terminal (`/dev/tty`), so `2>/dev/null` or `2>log` neither silences
/// the keys nor breaks the screen; both put back as they were by `close()` (and on a crash, by
/// `RawMode`'s handler).
public final class TerminalSession {
    private let rawMode: RawMode
    private let console: Console
    private let display: Int32
    /// The controlling terminal, open for the status line; closed when the session goes.
    private let tty: OpenFile?
    /// Messages go on the screen only when stderr is that terminal too; otherwise to stderr,
    /// wherever the user sent it.
    public let takesMessages: Bool

    /// Takes the terminal on stdin, or returns nil when stdin is not one.
    public init?(showsStatus: Bool, colours: Bool = true, bindings: KeyBindings = .standard, steps: Steps = Steps(),
                 paths: Console.TypedPaths) {
        guard let rawMode = RawMode() else { return nil }
        self.rawMode = rawMode
        tty = FileSystem.openControllingTerminal()
        display = tty?.descriptor ?? (isatty(STDERR_FILENO) == 1 ? STDERR_FILENO : -1)
        takesMessages = isatty(STDERR_FILENO) == 1
        console = Console(screen: Screen(fd: display, colours: colours), showsStatus: showsStatus, paths: paths)
        console.bindings = bindings
        console.steps = steps
    }

    deinit {
        close()
    }

    public func commands(from bytes: [UInt8], list: () -> ListSnapshot) -> [Command] { console.commands(from: bytes, list: list) }
    public func show(_ status: StatusSnapshot) { console.show(status) }
    public func print(_ line: String) { console.print(line) }
    public func resized() { console.resized() }
    public func interrupted() -> Bool { console.interrupted() }
    public var nextChange: ContinuousClock.Instant? { console.nextChange }
    public var showsList: Bool { console.showsList }
    /// The library the library view browses (`nil`: none yet).
    public var library: LibraryBrowser? {
        get { console.library }
        set { console.library = newValue }
    }
    /// Starts a scan of the library's folders, one added first (`:scan`, `u` in the library view).
    public var scanLibrary: ((Path?) -> Void)? {
        get { console.scanLibrary }
        set { console.scanLibrary = newValue }
    }
    /// What the library knows of a song, for `i`.
    public var statistics: ((Path) -> SongDetails.Statistics?)? {
        get { console.statistics }
        set { console.statistics = newValue }
    }
    /// The library changed (a scan ended): the library view reads it again.
    public func libraryChanged() { console.libraryChanged() }
    /// Opens the library view (`view = library` in the settings).
    public func openLibrary() { console.openLibrary() }
    public func showList(_ list: ListSnapshot) { console.showList(list) }
    public func takeFactRequests() -> [SongSource] { console.takeFactRequests() }
    /// Opens the now-playing view (`view = now-playing` in the settings).
    public func openNowPlaying() { console.openNowPlaying() }
    /// Whether styles are drawn as colours (a terminal that has them, NO_COLOR unset, `colours = on`).
    public var colours: Bool { console.screen.colours }
    public var nowPlayingOptions: NowPlayingView.Options {
        get { console.nowPlayingOptions }
        set { console.nowPlayingOptions = newValue }
    }
    /// Several outputs' names (`i` lists them, and turns one on or off).
    public var outputNames: [String] {
        get { console.outputSwitches.names }
        set { console.outputSwitches.names = newValue }
    }
    public func takeCoverRequest() -> CoverRequest? { console.takeCoverRequest() }
    public func takeLibraryCount() -> LibraryCountRequest? { console.takeLibraryCount() }
    public func showLibraryCount(_ result: LibraryCountResult) { console.showLibraryCount(result) }
    public func showCover(_ cover: CoverArt) { console.showCover(cover) }
    public var spectrumBars: Int? { console.spectrumBars }
    public func showSpectrum(_ levels: [Double]) { console.showSpectrum(levels) }
    public var tick: Double? { console.tick }
    public var showsNowPlaying: Bool { console.showsNowPlaying }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    public func suspend() {
        // The shell may already have the terminal back (when tplayer runs inside a subshell, the
        // rest of its job stops at once): putting the terminal back must not stop tplayer by
        // SIGTTOU before it stops itself, or `fg` would find it stopped twice.
        let previous = signal(SIGTTOU, SIG_IGN)
        console.close()
        rawMode.restore()
        signal(SIGTTOU, previous)
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
