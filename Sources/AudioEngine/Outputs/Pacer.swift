import Files
import Glibc

/// The time the playback thread keeps: monotonic seconds. Tests use a fake that moves only when
/// told to.
protocol PlaybackClock: AnyObject {
    var now: Double { get }
}

/// The monotonic clock (never stepped by a clock change).
final class MonotonicClock: PlaybackClock {
    var now: Double {
        let time = Monotonic.now()
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}

/// How an output is kept to time.
enum Pacing: Equatable, Sendable {
    /// A file: as fast as decoding allows.
    case none
    /// An output with no buffer that never blocks (the null device): held to real time.
    case realTime
    /// A live device: its writes block once its buffer is full.
    case device
    /// A sound server's stream: written when it asks (it says how much room it has), never
    /// blocking; its buffer is large and can be corked and flushed.
    case server
}

/// When the playback thread writes its next chunk to a live output, and how long the chunk is.
///
/// A device write blocks only once the device's buffer is full, so a player that just writes
/// keeps that whole buffer queued: a stop or a seek is heard only after all of it, and the
/// thread sits inside the write, deaf to keys, for most of each chunk. So the playback thread
/// keeps time itself: it keeps between `low` and `low + chunk` queued, estimated from the audio
/// written and the time passed, and between writes it waits on its command queue, which a key
/// interrupts at once.
///
/// The estimate needs the buffer's size and must not fall behind the device's clock:
/// - Calibration: when the device opens, chunks are written at once until one blocks. The
///   buffer is then full: what was written, less what played while the write waited, is its
///   size (`capacity`). (A sound server that is still starting may hold the write for longer
///   than all that was written could play: the size is then what was queued before that write,
///   which may be less than the buffer, never more.)
/// - Drift: the estimate takes the device to play `drift` faster than the monotonic clock, so a
///   device whose crystal runs fast (by at most a few hundred ppm) is slightly overfed, never
///   starved. The surplus builds up until a write blocks: the buffer is full, exactly, and the
///   estimate starts again from there.
/// - A write that only looks blocked (its thread waited on a lock) sets the estimate to a full
///   buffer too soon. `low` is chosen so that even then the device does not run dry: what was
///   really queued (`low + chunk`) outlasts the wait for the estimate to come down to `low`.
///
/// An output that never blocks has no buffer to keep filled: it is held to real time.
struct WritePacer {
    let pacing: Pacing
    /// The device's buffer, in seconds, once a write has blocked.
    private(set) var capacity: Double?
    /// Seconds of audio written since `origin`.
    private var written = 0.0
    /// When the estimate started counting (its queue was `written` then).
    private var origin = 0.0
    private var calibrating = false
    /// Held to real time, how far ahead of it the writes run (a pipe read on another
    /// program's timer is never found empty).
    let lead: Double

    /// How much faster than the monotonic clock a device is assumed to play.
    static let drift = 0.001
    /// The longest chunk, and the least kept queued below it.
    static let maxChunk = 0.04
    static let minLow = 0.03
    /// What is left queued in the worst case: a write that only looked blocked.
    static let margin = 0.01
    /// A device that takes this much without blocking is held to real time instead.
    static let calibrationLimit = 0.5
    /// A file's chunk, at most: in practice as much as the loop's buffer holds (64 KiB).
    static let fileChunk = 1.0

    init(pacing: Pacing, lead: Double = 0) {
        self.pacing = pacing
        self.lead = lead
    }

    /// Starts over at `now`, taking the output's buffer as empty: playback starts or resumes.
    /// A device whose buffer is not yet known is calibrated first.
    mutating func restart(at now: Double) {
        origin = now
        written = 0
        calibrating = pacing == .device && capacity == nil
    }

    /// Seconds of audio to decode and write at once.
    var chunk: Double {
        switch pacing {
        case .none, .server: Self.fileChunk
        case .realTime: Self.maxChunk
        case .device: capacity.map { min(Self.maxChunk, $0 / 2) } ?? Self.maxChunk
        }
    }

    /// Below this much queued, the next chunk is written: at least `minLow` (less for a small
    /// buffer), and enough that a write that only looked blocked leaves `margin` queued.
    var low: Double {
        guard let capacity else { return 0 }
        return min(max(min(Self.minLow, capacity * 0.375), (capacity - chunk + Self.margin) / 2), capacity - chunk)
    }

    /// When the next chunk may be written; `nil` when it may be now.
    func nextWrite(at now: Double) -> Double? {
        let due: Double
        switch pacing {
        case .none, .server: return nil
        case .realTime: due = origin + written - lead
        case .device:
            if calibrating { return nil }
            due = capacity == nil ? origin + written - Self.minLow : origin + (written - low) / (1 + Self.drift)
        }
        return due > now ? due : nil
    }

    /// `seconds` of audio were written by a write that took `took` seconds and returned at
    /// `now`, having `blocked` on a full buffer or not.
    mutating func wrote(_ seconds: Double, took: Double, blocked: Bool, at now: Double) {
        written += seconds
        switch pacing {
        case .none, .server: return
        case .realTime:
            // Far behind (the machine stalled): start afresh rather than rush to catch up.
            if now - (origin + written) > 0.2 { restart(at: now) }
        case .device:
            if calibrating {
                if blocked {
                    calibrating = false
                    // A write held longer than all that was written could play waited for a
                    // server still starting: what was queued before it is what is known.
                    let known = took >= written ? written - seconds : max(written - took, written - seconds)
                    let size = min(max(known, 0.01), Self.calibrationLimit)
                    capacity = size
                    written = size
                    origin = now
                } else if written >= Self.calibrationLimit {
                    calibrating = false  // a buffer that never fills: real time from the start
                }
            } else if blocked, let capacity {
                // Full: the device played slower than assumed, or a stop left audio queued.
                written = capacity
                origin = now
            }
        }
    }
}
