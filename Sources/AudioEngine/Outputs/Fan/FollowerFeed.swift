import Files
import Glibc
import PlayerCore

/// The followers' own thread (`output = pulse, snapcast`): what the first output is given
/// comes here, and each follower is given it in real time, `lead` ahead of its own clock, a
/// hundredth of a second at a time, as it would be alone. The first output is written as its
/// sound server asks (half a second at a time, measured on a bare PulseAudio sink); given as
/// it came, a room fell silent for 0.1 to 0.2 s after such a start (snapserver reads its
/// pipe on its own timer, its rooms on theirs). Their clock starts with the first samples after
/// a silence and stops when none come. The followers (`Followers`) are touched by this thread
/// alone; a song's title waits in line with the samples, an output turned on or off is so at
/// once (what waits is what the first output has not played yet: with a sound server's 2 s
/// queue, a room turned off in line played on for 2 s more).
final class FollowerFeed: @unchecked Sendable {
    private enum Item {
        case samples([UInt8], PCMFormat)
        /// A write over the last `frames` frames handed over (a pause's fade, a seek): what
        /// of them has not been given yet is replaced.
        case replace(frames: Int, [UInt8], PCMFormat)
        case nowPlaying(SongInfo)
        case enable(Int, Bool)
        case refresh
    }

    private struct Shared {
        var items: [Item] = []
        var closing = false
        var finished = false
        var notices: [String] = []
        /// All that was added has been given, and the followers' clocks have reached it (but
        /// for their lead): what the first output has played, they have too.
        var caughtUp = true
    }

    private let followers: Followers
    private let shared = Locked(Shared())
    /// No thread: each item is the followers' at once, on the caller's thread, unpaced (the
    /// playback loop's tests, on a clock of their own).
    private let inline: Bool
    static let lead = SnapcastOutput.lead
    static let tick = 0.01

    init(_ followers: Followers, inline: Bool = false) throws(OutputError) {
        self.followers = followers
        self.inline = inline
        guard !inline else { return }
        do {
            _ = try HelperThread.start(name: "tplayer-follow") { [self] in run() }
        } catch {
            throw OutputError(message: "output: no thread for the outputs that follow the first (\(error))", isUsageError: false)
        }
    }

    func add(_ bytes: UnsafeRawBufferPointer, format: PCMFormat) {
        guard !bytes.isEmpty else { return }
        guard !inline else { return followers.write(bytes, format: format) }
        shared.update { state in
            state.items.append(.samples(Array(bytes), format))
            state.caughtUp = false
        }
    }

    /// Whether the followers have played what they were given, but for their lead (the end of
    /// a list waits for it, so that the rooms hear the end before the run ends).
    var caughtUp: Bool { inline || shared.read(\.caughtUp) }

    /// `bytes` in place of the last `frames` frames added, as far as they have not been given.
    func replace(frames: Int, with bytes: UnsafeRawBufferPointer, format: PCMFormat) {
        guard !inline else {
            let skipped = min(frames * format.bytesPerFrame, bytes.count)
            return followers.write(UnsafeRawBufferPointer(rebasing: bytes[skipped...]), format: format)
        }
        shared.update { state in
            state.items.append(.replace(frames: frames, Array(bytes), format))
            state.caughtUp = false
        }
    }

    func announce(_ info: SongInfo) { post(.nowPlaying(info)) }
    func setEnabled(_ index: Int, _ on: Bool) { post(.enable(index, on)) }
    func refreshFormats() { post(.refresh) }

    private func post(_ item: Item) {
        guard inline else { return shared.update { $0.items.append(item) } }
        apply(item)
    }

    private func apply(_ item: Item) {
        switch item {
        case .nowPlaying(let info): followers.nowPlaying(info)
        case .enable(let index, let on): _ = followers.setEnabled(index, on)
        case .refresh: followers.members.forEach { $0.output.refreshFormat() }
        case .samples(let bytes, let format): bytes.withUnsafeBytes { followers.write($0, format: format) }
        case .replace: break  // taken as it comes (`take`)
        }
    }

    /// Items as they come: an output turned on or off is so at once; a replacement takes back
    /// from the end of what waits (what was given stays given), then waits as samples.
    private func take(_ item: Item) {
        if case .enable = item { return apply(item) }
        guard case .replace(let frames, let bytes, let format) = item else { return waiting.append(item) }
        var owed = frames
        while owed > 0, let index = waiting.lastIndex(where: { if case .samples = $0 { true } else { false } }),
              case .samples(let held, let heldFormat) = waiting[index], heldFormat == format {
            let heldFrames = held.count / format.bytesPerFrame
            let cut = min(owed, heldFrames)
            if cut == heldFrames { waiting.remove(at: index) } else { waiting[index] = .samples(Array(held.dropLast(cut * format.bytesPerFrame)), format) }
            owed -= cut
        }
        let skipped = min(owed * format.bytesPerFrame, bytes.count)
        if bytes.count > skipped { waiting.append(.samples(Array(bytes[skipped...]), format)) }
    }

    func takeNotice() -> String? {
        if inline, let notice = followers.takeNotice() { say(notice) }
        return shared.update { $0.notices.isEmpty ? nil : $0.notices.removeFirst() }
    }

    /// Gives the followers all that waits, closes them, and ends the thread (`seconds` at most).
    func close(within seconds: Double) {
        startClosing()
        waitClosed(within: seconds)
    }

    /// Asks the thread to give the followers all that waits and close them (each waits for
    /// snapserver to read the end, `SnapcastSink`), while the first output closes.
    func startClosing() {
        guard !inline else { return followers.close(within: 0) }
        shared.update { $0.closing = true }
    }

    func waitClosed(within seconds: Double) {
        guard !inline else { return }
        shared.wait(until: \.finished, timeout: seconds) { _ in }
    }

    // MARK: The thread

    private var waiting: [Item] = []
    /// Samples given since the clock started, in seconds, and when it started.
    private var given = 0.0
    private var startedAt: Double?

    private func run() {
        let clock = MonotonicClock()
        while true {
            // Idle (nothing waits, no clock), it sleeps until something comes.
            let timeout = waiting.isEmpty && startedAt == nil ? 1.0 : Self.tick
            let (items, closing) = shared.wait(until: { !$0.items.isEmpty || $0.closing }, timeout: timeout) { state in
                defer { state.items.removeAll() }
                return (state.items, state.closing)
            }
            items.forEach(take)
            let now = clock.now
            if startedAt == nil, waiting.contains(where: { if case .samples = $0 { true } else { false } }) {
                startedAt = now
                given = 0
            }
            var budget = closing ? .infinity : (startedAt.map { now - $0 + Self.lead - given } ?? 0)
            giving: while let first = waiting.first {
                switch first {
                case .nowPlaying, .enable, .refresh, .replace: apply(first)
                case .samples(let bytes, let format):
                    guard budget > 0 else { break giving }
                    let unit = format.bytesPerFrame, frames = bytes.count / unit
                    let owed = budget * Double(format.rate)
                    let due = owed >= Double(frames) ? frames : max(Int(owed.rounded(.up)), 1)
                    bytes.withUnsafeBytes { followers.write(UnsafeRawBufferPointer(rebasing: $0.prefix(due * unit)), format: format) }
                    let seconds = Double(due) / Double(format.rate)
                    given += seconds
                    budget -= seconds
                    if due < frames {
                        waiting[0] = .samples(Array(bytes[(due * unit)...]), format)
                        continue giving
                    }
                }
                waiting.removeFirst()
            }
            let reached = waiting.isEmpty && (startedAt.map { now - $0 + Self.lead >= given - Self.tick } ?? true)
            if reached { shared.update { if $0.items.isEmpty { $0.caughtUp = true } } }
            // Nothing has come for a while (a pause, a stop): the clock starts again with the next.
            if let startedAt, waiting.isEmpty, now - startedAt - given > Self.lead { self.startedAt = nil }
            while let notice = followers.takeNotice() { say(notice) }
            if closing {
                followers.close(within: 0.35)
                while let notice = followers.takeNotice() { say(notice) }
                shared.update { $0.finished = true }
                return
            }
        }
    }

    private func say(_ notice: String) {
        shared.update { state in if state.notices.count < 8 { state.notices.append(notice) } }
    }
}
