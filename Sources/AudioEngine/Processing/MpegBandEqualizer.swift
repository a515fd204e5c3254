import Foundation

/// mpg123's 32-band equaliser (`-R`'s `EQ`, `SEQ`, `EQFILE`) for the songs libmpg123 does not
/// decode (FLAC, Vorbis, Opus, FFmpeg's), in the processing stage: libmpg123 scales each of its
/// 32 equal-width subbands (a 64th of the rate each) by its factor, left and right apart; here a
/// filter a band does the same on PCM. Band 0 (0 to rate/64) is a low shelf, the others peaking
/// filters `span` bands wide; where they overlap their gains add up, so the gains are solved from
/// how much each gives at every band's centre (and corrected twice), until the cascade's gain at
/// every centre is its band's factor, within a fraction of a dB. As in mpg123, nothing is held back: a boost may clip. All factors 1: the
/// samples pass untouched. Bands above 0.45 of the rate (above 19.8 kHz at 44.1 kHz) are left.
struct MpegBandEqualizer {
    static let bands = 32
    /// The lowest a factor is taken as: 0 (a band silenced) is -40 dB; the highest, +30 dB.
    static let floorDecibels = -40.0
    /// How many bands wide each filter is: wider than its own band, so that neighbours overlap
    /// smoothly (one band wide, the gain dipped 2 dB between two centres).
    static let span = 1.5

    /// The factors: left (`[0]`) and right (`[1]`), 32 each.
    private(set) var factors: [[Double]] = []
    private var rate = 0
    private var channels = 0
    /// Each of the two sides' filters, and each channel's state (x1, x2, y1, y2 a filter).
    private var filters: [[GraphicEqualizer.Biquad]] = [[], []]
    private var state: [[Double]] = []

    /// Whether the samples pass untouched.
    var isBypassed: Bool { filters.allSatisfy(\.isEmpty) }

    /// New factors (anything not 32 finite numbers a side counts as 1), from the next samples on.
    mutating func set(_ bands: [[Double]]) {
        let sane = (0..<2).map { side -> [Double] in
            let given = side < bands.count ? bands[side] : []
            return (0..<Self.bands).map { band in
                let factor = band < given.count ? given[band] : 1
                return factor.isFinite ? max(factor, 0) : 1
            }
        }
        guard sane != factors else { return }
        factors = sane
        if rate > 0 { rebuild() }
    }

    private mutating func rebuild() {
        filters = factors.map { Self.design($0, rate: Double(rate)) }
        let count = filters.map(\.count).max() ?? 0
        if state.count != channels || state.first?.count != count * 4 {
            state = [[Double]](repeating: [Double](repeating: 0, count: count * 4), count: channels)
        }
    }

    /// The band edges' width in Hz.
    static func width(rate: Double) -> Double { rate / Double(bands) / 2 }

    /// How many octaves band `band`'s filter spans (`span` bands around its centre).
    static func octaves(_ band: Int) -> Double {
        let centre = Double(band) + 0.5
        let top: Double = centre + span / 2
        let bottom: Double = max(centre - span / 2, 0.25)
        return log2(top / bottom)
    }

    /// The filters for one side's `factors` at `rate`: none where every factor is 1.
    static func design(_ factors: [Double], rate: Double) -> [GraphicEqualizer.Biquad] {
        let width = width(rate: rate)
        let used = (0..<bands).filter { (Double($0) + 0.5) * width < rate * 0.45 }
        // From -40 dB (0: silenced) to +30 dB (a factor of 31.6): a front-end's 1e300 is not 6,000 dB.
        let targets = used.map { min(max(20 * log10(max(factors[$0], 1e-300)), floorDecibels), 30) }
        guard targets.contains(where: { abs($0) > 1e-9 }) else { return [] }
        let centres = used.map { (Double($0) + 0.5) * width }
        func make(_ gains: [Double]) -> [GraphicEqualizer.Biquad] {
            zip(used, gains).map { band, gain in
                band == 0 ? .lowShelf(corner: width, decibels: gain, rate: rate)
                    : GraphicEqualizer.Biquad(centre: (Double(band) + 0.5) * width, decibels: gain, rate: rate, octaves: octaves(band))
            }
        }
        func response(_ filters: [GraphicEqualizer.Biquad]) -> [Double] {
            centres.map { 20 * log10(GraphicEqualizer.Chain.gain(filters, at: $0, rate: rate)) }
        }
        // The bands' skirts add up: how much each filter (at 6 dB) gives at every centre, per dB,
        // and the gains solved from it, then corrected twice for what the cascade still misses.
        let probe = 6.0
        let unit = make([Double](repeating: probe, count: used.count))
        let interaction = centres.map { centre in
            unit.map { 20 * log10(GraphicEqualizer.Chain.gain([$0], at: centre, rate: rate)) / probe }
        }
        var gains = solve(interaction, targets).map { $0.map { min(max($0, floorDecibels * 1.5), 30) } } ?? targets
        for _ in 0..<2 {
            let miss = zip(targets, response(make(gains))).map { $0 - $1 }
            guard miss.allSatisfy(\.isFinite), let step = solve(interaction, miss) else { break }
            gains = zip(gains, step).map { min(max($0 + $1, floorDecibels * 1.5), 30) }
        }
        return make(gains.allSatisfy(\.isFinite) ? gains : targets)
    }

    /// `matrix` × x = `values` solved by Gaussian elimination (partial pivoting); `nil` when singular.
    static func solve(_ matrix: [[Double]], _ values: [Double]) -> [Double]? {
        var rows = zip(matrix, values).map { $0 + [$1] }
        let count = values.count
        for column in 0..<count {
            guard let pivot = (column..<count).max(by: { abs(rows[$0][column]) < abs(rows[$1][column]) }),
                  abs(rows[pivot][column]) > 1e-12 else { return nil }
            rows.swapAt(column, pivot)
            for row in (column + 1)..<count {
                let factor = rows[row][column] / rows[column][column]
                for index in column...count { rows[row][index] -= factor * rows[column][index] }
            }
        }
        var result = [Double](repeating: 0, count: count)
        for row in stride(from: count - 1, through: 0, by: -1) {
            let known = ((row + 1)..<count).reduce(0) { $0 + rows[row][$1] * result[$1] }
            result[row] = (rows[row][count] - known) / rows[row][row]
        }
        return result
    }

    /// Equalises `bytes` of `format` in `buffer`, in place (16- and 8-bit samples dithered).
    mutating func process(_ buffer: UnsafeMutableRawPointer, bytes: Int, format: PCMFormat, dither: inout TPDFDither) {
        if format.rate != rate || format.channels != channels {
            rate = format.rate
            channels = format.channels
            state = []
            if !factors.isEmpty { rebuild() }
        }
        guard !isBypassed else { return }
        let encoding = format.encoding
        let scale = encoding.fullScale
        let frames = bytes / format.bytesPerFrame
        for channel in 0..<channels {
            // Channels 0, 2, 4… take the left's factors, 1, 3, 5… the right's (mpg123's sides; a
            // mono MP3 is equalised by its left).
            let side = channels == 1 ? 0 : channel % 2
            let chain = filters[side]
            guard !chain.isEmpty else { continue }
            chain.withUnsafeBufferPointer { chain in
                state[channel].withUnsafeMutableBufferPointer { memory in
                    for frame in 0..<frames {
                        let index = frame * channels + channel
                        let value = GraphicEqualizer.Biquad.cascade(encoding.sample(buffer, index) / scale, through: chain, state: memory, from: 0)
                        encoding.storeDithered(value * scale, buffer, index, dither: &dither)
                    }
                }
            }
        }
    }
}
