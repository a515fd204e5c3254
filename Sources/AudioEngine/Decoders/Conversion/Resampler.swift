import CSoxr
import PlayerCore

/// libsoxr, loaded once, on first use (see CSoxr's shim.h for why it is not linked).
enum SoxrLibrary {
    static let api: tp_soxr? = {
        var api = tp_soxr()
        return tp_soxr_load(&api) == 0 ? api : nil
    }()
}

/// The samples libsoxr resamples here: signed 16-bit, or 64-bit float (any deeper song's,
/// normalised, so that nothing is lost on the way).
protocol ResampledSample: Numeric {
    static var soxrType: soxr_datatype_t { get }
}

extension Int16: ResampledSample {
    static var soxrType: soxr_datatype_t { SOXR_INT16_I }
}

extension Double: ResampledSample {
    static var soxrType: soxr_datatype_t { SOXR_FLOAT64_I }
}

/// One libsoxr resampler of interleaved samples, from one rate to another: what converts a song
/// for the file `-w` writes when its rate is not the first song's. libsoxr starts its output at
/// the input's first sample (its filter delay is taken away), and `flush` gives the rest at the
/// end, so a song keeps its length at the new rate.
final class Resampler<Sample: ResampledSample> {
    private let api: tp_soxr
    private let handle: soxr_t
    let channels: Int
    let inputRate: Int
    let outputRate: Int

    init(from inputRate: Int, to outputRate: Int, channels: Int) throws(LoadFailure) {
        guard let api = SoxrLibrary.api else { throw .decoderMissing("libsoxr.so.0 (the resampler)") }
        var error: soxr_error_t?
        let made = withUnsafeTemporaryAllocation(of: tp_soxr.self, capacity: 1) { table -> soxr_t? in
            table.initialize(repeating: api)
            return tp_soxr_new(table.baseAddress, Double(inputRate), Double(outputRate), UInt32(channels), Sample.soxrType, &error)
        }
        guard let made else {
            throw .damaged("cannot resample \(inputRate) Hz to \(outputRate) Hz: \(error.map { String(cString: $0) } ?? "libsoxr refused")")
        }
        self.api = api
        handle = made
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    deinit {
        api.delete_?(handle)
    }

    /// Resamples `input` (whole frames) and appends what comes out to `output`.
    func process(_ input: UnsafeBufferPointer<Sample>, into output: inout [Sample]) {
        let frames = input.count / channels
        run(input.baseAddress, frames: frames, into: &output)
    }

    /// The end of the input: appends what libsoxr still holds to `output`.
    func flush(into output: inout [Sample]) {
        run(nil, frames: 0, into: &output)
    }

    /// Forgets what it holds, for a seek.
    func clear() {
        _ = api.clear?(handle)
    }

    /// Feeds `frames` (none and `nil`: the end) and collects the output, room made as it comes.
    private func run(_ input: UnsafePointer<Sample>?, frames: Int, into output: inout [Sample]) {
        var offered = frames
        var position = input
        // Room for what `frames` make, a piece at a time: a great ratio (1 Hz to 768 kHz) never
        // asks for gigabytes at once.
        let room = min(max(frames.multipliedReportingOverflow(by: outputRate).partialValue / max(inputRate, 1) + 1024, 4096), 1 << 16)
        while true {
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: room * channels))
            var used = 0
            var made = 0
            output.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                _ = api.process?(handle, position.map { UnsafeRawPointer($0) }, offered, &used,
                                 UnsafeMutableRawPointer(base + start), room, &made)
            }
            output.removeLast((room - made) * channels)
            if let current = position, used > 0 { position = current + used * channels }
            offered -= used
            if input == nil {
                // The end: libsoxr gives what it holds over as many calls as it takes.
                if made == 0 { return }
            } else if offered == 0 && made < room || made == 0 && used == 0 {
                // All was taken and the output had room to spare.
                return
            }
        }
    }
}
