import Files
import Glibc
import PlayerCore

/// What other threads ask of the playback thread.
enum EngineCommand {
    case open(path: Path, token: Int, reply: Int)
    case play
    case stop
    case seek(frame: Int64)
    case volume(Double)
    case shutdown(reply: Int)
}

/// The only state the playback thread shares with the rest of the process: commands in, events
/// and replies out, and the play position. Everything is guarded by one lock.
///
/// `@unchecked Sendable`: every stored property is read and written under `lock`, except the
/// two pipe descriptors, which are immutable after `init`.
final class Mailbox: @unchecked Sendable {
    private let lock = ConditionLock()
    private var commands: [EngineCommand] = []
    private var events: [EngineEvent] = []
    private var replies: [Int: Result<SongInfo?, LoadError>] = [:]
    private var nextReply = 0
    private var frames: Int64 = 0
    /// Audio time the playback thread may still play (script pacing); `nil`: no limit.
    private var budget: AudioTime?
    private var grantID = 0
    /// Whether `budgetSpent` has been reported for `grantID`.
    private var spentReported = true
    /// Readable whenever `events` may be non-empty: what the main loop's `poll` watches.
    private let wake: SelfPipe
    var wakeReadFD: Int32 { wake.readFD }

    init() throws(SystemError) {
        wake = try SelfPipe()
    }

    // MARK: Callers' side

    func post(_ command: EngineCommand) {
        lock.withLock {
            commands.append(command)
            lock.broadcast()
        }
    }

    /// A fresh id for a command whose caller waits for the answer.
    func makeReplyID() -> Int {
        lock.withLock {
            nextReply += 1
            return nextReply
        }
    }

    /// Blocks until the playback thread answers the command posted with `id`.
    func awaitReply(_ id: Int) -> Result<SongInfo?, LoadError> {
        lock.withLock {
            while replies[id] == nil { lock.wait() }
            return replies.removeValue(forKey: id) ?? .success(nil)
        }
    }

    /// The events reported since the last call, oldest first.
    func takeEvents() -> [EngineEvent] {
        _ = wake.drain()
        return lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }

    var position: Int64 {
        lock.withLock { frames }
    }

    func limitPlayback(_ limited: Bool) {
        lock.withLock {
            budget = limited ? .zero : nil
            spentReported = true
            lock.broadcast()
        }
    }

    func grant(_ time: AudioTime, id: Int) {
        lock.withLock {
            guard budget != nil else { return }
            budget = time
            grantID = id
            spentReported = false
            lock.broadcast()
        }
    }

    func revokeGrant() -> AudioTime {
        lock.withLock {
            guard let left = budget else { return .zero }
            budget = .zero
            spentReported = true
            return left
        }
    }

    // MARK: Playback thread's side

    /// How many of `frames` frames at `rate` may be played now: all of them without a limit,
    /// else what the budget covers.
    func allowance(frames wanted: Int, rate: Int) -> Int {
        lock.withLock {
            guard let budget else { return wanted }
            return Int(min(Int64(wanted), budget.frames(rate: rate)))
        }
    }

    /// Takes `count` frames at `rate` out of the budget. Returns the grant to report as spent
    /// when that used it up (once per grant), after the frames are written.
    func consume(frames count: Int, rate: Int) -> Int? {
        lock.withLock {
            guard let left = budget else { return nil }
            let remaining = max(left - AudioTime(frames: Int64(count), rate: rate), .zero)
            budget = remaining
            guard !spentReported, remaining.frames(rate: rate) == 0 else { return nil }
            spentReported = true
            return grantID
        }
    }

    /// The commands waiting, oldest first. Blocks while there are none and no work: work is
    /// `playingRate` set (a song playing at that rate) with budget left for a frame of it. With
    /// `timeout`, blocks at most that many seconds.
    func takeCommands(playingRate: Int?, timeout: Double? = nil) -> [EngineCommand] {
        lock.withLock {
            let hasWork = playingRate.map { rate in budget.map { $0.frames(rate: rate) > 0 } ?? true } ?? false
            if commands.isEmpty && !hasWork {
                if let timeout { lock.wait(seconds: timeout) } else { lock.wait() }
            }
            defer { commands.removeAll(keepingCapacity: true) }
            return commands
        }
    }

    func answer(_ id: Int, with result: Result<SongInfo?, LoadError>) {
        lock.withLock {
            replies[id] = result
            lock.broadcast()
        }
    }

    func report(_ event: EngineEvent) {
        lock.withLock { events.append(event) }
        wake.wake()
    }

    func setPosition(_ value: Int64) {
        lock.withLock { frames = value }
    }

    func advancePosition(by count: Int64) {
        lock.withLock { frames += count }
    }
}
