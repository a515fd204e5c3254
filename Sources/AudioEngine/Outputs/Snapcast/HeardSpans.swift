/// When what was written to snapserver is heard: it reads at real time from when it arrives (what
/// is already waiting first), and the rooms hear each part `buffer` seconds after it was read.
/// Kept as the spans of time over which it reads, so that a pause (nothing written) is a gap:
/// what was written before it is heard out, the time shown moving on to where the song stopped.
struct HeardSpans {
    private var spans: [(start: Double, end: Double)] = []
    static let most = 32

    /// `seconds` of audio were written at `now`; spans heard `keeping` seconds ago are let go.
    mutating func wrote(seconds: Double, at now: Double, keeping: Double) {
        if let last = spans.last, last.end >= now {
            spans[spans.count - 1].end += seconds
        } else {
            spans.append((now, now + seconds))
        }
        spans.removeAll { $0.end + keeping < now }
        if spans.count > Self.most { spans.removeFirst(spans.count - Self.most) }
    }

    /// When snapserver will have read all that was written.
    var readBy: Double? { spans.last?.end }

    /// The last `seconds` written were taken back at `now` (what was not read yet).
    mutating func unwrote(seconds: Double, at now: Double) {
        guard let last = spans.last else { return }
        spans[spans.count - 1].end = max(last.end - seconds, max(last.start, now))
    }

    /// Seconds of what was written not yet heard at `now`.
    func unheard(at now: Double, buffer: Double) -> Double {
        let heardUpTo = now - buffer
        return spans.reduce(0) { total, span in total + max(span.end - max(span.start, heardUpTo), 0) }
    }
}

/// What a Snapcast output has to say, kept until the playback loop asks (`takeNotice`).
final class SnapcastNotices {
    private var pending: [String] = []

    func say(_ notice: String) {
        if pending.count < 8 { pending.append(notice) }
    }

    func take() -> String? {
        pending.isEmpty ? nil : pending.removeFirst()
    }
}
