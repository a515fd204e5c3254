/// The fades of a live device, as a value: what stops or jumps fades out over 10 ms, and what
/// starts again after it fades in over the next 10 ms, so nothing clicks. A file never fades
/// (it stays sample-identical to mpg123's), and `--no-fade` turns them off.
struct Fader: Equatable {
    /// How long a fade out or in takes: short enough not to be heard as one, long enough that
    /// nothing clicks.
    static let seconds = 0.01

    let enabled: Bool
    /// The next play starts with a fade in (the song was left with a fade out).
    private(set) var fadeInNext = false
    /// Frames of the fade in still to come, and how long it is.
    private(set) var fadeInLeft = 0
    private(set) var fadeInLength = 0

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Frames a fade lasts in `format`, at most what `capacity` bytes hold.
    static func frames(in format: PCMFormat, capacity: Int) -> Int {
        min(max(Int(Double(format.rate) * seconds), 1), capacity / format.bytesPerFrame)
    }

    /// A fade out was played: what plays next fades in.
    mutating func fadedOut() {
        fadeInNext = true
    }

    /// Playback starts again: the fade in starts, if one is owed.
    mutating func starting(_ format: PCMFormat, capacity: Int) {
        guard fadeInNext else { return }
        fadeInNext = false
        guard enabled else { return }
        fadeInLength = Self.frames(in: format, capacity: capacity)
        fadeInLeft = fadeInLength
    }

    /// The gain at `frame` frames into a stretch of audio that began with a fade in of `length`
    /// frames (0: none): where a fade out from there starts, so that it joins what is before it.
    static func gain(at frame: Int, afterFadeIn length: Int) -> Double {
        length > 0 ? min(max(Double(frame) / Double(length), 0), 1) : 1
    }

    /// What was written after `kept` frames of a fade in of `length` frames is written again:
    /// the fade in goes on from there.
    mutating func takenBack(toFrame kept: Int, ofFadeIn length: Int) {
        guard enabled, length > 0, kept < length else { return }
        fadeInLength = length
        fadeInLeft = length - max(kept, 0)
    }

    /// Applies what is left of the fade in to the `bytes` about to be written from `buffer`.
    mutating func fadeIn(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat) {
        guard fadeInLeft > 0 else { return }
        let frames = min(fadeInLeft, bytes / format.bytesPerFrame)
        Self.ramp(buffer, frames: frames, format: format, from: 0, to: 1, over: fadeInLength, skipping: fadeInLength - fadeInLeft)
        fadeInLeft -= frames
    }

    /// Scales the first `frames` frames of `buffer` by a gain going linearly from `start` to
    /// `end` over `total` frames (all of them by default), `done` of which came before.
    static func ramp(_ buffer: UnsafeMutableRawPointer, frames: Int, format: PCMFormat, from start: Double, to end: Double,
                     over total: Int? = nil, skipping done: Int = 0) {
        let length = Double(total ?? frames)
        let encoding = format.encoding
        for frame in 0..<frames {
            let gain = start + (end - start) * Double(frame + done) / length
            for channel in 0..<format.channels {
                let index = frame * format.channels + channel
                encoding.store(encoding.sample(buffer, index) * gain, buffer, index)
            }
        }
    }
}
