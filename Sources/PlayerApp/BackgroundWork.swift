import Files
import Glibc

/// Work that can take long (walking a folder, reading a playlist, listing a folder for Tab),
/// done on a helper thread so that the main loop answers every key meanwhile.
///
/// Each job belongs to a slot; a new job in a slot cancels the one before it (its result is
/// dropped), and `cancelAll` stops everything (the player quitting). A job's result is handed
/// to its `then` on the main loop, by `deliver`, when `descriptor` has turned readable.
public final class BackgroundWork: @unchecked Sendable {
    // `@unchecked Sendable`: `pending` and `current` are only touched on the main thread; what
    // the helper threads touch is `finished` (behind its lock), the pipe and the cancel flags.

    /// What a job is for: one of each runs at a time.
    public enum Slot: Hashable, Sendable {
        /// Songs for the load prompt, MPRIS `OpenUri`, and the like.
        case load
        /// A playlist for `-R`'s `LOADLIST`.
        case list
        /// Tab at the load prompt.
        case completion
        /// The list saved as a playlist.
        case save
        /// Tags and lengths of the songs on screen in the list view.
        case facts
    }

    /// A job's cancel flag, asked by the job as it goes.
    public final class Cancel: Sendable {
        private let flag = Locked(false)
        public var isSet: Bool { flag.read { $0 } }
        func set() { flag.update { $0 = true } }
    }

    private let wake: SelfPipe
    private let finished = Locked<[(id: Int, result: any Sendable)]>([])
    private var pending: [Int: (slot: Slot, cancel: Cancel, then: (any Sendable) -> Void)] = [:]
    private var current: [Slot: Int] = [:]
    private var nextID = 0

    public init() throws(SystemError) {
        wake = try SelfPipe()
    }

    /// Readable when a job has finished.
    public var descriptor: Int32 { wake.readFD }

    /// Whether a job is under way in `slot`.
    public func isBusy(_ slot: Slot) -> Bool { current[slot] != nil }

    /// Runs `job` on a helper thread, cancelling the job before it in `slot`; `then` gets its
    /// result on the main loop. If no thread can be started, the job runs here and now.
    public func start<Result: Sendable>(_ slot: Slot, _ job: @escaping @Sendable (Cancel) -> Result,
                                        then: @escaping (Result) -> Void) {
        cancel(slot)
        nextID += 1
        let id = nextID
        let cancel = Cancel()
        pending[id] = (slot, cancel, { result in if let result = result as? Result { then(result) } })
        current[slot] = id
        let finish: @Sendable () -> Void = { [finished, wake] in
            let result = job(cancel)
            finished.update { $0.append((id, result)) }
            wake.wake()
        }
        do {
            let thread = try HelperThread.start(name: "tplayer-work", finish)
            pthread_detach(thread)
        } catch {
            finish()
        }
    }

    /// Cancels the job in `slot`, if any: its result will be dropped.
    public func cancel(_ slot: Slot) {
        guard let id = current.removeValue(forKey: slot) else { return }
        pending.removeValue(forKey: id)?.cancel.set()
    }

    /// Cancels every job (the player is quitting).
    public func cancelAll() {
        for slot in Array(current.keys) { cancel(slot) }
    }

    /// Hands each finished job's result to its `then` (on the main loop); results of jobs
    /// cancelled since are dropped.
    public func deliver() {
        _ = wake.drain()
        let done = finished.update { list in
            defer { list.removeAll() }
            return list
        }
        for (id, result) in done {
            guard let job = pending.removeValue(forKey: id) else { continue }
            if current[job.slot] == id { current[job.slot] = nil }
            job.then(result)
        }
    }
}
