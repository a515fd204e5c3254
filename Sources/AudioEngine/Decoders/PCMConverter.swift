import PlayerCore

/// Turns a `FormatDecoder`'s PCM (the song's own format) into the format the output was
/// promised, at the volume asked. At full volume and in the song's own format, the samples pass
/// untouched: what the library decoded is what is played or written.
final class PCMConverter {
    /// The format the decoder gives now (a chained stream can change it).
    private(set) var input: PCMFormat
    let output: PCMFormat
    var volume: Double

    init(from input: PCMFormat, to output: PCMFormat, volume: Double) {
        self.input = input
        self.output = output
        self.volume = volume
    }

    /// Reads from `decoder` into `buffer`. `keepsFormat`: a change of format in the stream is
    /// converted away (a file, or a promised format) instead of being passed on.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int, keepsFormat: Bool, from decoder: FormatDecoder) -> DecodeResult {
        if input != output {
            return .damaged(bytes: 0, reason: "cannot convert \(input) to \(output)")
        }
        let result = decoder.read(into: buffer, capacity: capacity)
        switch result {
        case .data(let bytes):
            scale(buffer, bytes: bytes)
        case .damaged(let bytes, _):
            scale(buffer, bytes: bytes)
        case .newFormat(let format):
            input = format
            if keepsFormat { return read(into: buffer, capacity: capacity, keepsFormat: keepsFormat, from: decoder) }
        case .done, .skipped, .pending:
            break
        }
        return result
    }

    func seek(toFrame frame: Int64, in decoder: FormatDecoder) -> Int64? {
        decoder.seek(toFrame: frame)
    }

    /// Scales signed 16-bit samples by `volume`, rounding to the nearest; untouched at full volume.
    private func scale(_ buffer: UnsafeMutableRawPointer, bytes: Int) {
        guard volume != 1 else { return }
        let samples = buffer.bindMemory(to: Int16.self, capacity: bytes / 2)
        let factor = max(0, volume)
        for index in 0..<(bytes / 2) {
            let scaled = (Double(samples[index]) * factor).rounded()
            samples[index] = Int16(max(-32768, min(32767, scaled)))
        }
    }
}
