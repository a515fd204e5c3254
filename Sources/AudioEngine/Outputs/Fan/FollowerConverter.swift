import PlayerCore

/// What a follower output (`Followers`) is given in its own format: the first output's samples
/// (any depth, rate and channel count) as numbers from -1 to 1, mixed to its channels
/// (`ChannelMix`), resampled by libsoxr to its rate, stored in its samples. A stream: libsoxr
/// keeps its filter's state from one write to the next, so what comes out is continuous.
final class FollowerConverter {
    let input: PCMFormat
    let output: PCMFormat
    private var resampler: Resampler<Double>?
    /// What `convert` gives, kept for the next call.
    private var converted = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init(from input: PCMFormat, to output: PCMFormat) throws(LoadFailure) {
        self.input = input
        self.output = output
        if input.rate != output.rate {
            resampler = try Resampler<Double>(from: input.rate, to: output.rate, channels: output.channels)
        }
    }

    deinit {
        converted.deallocate()
    }

    /// Whether samples pass as they are.
    var passes: Bool { input.rate == output.rate && input.channels == output.channels && input.encoding == output.encoding }

    /// `bytes` (whole frames of `input`) in `output`'s format, valid until the next call.
    func convert(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let frames = bytes.count / input.bytesPerFrame
        guard frames > 0, let base = bytes.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let scale = input.encoding.fullScale
        let values = (0..<frames * input.channels).map { input.encoding.sample(UnsafeMutableRawPointer(mutating: base), $0) / scale }
        var mixed = ChannelMix.mix(values, frames: frames, from: input.channels, to: output.channels)
        if let resampler {
            var resampled: [Double] = []
            mixed.withUnsafeBufferPointer { resampler.process($0, into: &resampled) }
            mixed = resampled
        }
        return store(mixed)
    }

    /// What libsoxr still holds (its filter's delay), at the stream's end.
    func flush() -> UnsafeRawBufferPointer {
        guard let resampler else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        var rest: [Double] = []
        resampler.flush(into: &rest)
        return store(rest)
    }

    private func store(_ mixed: [Double]) -> UnsafeRawBufferPointer {
        let count = mixed.count * output.encoding.bytes
        if converted.count < count {
            converted.deallocate()
            converted = .allocate(byteCount: max(count, 4096), alignment: 16)
        }
        let target = output.encoding.fullScale
        guard let out = converted.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        for (index, value) in mixed.enumerated() { output.encoding.store(value * target, out, index) }
        return UnsafeRawBufferPointer(start: out, count: count)
    }
}
