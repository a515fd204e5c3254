import Foundation
import PlayerCore

/// The crossfade: where a song's end overlaps the next song's start (`Plan`, decided once the
/// end is near and the next song is open), and, while two songs overlap, the other song's
/// frames read from the spare decoder (`NextSong`) and mixed into the song's with equal-power
/// gains (cos and sin of a quarter turn: the sum's power stays the same through the fade).
///
/// Two songs overlap at a song's end (the song fades out, the cued one in) and after a skip (the
/// song skipped to fades in, the one left fades out on the spare). Where they line up is a matter
/// of the song's frames alone: the other's frame is its `origin` plus the song's frames past
/// `start`. So a seek, a pause's take-back or a fade out moves both, and what is written again is
/// the same mix; a key acts at once during a fade as at any time.
final class Crossfader {
    enum Plan: Equatable {
        /// Not yet asked: the song's end is not near, or what follows it changed.
        case undecided
        /// The song ends as it does without a crossfade (gaplessly into the next, when cued).
        case none
        /// The next song starts at the song's frame `start`, `length` frames before its end.
        case at(start: Int64, length: Int)
    }

    struct Overlap: Equatable {
        /// The song's frames it spans.
        let start: Int64
        let length: Int
        /// The song fades out (its end, into the cued song) or in (a skip's, the song left fading out).
        let songFadesOut: Bool
        /// The other song's frame at `start`.
        let origin: Int64
        /// What the other's samples are scaled by besides the fade: its ReplayGain over the
        /// song's (the stage applies the song's to both), and where a fade was cut short by a
        /// skip, the gain it had got to.
        let otherScale: Double
        /// The other's next frame to read; of those read, `carried` are at the head of the
        /// scratch buffer, not yet mixed.
        var otherFrame: Int64
        var carried = 0
        /// The other song ended or changed format: the rest of the overlap is the song's alone.
        var otherEnded = false
        /// Where in the fade's curve (0 to 1) it starts: a skip to the song fading in finishes
        /// its fade from where it had come to, faster.
        var from = 0.0

        var end: Int64 { start + Int64(length) }
    }

    var setting = CrossfadeSetting()
    var plan = Plan.undecided {
        didSet { if plan == .undecided { plannedFor = nil } }
    }
    /// The cued song the plan was made for: another cued makes it again.
    private var plannedFor: SongSource?
    private(set) var overlap: Overlap?
    /// The next frame the song's decoder gives.
    private(set) var frame: Int64 = 0
    private let scratch: UnsafeMutableRawPointer
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        scratch = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// A song opened (or taken over, or skipped to) whose decoder gives `frame` next.
    func restart(at frame: Int64) {
        self.frame = frame
        overlap = nil
        plan = .undecided
    }

    /// Where the fade under way has come to in its curve (0 to 1), at the song's frame.
    var progress: Double? {
        guard let overlap, frame >= overlap.start, frame < overlap.end else { return nil }
        return overlap.from + (1 - overlap.from) * (Double(frame - overlap.start) + 0.5) / Double(overlap.length)
    }

    /// The gains of the song fading out and of the one fading in at `index` of `length` frames
    /// of a fade starting `from` into its curve.
    static func gains(at index: Int, of length: Int, from: Double = 0) -> (out: Double, in: Double) {
        let angle = (from + (1 - from) * (Double(index) + 0.5) / Double(length)) * (Double.pi / 2)
        return (cos(angle), sin(angle))
    }

    // MARK: Deciding

    /// With the song's end near (`frames` more read would reach where an overlap would start),
    /// decides how it ends from the song cued (opened now, if it was not); at the overlap's
    /// start, begins it. `allowed`: nothing paces playback from outside (a script's grants).
    /// `exact`: the song's stated length is exact (else its end is not known to fade there);
    /// asked only then (a decoder may read to find it out).
    func approach(_ song: PlaybackLoop.Song, frames: Int, next: inout NextSong, allowed: Bool, exact: @autoclosure () -> Bool,
                  gain: (OpenedSong, SongSource) -> Double) {
        guard overlap == nil, setting.isOn, allowed else { return }
        if plan != .undecided, next.cued != plannedFor { plan = .undecided }
        if plan == .undecided {
            let length = Self.length(setting.seconds, rate: song.format.rate)
            guard let total = Self.frames(of: song.info, in: song.format), frame + Int64(frames) + Int64(length) >= total else { return }
            guard let source = next.cued else { return plan = .none }
            defer { plannedFor = source }  // decided once for it, whatever the answer
            guard exact(), let opened = next.cuedSong() else { return plan = .none }
            plan = Self.plan(song, next: opened, seconds: setting.seconds)
            if case .at(let start, _) = plan, start < frame { plan = .none }  // cued too late to fade whole
            guard case .at = plan else { return }
            otherScale = gain(opened, source) / max(song.gain, .leastNormalMagnitude)
        }
        guard case .at(let start, let length) = plan, frame >= start, frame < start + Int64(length), let other = next.spare else { return }
        // Sought into the overlap: the cued song from as far into it.
        var from: Int64 = 0
        if frame > start {
            guard let landed = other.seek(toFrame: frame - start), landed == frame - start else {
                next.forget()  // left part way: opened again from its start when it plays
                return plan = .none
            }
            from = landed
        }
        // Heard from now on: decoded as far ahead as the song playing is (a cued song is kept
        // only a little ahead), so a slow disk under it is not heard in the fade.
        other.promoted()
        overlap = Overlap(start: start, length: length, songFadesOut: true, origin: 0, otherScale: otherScale, otherFrame: from)
    }

    /// The cued song's gain over the song's, as decided.
    private var otherScale = 1.0

    /// How `song` ends into `next`, for an overlap of `seconds`: faded where both are long
    /// enough, in one format, and not consecutive tracks of one album played in order.
    static func plan(_ song: PlaybackLoop.Song, next: OpenedSong, seconds: Double) -> Plan {
        let length = length(seconds, rate: song.format.rate)
        guard length > 0, next.format == song.format, !song.info.isStream, !next.info.isStream,
              let total = frames(of: song.info, in: song.format), let following = frames(of: next.info, in: next.format),
              total / 2 >= Int64(length), following / 2 >= Int64(length), !AlbumTrack.joins(song.info, next.info) else { return .none }
        return .at(start: total - Int64(length), length: length)
    }

    /// `seconds` in frames at `rate` (bounded: the setting is at most a minute).
    static func length(_ seconds: Double, rate: Int) -> Int {
        Int((CrossfadeSetting.bounded(seconds) * Double(max(rate, 0))).rounded())
    }

    /// The song's stated length in frames of `format` (its rate may be another, converted).
    static func frames(of info: SongInfo, in format: PCMFormat) -> Int64? {
        guard let total = info.totalFrames, total > 0, info.sampleRate > 0, format.rate > 0 else { return nil }
        guard info.sampleRate != format.rate else { return total }
        let (product, overflow) = total.multipliedReportingOverflow(by: Int64(format.rate))
        return overflow ? nil : product / Int64(info.sampleRate)
    }

    // MARK: Skips

    /// A skip to the song fading in at the song's end: where that song is (its decoder moved
    /// back over what was read and not mixed), how far the fade has come, and the song's frames
    /// left in it; `nil` with none.
    func handOver(_ other: AudioDecoder) -> (frame: Int64, from: Double, left: Int64)? {
        guard let overlap, overlap.songFadesOut, !overlap.otherEnded, let from = progress else { return nil }
        var at = overlap.otherFrame - Int64(overlap.carried)
        if overlap.carried > 0 {
            guard let landed = other.seek(toFrame: at), landed == at else { return nil }
            at = landed
        }
        return (at, from, overlap.end - frame)
    }

    /// A skip's fade begins: the song skipped to (at `frame` on its decoder) fades in over
    /// `length` frames, the one left (on the spare from its frame `left`, its ReplayGain `scale`
    /// times the new song's) fades out; `from`: into the curve where a fade between them had come to.
    func skipped(length: Int, at frame: Int64 = 0, left: Int64, from: Double = 0, scale: Double) {
        restart(at: frame)
        guard length > 0 else { return }
        overlap = Overlap(start: frame, length: length, songFadesOut: false, origin: left, otherScale: scale, otherFrame: left, from: from)
    }

    /// The overlap under way is given up (another song opens, or a skip fades from here): the
    /// spare is freed of the other song. The plan stands for the song, when it plays on.
    func abandon(_ next: inout NextSong) {
        guard let overlap else { return }
        self.overlap = nil
        if overlap.songFadesOut { next.forget() } else { next.fadeOutEnded() }
    }

    // MARK: Reading

    /// The next frames of the song from `decoder` into `buffer`, the other song's mixed in
    /// where they overlap: reads stop at an overlap's start, and at its end a song fading out
    /// ends (`.done`: the cued song takes over).
    func read(_ decoder: AudioDecoder, next: inout NextSong, into buffer: UnsafeMutableRawPointer, capacity: Int, format: PCMFormat) -> DecodeResult {
        let size = format.bytesPerFrame
        var frames = capacity / size
        if overlap == nil, case .at(let start, _) = plan, frame < start { frames = min(frames, Int(start - frame)) }
        if let overlap, frame >= overlap.end {
            if overlap.songFadesOut { return .done }  // kept for `tookOver`
            self.overlap = nil
            next.fadeOutEnded()
        }
        guard var overlap, frame >= overlap.start, let other = next.spare else { return counted(decoder.read(into: buffer, capacity: frames * size), size) }
        frames = min(frames, Int(overlap.end - frame), capacity / size)
        if overlap.carried == 0, !overlap.otherEnded {
            switch readOther(other, frames: frames, size: size) {
            case .data(let bytes):
                overlap.carried = bytes / size
                overlap.otherFrame += Int64(overlap.carried)
            case .pending: return .pending
            case .done: overlap.otherEnded = true
            case .damaged, .newFormat, .skipped:
                // Not mixed on, nor taken over: opened again, and said, when it plays.
                overlap.otherEnded = true
                if overlap.songFadesOut { next.forget() }
            }
        }
        if !overlap.otherEnded { frames = min(frames, overlap.carried) }
        let result = decoder.read(into: buffer, capacity: frames * size)
        let bytes: Int
        switch result {
        case .data(let read), .damaged(let read, _): bytes = read
        case .done, .newFormat, .skipped, .pending: bytes = 0
        }
        let mixed = bytes / size
        if mixed > 0 {
            mix(into: buffer, frames: mixed, overlap: overlap, format: format)
            if overlap.carried > 0 {
                let used = min(mixed, overlap.carried)
                overlap.carried -= used
                if overlap.carried > 0 { scratch.copyMemory(from: scratch + used * size, byteCount: overlap.carried * size) }
            }
            frame += Int64(mixed)
        }
        self.overlap = overlap
        return result
    }

    /// The other song's next frames into the scratch buffer (damage it skips is read past).
    private func readOther(_ other: AudioDecoder, frames: Int, size: Int) -> DecodeResult {
        for _ in 0..<8 {
            let result = other.read(into: scratch, capacity: min(frames * size, capacity))
            if case .skipped = result { continue }
            return result
        }
        return .done
    }

    private func counted(_ result: DecodeResult, _ size: Int) -> DecodeResult {
        switch result {
        case .data(let bytes), .damaged(let bytes, _): frame += Int64(bytes / size)
        case .done, .newFormat, .skipped, .pending: break
        }
        return result
    }

    /// The overlap's gains applied to the song's `frames` in `buffer` from `frame` on, and the
    /// other's (the scratch buffer's first `frames`, while it has them) added.
    private func mix(into buffer: UnsafeMutableRawPointer, frames: Int, overlap: Overlap, format: PCMFormat) {
        let encoding = format.encoding, channels = format.channels
        let others = overlap.otherEnded ? 0 : min(frames, overlap.carried)
        for index in 0..<frames {
            let (fadingOut, fadingIn) = Self.gains(at: Int(frame - overlap.start) + index, of: overlap.length, from: overlap.from)
            let songGain = overlap.songFadesOut ? fadingOut : fadingIn
            let otherGain = (overlap.songFadesOut ? fadingIn : fadingOut) * overlap.otherScale
            for channel in 0..<channels {
                let sample = index * channels + channel
                var value = encoding.sample(buffer, sample) * songGain
                if index < others { value += encoding.sample(scratch, sample) * otherGain }
                encoding.store(value, buffer, sample)
            }
        }
    }

    // MARK: Moving

    /// The song's decoder moved to `landed` (a seek, a take-back; `nil`: it could not): the
    /// other song moves with it, where they overlap. A skip's fade is given up past its span.
    func seeked(to landed: Int64?, next: inout NextSong) {
        guard let landed else { return }
        frame = landed
        guard var overlap else { return }
        if overlap.songFadesOut, landed < overlap.start {
            // Before the overlap again: it begins afresh when the song gets there.
            self.overlap = nil
            if overlap.otherEnded || next.spare?.seek(toFrame: overlap.origin) != overlap.origin {
                next.forget()
                plan = .undecided
            }
            return
        }
        guard let other = next.spare, !overlap.otherEnded else { return }
        guard landed >= overlap.start, landed <= overlap.end || overlap.songFadesOut else { return abandon(&next) }
        let within = min(landed - overlap.start, Int64(overlap.length))
        guard let at = other.seek(toFrame: overlap.origin + within) else {
            overlap.otherEnded = true
            self.overlap = overlap
            return
        }
        overlap.otherFrame = at
        overlap.carried = 0
        self.overlap = overlap
    }

    /// At the end of the song fading out: the cued song, on `decoder` now, starts from the frame
    /// after those mixed (moved back to it where more were read); that frame, to count from.
    func tookOver(_ decoder: AudioDecoder) -> Int64 {
        defer { plan = .undecided }
        guard let overlap, overlap.songFadesOut else { return restartedFrom(0) }
        self.overlap = nil
        let after = overlap.otherFrame - Int64(overlap.carried)
        if overlap.carried > 0, let landed = decoder.seek(toFrame: after) { return restartedFrom(landed) }
        return restartedFrom(after)
    }

    private func restartedFrom(_ frame: Int64) -> Int64 {
        self.frame = frame
        return frame
    }
}
