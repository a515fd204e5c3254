/// What is done to the samples between the decode-ahead queue and the output, on the playback
/// thread, in this order: the fades, mpg123's 32-band equaliser (for the songs libmpg123 does
/// not decode), the speed, the graphic equaliser, then the listener's volume and the song's
/// ReplayGain in one step (after the re-encoding, where the output's samples are wider).
/// Nothing before this stage depends on a key: a new volume changes what is written next, and
/// on a sound server what it holds and has not played (`UnheardTail`), never by decoding again.
/// The ReplayGain applied here is that of every song libmpg123 does not decode (a new mode is
/// heard at once); libmpg123 applies an MP3's in its synthesis, as `mpg123 --rva-mix` does,
/// sample for sample (its gain here is 1).
struct SampleStage {
    var fader: Fader
    /// The listener's volume, 0 to 1, kept across songs. At 1 the samples pass untouched (what
    /// is written is what `mpg123 -w` writes).
    var volume = 1.0
    /// What was written to a sound server's stream lately, before the equaliser and the volume.
    let tail = UnheardTail()
    /// Samples in another encoding, for an output that does not take the song's.
    let reencoder = Reencoder()
    /// The listener's graphic equaliser (`equalizer =`, the `E` key), after the speed: a change
    /// is heard at once, what the server holds equalised again from the tail.
    var equalizer = GraphicEqualizer()

    /// mpg123's 32-band equaliser (`-R`'s `EQ`), for the songs libmpg123 does not decode (it
    /// equalises its own in its synthesis): on the song's samples, before the speed.
    var mpegEqualizer = MpegBandEqualizer()

    /// What the equaliser and the dither were before some samples: where the tail's samples are
    /// equalised again from.
    struct Snapshot {
        var equalizer: GraphicEqualizer
        var dither: TPDFDither
    }

    var snapshot: Snapshot { Snapshot(equalizer: equalizer, dither: dither) }

    /// The song played faster or slower at its pitch (`--speed`); `nil` at its own speed.
    var stretcher: TimeStretcher?
    /// The stretcher has started again (or anew) and handed nothing back since: its first
    /// output is gathered into one write (`PlaybackLoop.prebuffer`).
    var filling = true

    /// The stretcher for `format` at `speed`: the one there, started again if it had ended, or a
    /// new one. `nil` where librubberband cannot be loaded (the speed is then the song's).
    mutating func stretcher(for format: PCMFormat, speed: Double) -> TimeStretcher? {
        if let stretcher, stretcher.format == format, stretcher.speed == speed {
            if stretcher.ended {
                stretcher.reset()
                filling = true
            }
            return stretcher
        }
        stretcher = TimeStretcher(format: format, speed: speed)
        filling = true
        return stretcher
    }

    init(fades: Bool) {
        fader = Fader(enabled: fades)
    }

    /// Triangular noise for the samples narrowed to 16 bits or fewer after a gain.
    var dither = TPDFDither()

    /// Scales `bytes` of samples in `encoding` in `buffer` by the volume and the song's
    /// ReplayGain `gain` (lowered by its peak where it would clip), in one step. 16-bit (and
    /// 8-bit) samples get TPDF dither of one step before they are rounded, so the rounding's
    /// error is noise, not distortion; deeper ones are rounded to the nearest. At 1 nothing is
    /// touched (no dither where nothing changed).
    mutating func applyVolume(_ buffer: UnsafeMutableRawPointer, bytes: Int, encoding: SampleEncoding, gain: Double = 1) {
        let factor = min(max(volume, 0), 1) * max(gain, 0)
        guard factor != 1 else { return }
        // Silence (a volume of 0) is silence: no dither.
        guard factor > 0 else {
            buffer.initializeMemory(as: UInt8.self, repeating: encoding == .u8 ? 0x80 : 0, count: bytes)
            return
        }
        guard encoding.isDithered else {
            return PCMFormat.scale(buffer, bytes: bytes, by: factor, encoding: encoding)
        }
        for index in 0..<(bytes / encoding.bytes) {
            encoding.storeDithered(encoding.sample(buffer, index) * factor, buffer, index, dither: &dither)
        }
    }

    /// `-R`'s equaliser on `bytes` of `format` in `buffer`, for a song libmpg123 did not decode.
    mutating func equalizeAsMpeg(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat) {
        mpegEqualizer.process(buffer, bytes: bytes, format: format, dither: &dither)
    }

    /// The graphic equaliser on `bytes` of `format` in `buffer` (dithered as the volume is).
    mutating func equalize(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat) {
        equalizer.process(buffer, bytes: bytes, format: format, dither: &dither)
    }

    /// The last of the stage on `bytes` of `format` in `buffer`, written to an output in
    /// `target` samples: the equaliser, then the volume and `gain`, unless the samples widen for
    /// the output (then the volume comes after the widening: nothing is narrowed on the way).
    mutating func finish(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat, for target: SampleEncoding, gain: Double) {
        equalize(buffer, bytes: bytes, format: format)
        if !Self.widens(format.encoding, to: target) { applyVolume(buffer, bytes: bytes, encoding: format.encoding, gain: gain) }
    }

    /// `samples` of `format` (finished: `finish`) in the output's `target` samples: rewritten
    /// for it, and the volume and `gain` applied there when they widen. The samples themselves
    /// when the output takes them as they are.
    mutating func encode(_ samples: UnsafeRawBufferPointer, format: PCMFormat, for target: SampleEncoding,
                         gain: Double) -> UnsafeRawBufferPointer {
        guard target != format.encoding else { return samples }
        let converted = reencoder.convert(samples, from: format.encoding, to: target)
        if Self.widens(format.encoding, to: target), let base = converted.baseAddress {
            applyVolume(UnsafeMutableRawPointer(mutating: base), bytes: converted.count, encoding: target, gain: gain)
        }
        return converted
    }

    /// The stage past the speed, whole, on `bytes` of `format` in `buffer`: `finish`, then
    /// `encode` for the output's `target` samples. What a sound server holds is written again
    /// through this (`rewriteUnheard`); a new chunk takes the two steps apart (`writeHeld`), the
    /// first once and the second at each write, since a device lost before the chunk is written
    /// may come back as one that takes other samples.
    mutating func afterSpeed(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat, for target: SampleEncoding,
                             gain: Double) -> UnsafeRawBufferPointer {
        finish(buffer, bytes: bytes, format: format, for: target, gain: gain)
        return encode(UnsafeRawBufferPointer(start: buffer, count: bytes), format: format, for: target, gain: gain)
    }

    /// Whether samples in `source` become `target` without losing anything: the volume is then
    /// applied after (in the wider samples), not before.
    static func widens(_ source: SampleEncoding, to target: SampleEncoding) -> Bool {
        target != source && (target == .float32 || source != .float32 && target.bytes > source.bytes)
    }
}

/// Samples in one encoding rewritten in another, into a buffer of its own (reused): for an
/// output that does not take the song's (libao has no unsigned 8-bit and no float), or for
/// `--bits`. Widening is exact; narrowing rounds to the nearest, halves up, without dither (as
/// `sox -D`).
final class Reencoder {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    deinit {
        storage?.deallocate()
    }

    func convert(_ samples: UnsafeRawBufferPointer, from source: SampleEncoding, to target: SampleEncoding) -> UnsafeRawBufferPointer {
        let count = samples.count / source.bytes
        let needed = count * target.bytes
        if needed > capacity {
            storage?.deallocate()
            storage = .allocate(byteCount: needed, alignment: 16)
            capacity = needed
        }
        guard let storage, let base = samples.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let input = UnsafeMutableRawPointer(mutating: base)
        let factor = target.fullScale / source.fullScale
        if target.narrows(from: source) {
            for index in 0..<count { target.storeNarrowed(source.sample(input, index) * factor, storage, index) }
        } else {
            for index in 0..<count { target.store(source.sample(input, index) * factor, storage, index) }
        }
        return UnsafeRawBufferPointer(start: storage, count: needed)
    }
}

extension SampleEncoding {
    /// Stores `value` as `store` does, a step of `dither` added first where a rounding's error
    /// is heard (`isDithered`): how every change the stage makes to samples is stored.
    @inline(__always)
    func storeDithered(_ value: Double, _ base: UnsafeMutableRawPointer, _ index: Int, dither: inout TPDFDither) {
        store(isDithered ? value + dither.next() : value, base, index)
    }
}

/// TPDF dither: the difference of two uniform numbers, a triangle from -1 to 1 step, from a
/// fixed-seed xorshift, so the same run writes the same file.
struct TPDFDither {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    private mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(UInt64(1) << 53)
    }

    mutating func next() -> Double {
        uniform() - uniform()
    }
}
