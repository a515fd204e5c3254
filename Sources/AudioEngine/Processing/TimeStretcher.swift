import CRubberBand
import PlayerCore

/// librubberband, loaded once, on first use (see CRubberBand's shim.h for why it is not linked).
enum RubberBandLibrary {
    static let api: tp_rubberband? = {
        var api = tp_rubberband()
        return tp_rubberband_load(&api) == 0 ? api : nil
    }()
}

/// A song played faster or slower at its own pitch (`--speed`): librubberband's real-time
/// stretcher on the samples of one format, in the processing stage. It takes the song's samples
/// a chunk at a time and hands back what is ready (less at first, more at the end), in the same
/// encoding: narrowed to 16 bits or fewer with TPDF dither, as the volume is.
///
/// What comes out is aligned with what went in from the first sample: the stretcher is primed
/// with the silence it asks for (its preferred start pad) and the delay it states is dropped from
/// its output, so a seek lands where it was asked, and a song starts at its first sample.
/// Song time is kept by counting: `fed` frames of the song went in, `produced` came out, each
/// worth `speed` frames of the song.
final class TimeStretcher {
    /// The speeds played: a quarter to four times the song's own (`--speed`).
    static let speeds = EngineCall.slowestSpeed...EngineCall.fastestSpeed
    /// Frames handed to librubberband at a time, and taken back at a time.
    private static let piece = 4096

    let format: PCMFormat
    let speed: Double
    private let api: tp_rubberband
    private let state: RubberBandState
    /// A plane of `piece` floats a channel, in and out.
    private let input: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let output: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// What is handed back, interleaved in the format's encoding.
    private var ready: UnsafeMutableRawPointer?
    private var capacity = 0
    private var readyBytes = 0
    /// Output frames still to drop: the stretcher's start delay.
    private var delay = 0
    private var dither = TPDFDither()
    /// Song frames fed since the start (or the last reset), and output frames handed back.
    private(set) var fed: Int64 = 0
    private(set) var produced: Int64 = 0
    /// The last samples went in (`final`): nothing more can be fed before a reset.
    private(set) var ended = false
    /// Song frames what was handed out stands for; what is ready is being held back for more.
    private var handed: Int64 = 0
    private var holding = false

    /// A stretcher playing `format` at `speed` (within `speeds`); `nil` when librubberband cannot
    /// be loaded or refuses.
    init?(format: PCMFormat, speed: Double) {
        guard let api = RubberBandLibrary.api, Self.speeds.contains(speed), format.channels > 0, format.rate > 0,
              let state = tp_rubberband_new([api], UInt32(format.rate), UInt32(format.channels), speed) else { return nil }
        self.api = api
        self.state = state
        self.format = format
        self.speed = speed
        input = .allocate(capacity: format.channels)
        output = .allocate(capacity: format.channels)
        for channel in 0..<format.channels {
            input[channel] = .allocate(capacity: Self.piece)
            output[channel] = .allocate(capacity: Self.piece)
        }
        api.set_max_process_size(state, UInt32(Self.piece))
        prime()
    }

    deinit {
        for channel in 0..<format.channels {
            input[channel]?.deallocate()
            output[channel]?.deallocate()
        }
        input.deallocate()
        output.deallocate()
        ready?.deallocate()
        api.delete_(state)
    }

    /// Some of the song went in since it started, and its end has not: a flush has something to
    /// hand back.
    var holdsSong: Bool { fed > 0 && !ended }

    /// The song frames what was handed back stands for.
    var songFramesOut: Int64 { Int64((Double(produced) * speed).rounded()) }

    /// Song frames fed and not yet handed out (in its latency, held back, not yet played).
    var pendingSongFrames: Int64 {
        max(fed - handed, 0)
    }

    /// Forgets everything fed (a seek, a stop, another song): what is fed next starts afresh.
    func reset() {
        api.reset(state)
        fed = 0
        produced = 0
        handed = 0
        holding = false
        readyBytes = 0
        ended = false
        prime()
    }

    /// The silence the stretcher asks for before a song's first sample, and the delay of its
    /// output to drop.
    private func prime() {
        delay = Int(api.start_delay(state))
        var pad = Int(api.preferred_start_pad(state))
        for channel in 0..<format.channels { input[channel]!.initialize(repeating: 0, count: Self.piece) }
        while pad > 0 {
            let count = min(pad, Self.piece)
            api.process(state, UnsafeRawPointer(input).assumingMemoryBound(to: UnsafePointer<Float>?.self), UInt32(count), 0)
            pad -= count
        }
    }

    /// Feeds `bytes` of samples in the format's encoding from `samples` (whole frames) and hands
    /// back what is ready, valid until the next call, and the song frames it stands for. `final`:
    /// they are the last before a reset (the end of a song, or a fade out), so everything is
    /// handed back: the stretcher's latency is flushed with silence, and what comes out is cut to
    /// the song's length over the speed (`fadeTail`: its last 10 ms faded out, for a fade out).
    /// Less than `wanted` bytes ready (and not final): nothing
    /// is handed back yet, and what is ready is kept for the next call's.
    func process(_ samples: UnsafeRawPointer, bytes: Int, final: Bool, fadeTail: Bool = false,
                 wanted: Int = 0) -> (samples: UnsafeRawBufferPointer, songFrames: Int64) {
        if !holding { readyBytes = 0 }
        holding = false
        guard !ended else { return (UnsafeRawBufferPointer(start: ready, count: 0), 0) }
        let frames = bytes / format.bytesPerFrame
        let channels = format.channels
        let encoding = format.encoding
        let scale = 1 / encoding.fullScale
        let source = UnsafeMutableRawPointer(mutating: samples)
        var done = 0
        while done < frames {
            let count = min(Self.piece, frames - done)
            for frame in 0..<count {
                for channel in 0..<channels {
                    input[channel]![frame] = Float(encoding.sample(source, (done + frame) * channels + channel) * scale)
                }
            }
            feed(count, final: false)
            done += count
            fed += Int64(count)
        }
        if final { flush(fadingTail: fadeTail) }
        if !final, readyBytes < wanted {
            holding = true
            return (UnsafeRawBufferPointer(start: ready, count: 0), 0)
        }
        let songFrames = songFramesOut - handed
        handed = songFramesOut
        return (UnsafeRawBufferPointer(start: ready, count: readyBytes), songFrames)
    }

    /// Hands `count` frames of the input planes to librubberband and takes back what is ready.
    private func feed(_ count: Int, final: Bool) {
        api.process(state, UnsafeRawPointer(input).assumingMemoryBound(to: UnsafePointer<Float>?.self), UInt32(count), final ? 1 : 0)
        collect()
    }

    /// The end: silence pushes the last samples through, and the output is cut where the song
    /// ends, `fed / speed` frames from its start.
    private func flush(fadingTail: Bool) {
        ended = true
        let end = Int64((Double(fed) / speed).rounded())
        for channel in 0..<format.channels { input[channel]!.initialize(repeating: 0, count: Self.piece) }
        var pushed = 0
        // The latency is a few thousand frames: enough silence goes in to bring all of it out.
        while produced < end, pushed < 64 * Self.piece {
            feed(Self.piece, final: false)
            pushed += Self.piece
        }
        feed(0, final: true)
        let over = Int(min(max(produced - end, 0), Int64(readyBytes / format.bytesPerFrame)))
        readyBytes -= over * format.bytesPerFrame
        produced -= Int64(over)
        // The stretcher's window smears a fade out's last samples past the cut: its last 10 ms
        // fade to silence too, so a stop never clicks.
        let frames = readyBytes / format.bytesPerFrame
        let fade = min(frames, Fader.frames(in: format, capacity: Int.max))
        if fadingTail, let ready, fade > 0 {
            Fader.ramp(ready + (frames - fade) * format.bytesPerFrame, frames: fade, format: format, from: 1, to: 0)
        }
    }

    /// Takes back all that is ready, its start delay dropped, interleaved after what is ready.
    private func collect() {
        let channels = format.channels
        let encoding = format.encoding
        while case let available = Int(api.available(state)), available > 0 {
            let count = Int(api.retrieve(state, output, UInt32(min(available, Self.piece))))
            guard count > 0 else { return }
            let dropped = min(delay, count)
            delay -= dropped
            let kept = count - dropped
            guard kept > 0 else { continue }
            reserve(readyBytes + kept * format.bytesPerFrame)
            guard let ready else { return }
            let first = readyBytes / encoding.bytes
            for frame in 0..<kept {
                for channel in 0..<channels {
                    encoding.storeDithered(Double(output[channel]![dropped + frame]) * encoding.fullScale, ready,
                                           first + frame * channels + channel, dither: &dither)
                }
            }
            readyBytes += kept * format.bytesPerFrame
            produced += Int64(kept)
        }
    }

    /// Room for `bytes` ready, what is there kept.
    private func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        let grown = max(bytes, capacity * 2, 1 << 16)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
        if let ready { larger.copyMemory(from: ready, byteCount: readyBytes) }
        ready?.deallocate()
        ready = larger
        capacity = grown
    }
}
