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
        /// The rest of a long list named at start, read while its first songs play.
        case launch
        /// A song heard, counted in the library and the listen log (a new one drops only the
        /// message of the one before: its writing is done all the same).
        case listen
        /// A song's cover, drawn for the now-playing view.
        case cover
        /// What the library view's filter leaves, counted.
        case libraryCount
        /// The library's folders scanned (`:scan`): a new scan asked for stops the one before.
        case libraryScan
        /// The album of the song to follow, for album mode: only the latest asked is wanted.
        case album
        /// Every song's album, a batch at a time (shuffle by album, the album keys).
        case albums
        /// A named playlist saved, opened, changed (`:playlist …`).
        case playlist
        /// The library's watcher: each of its scans (the library's songs may have changed).
        case libraryWatch
        /// The library read whole for MPD's clients (a newer read replaces one under way).
        case mpdCatalog
    }

    /// A job's cancel flag, asked by the job as it goes.
    public final class Cancel: Sendable {
        private let flag = Locked(false)
        public var isSet: Bool { flag.read { $0 } }
        func set() { flag.update { $0 = true } }
    }

    private let wake: SelfPipe
    /// Results and pieces of results handed over by the helper threads, in the order they came.
    private let finished = Locked<[(id: Int, result: any Sendable, isLast: Bool)]>([])
    private var pending: [Int: (slot: Slot, cancel: Cancel, progress: (any Sendable) -> Void, then: (any Sendable) -> Void)] = [:]
    private var current: [Slot: Int] = [:]
    /// The ids of `listen`'s senders: they never finish, so nothing waits for them.
    private var listeners = Set<Int>()
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
        start(slot, { cancel, _ in job(cancel) }, progress: { (_: Never) in }, then: then)
    }

    /// Runs `job` as `start` does; what it hands to its second argument as it goes reaches
    /// `progress` on the main loop, in order, before its result reaches `then`.
    public func start<Progress: Sendable, Result: Sendable>(
        _ slot: Slot, _ job: @escaping @Sendable (Cancel, _ progress: @escaping @Sendable (Progress) -> Void) -> Result,
        progress: @escaping (Progress) -> Void, then: @escaping (Result) -> Void
    ) {
        cancel(slot)
        nextID += 1
        let id = nextID
        let cancel = Cancel()
        pending[id] = (slot, cancel, { piece in if let piece = piece as? Progress { progress(piece) } },
                       { result in if let result = result as? Result { then(result) } })
        current[slot] = id
        let finish: @Sendable () -> Void = { [finished, wake] in
            let result = job(cancel) { piece in
                finished.update { $0.append((id, piece, false)) }
                wake.wake()
            }
            finished.update { $0.append((id, result, true)) }
            wake.wake()
        }
        do {
            let thread = try HelperThread.start(name: "tplayer-work", finish)
            pthread_detach(thread)
        } catch {
            finish()
        }
    }

    /// A sender that any thread may call, for as long as `slot` is not cancelled: each piece it
    /// is handed reaches `receive` on the main loop, in order (for a thread of its own, such as
    /// the library's watcher, that tells the main loop what it did).
    public func listen<Piece: Sendable>(_ slot: Slot, receive: @escaping (Piece) -> Void) -> @Sendable (Piece) -> Void {
        cancel(slot)
        nextID += 1
        let id = nextID
        pending[id] = (slot, Cancel(), { piece in if let piece = piece as? Piece { receive(piece) } }, { _ in })
        current[slot] = id
        listeners.insert(id)
        return { [finished, wake] piece in
            finished.update { $0.append((id, piece, false)) }
            wake.wake()
        }
    }

    /// Cancels the job in `slot`, if any: its result will be dropped.
    public func cancel(_ slot: Slot) {
        guard let id = current.removeValue(forKey: slot) else { return }
        pending.removeValue(forKey: id)?.cancel.set()
        listeners.remove(id)
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
        for (id, result, isLast) in done {
            guard isLast else {
                pending[id]?.progress(result)
                continue
            }
            guard let job = pending.removeValue(forKey: id) else { continue }
            if current[job.slot] == id { current[job.slot] = nil }
            job.then(result)
        }
    }

    /// Waits for jobs and hands over what they give (as `deliver`) until `isDone` says so:
    /// for what the run cannot start without (the first piece of a long list).
    public func deliver(until isDone: () -> Bool) {
        while !isDone(), pending.keys.contains(where: { !listeners.contains($0) }) {
            if !Waiting.untilReadable(descriptor) { return }
            deliver()
        }
    }
}
