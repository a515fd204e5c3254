/// `update` and `rescan`: the library's folders scanned off the main loop, each scan a job by
/// number (`updating_db` in `status`); one asked for while another runs follows it, and those
/// asked for meanwhile are that one.
final class MpdLibraryUpdates {
    /// Scans the library's folders off the main loop, then calls `done` on it (`nil`: none can be).
    private let scan: ((_ done: @escaping () -> Void) -> Void)?
    /// The scan under way, and the one asked for meanwhile, by job number.
    private(set) var running: Int?
    private var queued: Int?
    private var lastJob = 0
    /// Told when a scan starts or ends (MPD's idle `update`).
    var changed: () -> Void = {}

    init(scan: ((_ done: @escaping () -> Void) -> Void)?) {
        self.scan = scan
    }

    var canScan: Bool { scan != nil }

    /// Asks for a scan: the job that will make it (the one queued, if one is).
    func start() -> Int {
        if running != nil {
            if let queued { return queued }
            lastJob += 1
            queued = lastJob
            return lastJob
        }
        lastJob += 1
        begin(lastJob)
        return lastJob
    }

    private func begin(_ job: Int) {
        guard let scan else { return }
        running = job
        changed()
        scan { [weak self] in
            guard let self else { return }
            self.running = nil
            if let next = self.queued {
                self.queued = nil
                self.begin(next)
            } else {
                self.changed()
            }
        }
    }
}
