import Glibc
import Inputs
import PlayerCore
import Terminal

/// The terminal as the main loop uses it: keys in, the status line and messages out. The live
/// one is `Terminal.TerminalSession`; tests use a fake that records what it is shown.
public protocol PlayerScreen: AnyObject {
    /// The commands that `bytes` typed mean (keys typed at the load prompt edit it instead);
    /// `list` gives the list as it is now, asked for when a key opens the list view.
    func commands(from bytes: [UInt8], list: () -> ListSnapshot) -> [Command]
    func show(_ status: StatusSnapshot)
    /// A message on its own line above the status line.
    func print(_ line: String)
    /// The window changed size (or the player came back to it after Ctrl-Z).
    func resized()
    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    func suspend()
    /// Ctrl-C: true when the screen took it (it cancelled a prompt) and the player goes on.
    func interrupted() -> Bool
    /// When the screen next changes by itself (a hint going away).
    var nextChange: ContinuousClock.Instant? { get }
    /// Whether messages go on the screen (stderr is the terminal) rather than to stderr.
    var takesMessages: Bool { get }
    /// Whether the list view is open: only then are songs' tags read for it.
    var showsList: Bool { get }
    func showList(_ list: ListSnapshot)
    /// The songs whose tags and length the list view would show (each asked for once).
    func takeFactRequests() -> [SongSource]
    /// The cover the now-playing view needs drawn (each asked for once), and the drawing.
    func takeCoverRequest() -> CoverRequest?
    func showCover(_ cover: CoverArt)
    /// The count the library view wants run off the main loop (each asked for once), and its
    /// result.
    func takeLibraryCount() -> LibraryCountRequest?
    func showLibraryCount(_ result: LibraryCountResult)
    /// The spectrum's bars wanted (their number) while the now-playing view shows one.
    var spectrumBars: Int? { get }
    func showSpectrum(_ levels: [Double])
    /// Whether the now-playing view is open (it shows the lyrics itself).
    var showsNowPlaying: Bool { get }
    /// How often to draw again while a song plays, when the screen wants it more often than
    /// the status line does (the now-playing view's lyrics and spectrum).
    var tick: Double? { get }
}

extension PlayerScreen {
    public var showsList: Bool { false }
    public func showList(_ list: ListSnapshot) {}
    public func takeFactRequests() -> [SongSource] { [] }
    public func takeCoverRequest() -> CoverRequest? { nil }
    public func showCover(_ cover: CoverArt) {}
    public func takeLibraryCount() -> LibraryCountRequest? { nil }
    public func showLibraryCount(_ result: LibraryCountResult) {}
    public var spectrumBars: Int? { nil }
    public func showSpectrum(_ levels: [Double]) {}
    public var tick: Double? { nil }
    public var showsNowPlaying: Bool { false }
}

/// A control from outside the terminal (MPRIS on D-Bus): its descriptor joins the main loop's
/// poll; it sees every engine report, and after each turn of the loop says what changed.
public protocol OutsideControl: AnyObject {
    /// Readable when it has something to do; `nil` once it has stopped (its connection lost).
    var descriptor: Int32? { get }
    /// Handles what arrived (method calls): each becomes a command on the session.
    func process()
    /// An engine report, after the session has handled it.
    func observe(_ event: EngineEvent)
    /// After each turn of the loop: tell the outside what changed.
    func update()
}

/// A server on sockets, run by the main loop (MPD's protocol): it says which descriptors to
/// watch, handles those that are ready, and is told what changed after each turn.
public protocol SocketService: AnyObject {
    /// The descriptors to watch, each with what for (`events`).
    var watched: [pollfd] { get }
    /// Handles those of `watched` that are ready (`revents` set).
    func process(_ ready: [pollfd])
    /// After a turn of the loop that changed something: the status, and the groups changed.
    func changed(_ status: PlayerStatus, _ changes: StatusChanges)
}

/// Signals as the main loop reads them: a descriptor that turns readable, and the numbers.
public protocol SignalSource: AnyObject {
    var readFD: Int32 { get }
    func take() -> [Int32]
}

extension SignalWatcher: SignalSource {}
extension TerminalSession: PlayerScreen {}
