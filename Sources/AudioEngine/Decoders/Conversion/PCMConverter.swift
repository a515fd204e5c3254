import PlayerCore

/// Turns a `FormatDecoder`'s PCM (the song's own format) into the format the output was
/// promised, scaled by the song's ReplayGain when it has one. In the song's own format and no gain, the samples pass
/// untouched: what the library decoded is what is played or written. Another channel count is
/// mixed (`ChannelMix`); another rate is resampled by libsoxr (`Resampler`), for the file `-w`
/// writes, which keeps its first song's format.
final class PCMConverter {
    /// The format the decoder gives now (a chained stream can change it).
    private(set) var input: PCMFormat
    /// The format given out; it follows the stream's when no format was promised.
    private(set) var output: PCMFormat
    /// Whether `output` is kept whatever the stream does (a file's, or a promised format).
    let keepsFormat: Bool
    /// The song's ReplayGain as a factor (1: none).
    let gain: Double
    private var resampler: Resampler?
    /// The decoder's samples, before they are mixed and resampled.
    private var staging: [Int16] = []
    /// Converted samples not yet given out, and how many of them were.
    private var converted: [Int16] = []
    private var given = 0
    /// What the stream said after the samples being converted (its end, damage, a skip): said
    /// once what came before it is given out.
    private var ending: DecodeResult?

    init(from input: PCMFormat, to output: PCMFormat, keepsFormat: Bool, gain: Double) {
        self.input = input
        self.output = output
        self.keepsFormat = keepsFormat
        self.gain = gain
    }

    /// Whether samples go through untouched in format (the gain may still scale them).
    private var passes: Bool { input == output && converted.count == given }

    /// Reads from `decoder` into `buffer`, converting.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int, from decoder: FormatDecoder) throws(LoadFailure) -> DecodeResult {
        while true {
            if passes, ending == nil {
                let result = decoder.read(into: buffer, capacity: capacity)
                switch result {
                case .data(let bytes), .damaged(let bytes, _):
                    scale(buffer, bytes: bytes)
                case .newFormat(let format):
                    if let refusal = format.refusal { throw refusal }
                    input = format
                    guard keepsFormat else {
                        output = format
                        return result
                    }
                    resampler = nil
                    continue
                case .done, .skipped, .pending:
                    break
                }
                return result
            }
            if given < converted.count {
                let frames = min(capacity / output.bytesPerFrame, (converted.count - given) / output.channels)
                let count = frames * output.channels
                converted.withUnsafeBufferPointer { samples in
                    guard let base = samples.baseAddress else { return }
                    buffer.copyMemory(from: base + given, byteCount: count * PCMFormat.bytesPerSample)
                }
                given += count
                if given == converted.count {
                    converted.removeAll(keepingCapacity: true)
                    given = 0
                }
                scale(buffer, bytes: count * PCMFormat.bytesPerSample)
                return .data(bytes: count * PCMFormat.bytesPerSample)
            }
            if let ending {
                self.ending = nil
                return ending
            }
            try convertMore(capacity: capacity, from: decoder)
        }
    }

    /// Reads a piece of the stream in its own format and converts it into `converted`.
    private func convertMore(capacity: Int, from decoder: FormatDecoder) throws(LoadFailure) {
        let needed = max(capacity / output.bytesPerFrame, 1024) * input.channels
        if staging.count < needed { staging = [Int16](repeating: 0, count: needed) }
        let result = staging.withUnsafeMutableBytes { bytes -> DecodeResult in
            guard let base = bytes.baseAddress else { return .done }
            return decoder.read(into: base, capacity: needed * PCMFormat.bytesPerSample)
        }
        switch result {
        case .data(let bytes):
            try convert(bytes: bytes)
        case .damaged(let bytes, let reason):
            try convert(bytes: bytes)
            finish()
            ending = .damaged(bytes: 0, reason: reason)
        case .done:
            finish()
            ending = .done
        case .newFormat(let format):
            if let refusal = format.refusal { throw refusal }
            // What the old format still holds comes out before the new one's.
            finish()
            input = format
            resampler = nil
        case .skipped, .pending:
            ending = result
        }
    }

    /// Mixes and resamples the first `bytes` of `staging`.
    private func convert(bytes: Int) throws(LoadFailure) {
        let frames = bytes / input.bytesPerFrame
        var mixed = ChannelMix.mix(staging, frames: frames, from: input.channels, to: output.channels)
        if input.rate == output.rate {
            converted.append(contentsOf: mixed)
            return
        }
        if resampler == nil {
            resampler = try Resampler(from: input.rate, to: output.rate, channels: output.channels)
        }
        mixed.withUnsafeBufferPointer { resampler?.process($0, into: &converted) }
        mixed.removeAll()
    }

    /// The resampler's last samples, at the end of the stream or of a format.
    private func finish() {
        resampler?.flush(into: &converted)
    }

    /// Moves to `frame` (in the output's rate) and forgets what was converted.
    func seek(toFrame frame: Int64, in decoder: FormatDecoder) -> Int64? {
        converted.removeAll(keepingCapacity: true)
        given = 0
        ending = nil
        resampler?.clear()
        guard input.rate != output.rate else { return decoder.seek(toFrame: frame) }
        let landed = decoder.seek(toFrame: frame.scaled(by: Int64(input.rate), over: Int64(output.rate)))
        return landed.map { $0.scaled(by: Int64(output.rate), over: Int64(input.rate)) }
    }

    /// Scales the samples by the song's gain.
    private func scale(_ buffer: UnsafeMutableRawPointer, bytes: Int) {
        PCMFormat.scale(buffer, bytes: bytes, by: gain)
    }
}

/// Another channel count, for a file that keeps its first song's: mono is copied to every
/// channel, anything to mono is the mean of its channels, more channels to stereo are the means of
/// the left (even) and right (odd) ones (FL FR FC LFE BL BR: the centre and the LFE lean left;
/// crude, never clipping), and fewer to more fill the first ones and leave the rest silent.
enum ChannelMix {
    static func mix(_ samples: [Int16], frames: Int, from inputs: Int, to outputs: Int) -> [Int16] {
        if inputs == outputs { return Array(samples.prefix(frames * inputs)) }
        var mixed = [Int16](repeating: 0, count: frames * outputs)
        for frame in 0..<frames {
            let source = frame * inputs
            let target = frame * outputs
            if inputs == 1 {
                for channel in 0..<outputs { mixed[target + channel] = samples[source] }
            } else if outputs == 1 {
                var sum = 0
                for channel in 0..<inputs { sum += Int(samples[source + channel]) }
                mixed[target] = Int16(sum / inputs)
            } else if outputs == 2 {
                var sums = (0, 0)
                for channel in 0..<inputs {
                    if channel % 2 == 0 { sums.0 += Int(samples[source + channel]) } else { sums.1 += Int(samples[source + channel]) }
                }
                mixed[target] = Int16(sums.0 / ((inputs + 1) / 2))
                mixed[target + 1] = Int16(sums.1 / (inputs / 2))
            } else {
                for channel in 0..<min(inputs, outputs) { mixed[target + channel] = samples[source + channel] }
            }
        }
        return mixed
    }
}
