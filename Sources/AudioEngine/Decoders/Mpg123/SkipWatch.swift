/// Damage in an MPEG stream, seen from the frames libmpg123 decodes on either side of it.
///
/// With no resync limit libmpg123 skips any run of damage and plays on (as `mpg123
/// --resync-limit -1`, cmus and mpv do), but says nothing of it. What shows it: the frame after
/// the damage starts past where the one before it ended, and libmpg123 set up its decoder
/// afresh for it. Two things follow from that here: how much was skipped is said once (in
/// seconds of the song, from the bytes skipped and the song's byte rate), and frames right after
/// a skip whose header is in another format than the song's (junk that happens to look like an
/// MPEG 2.5 frame at 11,025 Hz, say) are junk, dropped until the song's frames come back, never
/// played as noise. A new format that holds for `formatHoldsAfter` frames is the stream's own:
/// it is played from there.
struct SkipWatch {
    /// What libmpg123 says of the frame it read last.
    struct Frame: Equatable {
        /// Where it starts in the file, and its length in bytes (header included).
        var position: Int64
        var size: Int64
        /// The rate and channel count its header gives (before any conversion).
        var native: PCMFormat
    }

    /// What to do with the bytes one read gave.
    enum Verdict: Equatable {
        case keep
        /// Junk decoded as audio: dropped.
        case drop
        /// The bytes are the last in the format the reader knows; from the next read on the
        /// output is in this format.
        case keepThenChange(PCMFormat)
        /// The bytes are dropped; from here on the output is in this format.
        case dropThenChange(PCMFormat)
    }

    static let formatHoldsAfter = 40

    /// The song's frames' own format (their headers').
    private(set) var native: PCMFormat
    /// The format the reader has been told the output is in.
    private(set) var told: PCMFormat
    /// The format libmpg123 writes now (it may have changed to a junk frame's, untold).
    private var writing: PCMFormat
    /// The song's bytes per second, to turn skipped bytes into seconds.
    let bytesPerSecond: Double
    /// Seconds skipped and not yet said.
    var skippedToSay: Double?
    private var lastEnd: Int64?
    /// Where the skipped bytes began, while frames after a skip are in another format.
    private var skipFrom: Int64?
    private var junkFrames = 0

    /// Whether the bytes from one place to another in the file are whole frames of the song's
    /// own format, one after another: frames libmpg123 decoded within one read, before the one it
    /// reports (its reads do not end where frames do), not damage.
    private let wholeFrames: (_ from: Int64, _ to: Int64) -> Bool

    init(native: PCMFormat, output: PCMFormat, bytesPerSecond: Double, wholeFrames: @escaping (Int64, Int64) -> Bool) {
        self.native = native
        told = output
        writing = output
        self.bytesPerSecond = bytesPerSecond
        self.wholeFrames = wholeFrames
    }

    /// After a seek: the next frame starts a new chain.
    mutating func restart() {
        lastEnd = nil
        skipFrom = nil
        junkFrames = 0
    }

    /// A read gave `bytes`, after which libmpg123 stands at `frame`; `fresh` when it set its
    /// decoder up afresh for that frame; `newFormat` when it says its output changes to that.
    mutating func step(frame: Frame, fresh: Bool, newFormat: PCMFormat?, bytes: Int) -> Verdict {
        let skipped = fresh && lastEnd.map { frame.position > $0 && !wholeFrames($0, frame.position) } == true
        let skipStart = lastEnd
        lastEnd = frame.position + frame.size
        if let newFormat { writing = newFormat }
        if let from = skipFrom {
            // Frames after a skip, in another format: junk until the song's come back.
            if frame.native == native {
                skipFrom = nil
                say(from: from, to: frame.position)
                return writing == told ? .drop : change(dropping: true)
            }
            junkFrames += 1
            guard junkFrames >= Self.formatHoldsAfter else { return .drop }
            // It holds: the stream goes on in this format (what was dropped is said as skipped).
            skipFrom = nil
            native = frame.native
            say(from: from, to: frame.position)
            return writing == told ? .drop : change(dropping: true)
        }
        if skipped, let skipStart {
            guard frame.native == native else {
                skipFrom = skipStart
                junkFrames = 1
                // With a new format, libmpg123 stops before decoding the frame: the bytes are
                // the song's, from before the skip. Without (it converts), they hold the junk.
                return newFormat == nil ? .drop : .keep
            }
            say(from: skipStart, to: frame.position)
            return newFormat == nil ? .keep : change(dropping: false)
        }
        native = frame.native
        return newFormat == nil ? .keep : change(dropping: false)
    }

    private mutating func change(dropping: Bool) -> Verdict {
        told = writing
        return dropping ? .dropThenChange(writing) : .keepThenChange(writing)
    }

    private mutating func say(from: Int64, to: Int64) {
        guard to > from else { return }
        let seconds = bytesPerSecond > 0 ? Double(to - from) / bytesPerSecond : 0
        skippedToSay = (skippedToSay ?? 0) + seconds
    }
}
