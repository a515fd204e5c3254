import Glibc

/// The spectrum's bars from the samples being heard: a Hann-windowed FFT of the last
/// `frameCount` frames (mixed to mono), its bins gathered into bars spaced evenly in pitch from
/// 40 Hz to 16 kHz (or the song's Nyquist frequency), each bar's loudest bin in decibels, 60 dB
/// of range shown. Bars rise at once and fall gently, as a meter's do.
struct SpectrumAnalysis: Sendable {
    static let frameCount = 2048
    /// How far a bar may fall between two looks (a twentieth of the range, 25 times a second).
    static let fall = 0.05
    static let range = 60.0

    private let window: [Double]
    private let cosines: [Double]
    private let sines: [Double]
    private let reversed: [Int]
    /// The bars shown last, each 0 to 1.
    private(set) var levels: [Double] = []

    init() {
        let n = Self.frameCount
        window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        cosines = (0..<n / 2).map { cos(-2 * Double.pi * Double($0) / Double(n)) }
        sines = (0..<n / 2).map { sin(-2 * Double.pi * Double($0) / Double(n)) }
        let bits = n.trailingZeroBitCount
        reversed = (0..<n).map { index in
            var result = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
            return result
        }
    }

    /// `count` bars from `samples` (mono, -1 to 1, the newest last; fewer than `frameCount` are
    /// padded with silence before them) played at `rate`.
    mutating func bars(_ samples: [Float], rate: Int, count: Int) -> [Double] {
        let count = max(count, 1)
        guard rate > 0 else { return [Double](repeating: 0, count: count) }
        let magnitudes = spectrum(samples)
        let n = Double(Self.frameCount)
        // A full-scale sine's peak bin, windowed: n/4.
        let reference = n / 4
        let top = min(16_000, Double(max(rate, 1)) / 2)
        let bottom = min(40, top / 2)
        var bars = [Double](repeating: 0, count: count)
        for bar in 0..<count {
            let low = bottom * pow(top / bottom, Double(bar) / Double(count))
            let high = bottom * pow(top / bottom, Double(bar + 1) / Double(count))
            let first = min(max(Int((low * n / Double(rate)).rounded()), 1), magnitudes.count - 1)
            let last = min(max(Int((high * n / Double(rate)).rounded()) - 1, first), magnitudes.count - 1)
            let loudest = magnitudes[first...last].max() ?? 0
            let decibels = loudest > 0 ? 20 * log10(loudest / reference) : -Self.range
            bars[bar] = min(max((decibels + Self.range) / Self.range, 0), 1)
        }
        if levels.count == count {
            for bar in 0..<count { bars[bar] = max(bars[bar], levels[bar] - Self.fall) }
        }
        levels = bars
        return bars
    }

    /// The magnitudes of the FFT's first half of bins.
    func spectrum(_ samples: [Float]) -> [Double] {
        let n = Self.frameCount
        var real = [Double](repeating: 0, count: n)
        var imaginary = [Double](repeating: 0, count: n)
        let start = n - min(samples.count, n)
        let offset = samples.count - (n - start)
        for index in start..<n {
            let sample = Double(samples[offset + index - start])
            real[reversed[index]] = (sample.isFinite ? min(max(sample, -1), 1) : 0) * window[index]
        }
        var size = 2
        while size <= n {
            let half = size / 2
            let step = n / size
            var group = 0
            while group < n {
                for k in 0..<half {
                    let (c, s) = (cosines[k * step], sines[k * step])
                    let (i, j) = (group + k, group + k + half)
                    let tr = real[j] * c - imaginary[j] * s
                    let ti = real[j] * s + imaginary[j] * c
                    real[j] = real[i] - tr
                    imaginary[j] = imaginary[i] - ti
                    real[i] += tr
                    imaginary[i] += ti
                }
                group += size
            }
            size *= 2
        }
        return (0..<n / 2).map { (real[$0] * real[$0] + imaginary[$0] * imaginary[$0]).squareRoot() }
    }
}
