import Files
import PlayerCore

/// Taking back what snapserver has not read from its pipe: a pause, a seek, the next song or a
/// new volume goes over it, as it goes over what a sound server holds (`PlaybackLoop+Server`),
/// so that the rooms hear it a buffer after it is asked, not the 0.2 s written ahead later.
/// A pipe can only be emptied from its oldest end: all it holds unread is taken out, what is
/// not replaced is written again from the copy kept of the last writes (`recent`), then the
/// new audio. What snapserver reads meanwhile it has (it reads 20 ms at a time): a margin of
/// two of its reads is never taken back. What it has read is never taken back: its rooms
/// hear it a buffer later, together, whatever is written now.
extension SnapcastSink {
    /// What is never taken back: two of snapserver's 20 ms reads.
    static let replaceMargin = 0.04
    /// The copy kept of the last writes: more than is ever written ahead.
    static let recentSeconds = SnapcastOutput.lead + 0.3

    var canTakeBack: Bool {
        if case .pipe? = conduit { return true }
        return false
    }

    /// What snapserver has not read, less the margin, and no more than the copy holds.
    var replaceableFrames: Int {
        guard case .pipe(let pipe)? = conduit, reading else { return 0 }
        let margin = Int(Self.replaceMargin * Double(format.rate)) * format.bytesPerFrame
        return max(min((pipe.unread ?? 0) - margin, recent.count), 0) / format.bytesPerFrame
    }

    var rewritableFrames: Int? { replaceableFrames }

    func write(_ bytes: UnsafeRawBufferPointer, over frames: Int) throws(OutputFailure) {
        if frames > 0, case .pipe(let pipe)? = conduit {
            let unit = format.bytesPerFrame
            let taken = pipe.discard(keeping: 0, unit: unit)
            let replaced = min(frames * unit, taken)
            // The oldest of what was taken, not replaced, goes back in, from the copy.
            let start = recent.count - taken
            let end = recent.count - replaced
            if end > max(start, 0) {
                _ = recent[max(start, 0)..<end].withUnsafeBytes { put($0, into: .pipe(pipe)) }
            }
            // What the copy did not hold is lost unheard; the replaced part is gone.
            let lost = max(-start, 0)
            recent.removeLast(min(replaced, recent.count))
            let now = clock.now
            let gone = Double((replaced + lost) / unit) / Double(format.rate)
            spans.update { $0.unwrote(seconds: gone, at: now) }
        }
        _ = try write(bytes)
    }

    /// Keeps a copy of `bytes`, as written to a pipe.
    func remember(_ bytes: UnsafeRawBufferPointer) {
        guard case .pipe? = conduit else { return }
        recent.append(contentsOf: bytes)
        let most = Int(Self.recentSeconds * Double(format.rate)) * format.bytesPerFrame
        if recent.count > most { recent.removeFirst(recent.count - most) }
    }
}
