import PlayerCore

/// Turns a `FormatDecoder`'s PCM (the song's own format) into the format the output was
/// promised. In the song's own format the samples pass untouched: what the library decoded is
/// what is played or written (a song's ReplayGain is the processing stage's, `SampleStage`). Another channel count is
/// mixed (`ChannelMix`); another rate is resampled by libsoxr (`Resampler`), for the file `-w`
/// writes, which keeps its first song's format.
final class PCMConverter {
    /// The format the decoder gives now (a chained stream can change it).
    private(set) var input: PCMFormat
    /// The format given out; it follows the stream's when no format was promised.
    private(set) var output: PCMFormat
    /// Whether `output` is kept whatever the stream does (a file's, or a promised format).
    let keepsFormat: Bool
    /// 16 bits to 16 bits: libsoxr on the samples themselves, as it always was.
    private var resampler: Resampler<Int16>?
    /// Any other depth: the samples as numbers from -1 to 1, resampled in 64-bit float.
    private var wideResampler: Resampler<Double>?
    /// The decoder's samples, before they are mixed and resampled.
    private var staging: [UInt8] = []
    /// Converted samples not yet given out (bytes in `output`'s format), and how many of them were.
    private var converted: [UInt8] = []
    private var given = 0
    /// What the stream said after the samples being converted (its end, damage, a skip): said
    /// once what came before it is given out.
    private var ending: DecodeResult?

    init(from input: PCMFormat, to output: PCMFormat, keepsFormat: Bool) {
        self.input = input
        self.output = output
        self.keepsFormat = keepsFormat
    }

    /// Whether samples go through untouched.
    private var passes: Bool { input == output && converted.count == given }

    /// Reads from `decoder` into `buffer`, converting.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int, from decoder: FormatDecoder) throws(LoadFailure) -> DecodeResult {
        while true {
            if passes, ending == nil {
                let result = decoder.read(into: buffer, capacity: capacity)
                switch result {
                case .newFormat(let format):
                    if let refusal = format.refusal { throw refusal }
                    input = format
                    guard keepsFormat else {
                        output = format
                        return result
                    }
                    resampler = nil
                    wideResampler = nil
                    continue
                case .data, .damaged, .done, .skipped, .pending:
                    break
                }
                return result
            }
            if given < converted.count {
                let count = min(capacity / output.bytesPerFrame * output.bytesPerFrame, converted.count - given)
                converted.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    buffer.copyMemory(from: base + given, byteCount: count)
                }
                given += count
                if given == converted.count {
                    converted.removeAll(keepingCapacity: true)
                    given = 0
                }
                return .data(bytes: count)
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
        let needed = max(capacity / output.bytesPerFrame, 1024) * input.bytesPerFrame
        if staging.count < needed { staging = [UInt8](repeating: 0, count: needed) }
        let result = staging.withUnsafeMutableBytes { bytes -> DecodeResult in
            guard let base = bytes.baseAddress else { return .done }
            return decoder.read(into: base, capacity: needed)
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
            wideResampler = nil
        case .skipped, .pending:
            ending = result
        }
    }

    /// Whether the conversion stays in 16-bit samples (both formats are 16-bit).
    private var inSixteenBits: Bool { input.encoding == .s16 && output.encoding == .s16 }

    /// Mixes, resamples and re-encodes the first `bytes` of `staging`.
    private func convert(bytes: Int) throws(LoadFailure) {
        let frames = bytes / input.bytesPerFrame
        if inSixteenBits {
            let samples = staging.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(frames * input.channels)) }
            let mixed = ChannelMix.mix(samples, frames: frames, from: input.channels, to: output.channels)
            try resampled(mixed, by: &resampler).withUnsafeBytes { converted.append(contentsOf: $0) }
            return
        }
        // Any other depth: each sample as a number from -1 to 1 (exact for every integer depth),
        // widened exactly, narrowed to the nearest (no dither: a 24-bit song in a 16-bit file
        // is rounded, as `sox -D` rounds).
        let encoding = input.encoding
        let scale = 1 / encoding.fullScale
        var values = staging.withUnsafeMutableBytes { raw -> [Double] in
            guard let base = raw.baseAddress else { return [] }
            return (0..<(frames * input.channels)).map { encoding.sample(base, $0) * scale }
        }
        values = ChannelMix.mix(values, frames: frames, from: input.channels, to: output.channels)
        append(try resampled(values, by: &wideResampler))
    }

    /// `samples` (mixed to the output's channels) at the output's rate: as they are when the
    /// rates agree, else through `resampler`, made for the first of them.
    private func resampled<Sample>(_ samples: [Sample], by resampler: inout Resampler<Sample>?) throws(LoadFailure) -> [Sample] {
        guard input.rate != output.rate else { return samples }
        if resampler == nil { resampler = try Resampler(from: input.rate, to: output.rate, channels: output.channels) }
        guard let made = resampler else { return samples }
        var resampled: [Sample] = []
        samples.withUnsafeBufferPointer { made.process($0, into: &resampled) }
        return resampled
    }

    /// Appends `values` (from -1 to 1) to `converted`, in `output`'s encoding: narrowing to
    /// the nearest, halves up, as the `Reencoder` and `sox -D` round.
    private func append(_ values: [Double]) {
        let encoding = output.encoding
        let fullScale = encoding.fullScale
        let narrows = encoding.narrows(from: input.encoding)
        let start = converted.count
        converted.append(contentsOf: repeatElement(0, count: values.count * encoding.bytes))
        converted.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let target = base + start
            for (index, value) in values.enumerated() {
                if narrows { encoding.storeNarrowed(value * fullScale, target, index) } else { encoding.store(value * fullScale, target, index) }
            }
        }
    }

    /// The resampler's last samples, at the end of the stream or of a format.
    private func finish() {
        if let resampler {
            var rest: [Int16] = []
            resampler.flush(into: &rest)
            rest.withUnsafeBytes { converted.append(contentsOf: $0) }
        }
        if let wideResampler {
            var rest: [Double] = []
            wideResampler.flush(into: &rest)
            append(rest)
        }
    }

    /// Moves to `frame` (in the output's rate) and forgets what was converted.
    func seek(toFrame frame: Int64, in decoder: FormatDecoder) -> Int64? {
        converted.removeAll(keepingCapacity: true)
        given = 0
        ending = nil
        resampler?.clear()
        wideResampler?.clear()
        guard input.rate != output.rate else { return decoder.seek(toFrame: frame) }
        let landed = decoder.seek(toFrame: frame.scaled(by: Int64(input.rate), over: Int64(output.rate)))
        return landed.map { $0.scaled(by: Int64(output.rate), over: Int64(input.rate)) }
    }
}

/// A sample `ChannelMix` mixes: 16-bit, or a number from -1 to 1.
protocol MixedSample {
    static var silence: Self { get }
    var mixValue: Double { get }
    /// `sum` of `count` samples, divided (a 16-bit mean truncated toward zero, as integer
    /// division).
    static func mean(_ sum: Double, of count: Int) -> Self
}

extension Int16: MixedSample {
    static var silence: Int16 { 0 }
    var mixValue: Double { Double(self) }
    static func mean(_ sum: Double, of count: Int) -> Int16 { Int16((sum / Double(count)).rounded(.towardZero)) }
}

extension Double: MixedSample {
    static var silence: Double { 0 }
    var mixValue: Double { self }
    static func mean(_ sum: Double, of count: Int) -> Double { sum / Double(count) }
}

/// Another channel count, for a file that keeps its first song's: mono is copied to every
/// channel, anything to mono is the mean of its channels, more channels to stereo are the means of
/// the left (even) and right (odd) ones (FL FR FC LFE BL BR: the centre and the LFE lean left;
/// crude, never clipping), and fewer to more fill the first ones and leave the rest silent.
enum ChannelMix {
    static func mix<Sample: MixedSample>(_ samples: [Sample], frames: Int, from inputs: Int, to outputs: Int) -> [Sample] {
        if inputs == outputs { return Array(samples.prefix(frames * inputs)) }
        var mixed = [Sample](repeating: .silence, count: frames * outputs)
        for frame in 0..<frames {
            let source = frame * inputs
            let target = frame * outputs
            if inputs == 1 {
                for channel in 0..<outputs { mixed[target + channel] = samples[source] }
            } else if outputs == 1 {
                var sum = 0.0
                for channel in 0..<inputs { sum += samples[source + channel].mixValue }
                mixed[target] = .mean(sum, of: inputs)
            } else if outputs == 2 {
                var sums = (0.0, 0.0)
                for channel in 0..<inputs {
                    if channel % 2 == 0 { sums.0 += samples[source + channel].mixValue } else { sums.1 += samples[source + channel].mixValue }
                }
                mixed[target] = .mean(sums.0, of: (inputs + 1) / 2)
                mixed[target + 1] = .mean(sums.1, of: inputs / 2)
            } else {
                for channel in 0..<min(inputs, outputs) { mixed[target + channel] = samples[source + channel] }
            }
        }
        return mixed
    }
}
